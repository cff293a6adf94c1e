import Foundation
import TestSupport
import Testing

@testable import Forensics

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("Picture: report --html")
struct PictureReportTests {
    typealias S = PictureSupport

    static let hostile: [(file: String, payload: String)] = [
        ("script.png", "<script>alert(1)</script>"),
        ("js-url.png", "javascript:alert(document.cookie)"),
        ("bidi.png", "https://example.com/\u{202E}gnp.exe"),
        ("quote.png", "https://evil.example/?q=\"><img src=x onerror=alert(3)>"),
        ("plain.png", "https://example.com/ok"),
    ]

    /// Scans generated hostile QR codes (plus a file named like markup) and renders the page.
    static func makeReport(_ dir: TempDir, extra: [String] = []) throws -> (html: String, records: Int) {
        for (name, payload) in hostile { try S.makeQR(payload, at: dir.url.appendingPathComponent("in/" + name), scale: 4) }
        try S.makeQR("odd name", at: dir.url.appendingPathComponent("in/<b>x\"'&\u{202E}.png"), scale: 4)
        try Data("not an image".utf8).write(to: dir.url.appendingPathComponent("in/broken.png"))
        let scan = try run(codesweepBinary, ["scan", "-q", "-o", "r.jsonl", "in"], currentDirectory: dir.path, check: false)
        #expect(scan.status == 1, "\(scan.stderr)")  // broken.png fails
        let records = try String(contentsOf: dir.url.appendingPathComponent("r.jsonl"), encoding: .utf8).split(separator: "\n").count
        let rep = try run(codesweepBinary, ["report", "r.jsonl", "--html", "r.html"] + extra, currentDirectory: dir.path, check: false)
        #expect(rep.status == 0, "\(rep.stderr)")
        return (try String(contentsOf: dir.url.appendingPathComponent("r.html"), encoding: .utf8), records)
    }

    static func parse(_ html: String) throws -> XMLDocument {
        // The page is polyglot: strict XML parsing must accept it (an unescaped payload would not).
        try XMLDocument(data: Data(html.utf8), options: [])
    }

    static func nodes(_ doc: XMLDocument, _ xpath: String) throws -> [XMLNode] { try doc.nodes(forXPath: xpath) }

