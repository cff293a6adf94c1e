import Foundation
import Payloads
import Records
import Reporting
import TestSupport
import Testing

/// What zbarimg and ZXingReader users reach for: `--raw`, `--fail-if-none` (exit 4), `scan -`,
/// and per-code `details`. Real images (qrencode, zint, ImageMagick) through the real binary.
@Suite("Scan flags: --raw, --fail-if-none, stdin, details")
struct ScanFlagsTests {
    @Test("--raw prints payloads only, one per line, bytes as read (an escape stays an escape); --format text never prints it")
    func raw() throws {
        let dir = try TempDir()
        try dir.mkdir("in")
        try Make.qr("line1\nline2", to: dir.file("in/a.png"), scale: 4, margin: 4)
        try Make.qr("\u{1B}[31mred", to: dir.file("in/b.png"), scale: 4, margin: 4)
        try Make.zint(type: 13, "400638133393", to: dir.file("in/c.png"), scale: "2")
        let r = try run(codesweepBinary, ["scan", "-q", "--raw", "in"], currentDirectory: dir.path, check: false)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "line1\nline2\n\u{1B}[31mred\n4006381333931\n")
        let text = try run(codesweepBinary, ["scan", "-q", "--format", "text", dir.file("in/b.png")], check: false)
        // (--format text shows a payload with an escape byte as binary; it never prints the escape.)
        #expect(text.stdout.contains("[binary, 8 bytes]") && !text.stdout.contains("\u{1B}"), "\(text.stdout)")
        let bad = try run(codesweepBinary, ["scan", "--raw", "--format", "csv", "in"], currentDirectory: dir.path, check: false)
        #expect(bad.status != 0 && bad.stderr.contains("--raw prints payloads only"))
    }

    @Test("--raw names each failed file on stderr (with -q too), as zbarimg's ERROR lines do; payloads stay on stdout")
    func rawReportsFailures() throws {
        let dir = try TempDir()
        try Make.qr("found", to: dir.file("code.png"), scale: 4, margin: 4)
        try Data().write(to: URL(fileURLWithPath: dir.file("empty.png")))
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: dir.file("broken.png")))
        let r = try run(
            codesweepBinary, ["scan", "-q", "--raw", "--jobs", "1", dir.file("code.png"), dir.file("empty.png"), dir.file("broken.png")], check: false)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout == "found\n", "payloads only on stdout")
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("codesweep: error: ") }
        #expect(lines.count == 2, "\(r.stderr)")
        #expect(lines.contains { $0.contains("empty.png: empty: ") }, "\(r.stderr)")
        #expect(lines.contains { $0.contains("broken.png: ") }, "\(r.stderr)")
    }

    @Test("--fail-if-none exits 4 when no file holds a code, 0 when one does, 1 when a file failed")
    func failIfNone() throws {
        let dir = try TempDir()
        try Make.convert(["-size", "80x80", "xc:white", dir.file("blank.png")])
        try Make.qr("found", to: dir.file("code.png"), scale: 4, margin: 4)
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: dir.file("broken.png")))
        #expect(try run(codesweepBinary, ["scan", "-q", "--fail-if-none", dir.file("blank.png")], check: false).status == 4)
        #expect(try run(codesweepBinary, ["scan", "-q", dir.file("blank.png")], check: false).status == 0, "without the flag: 0")
        #expect(try run(codesweepBinary, ["scan", "-q", "--fail-if-none", dir.file("blank.png"), dir.file("code.png")], check: false).status == 0)
        #expect(try run(codesweepBinary, ["scan", "-q", "--fail-if-none", dir.file("blank.png"), dir.file("broken.png")], check: false).status == 1)
    }

    @Test("scan - reads an image from standard input; the record says '-' and the temporary copy is removed")
    func stdin() throws {
        let dir = try TempDir()
        try dir.mkdir("tmp")
        try Make.qr("https://www.example.com/stdin", to: dir.file("a.png"), scale: 4, margin: 4)
        let r = try sh("TMPDIR=\"$1\" exec \"$2\" scan -q - < \"$3\"", [dir.file("tmp"), codesweepBinary, dir.file("a.png")])
        #expect(r.status == 0, "\(r.stderr)")
        let record = try FileRecord.read(json: Array(r.stdout.trimmingCharacters(in: .newlines).utf8))
        #expect(record.path == "-")
        #expect(record.codes.map { PayloadText.decode($0.bytes).text } == ["https://www.example.com/stdin"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("tmp")).isEmpty, "the stdin copy is removed")
        // Not an image on stdin: an error record for '-', exit 1.
        let junk = try sh("printf 'hello' | exec \"$1\" scan -q -", [codesweepBinary])
        #expect(junk.status == 1 && junk.stdout.contains("\"path\":\"-\"") && junk.stdout.contains("not_image"))
        let twice = try run(codesweepBinary, ["scan", "-", "-"], check: false)
        #expect(twice.status != 0 && twice.stderr.contains("can be named once"))
    }

    @Test("per-code details: AIM symbology identifier and ZBar's orientation, read back from the record")
    func details() throws {
        let dir = try TempDir()
        try dir.mkdir("in")
        try Make.qr("https://www.example.com/d", to: dir.file("q.png"), scale: 4, margin: 4)
        try Make.convert([dir.file("q.png"), "-rotate", "90", dir.file("in/qr-turned.png")])
        try Make.zint(type: 13, "400638133393", to: dir.file("in/ean.png"), scale: "2")
        try Make.zint(type: 20, "ACME-0042", to: dir.file("in/c128.png"), scale: "2")
        let r = try run(codesweepBinary, ["scan", "-q", "in"], currentDirectory: dir.path, check: false)
        #expect(r.status == 0, "\(r.stderr)")
        var byName: [String: JSONValue] = [:]
        for line in r.stdoutLines { let v = try JSONReading.value(line); byName[v["path"]?.stringValue ?? ""] = v["codes"]?.arrayValue?.first?["details"] }
        #expect(byName["in/ean.png"]?["symbology_id"]?.stringValue == "]E0")
        #expect(byName["in/c128.png"]?["symbology_id"]?.stringValue == "]C0")
        #expect(byName["in/c128.png"]?["orientation"]?.stringValue == "up")
        let turned = try #require(byName["in/qr-turned.png"])
        #expect(turned["symbology_id"]?.stringValue == "]Q1")
        let orientation = try #require(turned["orientation"]?.stringValue)
        #expect(orientation == "right" || orientation == "left", "a QR code turned 90° does not face up")
        // Read back: the orientation survives a round trip through the record.
        let line = try #require(r.stdoutLines.first { $0.contains("qr-turned") })
        let record = try FileRecord.read(json: Array(line.utf8))
        #expect(DetectedCode.orientationNames[record.codes[0].orientation] == orientation)
        // GS1 is said only where the symbology decides it.
        #expect(Symbology.databar.isGS1 == true && Symbology.code128.isGS1 == nil && Symbology.sq.symbologyIdentifier == nil)
    }
}
