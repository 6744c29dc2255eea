import Foundation

extension HttpRequestParams {
    /// `url` (a ``urlString``) with its scheme and host in lower case, for a transport whose client compares them with
    /// case where RFC 3986 says they compare without (§3.1, §3.2.2, §6.2.2.1): swift-corelibs-foundation refuses
    /// `HTTP://` as an unsupported URL, and async-http-client keeps a pool of connections per host as written. RetroSwift
    /// hands URLs over as the user wrote them; a transport lowers them for such a client only.
    ///
    /// - Parameter url: An absolute URL.
    /// - Returns: The URL with its scheme and host lowered; its user information, port, path, query and fragment keep
    ///   their bytes. A URL already in lower case, or without an authority, comes back as it is.
    package static func lowercasingSchemeAndHost(_ url: String) -> String {
        let bytes = url.utf8
        func isCapital(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
        func isSchemeByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        // The scheme (RFC 3986 §3.1) ends at the first ":", which "//" and the authority follow; a relative URL has none.
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > bytes.startIndex,
            bytes[..<colon].allSatisfy(isSchemeByte), bytes[colon...].starts(with: "://".utf8)
        else { return url }
        let authorityStart = bytes.index(colon, offsetBy: 3)
        let authorityEnd =
            bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? bytes.endIndex
        let authority = bytes[authorityStart..<authorityEnd]
        let hostStart = authority.lastIndex(of: UInt8(ascii: "@")).map { bytes.index(after: $0) } ?? authorityStart
        let host = bytes[hostStart..<authorityEnd]
        // An IPv6 literal's colons are not the port's.
        let hostEnd =
            host.first == UInt8(ascii: "[")
            ? host.firstIndex(of: UInt8(ascii: "]")).map { bytes.index(after: $0) } ?? authorityEnd
            : host.lastIndex(of: UInt8(ascii: ":")) ?? authorityEnd
        let scheme = bytes.startIndex..<colon
        let hostRange = hostStart..<hostEnd
        guard bytes[scheme].contains(where: isCapital) || bytes[hostRange].contains(where: isCapital) else { return url }
        var lowered: [UInt8] = []
        lowered.reserveCapacity(bytes.count)
        for index in bytes.indices {
            let byte = bytes[index]
            let inOrigin = scheme.contains(index) || hostRange.contains(index)
            lowered.append(inOrigin && isCapital(byte) ? byte + 32 : byte)
        }
        return String(decoding: lowered, as: UTF8.self)
    }
}
