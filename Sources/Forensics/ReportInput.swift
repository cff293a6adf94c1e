import SweepCore

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
            texts.append(entry.texts.count == r.codes.count ? entry.texts : Array(repeating: nil, count: r.codes.count))
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
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            let entry: Entry
            do { entry = try JSONReading.decode(Entry.self, from: line) } catch {
                throw Failure(description: "\(source):\(n + 1): \(error) (a report is JSON Lines or a --format json document)")
            }
            guard entry.hasPath else { continue }
            guard entry.record != nil else {
                read.skipped.append("\(source):\(n + 1): not a file record; skipped")
                continue
            }
            read.add(entry)
        }
        return read
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
        func real(_ p: [UInt8]) -> [UInt8]? {
            (p + [0]).withUnsafeBufferPointer { b in
                b.withMemoryRebound(to: CChar.self) { c -> [UInt8]? in
                    guard let r = realpath(c.baseAddress!, nil) else { return nil }
                    defer { free(r) }
                    return Array(UnsafeBufferPointer(start: UnsafeRawPointer(r).assumingMemoryBound(to: UInt8.self), count: strlen(r)))
                }
            }
        }
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
        var st = stat()
        return (path + [0]).withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &st) == 0 }
        }
    }
}
