import FileWalker
import Records
import Reporting
import UserInput

#if canImport(Glibc)
import Glibc
#endif

/// What an interrupted jsonl sweep already recorded, for --resume.
///
/// `open` takes an exclusive lock (flock) on the report for the whole run, so two sweeps can
/// never append to one file at once; the second is refused. The settings that change records
/// are kept beside the report (`ResumeSettings`), so a resume with other settings is refused
/// instead of writing a mixed report.
package struct ResumeLog: Sendable {
    struct Key: Hashable, Sendable { var path: [UInt8]; var size: Int?; var mtimeMillis: Int64? }
    var done: Set<Key> = []
    /// Records in the report that are failures (status "error").
    var failed: Set<Key> = []
    package private(set) var recordCount = 0
    /// Which record-changing settings the records themselves show (for a report with no stored
    /// settings): the digests present, whether timings are present, whether any file was read.
    var hashKinds: Set<String> = []
    var anyTimings = false
    var anyRead = false
    /// Where the members' records after the last file record begin (a container cut by a kill
    /// before its own record, which comes last): cut off, as the container is read again whole.
    var orphanMembersStart: Int? = nil
    /// Members' records cut off that way.
    package private(set) var membersCut = 0

    static func key(_ path: [UInt8], _ size: Int?, _ mtime: Double?) -> Key {
        Key(path: path, size: size, mtimeMillis: mtime.map { Int64(($0 * 1000).rounded()) })
    }

    /// Opens FILE for appending (creating it), locks it exclusively, reads what it holds and
    /// cuts off a last line left incomplete by a kill, so appended records start on a line of
    /// their own. The returned output holds the lock until the process ends.
    package static func open(_ path: String) throws(OutputError) -> (log: ResumeLog, out: OutputFile) {
        let shown = ArgumentBytes.display(path)
        let fd: Int32
        do { fd = try UserPath.open(path, O_RDWR | O_CREAT | O_APPEND, mode: 0o644) } catch { throw OutputError(message: error.description) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let err = errno
            if err == EWOULDBLOCK {
                Glibc.close(fd)
                throw OutputError(
                    message:
                        "\(shown) is locked by another codesweep sweep appending to it; wait for that sweep to end (or stop it) before resuming, or give another file"
                )
            }
            Glibc.close(fd)
            throw OutputError(
                message:
                    "cannot lock \(shown) (\(String(cString: strerror(err)))): without a lock two sweeps could append to it at once; resume on a file system that supports flock"
            )
        }
        do {
            let log = try read(fd: fd, shown: shown)
            return (log, OutputFile.adopt(fd: fd, path: path, appending: true))
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// Reads the report a piece at a time: what it costs is one line, not the report. A report
    /// past `InputLimits.reportBytes`, or a line past `InputLimits.reportLineBytes` (a file
    /// that is no report, a stream with no newline), is an error naming the limit.
    static func read(fd: Int32, shown: String) throws(OutputError) -> ResumeLog {
        var log = ResumeLog()
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0  // bytes read
        var goodEnd = 0  // where the last whole, good line ends in the file
        var searched = 0  // pending[..<searched] holds no newline
        while true {
            let got: Int
            do { got = try FileIO.read(fd, into: &chunk) } catch { throw OutputError(message: "cannot read \(shown): \(error)") }
            if got == 0 { break }
            total += got
            if total > InputLimits.reportBytes {
                throw OutputError(message: "cannot read \(shown): it is larger than the limit of \(InputLimits.describe(InputLimits.reportBytes)) for a report")
            }
            pending += chunk[0..<got]
            var start = 0
            while let nl = pending[max(start, searched)...].firstIndex(of: 0x0A) {
                try log.add(line: Array(pending[start..<nl]), shown: shown, at: goodEnd)
                goodEnd += nl + 1 - start
                start = nl + 1
            }
            pending.removeFirst(start)
            searched = pending.count
            if pending.count > InputLimits.reportLineBytes {
                throw OutputError(
                    message:
                        "cannot read \(shown): a line longer than the limit of \(InputLimits.describe(InputLimits.reportLineBytes)) (not a codesweep jsonl report, or no newline at all)"
                )
            }
        }
        if let start = log.orphanMembersStart { goodEnd = start }
        if goodEnd < total { _ = ftruncate(fd, off_t(goodEnd)) }
        return log
    }

    /// One line of the report (without its newline), which starts at byte `at`.
    private mutating func add(line: [UInt8], shown: String, at: Int) throws(OutputError) {
        guard let r = try? FileRecord.read(json: line) else {
            throw OutputError(message: "\(shown) is not a codesweep jsonl report (bad line at byte \(at))")
        }
        // A member's record counts only once its container's own record follows it.
        if r.isMember {
            if orphanMembersStart == nil { orphanMembersStart = at }
            membersCut += 1
            return
        }
        orphanMembersStart = nil
        membersCut = 0
        let k = Self.key(r.pathBytes, r.size, r.mtime)
        done.insert(k)
        if r.error != nil { failed.insert(k) }
        if let h = r.hashes { hashKinds.formUnion(h.keys) }
        if r.timings != nil { anyTimings = true }
        if r.format != nil { anyRead = true }
        recordCount += 1
    }

    /// The item (same path, size and mtime) has a record already (the sweep skips it).
    package func isRecorded(_ item: WalkItem) -> Bool { done.contains(Self.key(of: item)) }

    /// The item's record is a failure (a resumed sweep's exit status counts it with its own).
    package func isRecordedFailure(_ item: WalkItem) -> Bool { failed.contains(Self.key(of: item)) }

    static func key(of item: WalkItem) -> Key {
        switch item {
        case .file(let f): key(f.pathBytes, f.size, f.mtime)
        case .failure(_, let bytes, _): key(bytes, nil, nil)
        }
    }

    /// For a report with no stored settings: the record-changing settings its records show
    /// that differ from `settings` (only --hash and --timings can be seen in records).
    package func visibleDifferences(from settings: ResumeSettings) -> [String] {
        guard recordCount > 0 else { return [] }
        var out: [String] = []
        let wanted = Set(settings.hashes)
        if anyRead && hashKinds != wanted {
            out.append(
                "--hash: the records in the report have \(ResumeSettings.describe(hashKinds.sorted())), this run asks for \(ResumeSettings.describe(wanted.sorted()))"
            )
        }
        if anyRead && anyTimings != settings.timings {
            out.append(
                "--timings: the records in the report \(anyTimings ? "have" : "have no") timings_ms, this run \(settings.timings ? "adds" : "leaves out") timings"
            )
        }
        return out
    }
}

/// The settings that change what a record says, kept beside a `--resume` report in
/// `REPORT.codesweep-settings.json`, so that resuming with other settings is refused.
package struct ResumeSettings: Equatable, Sendable {
    /// (flag, value as the flag is written), in a fixed order.
    package var values: [(String, String)]
    package var hashes: [String]
    package var timings: Bool

    package init(
        symbologies: [String], effort: String, roi: String?, minQuality: Int, minITFLength: Int?,
        hashes: [String], timings: Bool, charset: String?, limits: String
    ) {
        self.hashes = hashes.sorted()
        self.timings = timings
        values = [
            ("--symbologies", symbologies.sorted().joined(separator: ",")),
            ("--effort", effort),
            ("--roi", roi ?? "whole image"),
            ("--min-quality", String(minQuality)),
            ("--min-itf-length", minITFLength.map(String.init) ?? "each reader's own"),
            ("--hash", Self.describe(self.hashes)),
            ("--timings", timings ? "on" : "off"),
            ("--charset", charset ?? "detect"),
            ("limits", limits),
        ]
    }

    init(values: [(String, String)]) {
        self.values = values
        hashes = []
        timings = false
    }

    /// The same flags with the same values (in any order).
    package static func == (a: ResumeSettings, b: ResumeSettings) -> Bool {
        Dictionary(a.values, uniquingKeysWith: { x, _ in x }) == Dictionary(b.values, uniquingKeysWith: { x, _ in x })
    }

    /// The sidecar file's form: `{"codesweep_settings": 1, "settings": {flag: value, …}}`.
    struct Stored: Decodable {
        var settings: [String: String]
    }

    static func describe(_ hashes: [String]) -> String { hashes.isEmpty ? "none" : hashes.joined(separator: ",") }

    package static func sidecarPath(for report: String) -> String { report + ".codesweep-settings.json" }

    var json: JSONValue {
        .object([
            ("codesweep_settings", .int(1)),
            ("settings", .object(values.map { ($0.0, .string($0.1)) })),
        ])
    }

    /// The settings stored beside REPORT; nil when there are none (or they cannot be read).
    package static func stored(for report: String) -> ResumeSettings? {
        let path = sidecarPath(for: report)
        guard let data = try? UserPath.readWhole(path, limit: 1 << 20, limitText: "1 MiB") else { return nil }
        guard let stored = try? JSONReading.decode(Stored.self, from: data) else { return nil }
        return ResumeSettings(values: stored.settings.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// Each setting that differs, as "--flag: the report was written with X, this run asks for Y".
    package func differences(from stored: ResumeSettings) -> [String] {
        var out: [String] = []
        let old = Dictionary(stored.values, uniquingKeysWith: { a, _ in a })
        for (flag, value) in values {
            let before = old[flag] ?? "(not recorded)"
            if before != value {
                out.append("\(flag): the report was written with '\(before)', this run asks for '\(value)'")
            }
        }
        return out
    }

    /// Writes the settings beside REPORT (temporary file, fsync, rename).
    package func store(for report: String) throws(OutputError) {
        let target = Self.sidecarPath(for: report)
        try SafeFile.write(json.serialized() + "\n", to: target)
    }
}
