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
