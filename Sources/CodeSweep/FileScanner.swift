import DocumentBridge
import FileWalker
import Imaging
import MagickBridge
import Records
import SweepCore
import UserInput

#if canImport(Glibc)
import Glibc
#endif

/// Everything that decides how one file is scanned.
public struct ScanSettings: Sendable, Equatable, Codable {
    public var reader = ReaderOptions()
    public var limits = LoadLimits()
    /// Files larger than this are not read (kind "too_large").
    public var maxFileBytes = 1 << 30
    /// Add per-stage timings to each record.
    public var timings = false
    /// Digests to add to each record (computed from the bytes already read for decoding).
    public var hashes: [HashAlgorithm] = []
    /// Address space a worker process may add to what it holds at start, in MiB (setrlimit
    /// RLIMIT_AS), whatever a decoder does; 0: no limit. Only with worker processes.
    public var memoryLimitMiB = 1024
    /// Measure each code found with the sweep's `CodeGrader` (`check`), on the full-resolution
    /// frame it was read in: the same bytes, limits and worker as the scan.
    public var grade = false
    /// Pages, resolutions and pixel budgets of documents (PDF, SVG).
    public var documents = DocumentLimits()
    public init() {}
}

/// Measures a code where it was found, for `check` (AssetCheck provides it; the engine only
/// calls it). Its result travels beside the codes as JSON (`FileRecord.measurements`).
public struct CodeGrader: Sendable {
    public let measure: @Sendable (DetectedCode, LumaImage) -> JSONValue
    public init(measure: @escaping @Sendable (DetectedCode, LumaImage) -> JSONValue) { self.measure = measure }
}

/// Scans one file: read its bytes, check the magic, load upright luma frames, run the plan
/// (a document's pages: `DocumentScanner`).
public enum FileScanner {
    /// Returns nil for a file found by walking that is not an image (skipped quietly).
    /// - checkpoint: called before each call of the second decoder (zxing-cpp) with the record
    ///   as it would be if the scan stopped there (every code found so far): a worker sends it
    ///   to the coordinator, so a crash or hang inside that decoder loses none of ZBar's codes.
    /// - grader: measures each code when `settings.grade` is on (a sweep that asks for grading
    ///   without one gets an error record, not a silent pass).
    public static func scan(
        _ entry: FileEntry, settings: ScanSettings, grader: CodeGrader? = nil,
        checkpoint: ((FileRecord) -> Void)? = nil
    ) -> FileRecord? {
        guard var record = scanFile(entry, settings: settings, grader: grader, checkpoint: checkpoint) else { return nil }
        record.sequences = RecordSequence.within(record.codes)
        return record
    }

