#if NIO
    import Testing

    @testable import RetroSwiftNIO

    /// `ObsFoldUnfolder`, which unfolds obs-fold in response heads before SwiftNIO's parser refuses it (RFC 9112 §5.2):
    /// every byte of a fold becomes SP, only in a head's field lines, however the bytes are cut into reads.
    @Suite("NIOTransport's obs-fold unfolder")
    struct ObsFoldUnfolderTests {
        /// `text` read in chunks cut at `cuts` after a request head went out, then the connection's end.
        static func unfold(_ text: String, cuts: [Int] = [], expectHeadAgainAt secondHead: Int? = nil) -> String {
            let bytes = Array(text.utf8)
            var unfolder = ObsFoldUnfolder()
            unfolder.expectHead()
            var output: [UInt8] = []
            var start = 0
            for end in cuts + [bytes.count] {
                if start == secondHead { unfolder.expectHead() }
                let chunk = Array(bytes[start..<end])
                switch unfolder.unfold(chunk) {
                case .unchanged: output += chunk
                case .replaced(let replaced): output += replaced
                }
                start = end
            }
            output += unfolder.flush()
            return String(decoding: output, as: UTF8.self)
        }

        @Test("a fold with SP becomes spaces, one for each of its bytes")
        func foldWithSpace() {
            // Given
            let head = "HTTP/1.1 200 OK\r\nX-Folded: first\r\n second\r\nContent-Length: 0\r\n\r\n"

            // When
            let unfolded = Self.unfold(head)

            // Then
            #expect(unfolded == "HTTP/1.1 200 OK\r\nX-Folded: first   second\r\nContent-Length: 0\r\n\r\n")
        }

        @Test("a fold with HTAB, and the SP and HTAB after it, become spaces")
        func foldWithTab() {
            // Given
            let head = "HTTP/1.1 200 OK\r\nX-Folded: first\r\n\t \tsecond\r\n\r\n"

            // When
            let unfolded = Self.unfold(head)

            // Then
            #expect(unfolded == "HTTP/1.1 200 OK\r\nX-Folded: first     second\r\n\r\n")
        }

        @Test("a field folded over several lines, one of them blank, becomes one line")
        func severalContinuationLines() {
            // Given
            let head = "HTTP/1.1 200 OK\r\nX-Folded: a\r\n b\r\n  \r\n\tc\r\nX-Next: d\r\n\r\n"

            // When
            let unfolded = Self.unfold(head)

            // Then
            #expect(unfolded == "HTTP/1.1 200 OK\r\nX-Folded: a   b       c\r\nX-Next: d\r\n\r\n")
        }

        @Test("a fold after a bare LF becomes spaces; bare LF line ends stay")
        func bareLineFeed() {
            // Given
            let head = "HTTP/1.1 200 OK\nX-Folded: first\n second\nX-Next: d\n\n"

            // When
            let unfolded = Self.unfold(head)

            // Then
            #expect(unfolded == "HTTP/1.1 200 OK\nX-Folded: first  second\nX-Next: d\n\n")
        }

        @Test("a CR without LF before SP is no line break, so no fold")
        func bareCarriageReturn() {
            // Given
            let head = "HTTP/1.1 200 OK\r\nX-Odd: a\r b\r\n\r\n"

            // When
            let unfolded = Self.unfold(head)

            // Then: llhttp judges it, as it came
            #expect(unfolded == head)
        }

        @Test("cut into two reads at every position, and read a byte at a time, the head unfolds the same")
        func foldSplitAcrossChunks() {
            // Given
            let head = "HTTP/1.1 200 OK\r\nX-A: first\r\n\tsecond\nX-B: b\r\n  c\r\n\r\nbody\r\n x"
            let expected = "HTTP/1.1 200 OK\r\nX-A: first   second\nX-B: b    c\r\n\r\nbody\r\n x"
            let count = head.utf8.count

            // When
            let cutOnce = (0...count).map { Self.unfold(head, cuts: [$0]) }
            let byteByByte = Self.unfold(head, cuts: Array(1..<count))

            // Then
            for (cut, unfolded) in cutOnce.enumerated() {
                #expect(unfolded == expected, "cut at \(cut)")
            }
            #expect(byteByByte == expected)
        }

        @Test("a line break that ends a read is held back until the next byte decides it, and no longer")
        func holdsBackOnlyTheLineBreak() {
            // Given
            var unfolder = ObsFoldUnfolder()
            unfolder.expectHead()

            // When
            let first = unfolder.unfold(Array("HTTP/1.1 200 OK\r\nX-A: a\r\n".utf8))
            let second = unfolder.unfold(Array(" b\r".utf8))
            let third = unfolder.unfold(Array("\n".utf8))
            let end = unfolder.flush()

            // Then
            #expect(first == .replaced(Array("HTTP/1.1 200 OK\r\nX-A: a".utf8)))
            #expect(second == .replaced(Array("   b".utf8)))
            #expect(third == .replaced([]))
            #expect(end == Array("\r\n".utf8))
        }

        @Test("a 100 and a 103 are followed by the final head, which unfolds too; a 101 ends the heads")
        func interimHeads() {
            // Given
            let interim = "HTTP/1.1 100 Continue\r\nX-A: a\r\n b\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\t;rel=preload\r\n\r\n"
            let final = "HTTP/1.1 200 OK\r\nX-B: c\r\n d\r\n\r\n"
            let switching = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\nX-C: e\r\n f\r\n\r\n"

            // When
            let unfolded = Self.unfold(interim + final)
            let switched = Self.unfold(switching)

            // Then
            #expect(
                unfolded
                    == "HTTP/1.1 100 Continue\r\nX-A: a   b\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>   ;rel=preload\r\n\r\n"
                    + "HTTP/1.1 200 OK\r\nX-B: c   d\r\n\r\n")
            #expect(switched == switching)
        }

        @Test("bytes after the head, a chunked body with CR LF SP in it, pass untouched and uncopied")
        func bodyUntouched() {
            // Given
            let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            let body = "5\r\n\r\n ab\r\n0\r\n\r\n"
            var unfolder = ObsFoldUnfolder()
            unfolder.expectHead()

            // When
            let whole = Self.unfold(head + body)
            let headRead = unfolder.unfold(Array(head.utf8))
            let bodyRead = unfolder.unfold(Array(body.utf8))

            // Then
            #expect(whole == head + body)
            #expect(headRead == .unchanged)
            #expect(bodyRead == .unchanged)
        }

        @Test("a second response on the same connection unfolds once its request went out, not its body before that")
        func secondResponse() {
            // Given
            let first = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n\r\n x"
            let second = "HTTP/1.1 200 OK\r\nX-A: a\r\n b\r\nContent-Length: 0\r\n\r\n"
            let firstCount = first.utf8.count

            // When
            let unfolded = Self.unfold(first + second, cuts: [firstCount], expectHeadAgainAt: firstCount)
            let notAsked = Self.unfold(first + second, cuts: [firstCount])

            // Then
            #expect(unfolded == first + "HTTP/1.1 200 OK\r\nX-A: a   b\r\nContent-Length: 0\r\n\r\n")
            #expect(notAsked == first + second)
        }

        @Test("the status line is never touched, not even its line end before SP")
        func statusLineUntouched() {
            // Given: whitespace before the first field, which RFC 9112 §2.2 lets a client refuse (llhttp does)
            let head = "HTTP/1.1 200 OK\r\n X-A: a\r\n\r\n"

            // When
            let unfolded = Self.unfold(head)

            // Then
            #expect(unfolded == head)
        }

        @Test("before any request head went out, bytes pass untouched")
        func passThroughUntilAsked() {
            // Given
            var unfolder = ObsFoldUnfolder()

            // When
            let unasked = unfolder.unfold(Array("HTTP/1.1 200 OK\r\nX-A: a\r\n b\r\n\r\n".utf8))

            // Then
            #expect(unasked == .unchanged)
        }
    }

    extension ObsFoldUnfolder {
        /// The bytes to pass on for `bytes`, as the handler passes a read's `Span`.
        fileprivate mutating func unfold(_ bytes: [UInt8]) -> Output {
            let contiguous = ContiguousArray(bytes)
            return unfold(contiguous.span)
        }
    }
#endif
