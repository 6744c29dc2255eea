import Foundation
import RetroSwift

/// Readable output for the demo.
enum Console {
    static func section(_ title: String) {
        print("\n== \(title) " + String(repeating: "=", count: max(0, 70 - title.count)))
    }

    static func step(_ text: String) {
        print("\n> \(text)")
    }

    static func result(_ text: String) {
        print("  = \(text)")
    }

    /// One line per call, from RetroSwift's logging interceptor (Authorization and cookies are redacted).
    static let wireLog = LoggingInterceptor { entry in
        let headers = entry.requestHeaders.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
        print("  \(entry.summary)" + (headers.isEmpty ? "" : "  [\(headers)]"))
    }
}

/// Upload progress: on a terminal, a bar redrawn in place as `TransferProgress` reports arrive; redirected to a file
/// or a pipe, where a carriage return would garble the output, one plain line per quarter.
// @unchecked Sendable: `lastPercent` is read and written only under `lock`.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private var lastPercent = -1  // the last percentage shown, or quarter when not on a terminal
    private let redrawsInPlace = isatty(STDOUT_FILENO) == 1

    /// Shows the upload's progress when its whole percentage (on a terminal) or its quarter (elsewhere) changes, and
    /// ends the line when it finishes.
    func show(_ progress: TransferProgress) {
        guard progress.direction == .upload, let fraction = progress.fractionCompleted else { return }
        let percent = Int(fraction * 100)
        let step = redrawsInPlace ? percent : percent / 25
        let changed = lock.withLock {
            defer { lastPercent = step }
            return lastPercent != step
        }
        guard changed else { return }
        let megabytes = { (bytes: Int64) in String(format: "%.1f", Double(bytes) / 1_048_576) }
        let expected = progress.expectedBytes ?? progress.completedBytes
        let amount = "\(percent)% \(megabytes(progress.completedBytes)) of \(megabytes(expected)) MB"
        guard redrawsInPlace else {
            print("  upload \(amount)")
            return
        }
        let width = 30
        let filled = percent * width / 100
        let line = "\r  upload [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] \(amount)"
        FileHandle.standardOutput.write(Data((line + (progress.isFinished ? "\n" : "")).utf8))
    }
}