    static func scanFile(
        _ entry: FileEntry, settings: ScanSettings, grader: CodeGrader?, checkpoint: ((FileRecord) -> Void)?
    ) -> FileRecord? {
        var record = FileRecord(path: entry.path, pathBytes: entry.pathBytes)
        record.size = entry.size
        record.mtime = entry.mtime
        let clock = ContinuousClock()
        var mark = clock.now
        func lap(_ stage: WritableKeyPath<RecordTimings, Double?>) {
            guard settings.timings else { return }
            let now = clock.now
            record.timings = record.timings ?? RecordTimings()
            record.timings?[keyPath: stage] = mark.duration(to: now).milliseconds
            mark = now
        }
        let bytes: [UInt8]
        do {
            let read = try readFileAndStat(entry.pathBytes, limit: settings.maxFileBytes)
            bytes = read.bytes
            // Size and time of the file the bytes came from (fstat on the same descriptor), so
            // that size, mtime and hashes agree even if the file changed after the walk.
            record.size = read.size
            record.mtime = read.mtime
            if read.changed { record.warnings.append("the file changed while it was read") }
            lap(\.read)
        } catch {
            record.error = error
            return record
        }
        let sniffed = ImageFormat.sniff(bytes.prefix(32)) ?? ImageFormat.sniffDocument(bytes.prefix(ImageFormat.documentSniffBytes))
        if !isRecorded(entry, sniffed: sniffed) { return nil }
        if !settings.hashes.isEmpty {
            record.hashes = Dictionary(uniqueKeysWithValues: settings.hashes.map { ($0.rawValue, $0.hex(bytes)) })
            lap(\.hash)
        }
        guard let format = sniffed else {
            record.error =
                bytes.isEmpty
                ? RecordError(.empty, "file is empty")
                : RecordError(.notImage, "not a supported image or document (unrecognised file signature\(describeHead(bytes)))")
            return record
        }
        record.format = format
        if format.isDocument {
            DocumentScanner.scan(bytes, format: format, into: &record, .init(settings: settings, grader: grader))
            lap(\.scan)
            return record
        }
        do {
            let loaded = try ImageLoader.load(
                bytes, format: format, limits: settings.limits,
                minMegapixels: settings.reader.roi == nil ? settings.reader.plan.firstDecodeMegapixels : nil,
                reduceToFit: settings.reader.roi == nil)
            lap(\.decode)
            // A reduced load is decoded again at full resolution only if a pass or grading asks
            // for it (at most once per file).
            let full = FullResolutionFrames(of: loaded, bytes: bytes, limits: settings.limits)
            record.width = loaded.width
            record.height = loaded.height
            record.orientation = loaded.orientation
            record.frames = loaded.frames.count
            record.warnings += loaded.warnings
            record.metadata = loaded.metadata
            readFrames(of: loaded, fullResolution: full, into: &record, settings: settings, checkpoint: checkpoint)
            if let ms = full.decodeMilliseconds { record.timings?.fullDecode = ms }
            lap(\.scan)
            if settings.grade {
                guard let grader else {
                    record.error = RecordError(.internalError, "grading was asked for, but this process has no grader")
                    return record
                }
                grade(&record, on: full, with: grader)
                lap(\.grade)
            }
        } catch {
            record.error = error
        }
        return record
    }

    /// Reads every frame with the engine, adding the codes (and the second decoder's failures,
    /// as warnings) to `record`.
    static func readFrames(
        of loaded: LoadedImage, fullResolution full: FullResolutionFrames, into record: inout FileRecord,
        settings: ScanSettings, checkpoint: ((FileRecord) -> Void)?
    ) {
        var failures: [String] = [], failedReaders: [String] = []
        for (i, frame) in loaded.frames.enumerated() {
            let before = record
            let note: (([DetectedCode]) -> Void)? = checkpoint.map { send in
                { codes in
                    var partial = before
                    partial.codes += codes
                    send(partial)
                }
            }
            BarcodeReader.trace("file \(String(record.path.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })) frame=\(i)")
            let read = BarcodeReader.read(
                ReadFrame(
                    frame, index: i, scale: loaded.scale, fullResolution: { full.frame(i) },
                    beforeSecondDecoder: note), settings.reader)
            record.codes += read.codes
            record.warnings += read.warnings
            failures += read.decoderFailures.filter { !failures.contains($0) }
            failedReaders += read.failedReaders.filter { !failedReaders.contains($0) }
        }
        if !failures.isEmpty {
            record.failedDecoder = failedReaders.joined(separator: ",")
            record.warnings += failures.map { "second decoder: " + $0 + "; ZBar's codes are complete" }
        }
    }

    /// Measures each code with `grader` on the full-resolution frame it was read in (its
    /// corners are in full-resolution pixels); a code whose frame does not decode at full
    /// resolution is left ungraded, with a warning.
    static func grade(_ record: inout FileRecord, on full: FullResolutionFrames, with grader: CodeGrader) {
        record.measurements = Array(repeating: nil, count: record.codes.count)
        for k in record.codes.indices {
            guard let frame = full.frame(record.codes[k].frame) else {
                record.warnings.append("code \(k + 1) could not be graded: its frame did not decode at full resolution")
                continue
            }
            record.measurements[k] = grader.measure(record.codes[k], frame)
        }
    }

