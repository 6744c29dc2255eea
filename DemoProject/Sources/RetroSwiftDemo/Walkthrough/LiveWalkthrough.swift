import Foundation
import RetroSwift

/// Calls the schedules service through the README's declarations and a real transport.
struct LiveWalkthrough {
    let schedules: SchedulesApi
    let speech: ElevenLabsApi
    let events: EventsApi
    let uploadSize: Int

    func run() async throws {
        Console.section("Live calls over HTTP")

        Console.step("GET the first page of schedules (@Query page/limit, @Header X-Account-Id)")
        let page = try await schedules.getSchedules(GetSchedulesRequest(page: 1, schedulesPerPage: 3, accountId: "acc_demo"))
        guard !page.schedules.isEmpty else { throw WalkthroughError("the first page of schedules is empty") }
        Console.result(page.schedules.map { "\($0.id) \"\($0.title)\"" }.joined(separator: ", "))

        Console.step("PUT a new schedule (@JsonBody, dates as epoch milliseconds)")
        let launch = Schedule(id: "sch_launch", title: "Launch review", startsAt: Date(timeIntervalSince1970: 1_767_830_400))
        _ = try await schedules.createSchedule(CreateScheduleRequest(accountId: "acc_demo", scheduleBody: launch))
        Console.result("created (Empty response)")

        Console.step("POST an update to /api/v1/schedule/{schedule_id} (@Path)")
        var renamed = launch
        renamed.title = "Launch review (moved)"
        let updated = try await schedules.updateSchedule(
            UpdateScheduleRequest(scheduleId: "sch_launch", accountId: "acc_demo", schedule: renamed))
        guard updated.schedule.title == renamed.title else {
            throw WalkthroughError("the update came back titled \"\(updated.schedule.title)\"")
        }
        Console.result("now titled \"\(updated.schedule.title)\"")

        Console.step("DELETE it, then DELETE it again (Either<Response, ErrorResponse>)")
        for attempt in 1...2 {
            switch try await schedules.deleteSchedule(DeleteScheduleRequest(ScheduleId: "sch_launch", accountId: "acc_demo")) {
            case .response(let deleted) where attempt == 1: Console.result(".response: deleted \(deleted.deletedId)")
            case .errorResponse(let problem) where attempt == 2: Console.result(".errorResponse: \(problem.errorMessage)")
            case let outcome: throw WalkthroughError("DELETE number \(attempt) answered \(outcome)")
            }
        }

        Console.step("GET without the account header: the server says 400 in text/plain (HTTPError)")
        do {
            _ = try await schedules.getSchedules(GetSchedulesRequest(page: 1))
            throw WalkthroughError("GET without the account header succeeded")
        } catch let error as HTTPError where error.statusCode == 400 {
            Console.result("HTTPError \(error.statusCode): \(error.localizedDescription)")
        }

        Console.step("A path value of '..' never leaves the client (RequestError)")
        do {
            _ = try await schedules.deleteSchedule(DeleteScheduleRequest(ScheduleId: "..", accountId: "acc_demo"))
            throw WalkthroughError("a path value of '..' was sent")
        } catch let error as RequestError where error.kind == .invalidValue {
            Console.result(error.description)
        }

        try await walkEvents()
        try await readFeed()
        try await upload()
    }

    private func readFeed() async throws {
        Console.step("Read the events as Server-Sent Events (ServerSentEvents<Event>), each decoded as it arrives")
        var titles: [String] = []
        for try await event in try await events.feed() { titles.append(event.title) }
        guard titles == (1...5).map({ "Event \($0)" }) else { throw WalkthroughError("the feed gave \(titles)") }
        Console.result(titles.joined(separator: ", "))
    }

    private func walkEvents() async throws {
        Console.step("Walk the paginated events (Link: rel=\"next\", 5 per page) and stop after 12: three pages are fetched")
        let walk = Paginated(events.events, from: EventsPage(), by: .linkHeader(\.url, items: \.self))
        var titles: [String] = []
        for try await event in walk.prefix(12) { titles.append(event.title) }
        guard titles.count == 12, titles.last == "Event 12" else { throw WalkthroughError("the walk gave \(titles)") }
        Console.result("\(titles.first ?? "") ... \(titles.last ?? "") (12 events; page 4 was never requested)")
    }

    private func upload() async throws {
        Console.step("POST a \(uploadSize / 1_048_576) MB recording as multipart/form-data (@FormParam, @FormFile from a file URL)")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-demo-\(UUID().uuidString).caf")
        try Data((0..<uploadSize).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let request = ElevenLabsApi.SpeechToTextApiRequest(
            modelId: "scribe_v1",
            languageCode: "en",
            tagAudioEvents: false,
            numSpeakers: 1,
            recording: .init(fileName: "recording.caf", mimeType: "audio/x-caf", fileURL: url)
        )
        let bar = ProgressBar()
        let transcribedText = try await TransferProgress.observe({ bar.show($0) }) {
            try await speech.speechToText(request).text
        }
        Console.result("\"\(transcribedText)\"")
    }
}