    @Test("Hostile payloads and names are inert text; one entry per file; no links; CSP blocks remote loads")
    func escapesHostilePayloads() throws {
        let dir = try TempDir("picture-report")
        let (html, count) = try Self.makeReport(dir)
        #expect(count == Self.hostile.count + 2)
        let doc = try Self.parse(html)

        // One entry per file, each with its path as text.
        let sections = try Self.nodes(doc, "//section[contains(@class,'file')]")
        #expect(sections.count == count)
        let paths = try Self.nodes(doc, "//section/h2").compactMap(\.stringValue)
        #expect(paths.contains("in/<b>x\"'&\\u{202E}.png"))
        #expect(paths.contains("in/broken.png"))

        // The only script is the page's own, and no element carries an event handler or a remote source.
        let scripts = try Self.nodes(doc, "//script")
        #expect(scripts.count == 1)
        #expect(scripts.first?.stringValue?.contains("alert") == false)
        #expect(try Self.nodes(doc, "//@*[starts-with(name(),'on')]").isEmpty)
        for src in try Self.nodes(doc, "//img/@src").compactMap(\.stringValue) {
            #expect(src.hasPrefix("data:image/jpeg;base64,"))
        }
        #expect(try Self.nodes(doc, "//img").count == count - 1)  // every readable file has a thumbnail
        #expect(try Self.nodes(doc, "//a").isEmpty)  // links are not clickable by default
        #expect(try Self.nodes(doc, "//iframe|//object|//embed|//link|//base|//form").isEmpty)

        // Payloads appear exactly as text (escaped in the source).
        let payloads = try Self.nodes(doc, "//li[contains(@class,'code')]/*[contains(@class,'payload')]").compactMap(\.stringValue)
        #expect(payloads.contains("<script>alert(1)</script>"))
        #expect(payloads.contains("javascript:alert(document.cookie)"))
        #expect(payloads.contains("https://evil.example/?q=\"><img src=x onerror=alert(3)>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.contains("<script>alert"))
        // The bidi override never reaches the page; it is shown as a marked escape.
        #expect(!html.unicodeScalars.contains("\u{202E}"))
        #expect(payloads.contains("https://example.com/\\u{202E}gnp.exe"))
        let escapes = try Self.nodes(doc, "//span[@class='esc']").compactMap(\.stringValue)
        #expect(escapes.filter { $0 == "\\u{202E}" }.count >= 2)

        // CSP: nothing but data: images and the page's own hashed style and script.
        let csp = try Self.nodes(doc, "//meta[@http-equiv='Content-Security-Policy']/@content").first?.stringValue ?? ""
        #expect(csp.contains("default-src 'none'"))
        #expect(csp.contains("img-src data:;"))
        #expect(!csp.contains("unsafe-inline"))
        // The hash is of the script's source text as written (the XML view drops the CDATA markers).
        let start = try #require(html.range(of: "<script>")), end = try #require(html.range(of: "</script>"))
        #expect(csp.contains(HTMLReport.cspHash(String(html[start.upperBound..<end.lowerBound]))))
        let styleStart = try #require(html.range(of: "<style>")), styleEnd = try #require(html.range(of: "</style>"))
        #expect(csp.contains(HTMLReport.cspHash(String(html[styleStart.upperBound..<styleEnd.lowerBound]))))

        // Filters: symbology and URL host options, from the report.
        let hosts = try Self.nodes(doc, "//select[@id='f-host']/option/@value").compactMap(\.stringValue)
        #expect(hosts == ["", "evil.example", "example.com"])
        let syms = try Self.nodes(doc, "//select[@id='f-sym']/option/@value").compactMap(\.stringValue)
        #expect(syms == ["", "qr"])
        // The SVG overlay has one outline per code, in the image's own coordinates.
        #expect(try Self.nodes(doc, "//*[local-name()='polygon']").count == count - 1)
    }

    @Test("--clickable-links makes only plain http(s) payloads links, with rel=noopener noreferrer nofollow")
    func clickableLinks() throws {
        let dir = try TempDir("picture-links")
        let (html, _) = try Self.makeReport(dir, extra: ["--clickable-links", "--thumbnail-size", "0"])
        let doc = try Self.parse(html)
        let links = try Self.nodes(doc, "//a")
        let hrefs = try Self.nodes(doc, "//a/@href").compactMap(\.stringValue)
        #expect(hrefs == ["https://example.com/ok"])  // not javascript:, not the bidi or quote ones
        #expect(links.count == 1)
        let rel = try Self.nodes(doc, "//a/@rel").first?.stringValue
        #expect(rel == "noopener noreferrer nofollow")
        #expect(try Self.nodes(doc, "//img").isEmpty)
        #expect(try Self.nodes(doc, "//*[local-name()='rect']").count == Self.hostile.count + 1)  // blank boxes with outlines
    }

    @Test("Escaping and hashing helpers")
    func helpers() {
        #expect(HTMLReport.text("a<b>&\"'") == "a&lt;b&gt;&amp;&quot;&#39;")
        #expect(HTMLReport.text("x\u{1B}[31m") == "x<span class=\"esc\">\\x1b</span>[31m")
        #expect(HTMLReport.attr("a\"\u{202E}b") == "a&quot;\\u{202E}b")
        #expect(DisplayText.urlHost("HTTPS://user@Example.COM:8443/x") == "example.com")
        #expect(DisplayText.urlHost("javascript:alert(1)") == nil)
        #expect(!DisplayText.isSafeLink(" https://example.com"))
        #expect(!DisplayText.isSafeLink("https://example.com/\u{202E}"))
        #expect(DisplayText.isSafeLink("https://example.com/a?b=c#d"))
        // The page's CSP names its inline script and style by SHA-256 (base64), as browsers compute it.
        #expect(HTMLReport.cspHash("abc") == "'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='")
    }
}
