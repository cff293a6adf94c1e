import AssetCheck
import CodeContent
import Foundation
import Payloads
import Records
import Reporting
import TestSupport
import Testing

/// The host summarize and report show is the host check's gate reads.
@Suite("One reading of a URL's host")
struct URLHostReadingTests {
    @Test("summarize's and report's host reads special URLs as check does")
    func ofURL() throws {
        #expect(URLHost.ofURL("https:evil.example/?a=1")?.host.ascii == "evil.example")
        #expect(URLHost.ofURL("https:/evil.example")?.host.ascii == "evil.example")
        #expect(URLHost.ofURL("HTTP:///Evil.Example:80/x")?.host.ascii == "evil.example")
        #expect(URLHost.ofURL("https://[0:0::1]/")?.host.ascii == "[::1]")
        #expect(URLHost.ofURL("mailto:a@evil.example") == nil)
        #expect(URLHost.ofURL("foo://evil.example/")?.host.ascii == "evil.example")
        for text in ["https:evil.example/", "https:/evil.example", "https://[0:0::1]/", "https://user@good.example@evil.example/"] {
            #expect(
                URLHost.ofURL(text)?.host.ascii.replacingOccurrences(of: "[", with: "").replacingOccurrences(of: "]", with: "")
                    == (try? URLParts.parse(text))?.host, "\(text)")
        }
    }
}
