import CodeSweep
import Records
import Reporting
import SweepCore
import UserInput

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A scan report read back by `codesweep report` and `codesweep summarize`: its records, from
/// JSON Lines or a `--format json` document, and where each record's image is now.
package enum ReportInput {
    package struct Failure: Error, CustomStringConvertible, Equatable {
        package var description: String
    }

    /// A report read back.
    package struct Read: Sendable {
        package var records: [FileRecord] = []
        /// Per record, per code: the `text` the report wrote (the scan's reading, `--charset`
        /// and all; nil for binary or when the report has none).
        package var texts: [[String?]] = []
        /// The entries passed over, for stderr.
        package var skipped: [String] = []

        mutating func add(_ entry: Entry) {
            guard let r = entry.record else { return }
            records.append(r)
            texts.append(entry.codeTexts)
        }
    }

    /// The file records of a report. A `--format json` document (`{"schema_version":…,
    /// "files":[record, …], …}`) gives its `files`; otherwise the text is JSON Lines, one record a
    /// line, and lines without a `path` (summaries) are passed over. `skipped` names the lines
    /// that are JSON objects with a path but not records.
    package static func records(_ bytes: [UInt8], source: String) throws(Failure) -> Read {
        var read = Read()
        if bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{"),
            let whole = try? JSONReading.decode(Document.self, from: bytes)
        {
            for (i, entry) in whole.files.enumerated() {
                if entry.record != nil { read.add(entry) } else { read.skipped.append("\(source): files[\(i)]: not a file record; skipped") }
            }
            return read
        }
        for (n, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).enumerated() {
            if let entry = try lineEntry(line, n: n, source: source, skipped: &read.skipped) { read.add(entry) }
        }
        return read
    }

    /// Spaces, tabs and carriage returns only.
    static func isBlank(_ line: ArraySlice<UInt8>) -> Bool { line.allSatisfy { $0 == 0x20 || $0 == 0x0D || $0 == 0x09 } }

    /// One line of a JSON Lines report, the `n`th (from 0) that is not empty: its entry when it
    /// is a file record; nil for a blank line, a line without a path (a summary), or a line with
    /// a path that is no record (noted in `skipped`). A line that is no JSON is an error.
    static func lineEntry(_ line: ArraySlice<UInt8>, n: Int, source: String, skipped: inout [String]) throws(Failure) -> Entry? {
        if isBlank(line) { return nil }
        let entry: Entry
        do { entry = try JSONReading.decode(Entry.self, from: line) } catch {
            throw Failure(description: "\(source):\(n + 1): \(error) (a report is JSON Lines or a --format json document)")
        }
        guard entry.hasPath else { return nil }
        guard entry.record != nil else {
            skipped.append("\(source):\(n + 1): not a file record; skipped")
            return nil
        }
        return entry
    }

    /// A report read from `fd` a piece at a time, each record handed to `body` as it is read:
    /// JSON Lines cost what one line costs, however many records the report holds. A report
    /// whose first line is no JSON object (a pretty-printed `--format json` document) or is a
    /// whole one-line document is read whole, as `records` reads it. The same records, the same
    /// skipped entries (returned) and the same errors as `records` on the whole text.
    package static func stream(
        _ fd: Int32, source: String, _ body: (FileRecord, [String?]) throws -> Void
    ) throws -> [String] {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var skipped: [String] = []
        var n = 0  // lines that are not empty, as `records` counts them
        var lines: Bool?  // JSON Lines (read a line at a time), or a document (read whole)
        var probe = 0  // until then: where the first line not known to be blank starts
        // Where the search for the next newline goes on: a long line is searched once, not
        // again from its start with every piece read.
        var searched = 0
        func newline(after start: Int) -> Int? {
            let from = max(start, searched)
            guard let end = pending[from...].firstIndex(of: UInt8(ascii: "\n")) else {
                searched = pending.endIndex
                return nil
            }
            return end
        }
        func line(_ bytes: ArraySlice<UInt8>) throws {
            defer { n += 1 }
            guard let entry = try lineEntry(bytes, n: n, source: source, skipped: &skipped), let record = entry.record else { return }
            try body(record, entry.codeTexts)
        }
        while true {
            let got: Int
            do { got = try FileIO.read(fd, into: &chunk) } catch { throw Failure(description: "cannot read \(source): \(error)") }
            pending += chunk[0..<got]
            // No end in sight: a line (or a whole document) past its limit is an error, not memory.
            if lines == false, pending.count > InputLimits.reportBytes {
                throw Failure(description: "\(source): larger than the limit of \(InputLimits.describe(InputLimits.reportBytes)) for a report read whole")
            }
            if lines != false, pending.count > InputLimits.reportLineBytes + chunk.count {
                throw Failure(
                    description:
                        "\(source): a line longer than the limit of \(InputLimits.describe(InputLimits.reportLineBytes)) (not a codesweep report, or no newline at all)"
                )
            }
            if lines == nil {
                // Decided on the first line that is not blank, once it is whole.
                while probe < pending.endIndex, let end = newline(after: probe) ?? (got == 0 ? pending.endIndex : nil) {
                    let first = pending[probe..<end]
                    if !isBlank(first) {
                        let entry = try? JSONReading.decode(Entry.self, from: first)
                        lines = entry.map { $0.hasPath || (try? JSONReading.decode(Document.self, from: first)) == nil } ?? false
                        searched = 0  // the lines are read from the top
                        break
                    }
                    probe = end + 1
                }
                if lines == nil {
                    if got > 0 { continue }
                    return try records(pending, source: source).skipped  // nothing but blank lines
                }
            }
            if lines == false {
                if got > 0 { continue }
                let read = try records(pending, source: source)
                for (i, r) in read.records.enumerated() { try body(r, read.texts[i]) }
                return read.skipped
            }
            var start = pending.startIndex
            while let end = newline(after: start) {
                if end > start { try line(pending[start..<end]) }
                start = end + 1
            }
            pending.removeSubrange(..<start)
            searched = max(0, searched - start)
            if got == 0 {
                if !pending.isEmpty { try line(pending[...]) }
                return skipped
            }
        }
    }

    /// A `--format json` document: its `files`.
    struct Document: Decodable { var files: [Entry] }

    /// Any JSON value in a report: a file record, or something else (a summary line has no
    /// `path`; a line with a path that is not a record is reported as skipped).
    struct Entry: Decodable {
        var hasPath: Bool
        var record: FileRecord?
        var texts: [String?] = []
        enum Key: String, CodingKey { case path }
        /// The `text` of each code as written.
        struct Written: Decodable {
            struct Code: Decodable { var text: String? }
            var codes: [Code]?
        }
        /// The written text of each of the record's codes (all nil when they do not match up).
        var codeTexts: [String?] {
            let count = record?.codes.count ?? 0
            return texts.count == count ? texts : Array(repeating: nil, count: count)
        }
        init(from decoder: any Decoder) throws {
            hasPath = (try? decoder.container(keyedBy: Key.self).contains(.path)) ?? false
            record = try? FileRecord(from: decoder)
            if record != nil { texts = ((try? Written(from: decoder))?.codes ?? []).map(\.text) }
        }
    }

    /// Where a record's image is now. An absolute path is used as it is. A relative path is
    /// looked for under `root` when one is given (and only there); otherwise in the report
    /// file's own folder (a report written where the scan ran sits beside the paths it names),
    /// then in the current folder. The first candidate that exists wins; when none does, the
    /// first candidate (its error is what the page and the count say).
    package static func locate(_ record: FileRecord, reportPath: [UInt8], root: [UInt8]?) -> [UInt8] {
        let path = record.pathBytes
        if path.first == UInt8(ascii: "/") { return path }
        let candidates: [[UInt8]]
        if let root {
            candidates = [join(root, path)]
        } else {
            let folder = reportFolder(reportPath)
            candidates = folder == Array(".".utf8) ? [path] : [join(folder, path), path]
        }
        return candidates.first(where: exists) ?? candidates[0]
    }

    /// With `--root DIR`, only pictures under DIR are read: the candidate with every link
    /// resolved (realpath) must lie inside DIR (resolved too). An absolute path, `..` climbing
    /// out, or a link inside DIR pointing out is refused with a note, and nothing outside is
    /// read. Returns the resolved path to read, or why not.
    package static func confined(_ candidate: [UInt8], root: [UInt8]) -> Result<[UInt8], ConfinementRefusal> {
        func real(_ p: [UInt8]) -> [UInt8]? { UserPath.realPath(bytes: p) }
        guard let rootReal = real(root) else { return .failure(ConfinementRefusal(note: "--root cannot be resolved: \(String(cString: strerror(errno)))")) }
        guard let real = real(candidate) else { return .failure(ConfinementRefusal(note: "cannot open: \(String(cString: strerror(errno)))")) }
        let prefix = rootReal.last == UInt8(ascii: "/") ? rootReal : rootReal + [UInt8(ascii: "/")]
        guard real.starts(with: prefix) else { return .failure(ConfinementRefusal(note: "outside --root (not read)")) }
        return .success(real)
    }

    package struct ConfinementRefusal: Error, Equatable { package var note: String }

    /// The folder a path is in ("." for a bare name).
    package static func reportFolder(_ path: [UInt8]) -> [UInt8] {
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return Array(".".utf8) }
        return slash == 0 ? [UInt8(ascii: "/")] : Array(path[..<slash])
    }

    static func join(_ folder: [UInt8], _ path: [UInt8]) -> [UInt8] {
        folder.last == UInt8(ascii: "/") ? folder + path : folder + [UInt8(ascii: "/")] + path
    }

    static func exists(_ path: [UInt8]) -> Bool {
        UserPath.status(bytes: path) != nil
    }
}
