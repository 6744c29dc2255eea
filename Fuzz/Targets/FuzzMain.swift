// libFuzzer entry point. Compiled together with Sources/RetroSwift as one module named RetroSwift (see
// Fuzz/build.sh), so the targets call the internal parsers directly. Not part of the package: SwiftPM never sees
// this folder.
//
// One binary holds every target; RETROSWIFT_FUZZ_TARGET picks one per process (`list` prints them all).
// A broken invariant calls `fuzzFail`, whose fatalError libFuzzer reports as a crash and saves the input of.

import Foundation

/// The fuzz targets, by the name RETROSWIFT_FUZZ_TARGET takes; the name is also the folder of the seed corpus,
/// Fuzz/Corpus/<name>/.
enum FuzzTarget: String, CaseIterable {
    case serverSentEvents = "sse"
    case textLines = "text-lines"
    case jsonLines = "json-lines"
    case jsonTextSequence = "json-seq"
    case frameLimits = "frame-limits"
    case linkHeader = "link-header"
    case pathTemplate = "path-template"
    case retryAfter = "retry-after"
    case dynamicURL = "dynamic-url"
    case multipart = "multipart"
    case responseChecks = "response-checks"
    case cacheFields = "cache-fields"
    case certificateDER = "certificate-der"
    case obsFold = "obs-fold"

    func run(_ bytes: [UInt8]) {
        switch self {
        case .serverSentEvents: FuzzStreams.serverSentEvents(bytes)
        case .textLines: FuzzStreams.textLines(bytes)
        case .jsonLines: FuzzStreams.jsonLines(bytes)
        case .jsonTextSequence: FuzzStreams.jsonTextSequence(bytes)
        case .frameLimits: FuzzStreams.frameLimits(bytes)
        case .linkHeader: FuzzLinkHeader.run(bytes)
        case .pathTemplate: FuzzPathTemplate.run(bytes)
        case .retryAfter: FuzzRetryAfter.run(bytes)
        case .dynamicURL: FuzzDynamicURL.run(bytes)
        case .multipart: FuzzMultipart.run(bytes)
        case .responseChecks: FuzzResponseChecks.run(bytes)
        case .cacheFields: FuzzCacheFields.run(bytes)
        case .certificateDER: FuzzCertificateDER.run(bytes)
        case .obsFold: FuzzObsFold.run(bytes)
        }
    }
}

/// The target this process runs, read once.
let fuzzSelectedTarget: FuzzTarget? = ProcessInfo.processInfo.environment["RETROSWIFT_FUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:))

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: OpaquePointer?, _ argv: OpaquePointer?) -> CInt {
    let name = ProcessInfo.processInfo.environment["RETROSWIFT_FUZZ_TARGET"] ?? ""
    if name == "list" {
        for target in FuzzTarget.allCases { print(target.rawValue) }
        exit(0)
    }
    if fuzzSelectedTarget == nil {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(
            Data("set RETROSWIFT_FUZZ_TARGET to one of: \(names) (or `list`); it is '\(name)'\n".utf8))
        exit(2)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : unsafe Array(UnsafeBufferPointer(start: data, count: size))
    fuzzSelectedTarget?.run(bytes)
    return 0
}

/// Reports a broken invariant: the message, then a trap that libFuzzer catches and saves the input for.
func fuzzFail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("fuzz invariant broken: \(message)", file: file, line: line)
}

/// `fuzzFail` unless `condition` holds.
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition { fuzzFail(message(), file: file, line: line) }
}

/// Bytes as `"a\r\n" [61 0D 0A]`-style text for invariant messages, cut at 200 bytes.
func fuzzShow(_ bytes: some Collection<UInt8>) -> String {
    let shown = bytes.prefix(200)
    let hex = shown.map { String(format: "%02X", $0) }
    let text = String(decoding: shown, as: UTF8.self).debugDescription
    return "\(text) [\(hex.joined(separator: " "))]" + (bytes.count > 200 ? " (\(bytes.count) bytes)" : "")
}

/// A deterministic hash of the input (FNV-1a), from which targets derive split points and other choices, so that
/// seeds can be real files with no header of fuzzer bytes.
func fuzzHash(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
}
