import Foundation
import NIOConcurrencyHelpers
import RetroSwift

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How late a timeout fires and how long a cancelled call takes to end, on one transport, first with nothing else
/// running and then beside a load of large uploads and downloads on the same transport (issue 48): a transport that
/// blocks a thread of Swift's cooperative pool, or queues its timers behind bulk transfers, shows it here. Against
/// the fault server in a process of its own; the probes' calls never wait for a connection (one per load task and
/// two more). Prints the percentiles of each phase and their ratio, load over alone, in the same run.
struct LatencyBenchmark {
    let transport: Soak.Transport
    let loadTasks: Int
    let probes: Int
    /// What each load task moves: downloads, uploads or both in turn.
    let load: Soak.Load

    /// The bytes of each large download and upload.
    static let transferBytes = 8 << 20
    /// The probes' timeout: the call's lateness is how long after it the call ended.
    static let probeTimeout = 0.5
    /// How long a probe to be cancelled runs before it is.
    static let beforeCancel = Duration.milliseconds(100)

    func run() async throws {
        let server = try FaultServerProcess.start()
        defer { server.stop() }
        let owned = try OwnedTransport(transport, connections: loadTasks + 2)
        let timing = SoakApi(transport: owned.transport, baseURL: server.baseURL)
        timing.timeout = Self.probeTimeout
        let cancelling = SoakApi(transport: owned.transport, baseURL: server.baseURL)
        cancelling.timeout = 30
        let loadApi = SoakApi(transport: owned.transport, baseURL: server.baseURL)
        loadApi.timeout = 30
        // Warm-up: connections, threads and libcurl exist before the first probe.
        for _ in 0..<4 { _ = try await loadApi.download(LargeDownload(bytes: Self.transferBytes)) }
        _ = try await probe(timing: timing, cancelling: cancelling)

        let alone = try await phase(timing: timing, cancelling: cancelling)
        let transferred = Counter()
        let loading = Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<loadTasks {
                    group.addTask {
                        do {
                            try await move(on: loadApi, counting: transferred)
                        } catch {
                            if !Task.isCancelled { transferred.fail(error) }
                        }
                    }
                }
            }
        }
        // The load runs a second before the first probe, so that every probe meets it at full speed.
        try await Task.sleep(for: .seconds(1))
        let start = ContinuousClock.now
        let beside = try await phase(timing: timing, cancelling: cancelling)
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        let moved = transferred.value
        loading.cancel()
        // A load task that failed stopped the load early: the figures would be of a phase without it.
        if let failure = transferred.failure { throw ProbeError("the load failed while probed: \(failure)") }
        try await owned.shutdown()

        print("\(transport.rawValue): \(probes) probes of each kind alone, then beside \(loadTasks) tasks of 8 MiB \(load.rawValue)")
        print(String(format: "load while probed: %.0f MiB/s", Double(moved) / Double(1 << 20) / seconds))
        report("timeout fired late by", alone.lateness, beside.lateness)
        report("cancelled call ended after", alone.cancellation, beside.cancellation)
    }

    /// Moves 8 MiB down, up or both in turn, call after call, until cancelled.
    private func move(on api: SoakApi, counting transferred: Counter) async throws {
        let upload = LargeUpload(body: Data(repeating: 0x62, count: Self.transferBytes))
        while !Task.isCancelled {
            if load != .uploads {
                _ = try await api.download(LargeDownload(bytes: Self.transferBytes))
                transferred.add(Self.transferBytes)
            }
            if load != .downloads {
                _ = try await api.upload(upload)
                transferred.add(Self.transferBytes)
            }
        }
    }

    /// `probes` of each kind, one after another.
    private func phase(timing: SoakApi, cancelling: SoakApi) async throws -> (lateness: [Double], cancellation: [Double]) {
        var lateness: [Double] = []
        var cancellation: [Double] = []
        for _ in 0..<probes {
            let (late, cancelled) = try await probe(timing: timing, cancelling: cancelling)
            lateness.append(late)
            cancellation.append(cancelled)
        }
        return (lateness, cancellation)
    }

    /// One call to a server that never answers, ended by its timeout: seconds after the timeout it ended; and one
    /// cancelled: seconds from `cancel()` to its end.
    private func probe(timing: SoakApi, cancelling: SoakApi) async throws -> (late: Double, cancelled: Double) {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try await timing.fault(FaultQuery(id: -1, kind: FaultKind.stall.rawValue))
            throw ProbeError("a call to a server that never answers returned")
        } catch let error as TransportError where (error.underlyingError as? URLError)?.code == .timedOut {}
        let late = (clock.now - start) / .seconds(1) - Self.probeTimeout

        let call = Task { try await cancelling.fault(FaultQuery(id: -1, kind: FaultKind.stall.rawValue)) }
        try await Task.sleep(for: Self.beforeCancel)
        let cancelledAt = clock.now
        call.cancel()
        guard case .failure = await call.result else { throw ProbeError("a cancelled call to a server that never answers returned") }
        return (late, (clock.now - cancelledAt) / .seconds(1))
    }

    private func report(_ what: String, _ alone: [Double], _ beside: [Double]) {
        let (a, b) = (Percentiles(alone), Percentiles(beside))
        print(
            String(
                format: "%@: alone p50 %.1f ms, p90 %.1f ms, max %.1f ms; beside the load p50 %.1f ms, p90 %.1f ms, max %.1f ms "
                    + "(p50 %.2f×, p90 %.2f×)",
                what, a.p50 * 1000, a.p90 * 1000, a.max * 1000, b.p50 * 1000, b.p90 * 1000, b.max * 1000,
                b.p50 / Swift.max(a.p50, 1e-6), b.p90 / Swift.max(a.p90, 1e-6)))
    }
}

private struct Percentiles {
    let p50: Double
    let p90: Double
    let max: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        func at(_ fraction: Double) -> Double { sorted[Swift.min(sorted.count - 1, Int(Double(sorted.count) * fraction))] }
        p50 = at(0.5)
        p90 = at(0.9)
        max = sorted.last ?? 0
    }
}

private struct ProbeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Bytes moved by the load's tasks, and the first error that stopped one.
private final class Counter: Sendable {
    private let state = NIOLockedValueBox<(total: Int, failure: String?)>((0, nil))
    func add(_ bytes: Int) { state.withLockedValue { $0.total += bytes } }
    func fail(_ error: any Error) { state.withLockedValue { $0.failure = $0.failure ?? "\(error)" } }
    var value: Int { state.withLockedValue { $0.total } }
    var failure: String? { state.withLockedValue { $0.failure } }
}

struct LargeDownload {
    @Query("bytes") var bytes: Int = 0

    init(bytes: Int) { self.bytes = bytes }
}

struct LargeUpload {
    @RawBody var body = Data()

    init(body: Data) { self.body = body }
}
