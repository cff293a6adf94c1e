import Foundation
import TestSupport
import Testing

@testable import Reporting

/// `report --root` reads the pictures of a report only under the root: no `..`, no absolute
/// path, no path_b64 and no link leads out of it.
@Suite("report --root reads pictures only under the root", .serialized)
struct ReportRootTests {
    @Test("report --root reads pictures only under the root (.., absolute, path_b64, links out)")
    func reportStaysUnderRoot() throws {
        let dir = try TempDir("root")
        try dir.mkdir("root"); try dir.mkdir("secret")
        try run(Tools.qrencode, ["-s", "4", "-o", dir.file("root/ok.png"), "https://www.example.com/ok"])
        try FileManager.default.copyItem(atPath: dir.file("root/ok.png"), toPath: dir.file("secret/private.png"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("root/link.png"), withDestinationPath: "../secret/private.png")
        let scanned = try run(codesweepBinary, ["scan", "ok.png"], currentDirectory: dir.file("root"))
        let line = scanned.stdoutLines[0]
        func with(path: String, b64: String? = nil) -> String {
            var l = line.replacingOccurrences(of: #""path":"ok.png""#, with: "\"path\":\"\(path)\"")
            if let b64 { l = l.replacingOccurrences(of: "\"path\":\"\(path)\"", with: "\"path\":\"\(path)\",\"path_b64\":\"\(b64)\"") }
            return l
        }
        let evil = [
            line, with(path: "../secret/private.png"), with(path: dir.file("secret/private.png")), with(path: "link.png"),
            with(path: "x", b64: Data("../secret/private.png".utf8).base64EncodedString()),
        ]
        try dir.write("evil.jsonl", Array((evil.joined(separator: "\n") + "\n").utf8))
        let r = try run(codesweepBinary, ["report", dir.file("evil.jsonl"), "--root", dir.file("root"), "--html", dir.file("page.html")], check: false)
        #expect(r.status == 0, "\(r.stderr)")
        let page = try String(contentsOfFile: dir.file("page.html"), encoding: .utf8)
        #expect(page.components(separatedBy: "data:image/jpeg").count - 1 == 1, "only ok.png is under the root")
        #expect(r.stderr.contains("4 of 5 pictures could not be opened") && r.stderr.contains("outside --root"), "\(r.stderr)")
    }
}
