import ArgumentParser
import CodeSweep
import FileWalker
import Forensics
import Records
import Reporting
import UserInput

#if canImport(Glibc)
import Glibc
#endif

/// `codesweep report REPORT.jsonl --html OUT.html`: a page to browse a sweep.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Turn a jsonl or json report into a static HTML page to browse (thumbnails with outlines, payloads, filters).",
        discussion: """
            The page is one self-contained file: inline style and script, thumbnails as data: URIs, \
            and a Content-Security-Policy that forbids loading anything from elsewhere. Pictures are \
            read again from the paths in the report (a container's member found again in its \
            container, a document's page or a video's sample rendered again): relative paths are \
            looked for in the report file's own folder, then in the current folder (or only under \
            --root DIR). A missing or changed file gets a blank box with its outlines, and stderr \
            says how many pictures could not be opened. Codes found on later frames (an animated \
            GIF's or a TIFF's, a document's later pages, a video's samples) get a picture of that \
            frame. Payloads are shown as escaped text; links are not clickable unless \
            --clickable-links (then only http and https).
            """
    )

    @Argument(help: "A report written by `codesweep scan` (JSON Lines, or --format json).")
    var report: String

    @Option(
        help: ArgumentHelp("The folder the report's relative paths start from (default: the report's own folder, then the current folder).", valueName: "DIR"))
    var root: String?

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
        if html == report || UserPath.sameFile(html, report) {
            throw ValidationError("--html would write over the report")
        }
    }

    func run() throws {
        let records = try readRecords()
        let rootBytes = root.map(ArgumentBytes.bytes)
        let reportBytes = ArgumentBytes.bytes(report)
        // The page must not replace a picture it shows (the report itself is refused in validate).
        let pictures = records.map { OutputGuard.Input("a picture of the report", ReportInput.locate($0, reportPath: reportBytes, root: rootBytes)) }
        try OutputGuard.refuse("codesweep report", flag: "--html", output: html, inputs: pictures)
        var thumbnails: [Thumbnail?] = [], frameThumbnails: [[Int: Thumbnail]] = []
        var unopened: [String] = []
        for r in records {
            guard thumbnailSize > 0 else { thumbnails.append(Thumbnail.blank(for: r)); frameThumbnails.append([:]); continue }
            var at = ReportInput.locate(r, reportPath: reportBytes, root: rootBytes)
            if let rootBytes {
                switch ReportInput.confined(at, root: rootBytes) {
                case .success(let real): at = real
                case .failure(let refusal):
                    var t = Thumbnail.blank(for: r, maxSide: thumbnailSize)
                    t?.note = refusal.note
                    if t != nil {
                        let shown = Walker.display(ReportInput.locate(r, reportPath: reportBytes, root: rootBytes))
                        unopened.append(TerminalText.escape(shown) + ": " + TerminalText.escape(refusal.note))
                    }
                    thumbnails.append(t); frameThumbnails.append([:])
                    continue
                }
            }
            let t = Thumbnail.make(for: r, maxSide: thumbnailSize, at: at)
            if let note = t?.note { unopened.append(TerminalText.escape(Walker.display(at)) + ": " + TerminalText.escape(note)) }
            thumbnails.append(t)
            var frames: [Int: Thumbnail] = [:]
            if t?.note == nil {
                for f in Set(r.codes.map(\.frame)).filter({ $0 > 0 }) {
                    if let ft = Thumbnail.make(for: r, maxSide: thumbnailSize, frame: f, at: at) { frames[f] = ft }
                }
            }
            frameThumbnails.append(frames)
        }
        if !unopened.isEmpty {
            let pictures = thumbnails.compactMap { $0 }.count
            var lines = [
                "codesweep report: \(unopened.count) of \(pictures) picture\(pictures == 1 ? "" : "s") could not be opened (shown as blank boxes with their outlines):"
            ]
            lines += unopened.prefix(3).map { "  \($0)" }
            if unopened.count > 3 { lines.append("  … and \(unopened.count - 3) more") }
            lines.append(
                root != nil
                    ? "  (relative paths were looked for under --root \(TerminalText.escape(root!)))"
                    : "  (relative paths were looked for beside the report and in the current folder; --root DIR names the folder the scan ran in)")
            // Every piece of `unopened` and --root is escaped above: one line each.
            Stderr.say("\(escaped: lines.joined(separator: "\n"))")
        }
        var page = HTMLReport()
        page.title = title
        page.source = ArgumentBytes.display(report)
        page.clickableLinks = clickableLinks
        let out = page.render(records, thumbnails: thumbnails, frameThumbnails: frameThumbnails)
        do {
            try SafeFile.write(out, to: html)
        } catch {
            Stderr.say("codesweep: cannot write \(ArgumentBytes.display(html)): \(error)")
            throw ExitCode(2)
        }
    }

    /// The report's records (a problem is said on stderr and ends the command with status 2).
    /// Read a piece at a time (`ReportInput.stream`): a stream with no newline (`/dev/zero`) ends
    /// at the limit of one line, not after a gigabyte is held.
    func readRecords() throws -> [FileRecord] {
        var records: [FileRecord] = []
        do {
            let fd = try UserPath.openInput(report)
            defer { UserPath.closeInput(fd) }
            let skipped = try ReportInput.stream(fd, source: report == "-" ? "(standard input)" : ArgumentBytes.display(report)) { r, _ in
                records.append(r)
            }
            for note in skipped { Stderr.say("codesweep: \(note)") }
            return records
        } catch {
            Stderr.say("codesweep: \(error)")
            throw ExitCode(2)
        }
    }
}
