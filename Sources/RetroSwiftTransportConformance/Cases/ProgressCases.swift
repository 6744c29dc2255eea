#if TransportConformance
    import Foundation
    import RetroSwift

    extension TransportConformance {
        /// Transfer progress: a transport reports to `HttpRequestParams.progress` what it sends and receives, so
        /// `TransferProgress.observe` sees it.
        static let progressCases: [TransportConformanceCase] = [
            TransportConformanceCase(
                "progress/upload", "a 1 MiB upload observed with TransferProgress reports its progress up to the whole body"
            ) { context in
                let body = patternedBytes(1 << 20)
                let reports = Collected<TransferProgress>()
                try await context.withServer({ _ in ScriptedResponse(status: 200) }) { api, _ in
                    _ = try await TransferProgress.observe({ reports.add($0) }) { try await api.upload(.init(body: body)) }
                    let upload = reports.all.filter { $0.direction == .upload }
                    try context.expect(
                        upload.contains { $0.completedBytes == Int64(body.count) && $0.isFinished },
                        "the upload reports were \(upload.map { "\($0.completedBytes)\($0.isFinished ? " finished" : "")" })")
                }
            },
            TransportConformanceCase(
                "progress/download",
                "a 1 MiB download observed with TransferProgress reports its progress up to the whole body, then finishes"
            ) { context in
                let body = patternedBytes(1 << 20)
                let reports = Collected<TransferProgress>()
                try await context.withRawServer({ _ in .head(["HTTP/1.1 200 OK", "Content-Length: \(body.count)"], body: body) }) {
                    api, _ in
                    let received = try await TransferProgress.observe({ reports.add($0) }) { try await api.data().body }
                    try context.expect(received == body, "\(received.count) bytes arrived")
                    let download = reports.all.filter { $0.direction == .download }
                    // Reports while the body arrives, and the last one the finish at its whole size.
                    try context.expect(
                        download.contains { $0.completedBytes > 0 && !$0.isFinished } && download.last?.isFinished == true
                            && download.last?.completedBytes == Int64(body.count),
                        "the download reports were \(download.suffix(5).map { "\($0.completedBytes)\($0.isFinished ? " finished" : "")" })")
                }
            },
        ]
    }
#endif
