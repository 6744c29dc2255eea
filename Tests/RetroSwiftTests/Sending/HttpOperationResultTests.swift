import Foundation
import Testing

@testable import RetroSwift

@Suite("HttpOperationResult")
struct HttpOperationResultTests {
    @Test("a URL reported as a string reads back as that URL, and setting url replaces it")
    func urlReportedAsString() {
        // Given a result whose transport reported its URL as a string
        var result = HttpOperationResult(statusCode: 200)
        #expect(!result.reportsURL)
        result.setURL(string: "http://127.0.0.1:8080/items/7?full=true")

        // Then it reports one, and reading it parses that string
        #expect(result.reportsURL)
        #expect(result.url?.absoluteString == "http://127.0.0.1:8080/items/7?full=true")

        // When url is set, the new value wins; when it is cleared, none is reported
        result.url = URL(string: "http://127.0.0.1:8080/other")
        #expect(result.url?.absoluteString == "http://127.0.0.1:8080/other")
        result.url = nil
        #expect(!result.reportsURL)
        #expect(result.url == nil)
    }

    @Test("a reported string that is not a URL reads as no URL")
    func unparsableString() {
        // Given a string URL(string:) refuses
        var result = HttpOperationResult(statusCode: 200)
        result.setURL(string: "http://[::1")

        // Then the result reported something, but has no URL to give
        #expect(result.reportsURL)
        #expect(result.url == nil)
    }
}
