import CodeSweep
import FileWalker
import Records
import Reporting
import UserInput

#if canImport(Glibc)
import Glibc
#endif

/// `codesweep merge`: shard reports (jsonl) in, one report out, ordered as a single run would
/// have written it, with every file exactly once.
///
/// Lines are copied byte for byte, never re-serialized, so a merge of shards equals a single run
/// (the `merge` command writes the `#` of a `##[` as `\u0023`, as every JSON writer of the tool does).
package enum ReportMerge {
    /// One record line of an input report.
    package struct Line: Sendable {
        package var pathBytes: [UInt8]
        package var path: String
        /// The line as read, without its newline.
        package var text: [UInt8]
        package var source: String
        package var lineNumber: Int
        /// The records of the items expanded from this file (a container's members), in their
        /// order, which came before it in its report and go before it in the merge.
        package var members: [Line] = []
    }

    package struct Failure: Error, CustomStringConvertible {
        package var problems: [String]
        /// One line each, as they are (paths raw): the printer escapes each one once.
        package var description: String { problems.joined(separator: "\n") }
    }

    /// Reads every line of the given reports. A line that is not a record is an error (a shard
    /// cut short by a kill must be re-run or resumed, not merged). Each report is read a piece at
    /// a time (`eachLine`): a line past `InputLimits.reportLineBytes` (a stream with no newline,
    /// `/dev/zero`) ends the merge when it passes the limit, not after a gigabyte is held.
    package static func load(_ files: [String]) throws(Failure) -> [Line] {
        var lines: [Line] = []
        var problems: [String] = []
        for file in files {
            let shown = ArgumentBytes.display(file)
            let ended: Bool
            var members: [Line] = []
            do {
                ended = try eachLine(file) { raw, number in
                    guard let record = try? FileRecord.read(json: Array(raw)) else {
                        problems.append("\(shown):\(number): not a codesweep record (a shard cut short? run it again or with --resume)")
                        return
                    }
                    var line = Line(pathBytes: record.pathBytes, path: record.path, text: Array(raw), source: shown, lineNumber: number)
                    if record.isMember {
                        members.append(line)
                        return
                    }
                    if let stray = members.first(where: { $0.pathBytes != record.pathBytes }) {
                        problems.append("\(shown):\(stray.lineNumber): a member of \(stray.path) with no record of \(stray.path) after it")
                    }
                    line.members = members.filter { $0.pathBytes == record.pathBytes }
                    members = []
                    lines.append(line)
                }
            } catch {
                problems.append(error.description)
                continue
            }
            if let first = members.first {
                problems.append(
                    "\(shown):\(first.lineNumber): ends inside \(first.path): \(members.count) member record(s) without the container's own record after them (a shard cut short? run it again or with --resume)"
                )
            }
            if !ended { problems.append("\(shown): the last line has no newline (a shard cut short? run it again or with --resume)") }
        }
        if !problems.isEmpty { throw Failure(problems: problems) }
        return lines
    }

    /// The walker's order for paths below the same root: depth first, entries by the bytes of
    /// their names. That is byte order with "/" ranked below every other byte ("a/b" before
    /// "a-c", although "-" < "/"), i.e. component by component.
    package static func walkOrder(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var i = 0
        while i < a.count && i < b.count {
            let x = a[i] == 0x2F ? 0 : Int(a[i]) + 1, y = b[i] == 0x2F ? 0 : Int(b[i]) + 1
            if x != y { return x < y }
            i += 1
        }
        return a.count < b.count
    }

    /// What the merge must contain: the walk of the roots a single run would have been given.
    package struct Expectation {
        package var items: [WalkItem]
        package init(items: [WalkItem]) { self.items = items }
    }

    /// A report that could not be read, or passed a limit.
    package struct ReadFailure: Error, CustomStringConvertible { package var description: String }

    /// Hands each line of the report `file` (`-`: standard input) that is not empty to `body`,
    /// with its number from 1, reading 64 KiB at a time; true when the report ends with a newline
    /// (or is empty). A line longer than `InputLimits.reportLineBytes`, or a report longer than
    /// `InputLimits.reportBytes`, is an error naming the file and the limit.
    static func eachLine(_ file: String, _ body: (ArraySlice<UInt8>, Int) -> Void) throws(ReadFailure) -> Bool {
        let fd: Int32
        do { fd = try UserPath.openInput(file) } catch { throw ReadFailure(description: error.description) }
        defer { UserPath.closeInput(fd) }
        let shown = UserPath.shown(file)
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var number = 0, total = 0
        while true {
            let got: Int
            do { got = try FileIO.read(fd, into: &chunk) } catch { throw ReadFailure(description: "cannot read \(shown): \(error)") }
            if got == 0 {
                if !pending.isEmpty { body(pending[...], number + 1) }
                return pending.isEmpty
            }
            total += got
            let searchFrom = pending.count
            pending += chunk[0..<got]
            var start = 0
            var from = searchFrom
            while let end = pending[from...].firstIndex(of: 0x0A) {
                number += 1
                if end > start { body(pending[start..<end], number) }
                start = end + 1
                from = start
            }
            pending.removeSubrange(..<start)
            if pending.count > InputLimits.reportLineBytes {
                throw ReadFailure(
                    description:
                        "cannot read \(shown): line \(number + 1) is longer than the limit of \(InputLimits.describe(InputLimits.reportLineBytes)) for a line of a report (not a codesweep report, or no newline at all)"
                )
            }
            if total > InputLimits.reportBytes {
                throw ReadFailure(
                    description: "cannot read \(shown): it is larger than the limit of \(InputLimits.describe(InputLimits.reportBytes)) for a report")
            }
        }
    }

    /// Orders the lines and checks them. Without an expectation: sorted by `walkOrder`, checked
    /// for duplicates. With one: in the expectation's walk order (so roots keep the order they
    /// were given in), and also checked for files missing or not expected.
    package static func merge(_ lines: [Line], expecting: Expectation? = nil) throws(Failure) -> [Line] {
        var problems: [String] = []
        var byPath: [[UInt8]: Line] = [:]
        var duplicates = 0
        for l in lines {
            if let first = byPath[l.pathBytes] {
                duplicates += 1
                if duplicates <= 20 {
                    problems.append(
                        "duplicated: \(l.path) is in \(first.source):\(first.lineNumber) and \(l.source):\(l.lineNumber) (overlapping shards, or a report given twice?)"
                    )
                }
            } else {
                byPath[l.pathBytes] = l
            }
        }
        if duplicates > 20 { problems.append("duplicated: \(duplicates - 20) more records") }
        var ordered: [Line]
        if let expecting {
            ordered = []
            var seen = Set<[UInt8]>()
            var missing: [String] = [], missingPaths: [String] = []
            // The files a single scan would have recorded: a document it skips is not expected.
            var expected = 0
            for item in expecting.items {
                let key = item.pathBytes
                guard seen.insert(key).inserted else { continue }
                if let l = byPath[key] {
                    ordered.append(l)
                    expected += 1
                } else if FileScanner.willRecord(item) {
                    missing.append(Walker.display(key))
                    missingPaths.append(Walker.display(key))
                    expected += 1
                }
            }
            for m in missing.prefix(20) { problems.append("missing: \(m) (no shard reported it)") }
            if missing.count > 20 { problems.append("missing: \(missing.count - 20) more files") }
            let extra = lines.filter { !seen.contains($0.pathBytes) }
            for l in extra.prefix(20) { problems.append("not expected: \(l.path) (\(l.source):\(l.lineNumber)) is not in the expected list") }
            if extra.count > 20 { problems.append("not expected: \(extra.count - 20) more files") }
            if !missing.isEmpty || !extra.isEmpty {
                problems.append(
                    "expected \(expected) files, the reports hold \(byPath.count) distinct files (\(missing.count) missing, \(extra.count) not expected)")
            }
            if let hint = rootHint(missing: missingPaths, extra: extra.map(\.path)) { problems.append(hint) }
        } else {
            ordered = Array(byPath.values)
            ordered.sort { walkOrder($0.pathBytes, $1.pathBytes) }
        }
        if !problems.isEmpty { throw Failure(problems: problems) }
        return ordered
    }

    /// When the files missing and the files not expected are the same files under another
    /// prefix (`--root ./case` for shards scanned as `case`), the hint that says so: records keep
    /// the path as the scan was given it, so --root must be written the same way. The reports'
    /// files are looked up by name, so the hint does not depend on the order the reports (or
    /// the shards' lines) come in.
    package static func rootHint(missing: [String], extra: [String]) -> String? {
        guard !missing.isEmpty, !extra.isEmpty else { return nil }
        let extraSet = Set(extra)
        var byName: [Substring: [String]] = [:]
        for e in extra { byName[e.split(separator: "/", omittingEmptySubsequences: false).last ?? "", default: []].append(e) }
        var tried = Set<[String]>()
        for m in missing.prefix(20) {
            let mParts = m.split(separator: "/", omittingEmptySubsequences: false)
            for e in (byName[mParts.last ?? ""] ?? []).prefix(50) {
                let eParts = e.split(separator: "/", omittingEmptySubsequences: false)
                var k = 0
                while k < min(mParts.count, eParts.count), mParts[mParts.count - 1 - k] == eParts[eParts.count - 1 - k] { k += 1 }
                let from = mParts.dropLast(k).joined(separator: "/"), to = eParts.dropLast(k).joined(separator: "/")
                guard from != to, tried.insert([from, to]).inserted else { continue }
                func moved(_ p: String) -> String? {
                    guard from.isEmpty || p.hasPrefix(from + "/") else { return nil }
                    let rest = from.isEmpty ? p : String(p.dropFirst(from.count + 1))
                    return to.isEmpty ? rest : to + "/" + rest
                }
                let matched = missing.filter { moved($0).map(extraSet.contains) ?? false }.count
                guard matched * 2 >= missing.count else { continue }
                let example = missing.first { moved($0).map(extraSet.contains) ?? false } ?? m
                return "hint: the missing files are in the reports under other names: '\(example)' is '\(moved(example) ?? e)' there"
                    + (matched > 1 ? " (and \(matched - 1) more like it)" : "")
                    + ". Records keep each path as scan was given it, so give --root (and --include/--exclude) exactly as the shards were scanned"
                    + (to.isEmpty || to == "." ? "" : " (--root \(to))")
            }
        }
        return nil
    }
}
