import Imaging
import InputSources
import MagickBridge
import Records
import Reporting
import SweepCore

/// A frame source whose frames may be looked at again after the engine has read them: a
/// document's page, whose places that look like codes but were not read are rendered again
/// (`DocumentSecondLook`). Other sources take the default: no second look.
protocol ReadableFrames: FrameSource {
    /// More codes on `frame`, beyond `codes` (the engine's): a read of its own, whose codes
    /// are in the frame's pixels.
    func lookAgain(at frame: SourceFrame, after codes: [DetectedCode], reader: ReaderOptions) throws(RecordError) -> ReadResult?
}

extension ReadableFrames {
    func lookAgain(at frame: SourceFrame, after codes: [DetectedCode], reader: ReaderOptions) throws(RecordError) -> ReadResult? { nil }
}

/// A picture's frames have no second look.
extension PictureFrames: ReadableFrames {}

/// The one frame loop (issue 59): each frame a source gives, read by the engine (and looked at
/// again where the source can), the readers' failures collected once, each frame's codes graded
/// on its pixels at full resolution, then the codes merged across frames: spans for moments of
/// one picture (an animation's frames, a video's samples); structured append for every item
/// (`RecordSequence.within`, by `ItemScanner`). Pictures, documents and videos all come here.
struct FrameLoop {
    var reader: ReaderOptions
    /// Measures each code (`check`); nil when the sweep does not grade.
    var grader: CodeGrader? = nil
    /// The record so far, before each call of the isolated reader (a worker sends it on).
    var checkpoint: ((FileRecord) -> Void)? = nil
    /// Called after each frame read (a video's: a worker's --timeout starts again).
    var progress: (() -> Void)? = nil
    /// Frames the cheap look sees unchanged since the last one read are not read (a video's).
    var skipsUnchanged = false
    /// Frames without contrast anywhere are not read (a document's blank pages).
    var skipsFlat = false
    /// How codes are merged across frames.
    var merge = Merge.none
    enum Merge {
        /// Each frame's codes are its own (a multi-page TIFF's pages, a document's).
        case none
        /// Codes on consecutive frames merged into one code a span (`CodeSpans`): an
        /// animation's frames, which have no time.
        case spans
        /// The same, each span with its `seconds` on screen: a video's samples.
        case timedSpans
    }
    /// Frames given, and frames the engine read.
    private(set) var framesGiven = 0
    private(set) var framesRead = 0
    /// Time spent grading, in milliseconds.
    private(set) var gradeMilliseconds = 0.0

    init(_ settings: ScanSettings, grader: CodeGrader?) {
        reader = settings.reader
        self.grader = settings.grade ? grader : nil
    }

    /// Reads every frame of `source` into `record`: its codes, warnings and measurements. A
    /// failure of the source (thrown) ends the loop with the frames read so far kept, merged,
    /// and the failure as the record's error.
    mutating func run(_ source: some ReadableFrames, into record: inout FileRecord) {
        var failures = ReaderFailures()
        var spans = CodeSpans(), change = FrameChange()
        var read: [DetectedCode] = [], measured: [JSONValue?] = []
        defer {
            failures.apply(to: &record)
            if merge != .none {
                // Each span's code is one frame's read: its measurement is that read's.
                let merged = spans.codes()
                record.codes += merge == .timedSpans ? merged : merged.map(Self.untimed)
                if grader != nil { record.measurements += merged.map { m in read.firstIndex { $0 == Self.untimed(m) }.flatMap { measured[$0] } } }
            }
            record.warnings += source.closingNotes
        }
        do {
            while let frame = try source.next() {
                framesGiven += 1
                for note in frame.notes where !record.warnings.contains(note) { record.warnings.append(note) }
                if let page = frame.page { record.pages.append(page) }
                if skipsUnchanged && change.isUnchanged(frame.image) {
                    spans.unchanged(at: frame.seconds ?? Double(frame.index))
                    continue
                }
                if skipsFlat && Self.isFlat(frame.image) { continue }
                framesRead += 1
                let result = try readFrame(frame, of: source, record)
                for warning in result.warnings where !record.warnings.contains(warning) { record.warnings.append(warning) }
                failures.add(result)
                let measurements = measure(result.codes, on: frame, of: source, &record)
                if merge != .none {
                    spans.read(result.codes, at: frame.seconds ?? Double(frame.index))
                    read += result.codes
                    measured += measurements
                } else {
                    record.codes += result.codes
                    record.measurements += measurements
                }
                progress?()
            }
        } catch {
            record.error = error
        }
    }

    /// One frame: the engine (a checkpoint before its isolated reader), then the source's second look.
    func readFrame(_ frame: SourceFrame, of source: some ReadableFrames, _ record: FileRecord) throws(RecordError) -> ReadResult {
        let note: (([DetectedCode]) -> Void)? = checkpoint.map { send in
            { codes in
                var partial = record
                partial.codes += codes
                send(partial)
            }
        }
        BarcodeReader.trace("file \(TerminalText.escape(record.path)) frame=\(frame.index)")
        let i = frame.index
        var result = BarcodeReader.read(
            ReadFrame(
                frame.image, index: i, scale: frame.scale, fullResolution: { try? source.pixels(of: i, .fullResolution) },
                beforeIsolatedReader: note), reader)
        if let more = try source.lookAgain(at: frame, after: result.codes, reader: reader) {
            result.codes += more.codes
            result.warnings += more.warnings.filter { !result.warnings.contains($0) }
            result.readerFailures += more.readerFailures.filter { !result.readerFailures.contains($0) }
            result.failedReaders += more.failedReaders.filter { !result.failedReaders.contains($0) }
        }
        return result
    }

    /// Each code measured on its frame at full resolution (the frame itself unless its first
    /// decode was reduced); a code whose frame does not decode at full resolution is left
    /// ungraded, with a warning. Nothing when the sweep does not grade.
    mutating func measure(_ codes: [DetectedCode], on frame: SourceFrame, of source: some FrameSource, _ record: inout FileRecord) -> [JSONValue?] {
        guard let grader, !codes.isEmpty else { return [] }
        let start = ContinuousClock.now
        defer { gradeMilliseconds += start.duration(to: .now).milliseconds }
        guard let full = frame.scale == 1 ? frame.image : try? source.pixels(of: frame.index, .fullResolution) else {
            for k in codes.indices {
                record.warnings.append("code \(record.codes.count + k + 1) could not be graded: its frame did not decode at full resolution")
            }
            return Array(repeating: nil, count: codes.count)
        }
        return codes.map { grader.measure($0, full) }
    }

    /// An animation's frames have no time: its span codes carry none.
    static func untimed(_ code: DetectedCode) -> DetectedCode {
        var c = code
        c.seconds = nil
        return c
    }

    /// Whether every pixel is within 24 grey levels of every other (no code is read at less).
    static func isFlat(_ image: LumaImage) -> Bool {
        var lo: UInt8 = 255, hi: UInt8 = 0
        for p in image.pixels {
            lo = min(lo, p); hi = max(hi, p)
            if hi &- lo >= 24 { return false }
        }
        return true
    }
}
