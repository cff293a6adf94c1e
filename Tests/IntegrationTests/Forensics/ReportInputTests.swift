import Foundation
import TestSupport
import Testing

@testable import Forensics

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `codesweep report` run from another folder, on json and jsonl reports, with an animated GIF:
/// real images made with qrencode and the real ImageMagick, scanned and reported by the binary.
@Suite("Report: where the images are, which reports it reads")
struct ReportInputTests {
    /// scan/imgs/a.png (a QR code) and scan/imgs/anim.gif (frame 0 blank, the code on frame 1),
    /// scanned from scan/ into scan/report.jsonl and scan/report.json.
    static func makeScan() throws -> TempDir {
        let dir = try TempDir()
        try dir.mkdir("scan/imgs")
        try dir.mkdir("elsewhere")
        try Make.qr("https://www.example.com/a", to: dir.file("scan/imgs/a.png"), scale: 4, margin: 4)
        try Make.qr("frame-one", to: dir.file("q.png"), scale: 3, margin: 4)
        try Make.convert(["-size", "120x120", "xc:white", dir.file("blank.png")])
        try Make.convert(["-size", "120x120", "xc:white", dir.file("q.png"), "-gravity", "center", "-composite", dir.file("q2.png")])
        try Make.convert(["-delay", "50", dir.file("blank.png"), dir.file("q2.png"), "-loop", "0", dir.file("scan/imgs/anim.gif")])
        let jsonl = try run(codesweepBinary, ["scan", "-q", "-o", "report.jsonl", "imgs"], currentDirectory: dir.file("scan"), check: false)
        #expect(jsonl.status == 0, "\(jsonl.stderr)")
        let json = try run(codesweepBinary, ["scan", "-q", "--format", "json", "-o", "report.json", "imgs"], currentDirectory: dir.file("scan"), check: false)
        #expect(json.status == 0, "\(json.stderr)")
        return dir
    }

    static func pictures(_ html: String) -> Int { html.components(separatedBy: "src=\"data:image/jpeg;base64,").count - 1 }

    @Test("run from another folder, report finds the images beside the report; --root names their folder; stderr counts what it could not open")
    func findsImages() throws {
        let dir = try Self.makeScan()
        let away = dir.file("elsewhere")
        let r = try run(codesweepBinary, ["report", "../scan/report.jsonl", "--html", "r.html"], currentDirectory: away, check: false)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("could not be opened"), "\(r.stderr)")
        let html = try String(contentsOfFile: away + "/r.html", encoding: .utf8)
        #expect(Self.pictures(html) == 3, "a.png, and the GIF's frames 0 and 1")
        #expect(!html.contains("no picture"))

        // --root: only there. The scan folder works; a wrong one is counted on stderr.
        let rooted = try run(
            codesweepBinary, ["report", "../scan/report.jsonl", "--html", "r2.html", "--root", "../scan"], currentDirectory: away, check: false)
        #expect(rooted.status == 0 && !rooted.stderr.contains("could not be opened"), "\(rooted.stderr)")
        let wrong = try run(codesweepBinary, ["report", "../scan/report.jsonl", "--html", "r3.html", "--root", "."], currentDirectory: away, check: false)
        #expect(wrong.status == 0)
        #expect(wrong.stderr.contains("2 of 2 pictures could not be opened"), "\(wrong.stderr)")
        #expect(wrong.stderr.contains("./imgs/a.png: cannot open"))
        #expect(Self.pictures(try String(contentsOfFile: away + "/r3.html", encoding: .utf8)) == 0)
    }

    @Test("a --format json report reads like the jsonl one")
    func readsJSONDocument() throws {
        let dir = try Self.makeScan()
        let lines = try ReportInput.records(Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("scan/report.jsonl")))), source: "l")
        let doc = try ReportInput.records(Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("scan/report.json")))), source: "d")
        #expect(lines.records.map(\.path) == ["imgs/a.png", "imgs/anim.gif"])
        #expect(doc.records.map(\.path) == lines.records.map(\.path))
        #expect(doc.records.map { $0.codes.map(\.bytes) } == lines.records.map { $0.codes.map(\.bytes) })
        let r = try run(codesweepBinary, ["report", "report.json", "--html", "r.html"], currentDirectory: dir.file("scan"), check: false)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.pictures(try String(contentsOfFile: dir.file("scan/r.html"), encoding: .utf8)) == 3)
        #expect(throws: ReportInput.Failure.self) { try ReportInput.records(Array("{\"path\":\"a\"}\nnot json\n".utf8), source: "x") }
    }

    @Test("an animated GIF's code on frame 1 is outlined on a picture of frame 1")
    func laterFrameOutlines() throws {
        let dir = try Self.makeScan()
        let r = try run(codesweepBinary, ["report", "report.jsonl", "--html", "r.html"], currentDirectory: dir.file("scan"), check: false)
        #expect(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOfFile: dir.file("scan/r.html"), encoding: .utf8)
        let doc = try XMLDocument(data: Data(html.utf8), options: [])
        let gif = try #require(try doc.nodes(forXPath: "//section[h2='imgs/anim.gif']").first as? XMLElement)
        let pics = try gif.nodes(forXPath: ".//div[@class='pic']")
        #expect(pics.count == 2, "frame 0 and frame 1")
        // Frame 0 has no outline; frame 1's picture carries the code's outline.
        #expect(try pics[0].nodes(forXPath: ".//*[local-name()='polygon']").isEmpty)
        #expect(try pics[1].nodes(forXPath: ".//*[local-name()='polygon']").count == 1)
        #expect(try gif.nodes(forXPath: ".//p[@class='note']").compactMap(\.stringValue).contains("frame 1:"))
    }
}
