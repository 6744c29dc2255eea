import ArgumentParser
import BenchmarkSupport
import Foundation
import RetroSwift

/// Sections 1 and 2 of BENCHMARKS.md as paired ratios: every round times a batch of the baseline and the same
/// batch through RetroSwift back to back (alternating which goes first), so both see the same machine state.
@main
struct InProcessRatios: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inprocess-ratios",
        abstract: "Paired ratios of request building and response decoding: RetroSwift against hand-written code."
    )

    @Option(help: "Rounds per comparison.")
    var rounds = 400

    @Option(help: "Calls per batch, for bodies up to 1 KB; the 1 MB body uses one call per batch and a tenth of the rounds.")
    var batch = 100

    func run() async throws {
        print("| comparison | baseline per call | RetroSwift per call | ratio |")
        print("| --- | --- | --- | --- |")

        let entry = Entry(title: "Quarterly review", priority: 2, tags: ["q3", "review"])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let api = BenchmarkApi(transport: InProcessTransport())
        let request = UpdateEntryRequest(
            teamId: "team alpha", entryId: 42, page: 3, sortOrder: "-created at", accountId: "acc_1", entry: entry
        )
        try await compare("request building (6 fields)", batch: batch, rounds: rounds) {
            _ = try HandWritten.updateEntry(
                teamId: "team alpha", entryId: 42, page: 3, sort: "-created at", accountId: "acc_1", entry: entry, encoder: encoder
            )
        } retroSwift: {
            _ = try await api.updateEntry(request)
        }

        var ownShare: Duration?
        let bodies = [("12 B", 0, batch, rounds), ("1 KB", 12, batch, rounds), ("1 MB", 11_500, 1, max(1, rounds / 10))]
        for (label, items, batch, rounds) in bodies {
            let body = Catalog.json(items: items)
            let api = BenchmarkApi(
                transport: CannedTransport(
                    response: HttpOperationResult(
                        statusCode: 200, headers: ["Content-Type": "application/json"], body: body
                    )))
            let times = try await compare("response decoding \(label) (\(body.count) bytes)", batch: batch, rounds: rounds) {
                _ = try JSONDecoder().decode(Catalog.self, from: body)
            } retroSwift: {
                _ = try await api.catalog()
            }
            if items == 0 { ownShare = times.retroSwift - times.baseline }
        }
        // Converters (issue 47): the 1 KB body through a converter the domain sets, against the same decoder by hand.
        let body = Catalog.json(items: 12)
        let converted = BenchmarkApi(
            transport: CannedTransport(
                response: HttpOperationResult(statusCode: 200, headers: ["Content-Type": "application/json"], body: body)))
        converted.converter = JSONConverter(decoder: JSONDecoder())
        try await compare("1 KB through a JSONConverter the domain sets", batch: batch, rounds: rounds) {
            _ = try JSONDecoder().decode(Catalog.self, from: body)
        } retroSwift: {
            _ = try await converted.catalog()
        }
        let plist = Catalog.propertyList(items: 12)
        let plistApi = BenchmarkApi(
            transport: CannedTransport(
                response: HttpOperationResult(statusCode: 200, headers: ["Content-Type": "application/x-plist"], body: plist)))
        plistApi.converter = PropertyListConverter()
        try await compare("\(plist.count) B property list through PropertyListConverter", batch: batch, rounds: rounds) {
            _ = try PropertyListDecoder().decode(Catalog.self, from: plist)
        } retroSwift: {
            _ = try await plistApi.catalog()
        }
        let protobufCall = ProtobufFixture.retroSwiftCall()
        try await compare(
            "\(ProtobufFixture.bytes.count) B protobuf message through ProtobufConverter", batch: batch, rounds: rounds
        ) {
            try ProtobufFixture.decodeByHand()
        } retroSwift: {
            try await protobufCall()
        }
        if let ownShare {
            print("\nRetroSwift's own share of a response (12 B row, RetroSwift minus baseline): \(Self.format(ownShare)) per call")
        }
    }

    /// Prints one table row and returns the mean time per call of each side.
    @discardableResult
    private func compare(
        _ label: String, batch: Int, rounds: Int, baseline: () async throws -> Void, retroSwift: () async throws -> Void
    ) async throws -> (baseline: Duration, retroSwift: Duration) {
        for _ in 0..<min(20, max(1, 2_000 / batch)) {
            try await baseline()
            try await retroSwift()
        }
        let clock = ContinuousClock()
        var baselineTime = Duration.zero
        var retroSwiftTime = Duration.zero
        for round in 0..<rounds {
            for baselineSide in round.isMultiple(of: 2) ? [true, false] : [false, true] {
                let start = clock.now
                for _ in 0..<batch {
                    if baselineSide { try await baseline() } else { try await retroSwift() }
                }
                if baselineSide { baselineTime += clock.now - start } else { retroSwiftTime += clock.now - start }
            }
        }
        let calls = rounds * batch
        let perCall = (baselineTime / calls, retroSwiftTime / calls)
        let ratio = retroSwiftTime.inSeconds / baselineTime.inSeconds
        print("| \(label) | \(Self.format(perCall.0)) | \(Self.format(perCall.1)) | \(String(format: "%.3f", ratio)) |")
        return perCall
    }

    private static func format(_ duration: Duration) -> String {
        let microseconds = duration.inSeconds * 1e6
        return microseconds >= 1_000 ? String(format: "%.2f ms", microseconds / 1_000) : String(format: "%.2f µs", microseconds)
    }
}
