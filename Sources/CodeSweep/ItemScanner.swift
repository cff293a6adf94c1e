import Imaging
import InputSources
import MagickBridge
import Records
import SweepCore

/// Reads one item's bytes (a walked file's, or a container member's) as what `InputSniff` says
/// they are, into its record: a picture's frames (`readImage`), a document's pages
/// (`DocumentScanner`), a container's members (`ContainerScanner`: each member an item read
/// here again, with its own record). Digests the bytes first when asked.
enum ItemScanner {
    /// What reading an item needs beyond its bytes.
    struct Context {
        var settings: ScanSettings
        var grader: CodeGrader?
        /// The record so far, before each call of the isolated reader (worker processes).
        var checkpoint: ((FileRecord) -> Void)?
        /// Each record of a member, as it is done, before its container's.
        var items: (FileRecord) -> Void
        /// How deep in containers this item is (a walked file: 0).
        var depth = 0
        /// A walked video's path: FFmpeg reads it from the file, not from bytes in memory.
        var videoPath: [UInt8]? = nil
        /// What the walked file may still unpack (set by its outermost container).
        var budget: ContainerScanner.Budget? = nil
        /// Called as a long item goes on (each video frame read): a worker tells its coordinator,
        /// whose --timeout then starts again.
        var progress: () -> Void = {}
    }

    /// Whether the sweep reads inputs of this kind (a walked file of a kind it does not read is
    /// not recorded; one named on the command line is, with an error saying why).
    static func reads(_ kind: InputKind, _ settings: ScanSettings) -> Bool {
        switch kind {
        case .image, .document: true
        case .container: settings.containers.enabled
        case .video: settings.videos.enabled
        case .audio: false
        }
    }

    static func read(_ bytes: [UInt8], kind: InputKind?, into record: inout FileRecord, _ context: Context, clock: inout StageClock) {
        let settings = context.settings
        if !settings.hashes.isEmpty {
            record.hashes = Dictionary(uniqueKeysWithValues: settings.hashes.map { ($0.rawValue, $0.hex(bytes)) })
            clock.lap(\.hash, &record)
        }
        defer { record.sequences = RecordSequence.within(record.codes) }
        guard let kind, reads(kind, settings) else {
            record.error = notRead(bytes, kind)
            return
        }
        if settings.grade && context.grader == nil {
            record.error = RecordError(.internalError, "grading was asked for, but this process has no grader")
            return
        }
        switch kind {
        case .document(let format):
            record.format = format
            DocumentScanner.scan(bytes, format: format, into: &record, settings: settings, grader: context.grader)
            clock.lap(\.scan, &record)
        case .image(let format):
            record.format = format
            readImage(bytes, format: format, into: &record, context, clock: &clock)
        case .container(let container):
            ContainerScanner.read(bytes, kind: container, into: &record, context)
            clock.lap(\.scan, &record)
        case .video:
            VideoScanner.read(context.videoPath.map { .path($0) } ?? .bytes(bytes), into: &record, context)
            clock.lap(\.scan, &record)
        case .audio:
            record.error = notRead(bytes, kind)
        }
    }

    /// Why an item is not read: empty, of no kind CodeSweep knows, or of a kind this sweep does
    /// not read.
    static func notRead(_ bytes: [UInt8], _ kind: InputKind?) -> RecordError {
        if bytes.isEmpty { return RecordError(.empty, "file is empty") }
        switch kind {
        case .container(let c): return RecordError(.notImage, "a container (\(c.rawValue)); not read with --containers none")
        case .video(let v): return RecordError(.notImage, "a video (\(v.rawValue)); not read with --videos none")
        case .audio(let brand): return RecordError(.notImage, "sound only (an ftyp file of brand \(brand)): no picture to read")
        default: return RecordError(.notImage, "not a supported image or document (unrecognised file signature\(describeHead(bytes)))")
        }
    }

    static func describeHead(_ bytes: [UInt8]) -> String {
        let head = bytes.prefix(8).map { b -> String in
            let h = String(b, radix: 16)
            return h.count == 1 ? "0" + h : h
        }.joined(separator: " ")
        return head.isEmpty ? "" : ": \(head)"
    }

    /// A picture: loaded upright (reduced when the plan's first decode allows), its frames read
    /// by the frame loop, graded when asked.
    static func readImage(_ bytes: [UInt8], format: ImageFormat, into record: inout FileRecord, _ context: Context, clock: inout StageClock) {
        let settings = context.settings
        do {
            let loaded = try ImageLoader.load(
                bytes, format: format, limits: settings.limits,
                minMegapixels: settings.reader.roi == nil ? settings.reader.plan.firstDecodeMegapixels : nil,
                reduceToFit: settings.reader.roi == nil)
            clock.lap(\.decode, &record)
            // A reduced load is decoded again at full resolution only if a pass or grading asks
            // for it (at most once per file).
            let frames = PictureFrames(of: loaded, bytes: bytes, limits: settings.limits)
            record.width = loaded.width
            record.height = loaded.height
            record.orientation = loaded.orientation
            record.frames = loaded.frames.count
            record.warnings += loaded.warnings
            record.metadata = loaded.metadata
            var loop = FrameLoop(settings, grader: context.grader)
            loop.checkpoint = context.checkpoint
            // An animation's frames are moments of one picture: a code on many of them is one
            // code a span, as in a video (a multi-page TIFF's pages are not merged).
            if [.gif, .webp, .png].contains(format), loaded.frames.count > 1 { loop.merge = .spans }
            loop.run(frames, into: &record)
            if let ms = frames.decodeMilliseconds { record.timings?.fullDecode = ms }
            clock.lap(\.scan, &record, less: loop.gradeMilliseconds)
            if loop.grader != nil { record.timings?.grade = loop.gradeMilliseconds }
        } catch {
            record.error = error
        }
    }
}
