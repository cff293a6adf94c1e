import FileWalker
import Imaging
import InputSources
import Records
import SweepCore

#if canImport(Glibc)
import Glibc
#endif

/// Scans one walked file: read its bytes (`FileBytes`), tell what they are (`InputSniff`, the one
/// sniff), digest them, and read them as what they are (`ItemScanner`): an image's frames, a
/// document's pages, a container's members (each a record of its own, sent to `items` before
/// the file's own record, which comes last and marks the file complete).
public enum FileScanner {
    /// Returns nil for a file found by walking that is not an image (skipped quietly).
    /// - checkpoint: called before each call of the isolated reader (zxing-cpp) with the record
    ///   as it would be if the scan stopped there (every code found so far): a worker sends it
    ///   to the coordinator, so a crash or hang inside that decoder loses none of ZBar's codes.
    /// - grader: measures each code when `settings.grade` is on (a sweep that asks for grading
    ///   without one gets an error record, not a silent pass).
    /// - items: each record of an item expanded from the file (a container's members), in order,
    ///   before the file's own record is returned.
    public static func scan(
        _ entry: FileEntry, settings: ScanSettings, grader: CodeGrader? = nil,
        checkpoint: ((FileRecord) -> Void)? = nil, items: @escaping (FileRecord) -> Void = { _ in },
        progress: @escaping () -> Void = {}
    ) -> FileRecord? {
        var record = FileRecord(path: entry.path, pathBytes: entry.pathBytes)
        record.size = entry.size
        record.mtime = entry.mtime
        var clock = StageClock(on: settings.timings)
        var context = ItemScanner.Context(settings: settings, grader: grader, checkpoint: checkpoint, items: items, progress: progress)
        let head = FileBytes.head(entry.pathBytes, count: InputSniff.headBytes)
        let headKind = head.flatMap { InputSniff.kind(of: $0) }
        // An archive is streamed from its file by libarchive, not read whole (unless --hash).
        if settings.containers.enabled, settings.hashes.isEmpty, case .container(let c)? = headKind, !c.isMail {
            let file: (fd: Int32, size: Int, mtime: Double)
            do { file = try FileBytes.openRegular(entry.pathBytes) } catch {
                record.error = error
                return record
            }
            defer { close(file.fd) }
            record.size = file.size
            record.mtime = file.mtime
            clock.lap(\.read, &record)
            ContainerScanner.read(.descriptor(file.fd, size: file.size), kind: c, into: &record, context)
            clock.lap(\.scan, &record)
            return record
        }
        // A video is streamed from its file by FFmpeg, not read whole (its bytes only for --hash).
        if settings.videos.enabled, let head, case .video? = headKind {
            context.videoPath = entry.pathBytes
            var bytes: [UInt8] = []
            if !settings.hashes.isEmpty {
                do { bytes = try FileBytes.read(entry.pathBytes, limit: settings.maxFileBytes) } catch {
                    record.error = error
                    return record
                }
            }
            ItemScanner.read(bytes, kind: InputSniff.kind(of: head), into: &record, context, clock: &clock)
            return record
        }
        let bytes: [UInt8]
        do {
            let read = try FileBytes.readAndStat(entry.pathBytes, limit: settings.maxFileBytes)
            bytes = read.bytes
            // Size and time of the file the bytes came from (fstat on the same descriptor), so
            // that size, mtime and hashes agree even if the file changed after the walk.
            record.size = read.size
            record.mtime = read.mtime
            if read.changed { record.warnings.append("the file changed while it was read") }
            clock.lap(\.read, &record)
        } catch {
            record.error = error
            return record
        }
        let kind = InputSniff.kind(of: bytes)
        if !isRecorded(entry, kind: kind, settings) { return nil }
        ItemScanner.read(bytes, kind: kind, into: &record, context, clock: &clock)
        return record
    }

    /// The one rule for which files get a record: every file named on the command line (or
    /// listed with --files-from), and a file found by walking when it is an input the sweep
    /// reads by its first bytes or an image by its name (an image extension: a broken photo is
    /// reported, not skipped).
    static func isRecorded(_ entry: FileEntry, kind: InputKind?, _ settings: ScanSettings) -> Bool {
        entry.explicit || isImageOrDocumentName(entry.pathBytes) || kind.map { ItemScanner.reads($0, settings) } ?? false
    }

    /// Whether `scan` writes a record for this walked item, decided as `scan` decides it but
    /// from the file's first bytes only: a failure is always recorded, a file by `isRecorded`
    /// (one that cannot be opened is recorded as unreadable). Used where the records a sweep
    /// will write must be known without scanning: the progress line's total and `merge`'s
    /// expected files.
    public static func willRecord(_ item: WalkItem, settings: ScanSettings = ScanSettings()) -> Bool {
        guard case .file(let f) = item else { return true }
        if f.explicit || isImageOrDocumentName(f.pathBytes) { return true }
        guard let head = FileBytes.head(f.pathBytes, count: InputSniff.headBytes) else { return true }
        return isRecorded(f, kind: InputSniff.kind(of: head), settings)
    }

    static func isImageOrDocumentName(_ path: [UInt8]) -> Bool {
        let ext = fileExtension(path)
        return ImageFormat.knownExtensions.contains(ext) || ImageFormat.documentExtensions.contains(ext)
    }

    public static func fileExtension(_ path: [UInt8]) -> String {
        let name = path.split(separator: UInt8(ascii: "/")).last ?? []
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return "" }
        return String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
    }

    /// Reads a whole regular file (`FileBytes.read`).
    public static func readFile(_ path: [UInt8], limit: Int) throws(RecordError) -> [UInt8] {
        try FileBytes.read(path, limit: limit)
    }
}

/// Per-stage timings of one record (`--timings`): each lap is the time since the last.
struct StageClock {
    let on: Bool
    private let clock = ContinuousClock()
    private var mark: ContinuousClock.Instant

    init(on: Bool) {
        self.on = on
        mark = clock.now
    }

    /// - less: milliseconds of the lap spent on another stage, timed apart (grading in the frame loop).
    mutating func lap(_ stage: WritableKeyPath<RecordTimings, Double?>, _ record: inout FileRecord, less: Double = 0) {
        guard on else { return }
        let now = clock.now
        record.timings = record.timings ?? RecordTimings()
        record.timings?[keyPath: stage] = max(0, mark.duration(to: now).milliseconds - less)
        mark = now
    }
}
