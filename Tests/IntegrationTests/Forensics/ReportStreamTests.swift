import Foundation
import Reporting
import TestSupport
import Testing
import UserInput

@testable import Forensics

#if canImport(Glibc)
import Glibc
#endif

/// `ReportInput.stream`, what `summarize` reads reports with: a JSON Lines report a piece at a
/// time, handed over record by record, must give what reading the whole text gives (the same
/// records, texts, skipped entries and errors), whatever the pieces; a `--format json`
/// document is read whole. The reports are real: Samples/ scanned by the binary.
@Suite("Report input, a piece at a time")
struct ReportStreamTests {
    static func scan(_ format: String) throws -> [UInt8] {
        let r = try run(codesweepBinary, ["scan", "-q", "--format", format, "--effort", "fast", "Samples"], currentDirectory: PackageRoot.path, check: false)
        #expect(r.status == 1, "Samples/corrupt.jpg fails on purpose: \(r.stderr)")
        return Array(r.stdout.utf8)
    }

    /// `bytes` written into a pipe in uneven pieces (1, 10, 37, … bytes) from another thread
    /// while `stream` reads the other end.
    static func streamed(_ bytes: [UInt8]) throws -> (records: [String], texts: [[String?]], skipped: [String]) {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        // The reader may stop early (a limit) and close its end: the writer then gets EPIPE,
        // not a SIGPIPE that would end the test runner.
        let writer = Thread {
            withoutSIGPIPE {
                var off = 0, step = 1
                while off < bytes.count {
                    let end = min(bytes.count, off + step)
                    guard (try? FileIO.writeAll(writeEnd, bytes[off..<end])) != nil else { break }
                    off = end; step = step * 3 + 7
                }
            }
            close(writeEnd)
        }
        writer.start()
        defer { close(readEnd) }
        var records: [String] = [], texts: [[String?]] = []
        let skipped = try ReportInput.stream(readEnd, source: "r") { r, t in
            records.append(r.json().serialized())
            texts.append(t)
        }
        return (records, texts, skipped)
    }

    static func whole(_ bytes: [UInt8]) throws -> (records: [String], texts: [[String?]], skipped: [String]) {
        let read = try ReportInput.records(bytes, source: "r")
        return (read.records.map { $0.json().serialized() }, read.texts, read.skipped)
    }

    @Test("JSON Lines with blank lines, summaries, a line that is no record, CRLF and no last newline: as read whole")
    func jsonLines() throws {
        let report = try Self.scan("jsonl")
        let lines = String(decoding: report, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count >= 10)
        let variants: [String] = [
            lines.joined(separator: "\n") + "\n",
            "\n  \n\t\n" + lines.joined(separator: "\n\n"),  // blank lines first and between, no last newline
            lines.map { $0 + "\r\n" }.joined(),
            "{\"summary\":{\"files\":3}}\n" + lines[0] + "\n{\"path\":5,\"status\":\"ok\"}\n" + lines.dropFirst().joined(separator: "\n"),
        ]
        for (i, text) in variants.enumerated() {
            let bytes = Array(text.utf8)
            let expected = try Self.whole(bytes), got = try Self.streamed(bytes)
            #expect(got.records == expected.records, "variant \(i)")
            #expect(got.texts.map { $0.map { $0 ?? "nil" } } == expected.texts.map { $0.map { $0 ?? "nil" } }, "variant \(i)")
            #expect(got.skipped == expected.skipped, "variant \(i)")
            #expect(got.records.count == lines.count, "variant \(i)")
        }
        #expect(try Self.streamed(Array(variants[3].utf8)).skipped == ["r:3: not a file record; skipped"])
    }

    @Test("a --format json document, pretty or on one line, is read whole: the same records")
    func documents() throws {
        let pretty = try Self.scan("json")
        let object = try JSONSerialization.jsonObject(with: Data(pretty))
        let oneLine = [UInt8](try JSONSerialization.data(withJSONObject: object))
        #expect(!oneLine.contains(UInt8(ascii: "\n")))
        for bytes in [pretty, oneLine, Array("\n\n".utf8) + pretty] {
            let expected = try Self.whole(bytes), got = try Self.streamed(bytes)
            #expect(got.records == expected.records)
            #expect(got.records.count >= 10)
        }
    }

    @Test("a broken line: the same error, naming the same line, as read whole")
    func brokenLine() throws {
        let lines = String(decoding: try Self.scan("jsonl"), as: UTF8.self).split(separator: "\n").map(String.init)
        let bytes = Array((["", lines[0], "   ", lines[1], "{\"path\": \"a.png\", \"codes\": [", lines[2]].joined(separator: "\n")).utf8)
        var expected = "", got = ""
        do { _ = try Self.whole(bytes) } catch { expected = "\(error)" }
        do { _ = try Self.streamed(bytes) } catch { got = "\(error)" }
        #expect(expected.hasPrefix("r:4: "), "\(expected)")
        #expect(got == expected)
        // Nothing but blank lines is an empty report, as it is read whole.
        #expect(try Self.streamed(Array("\n \n".utf8)).records.isEmpty)
    }
}

/// A report that cannot be read to its end is an error, never a shorter report.
@Suite("Report input that cannot be read")
struct ReportUnreadableTests {
    @Test("report and summarize on a folder named as the report: exit 2, the reason on stderr, no page")
    func folderAsReport() throws {
        let dir = try TempDir()
        try dir.mkdir("not-a-report")
        let page = dir.file("page.html")
        let report = try run(codesweepBinary, ["report", dir.file("not-a-report"), "--html", page], check: false)
        #expect(report.status == 2)
        #expect(report.stderr.contains("cannot read \(dir.file("not-a-report")): Is a directory"), "\(report.stderr)")
        #expect(!FileManager.default.fileExists(atPath: page))
        let summary = try run(codesweepBinary, ["summarize", dir.file("not-a-report")], check: false)
        #expect(summary.status == 2)
        #expect(summary.stderr.contains("Is a directory"), "\(summary.stderr)")
        #expect(summary.stdout.isEmpty)
    }
}
