import ArgumentParser
import CodeSweep
import Reporting
import SweepCore
#if canImport(Glibc)
import Glibc
#endif

/// `codesweep report REPORT.jsonl --html OUT.html`: a page to browse a sweep.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Turn a jsonl report into a static HTML page to browse (thumbnails with outlines, payloads, filters).",
        discussion: """
        The page is one self-contained file: inline style and script, thumbnails as data: URIs, \
        and a Content-Security-Policy that forbids loading anything from elsewhere. Images are \
        read again from the paths in the report (relative to the current folder); a missing or \
        changed file gets a blank box with its outlines. Payloads are shown as escaped text; \
        links are not clickable unless --clickable-links (then only http and https).
        """
    )

    @Argument(help: "A report written by `codesweep scan` (JSON Lines).")
    var report: String

    @Option(help: ArgumentHelp("Write the HTML page to this file.", valueName: "OUT.html"))
    var html: String

    @Flag(help: "Make http/https payloads clickable links (rel=\"noopener noreferrer nofollow\").")
    var clickableLinks = false

    @Option(help: "Longest side of the thumbnails, in pixels (0: no thumbnails, outlines on blank boxes).")
    var thumbnailSize: Int = 320

    @Option(help: "The page's title.")
    var title: String = "CodeSweep report"

    func validate() throws {
        if thumbnailSize < 0 || thumbnailSize > 2048 { throw ValidationError("--thumbnail-size takes 0...2048") }
        var a = stat(), b = stat()
        if html == report || (stat(html, &a) == 0 && stat(report, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
            throw ValidationError("--html would write over the report")
        }
    }

    func run() throws {
        let text: String
        do {
            text = try readWholeFile(report)
        } catch {
            Stderr.say("codesweep: cannot read \(report): \(error)")
            throw ExitCode(2)
        }
        var records: [FileRecord] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            do {
                let value = try JSONParser.parse(String(line))
                // Summary lines and anything else without a path are not file records.
                guard value["path"] != nil else { continue }
                guard let record = FileRecord(json: value) else {
                    Stderr.say("codesweep: \(report):\(n + 1): not a file record; skipped")
                    continue
                }
                records.append(record)
            } catch {
                Stderr.say("codesweep: \(report):\(n + 1): \(error)")
                throw ExitCode(2)
            }
        }
        let thumbnails = records.map { thumbnailSize > 0 ? Thumbnail.make(for: $0, maxSide: thumbnailSize) : Thumbnail.blank(for: $0) }
        var page = HTMLReport()
        page.title = title
        page.source = report
        page.clickableLinks = clickableLinks
        let out = page.render(records, thumbnails: thumbnails)
        do {
            let file = try OutputFile.open(html)
            file.write(out)
            if let failure = file.close() { throw failure }
        } catch {
            Stderr.say("codesweep: cannot write \(html): \(error)")
            throw ExitCode(2)
        }
    }

    func readWholeFile(_ path: String) throws -> String {
        guard let f = fopen(path, "rb") else { throw POSIXErrorText(errno) }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            if n > 0 { bytes += buf[0..<n] }
            if n < buf.count { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

struct POSIXErrorText: Error, CustomStringConvertible {
    let code: Int32
    init(_ code: Int32) { self.code = code }
    var description: String { String(cString: strerror(code)) }
}
