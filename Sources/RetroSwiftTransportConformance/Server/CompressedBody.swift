#if TransportConformance
    import Foundation

    /// Compressed bodies for a server to send, made without a compression library: gzip and zlib members of stored
    /// deflate blocks, and gzip bombs.
    public enum CompressedBody {
        /// `data` as one gzip member (RFC 1952) of stored deflate blocks: valid, though no smaller.
        ///
        /// - Parameter data: The bytes to wrap.
        /// - Returns: The gzip member, for `Content-Encoding: gzip`.
        public static func gzip(_ data: Data) -> Data {
            var member = Data([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF])
            member.append(storedBlocks(data))
            let crc = crc32(data)
            let size = UInt32(truncatingIfNeeded: data.count)
            member.append(contentsOf: (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) })
            member.append(contentsOf: (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) })
            return member
        }

        /// `data` in the zlib format (RFC 1950) of stored deflate blocks, which is what HTTP's `deflate` coding names
        /// (RFC 9110 §8.4.1.2).
        ///
        /// - Parameter data: The bytes to wrap.
        /// - Returns: The zlib stream, for `Content-Encoding: deflate`.
        public static func zlib(_ data: Data) -> Data {
            var stream = Data([0x78, 0x01])  // deflate, 32 KiB window, no dictionary; 0x7801 is a multiple of 31
            stream.append(storedBlocks(data))
            var a: UInt32 = 1
            var b: UInt32 = 0
            for byte in data {
                a = (a + UInt32(byte)) % 65_521
                b = (b + a) % 65_521
            }
            let adler = b << 16 | a
            stream.append(contentsOf: (0..<4).reversed().map { UInt8(truncatingIfNeeded: adler >> (8 * $0)) })
            return stream
        }

        /// Deflate stored blocks (RFC 1951 §3.2.4) of at most 65,535 bytes each.
        private static func storedBlocks(_ data: Data) -> Data {
            var out = Data()
            var start = data.startIndex
            repeat {
                let end = min(start + 65_535, data.endIndex)
                let length = UInt16(end - start)
                out.append(end == data.endIndex ? 1 : 0)  // BFINAL, BTYPE 00, padded to the byte
                out.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)])
                out.append(data[start..<end])
                start = end
            } while start < data.endIndex
            return out
        }

        /// The CRC-32 of gzip (reflected polynomial 0xEDB88320), bit by bit: test bodies are small.
        private static func crc32(_ data: Data) -> UInt32 {
            var register: UInt32 = 0xFFFF_FFFF
            for byte in data {
                register ^= UInt32(byte)
                for _ in 0..<8 { register = register & 1 == 1 ? (register >> 1) ^ 0xEDB8_8320 : register >> 1 }
            }
            return ~register
        }

        /// A gzip member that inflates to `count` zero bytes while staying about 160 times smaller: one literal zero,
        /// then copies of 258 bytes from one byte back, in a fixed-Huffman deflate block (RFC 1951 §3.2.6), 13 bits each.
        ///
        /// `count` is rounded down to 1 + a multiple of 258. The trailer's CRC-32 is right, so a client that inflates the
        /// whole member sees a valid one; it is computed without touching the inflated bytes, in O(log count).
        ///
        /// - Parameter count: How many zero bytes it inflates to.
        /// - Returns: The gzip member.
        public static func gzipOfZeros(_ count: Int) -> Data {
            var bits = BitWriter()
            bits.write(1, count: 1)  // BFINAL: the last block
            bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
            bits.writeCode(0x30, length: 8)  // literal 0 (codes 0x30-0xBF stand for literals 0-143)
            let copies = (count - 1) / 258
            bits.bytes.reserveCapacity(copies * 13 / 8 + 16)
            func writeCopy() {
                bits.writeCode(0xC5, length: 8)  // length symbol 285: 258 bytes, no extra bits
                bits.writeCode(0, length: 5)  // distance symbol 0: one byte back
            }
            // Eight copies are 104 bits, 13 whole bytes: once the writer has packed one group of eight, each further group
            // leaves it as it found it and adds the same 13 bytes, which are copied rather than packed bit by bit (a
            // 1 GiB bomb is 4 million copies: seconds bit by bit in a debug build).
            var written = 0
            if copies >= 24 {
                for _ in 0..<16 { writeCopy() }
                let group = Array(bits.bytes.suffix(13))
                for _ in 2..<(copies / 8) { bits.bytes.append(contentsOf: group) }
                written = copies / 8 * 8
            }
            for _ in written..<copies { writeCopy() }
            bits.writeCode(0, length: 7)  // end of block (symbol 256)
            var member = Data([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF])
            member.append(contentsOf: bits.finished)
            let inflated = 1 + (count - 1) / 258 * 258
            let crc = crc32OfZeros(inflated)
            let size = UInt32(truncatingIfNeeded: inflated)
            member.append(contentsOf: (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) })
            member.append(contentsOf: (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) })
            return member
        }

        /// The CRC-32 (gzip's, reflected polynomial 0xEDB88320) of `count` zero bytes, in O(log count): feeding a zero
        /// bit to the register is a linear map over GF(2), so `8 × count` of them is that map's power, found by squaring.
        static func crc32OfZeros(_ count: Int) -> UInt32 {
            // Column i of a map is the image of bit i.
            func apply(_ map: [UInt32], _ vector: UInt32) -> UInt32 {
                (0..<32).reduce(into: UInt32(0)) { sum, bit in if vector >> UInt32(bit) & 1 == 1 { sum ^= map[bit] } }
            }
            func compose(_ outer: [UInt32], _ inner: [UInt32]) -> [UInt32] {
                inner.map { apply(outer, $0) }
            }
            // One zero bit: shift right, and fold the polynomial in when the bit shifted out was set.
            var power = (0..<32).map { bit in bit == 0 ? UInt32(0xEDB8_8320) : UInt32(1) << UInt32(bit - 1) }
            var register: UInt32 = 0xFFFF_FFFF
            var bits = count * 8
            while bits > 0 {
                if bits & 1 == 1 { register = apply(power, register) }
                power = compose(power, power)
                bits >>= 1
            }
            return ~register
        }

        /// Packs bits least significant first, as deflate does.
        private struct BitWriter {
            var bytes: [UInt8] = []
            private var pending: UInt32 = 0
            private var pendingCount = 0

            /// Writes the low `count` bits of `value`, least significant first (header fields).
            mutating func write(_ value: UInt32, count: Int) {
                for bit in 0..<count { append((value >> UInt32(bit)) & 1) }
            }

            /// Writes a Huffman code, most significant bit first.
            mutating func writeCode(_ code: UInt32, length: Int) {
                for bit in stride(from: length - 1, through: 0, by: -1) { append((code >> UInt32(bit)) & 1) }
            }

            private mutating func append(_ bit: UInt32) {
                pending |= bit << UInt32(pendingCount)
                pendingCount += 1
                if pendingCount == 8 { flush() }
            }

            private mutating func flush() {
                bytes.append(UInt8(truncatingIfNeeded: pending))
                pending = 0
                pendingCount = 0
            }

            var finished: [UInt8] {
                mutating get {
                    if pendingCount > 0 { flush() }
                    return bytes
                }
            }
        }
    }
#endif
