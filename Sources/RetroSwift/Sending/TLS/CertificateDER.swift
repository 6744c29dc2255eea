import Foundation

/// Reads the one part of an X.509 certificate (RFC 5280, DER-encoded) that public-key pinning needs: its
/// `SubjectPublicKeyInfo`, whose SHA-256 digest is the pin. The certificate comes from a server, so every length is
/// checked against the bytes there are; anything that is not the expected structure gives `nil`, never a crash.
package enum CertificateDER {
    /// The DER bytes of the `SubjectPublicKeyInfo` of `certificate`, tag and length included, or `nil` when
    /// `certificate` is not a DER-encoded X.509 certificate.
    package static func subjectPublicKeyInfo(of certificate: [UInt8]) -> ArraySlice<UInt8>? {
        // Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }
        guard let outer = element(in: certificate[...]), outer.tag == sequence, outer.next == certificate.endIndex,
            let tbs = element(in: outer.content), tbs.tag == sequence
        else { return nil }
        // TBSCertificate ::= SEQUENCE { [0] version OPTIONAL, serialNumber, signature, issuer, validity, subject,
        // subjectPublicKeyInfo, ... }
        var rest = tbs.content
        guard var field = element(in: rest) else { return nil }
        if field.tag == explicitVersion {
            rest = rest[field.next...]
            guard let serial = element(in: rest) else { return nil }
            field = serial
        }
        // serialNumber, signature, issuer, validity and subject: five elements to skip.
        for expected in [integer, sequence, sequence, sequence, sequence] {
            guard field.tag == expected else { return nil }
            rest = rest[field.next...]
            guard let following = element(in: rest) else { return nil }
            field = following
        }
        guard field.tag == sequence else { return nil }
        return rest[rest.startIndex..<field.next]
    }

    /// The pin of `certificate`: the base64 SHA-256 digest of its `SubjectPublicKeyInfo`, or `nil` when it is not a
    /// DER-encoded X.509 certificate.
    package static func publicKeyPin(of certificate: [UInt8]) -> String? {
        subjectPublicKeyInfo(of: certificate).map { Data(SHA256.digest(Array($0))).base64EncodedString() }
    }

    private static let sequence: UInt8 = 0x30
    private static let integer: UInt8 = 0x02
    private static let explicitVersion: UInt8 = 0xA0

    /// One DER element at the start of `bytes`: its tag, its content, and where the element after it starts.
    private static func element(in bytes: ArraySlice<UInt8>) -> (tag: UInt8, content: ArraySlice<UInt8>, next: Int)? {
        var index = bytes.startIndex
        guard index < bytes.endIndex else { return nil }
        let tag = bytes[index]
        // Multi-byte tags never occur where this reads.
        guard tag & 0x1F != 0x1F else { return nil }
        index += 1
        guard index < bytes.endIndex else { return nil }
        let first = bytes[index]
        index += 1
        var length: Int
        if first < 0x80 {
            length = Int(first)
        } else {
            // Long form: 1 to 4 length bytes (no certificate is 4 GiB); 0x80 (indefinite) is not DER.
            let count = Int(first & 0x7F)
            guard (1...4).contains(count), bytes.endIndex - index >= count else { return nil }
            length = 0
            for byte in bytes[index..<(index + count)] { length = length << 8 | Int(byte) }
            index += count
        }
        guard length <= bytes.endIndex - index else { return nil }
        return (tag, bytes[index..<(index + length)], index + length)
    }
}
