// Target for the one part of a server's certificate RetroSwift reads itself (Sources/RetroSwift/Sending/TLS): the
// `SubjectPublicKeyInfo` whose digest is a public-key pin (`CertificateDER`), and `ServerTrust`, which checks the
// certificates of authorities with it.
//
// Invariants, for any bytes:
// - the key found is nil or a slice of the input that is one whole DER SEQUENCE (tag 0x30, its length exactly the
//   rest of the slice);
// - reading twice gives the same answer, and a byte more after a certificate makes it not one;
// - ServerTrust takes the bytes as an authority exactly when a key is found in them, and a pin is found exactly then.

import Foundation

enum FuzzCertificateDER {
    static func run(_ bytes: [UInt8]) {
        let key = CertificateDER.subjectPublicKeyInfo(of: bytes)
        fuzzCheck(CertificateDER.subjectPublicKeyInfo(of: bytes) == key, "certificate: read twice differs")
        if let key {
            fuzzCheck(key.startIndex >= 0 && key.endIndex <= bytes.count, "certificate: key \(key.indices) outside the input")
            fuzzCheck(key.first == 0x30, "certificate: key does not start with a SEQUENCE")
            fuzzCheck(declaredLength(of: Array(key)) == key.count, "certificate: key is not one whole DER element")
            fuzzCheck(CertificateDER.subjectPublicKeyInfo(of: bytes + [0]) == nil, "certificate: a byte more still reads")
        }
        let accepted = (try? ServerTrust(certificateAuthorities: [Data(bytes)])) != nil
        fuzzCheck(accepted == (key != nil), "certificate: ServerTrust accepted \(accepted), key found \(key != nil)")
        fuzzCheck((CertificateDER.publicKeyPin(of: bytes) != nil) == (key != nil), "certificate: pin and key disagree")
    }

    /// The total size, tag and length included, that a DER element's header announces; nil when it announces none.
    private static func declaredLength(of element: [UInt8]) -> Int? {
        guard element.count >= 2 else { return nil }
        let first = Int(element[1])
        if first < 0x80 { return 2 + first }
        let count = first & 0x7F
        guard (1...4).contains(count), element.count >= 2 + count else { return nil }
        return 2 + count + element[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
    }
}
