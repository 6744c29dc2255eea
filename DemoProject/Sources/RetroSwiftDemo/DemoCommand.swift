import ArgumentParser
import Foundation
import RetroSwift
import RetroSwiftURLSession

/// `retroswift-demo`: RetroSwift calling a real HTTP server, then the same API mocked.
@main
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retroswift-demo",
        abstract: "Shows RetroSwift declaring, calling and mocking a REST API.",
        discussion: """
            By default the demo starts a small schedules service on 127.0.0.1 (no network needed), calls it \
            through the README's API declarations and URLSessionTransport, printing every request and result, \
            then repeats the calls with mocks. --bandsintown calls the public BandsInTown API instead (needs internet).
            """
    )

    @Option(help: "Call the schedules API at this base URL instead of the embedded server (e.g. http://127.0.0.1:8080).")
    var baseURL: String?

    @Option(help: "Size of the recording uploaded as multipart/form-data, in MB.")
    var uploadMB: Int = 8

    @Option(help: "Look up this artist on rest.bandsintown.com (needs internet) instead of the schedules demo.")
    var bandsintown: String?

    func validate() throws {
        if let baseURL, URL(string: baseURL)?.host == nil {
            throw ValidationError("--base-url must be an absolute URL such as http://127.0.0.1:8080")
        }
        if !(1...1_024).contains(uploadMB) { throw ValidationError("--upload-mb must be between 1 and 1024") }
    }

    func run() async throws {
        if let artist = bandsintown {
            let api = BandsInTownApi(transport: URLSessionTransport())
            api.interceptors = [Console.wireLog]
            do {
                try await BandsInTownWalkthrough(api: api, artist: artist).run()
            } catch let error as TransportError {
                FileHandle.standardError.write(
                    Data("error: cannot reach rest.bandsintown.com; --bandsintown needs internet (\(error))\n".utf8))
                throw ExitCode.failure
            }
            return
        }
        let server = baseURL == nil ? try await DemoServer.start() : nil
        do {
            try await runSchedules(against: server?.baseURL ?? URL(string: baseURL!)!)
            await server?.stop()
        } catch {
            await server?.stop()
            throw error
        }
    }

    private func runSchedules(against baseURL: URL) async throws {
        print("RetroSwift demo: schedules service at \(baseURL)")
        // Both domains use the same base URL, so they may share one transport; domains configured differently
        // would each need their own (a transport refuses to be silently reconfigured).
        let transport = URLSessionTransport()
        let schedules = SchedulesApi(transport: transport, baseURL: baseURL)
        let speech = ElevenLabsApi(transport: transport, baseURL: baseURL)
        let events = EventsApi(transport: transport, baseURL: baseURL)
        for domain in [schedules, speech, events] as [Domain] {
            domain.interceptors = [Console.wireLog]
            try domain.validateEndpoints()
        }
        try await LiveWalkthrough(schedules: schedules, speech: speech, events: events, uploadSize: uploadMB * 1_048_576).run()
        try await MockWalkthrough(schedules: schedules).run()
        print("\nDone.")
    }
}
