#if TransportConformance
    import Foundation

    /// A request exactly as the test server received it.
    public struct RecordedRequest: Sendable {
        /// The method, for example `GET`.
        public let method: String
        /// The raw request target from the request line, still percent-encoded: `/items/a%2Fb?q=1`.
        public let target: String
        /// The header fields in the order received.
        public let headers: [(name: String, value: String)]
        /// The body bytes (empty when the server was started with `recordingBodies: false`).
        public let body: Data
        /// How many body bytes arrived, recorded or not.
        public let bodyByteCount: Int

        /// The value of the first header named `name`, compared case-insensitively.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The path part of ``target``, still encoded.
        public var encodedPath: String {
            String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
        }

        /// The query part of ``target`` without `?`, still encoded, or `nil`.
        public var encodedQuery: String? {
            let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count > 1 ? String(parts[1]) : nil
        }

        /// The query decoded the way servers decode it (`%XX` only; `+` stays `+`), in order.
        public var queryItems: [(name: String, value: String)] {
            (encodedQuery ?? "").split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (Self.decode(parts[0]), parts.count > 1 ? Self.decode(parts[1]) : "")
            }
        }

        /// The path segments, percent-decoded.
        public var pathSegments: [String] {
            encodedPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(Self.decode)
        }

        /// The body decoded as `application/x-www-form-urlencoded` (`+` is a space), in order.
        public var formItems: [(name: String, value: String)] {
            String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let decode = { (text: Substring) in Self.decode(Substring(text.replacingOccurrences(of: "+", with: " "))) }
                return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
            }
        }

        /// Percent-decodes by hand: Foundation's `removingPercentEncoding` drops a leading U+FEFF, which would hide
        /// exactly the kind of bug the round-trip tests look for.
        private static func decode(_ text: Substring) -> String {
            var bytes: [UInt8] = []
            var iterator = text.utf8.makeIterator()
            while let byte = iterator.next() {
                guard byte == UInt8(ascii: "%") else {
                    bytes.append(byte)
                    continue
                }
                guard let high = iterator.next(), let low = iterator.next(),
                    let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
                else { return "<invalid percent-encoding: \(text)>" }
                bytes.append(value)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
#endif
