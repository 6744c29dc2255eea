// Target for the RFC 8288 `Link` header parser (`LinkHeader`, Sources/RetroSwift/Pagination/LinkHeader.swift) and
// the `linkHeader` pagination strategy that follows its `rel="next"`.
//
// Invariants, for any header value:
// - the parse ends (libFuzzer's -timeout catches a loop) and every target is a run of the header's own UTF-8 bytes,
//   without `>`;
// - parameter names are non-empty lowercase tokens, each once per link;
// - writing the links back out (`<target>; name="value"`, quotes and backslashes escaped) and parsing that again
//   gives the same links;
// - `target(of:relation:)` is the first link whose `rel` holds the relation;
// - the pagination strategy either stops, throws, or moves on to a URL on the page's own origin.

import Foundation

enum FuzzLinkHeader {
    struct Page {
        var url: String
    }

    static let pageURL = URL(string: "https://api.github.com/repositories/44838949/issues?per_page=30&page=2")!

    static func run(_ bytes: [UInt8]) {
        let header = String(decoding: bytes, as: UTF8.self)
        let utf8 = Array(header.utf8)
        let links = LinkHeader.links(in: header)
        for link in links {
            let target = Array(link.target.utf8)
            fuzzCheck(!target.contains(UInt8(ascii: ">")), "link-header: target \(fuzzShow(target)) holds '>'")
            fuzzCheck(contains(utf8, target), "link-header: target \(fuzzShow(target)) is not in the header")
            var names: Set<String> = []
            for (name, _) in link.parameters {
                fuzzCheck(!name.isEmpty, "link-header: empty parameter name")
                fuzzCheck(
                    name.utf8.allSatisfy { HeaderRules.isTokenCharacter($0) && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) },
                    "link-header: parameter name \(name.debugDescription) is not a lowercase token")
                fuzzCheck(names.insert(name).inserted, "link-header: parameter \(name) twice in one link")
            }
        }

        let written = links.map(write).joined(separator: ", ")
        let reread = LinkHeader.links(in: written)
        fuzzCheck(
            reread == links,
            "link-header: \(header.debugDescription) gives \(links.count) links; written back as "
                + "\(written.debugDescription) it gives \(reread.count) links, or different ones")

        for relation in ["next", "last", "NEXT"] {
            let expected = links.first { $0.relations.contains(relation.lowercased()) }?.target
            fuzzCheck(LinkHeader.target(of: header, relation: relation) == expected, "link-header: target(of:relation: \(relation))")
        }

        let strategy = Pagination<Page, HTTPResponse<[Int]>, Int>.linkHeader(\.url, items: \.self)
        let response = HTTPResponse(body: [1, 2, 3], headers: ["Link": header], url: pageURL)
        guard let next = try? strategy.next(Page(url: pageURL.absoluteString), response, [1, 2, 3]) else { return }
        guard let nextURL = URL(string: next.url) else { fuzzFail("link-header: next page \(next.url.debugDescription) is not a URL") }
        fuzzCheck(
            Origin(nextURL) != nil && Origin(nextURL) == Origin(pageURL),
            "link-header: next page \(next.url.debugDescription) is on another origin than \(pageURL)")
    }

    private static func write(_ link: LinkHeader.Link) -> String {
        var text = "<\(link.target)>"
        for (name, value) in link.parameters {
            var quoted = ""
            for scalar in value.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { quoted.unicodeScalars.append("\\") }
                quoted.unicodeScalars.append(scalar)
            }
            text += "; \(name)=\"\(quoted)\""
        }
        return text
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }
}
