#if NIO
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    extension NIOTransport {
        /// The hosts that go direct rather than through a proxy, read as curl reads `NO_PROXY`: entries separated by
        /// commas (spaces around them ignored), each
        /// - `*` alone: every host;
        /// - a host name, with or without a leading dot: that host and every name under it (`example.com` and
        ///   `.example.com` both match `example.com` and `api.example.com`, never `badexample.com`);
        /// - an IP address (an IPv6 one with or without brackets): that address only;
        /// - an IP range in CIDR notation: `10.0.0.0/8`, `fd00::/8`;
        /// - any of these followed by `:port`: only connections to that port.
        ///
        /// Names compare without case and without a trailing dot; names are never resolved, so a name matches no IP
        /// range.
        public struct NoProxy: Sendable, Hashable {
            /// One entry of the list.
            enum Rule: Sendable, Hashable {
                case everything
                case name(String, port: Int?)
                case range(address: [UInt8], prefixLength: Int, port: Int?)
            }

            /// The list as written.
            public let value: String
            let rules: [Rule]

            /// Reads a `NO_PROXY` list; entries it cannot read are left out.
            ///
            /// - Parameter value: The list, such as `localhost,127.0.0.1,.internal,10.0.0.0/8`.
            public init(_ value: String = "") {
                self.value = value
                rules = value.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).compactMap {
                    Self.rule(String($0))
                }
            }

            /// Whether a connection to `host` and `port` goes direct.
            ///
            /// - Parameters:
            ///   - host: The origin's host: a name, or an IP address (an IPv6 one with or without brackets).
            ///   - port: The origin's port.
            /// - Returns: `true` when an entry of the list matches it.
            public func matches(host: String, port: Int) -> Bool {
                guard !rules.isEmpty else { return false }
                var name = host.lowercased()
                if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
                while name.hasSuffix(".") { name.removeLast() }
                let address = Self.address(name)
                for rule in rules {
                    switch rule {
                    case .everything:
                        return true
                    case .name(let suffix, let rulePort):
                        guard rulePort == nil || rulePort == port, address == nil else { continue }
                        if name == suffix || name.hasSuffix("." + suffix) { return true }
                    case .range(let network, let prefixLength, let rulePort):
                        guard rulePort == nil || rulePort == port, let address, address.count == network.count else {
                            continue
                        }
                        if Self.prefix(of: address, equals: network, bits: prefixLength) { return true }
                    }
                }
                return false
            }

            private static func rule(_ entry: String) -> Rule? {
                var text = Substring(entry.lowercased())
                if text == "*" { return .everything }
                // A port, after an IPv6 address's bracket or after the only colon.
                var port: Int?
                if text.hasPrefix("[") {
                    guard let close = text.firstIndex(of: "]") else { return nil }
                    let after = text[text.index(after: close)...]
                    let inside = text[text.index(after: text.startIndex)..<close]
                    if after.hasPrefix(":") {
                        guard let parsed = Int(after.dropFirst()) else { return nil }
                        port = parsed
                        text = inside
                    } else if after.hasPrefix("/") {
                        text = inside + after
                    } else if after.isEmpty {
                        text = inside
                    } else {
                        return nil
                    }
                } else if let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") {
                    guard let parsed = Int(text[text.index(after: colon)...]) else { return nil }
                    port = parsed
                    text = text[..<colon]
                }
                var prefixLength: Int?
                if let slash = text.firstIndex(of: "/") {
                    guard let parsed = Int(text[text.index(after: slash)...]), parsed >= 0 else { return nil }
                    prefixLength = parsed
                    text = text[..<slash]
                }
                if let address = address(String(text)) {
                    let bits = address.count * 8
                    guard (prefixLength ?? bits) <= bits else { return nil }
                    return .range(address: address, prefixLength: prefixLength ?? bits, port: port)
                }
                guard prefixLength == nil else { return nil }
                while text.hasPrefix(".") { text = text.dropFirst() }
                while text.hasSuffix(".") { text = text.dropLast() }
                guard !text.isEmpty else { return nil }
                return .name(String(text), port: port)
            }

            /// The bytes of an IPv4 (4) or IPv6 (16) address, or `nil` for a name.
            static func address(_ text: String) -> [UInt8]? {
                guard !text.isEmpty, text.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }) else { return nil }
                if text.contains(":") {
                    var storage = in6_addr()
                    guard inet_pton(AF_INET6, text, &storage) == 1 else { return nil }
                    return withUnsafeBytes(of: storage) { Array($0) }
                }
                var storage = in_addr()
                guard inet_pton(AF_INET, text, &storage) == 1 else { return nil }
                return withUnsafeBytes(of: storage) { Array($0) }
            }

            private static func prefix(of address: [UInt8], equals network: [UInt8], bits: Int) -> Bool {
                var remaining = bits
                for index in address.indices where remaining > 0 {
                    let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
                    if address[index] & mask != network[index] & mask { return false }
                    remaining -= 8
                }
                return true
            }
        }
    }
#endif