    /// The one rule for which files get a record: every file named on the command line (or
    /// listed with --files-from), and a file found by walking when it is an image by its first
    /// bytes or by its name (an image extension: a broken photo is reported, not skipped).
    static func isRecorded(_ entry: FileEntry, sniffed: ImageFormat?) -> Bool {
        sniffed != nil || entry.explicit || isImageOrDocumentName(entry.pathBytes)
    }

    /// Whether `scan` writes a record for this walked item, decided as `scan` decides it but
    /// from the file's first 1024 bytes only: a failure is always recorded, a file by
    /// `isRecorded` (one that cannot be opened is recorded as unreadable). Used where the
    /// records a sweep will write must be known without scanning: the progress line's total
    /// and `merge`'s expected files.
    public static func willRecord(_ item: WalkItem) -> Bool {
        guard case .file(let f) = item else { return true }
        if f.explicit || isImageOrDocumentName(f.pathBytes) { return true }
        let fd = openToRead(f.pathBytes)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: ImageFormat.documentSniffBytes)
        guard let n = try? FileIO.readFully(fd, into: &head) else { return true }
        return isRecorded(f, sniffed: ImageFormat.sniff(head.prefix(min(n, 32))) ?? ImageFormat.sniffDocument(head.prefix(n)))
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

    static func describeHead(_ bytes: [UInt8]) -> String {
        let head = bytes.prefix(8).map { b -> String in
            let h = String(b, radix: 16)
            return h.count == 1 ? "0" + h : h
        }.joined(separator: " ")
        return head.isEmpty ? "" : ": \(head)"
    }

    /// The one open of a file to scan or sniff: by its bytes, with O_NONBLOCK so that a file
    /// swapped for a FIFO after the walk cannot block. -1 (errno set) when it fails.
    static func openToRead(_ path: [UInt8]) -> Int32 { UserPath.open(bytes: path, O_RDONLY | O_NONBLOCK) }

    /// Reads a whole regular file. Opens with O_NONBLOCK so that a file swapped for a FIFO
    /// after the walk cannot block, and checks the type on the open descriptor.
    public static func readFile(_ path: [UInt8], limit: Int) throws(RecordError) -> [UInt8] {
        try readFileAndStat(path, limit: limit).bytes
    }

    /// The bytes, and the size and modification time fstat gives for the descriptor they were
    /// read from after reading; `changed` when the file's size or time moved while it was read.
    static func readFileAndStat(_ path: [UInt8], limit: Int) throws(RecordError) -> (bytes: [UInt8], size: Int, mtime: Double, changed: Bool) {
        let fd = openToRead(path)
        guard fd >= 0 else {
            let err = errno
            throw RecordError(err == ENOENT ? .notFound : .unreadable, "cannot open: \(String(cString: strerror(err)))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw RecordError(.unreadable, "cannot stat: \(String(cString: strerror(errno)))") }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw RecordError(.notRegularFile, "not a regular file; not read") }
        let size = Int(st.st_size)
        guard size <= limit else { throw RecordError(.tooLarge, "file is \(size) bytes; the limit is \(limit) bytes") }
        var buf = [UInt8](repeating: 0, count: size)
        let off: Int  // less than size when the file shrank while reading
        do { off = try FileIO.readFully(fd, into: &buf) } catch {
            throw RecordError(.unreadable, "read failed: \(error)")
        }
        if off < size { buf.removeSubrange(off...) }
        var after = stat()
        guard fstat(fd, &after) == 0 else { return (buf, buf.count, mtime(st), true) }
        let changed = Int(after.st_size) != buf.count || mtime(after) != mtime(st)
        return (buf, Int(after.st_size), mtime(after), changed)
    }

    static func mtime(_ st: stat) -> Double {
        Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
    }
}
