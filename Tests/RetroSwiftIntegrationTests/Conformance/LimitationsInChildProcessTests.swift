import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// The known limitations that say a case crashes or hangs are skipped by the suite, so they could go stale unseen.
/// Here each still runs, in a child process of this test binary, bounded: a case listed as crashing must still bring
/// its process down, and one listed as hanging must still not end within a few seconds. One that now ends, passing or
/// failing, fails this test: list it as it is (or remove it) then.
///
/// Linux only: there `swift test` runs this binary itself, which can run one test again with `--filter`; on Apple
/// platforms a runner loads the tests as a bundle, and the one crashing limitation (libcurl's trailers) is Linux's.
/// The article example's gzip bomb (`.crashes`) is not run either: it takes the whole machine's memory, not one
/// process down.
#if os(Linux)
    @Suite("Known limitations that crash or hang still do, each run in a child process", .timeLimit(.minutes(4)))
    struct LimitationsInChildProcessTests {
        /// In a child, which limitations it runs: `crashes <transport> <case id>`, or `hangs <transport>` for all that
        /// transport's hanging cases at once.
        private static let childVariable = "RETROSWIFT_LIMITATION_CHILD"
        /// What a child prints for each hanging case it ran: whether the case was still running at its bound.
        private static let stillHangs = "LIMITATION-STILL-HANGS "
        private static let ended = "LIMITATION-ENDED "
        /// How long a hanging case runs in the child before it counts as hanging still: every case ends in well under
        /// a second on a transport without the limitation.
        private static let hangBound = Duration.seconds(5)

        /// The transports whose limitations are checked: the shipped ones by name, and the Transports article's example.
        private static func limitations(of transport: String) -> [String: TransportLimitation] {
            if transport == "example" { return DocumentedTransportConformanceTests.knownLimitations }
            return TransportKind(rawValue: transport)?.shipped.knownLimitations ?? [:]
        }

        private static func makeTransport(_ transport: String) -> @Sendable () -> any HttpTransport {
            if transport == "example" { return { SimpleSessionTransport() } }
            let kind = TransportKind(rawValue: transport)!
            return { kind.make() }
        }

        private static let transports = TransportKind.allCases.map(\.rawValue) + ["example"]

        /// Every case listed as crashing, but the example's gzip bomb (see above), by transport.
        static let crashing: [String] = transports.flatMap { transport in
            limitations(of: transport).filter {
                if case .crashes = $0.value { return $0.key != "body/gzip-bomb-default-limits" }
                return false
            }
            .keys.sorted().map { "\(transport) \($0)" }
        }

        @Test("a case listed as crashing still brings its process down", arguments: crashing)
        func crashes(_ listed: String) async throws {
            // Given: the test binary, run again for this case alone
            // When
            let child = try await Self.runChild("crashes \(listed)", bound: .seconds(120))

            // Then: it died of a signal, the case never having ended
            #expect(child.signalled, "the child exited with \(child.status) and printed: \(child.output.suffix(2_000))")
            #expect(!child.output.contains(Self.ended), "\(child.output.suffix(2_000))")
        }

        @Test("the cases listed as hanging still do not end", arguments: transports)
        func hangs(_ transport: String) async throws {
            // Given: the transport's hanging cases, each in the child with a bound of a few seconds
            let hanging = Self.limitations(of: transport).filter {
                if case .hangs = $0.value { return true }
                return false
            }
            guard !hanging.isEmpty else { return }

            // When
            let child = try await Self.runChild("hangs \(transport)", bound: .seconds(120))

            // Then: each was still running at its bound (how the child exits after that, hung tasks and all, is not
            // the question)
            for id in hanging.keys.sorted() {
                #expect(child.output.contains(Self.stillHangs + id), "\(id) no longer hangs: \(Self.line(of: id, in: child.output))")
            }
        }

        /// The line the child printed for `id`.
        private static func line(of id: String, in output: String) -> String {
            output.split(separator: "\n").first { $0.contains(" \(id)") }.map(String.init) ?? "nothing printed"
        }

        /// In a child only: runs what ``childVariable`` names, printing what came of each case.
        @Test("the child's side (runs only in a child process)")
        func child() async throws {
            guard let job = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
            let words = job.split(separator: " ").map(String.init)
            let cases = Dictionary(uniqueKeysWithValues: TransportConformance.cases.map { ($0.id, $0) })
            switch words.first {
            case "crashes":
                let conformanceCase = try #require(cases[words[2]])
                // Run as if the limitation were not listed: the process should not outlive this call.
                let outcome = await Result(catching: { try await conformanceCase.run(Self.makeTransport(words[1])) })
                print(Self.ended + "\(conformanceCase.id): \(outcome)")
            case "hangs":
                let transport = words[1]
                let hanging = Self.limitations(of: transport).filter {
                    if case .hangs = $0.value { return true }
                    return false
                }
                await withTaskGroup(of: String.self) { group in
                    for id in hanging.keys.sorted() {
                        guard let conformanceCase = cases[id] else { continue }
                        group.addTask {
                            do {
                                try await conformanceCase.run(Self.makeTransport(transport), timeLimit: Self.hangBound)
                                return Self.ended + "\(id): passed"
                            } catch let failure as TransportConformanceFailure where failure.problem.contains("did not finish within") {
                                return Self.stillHangs + id
                            } catch {
                                return Self.ended + "\(id): \(error)"
                            }
                        }
                    }
                    for await line in group { print(line) }
                }
            default:
                Issue.record("unknown job \(job)")
            }
        }

        /// Runs this test binary again with ``childVariable`` set to `job` and only ``child()`` selected, and returns how
        /// it ended and what it printed; kills it once `bound` passes.
        private static func runChild(_ job: String, bound: Duration) async throws -> (status: Int32, signalled: Bool, output: String) {
            var environment = ProcessInfo.processInfo.environment
            environment[childVariable] = job
            // A crash report would only slow the child's end: its signal is what the test looks for.
            environment["SWIFT_BACKTRACE"] = "enable=no"
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("retroswift-child-\(UUID()).log")
            defer { try? FileManager.default.removeItem(at: output) }
            let process = try ChildProcess(
                CommandLine.arguments[0], ["--testing-library", "swift-testing", "--filter", "LimitationsInChildProcessTests/child"],
                environment: environment, output: output)
            let ended = try await eventually(within: bound) { !process.isRunning }
            if !ended {
                process.send(SIGTERM)
                _ = try await eventually(within: .seconds(30)) { !process.isRunning }
            }
            let exit = process.waitUntilExit()
            let printed = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
            return (exit.status, exit.signalled, ended ? printed : printed + "\n(killed at \(bound))")
        }
    }
#endif
