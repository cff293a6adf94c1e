import Imaging
import InputSources
import Records
import SweepCore
import VideoBridge

/// A video's samples as a source of frames: decoded by FFmpeg (VideoBridge), one at each
/// `interval` on a grid that does not drift with the frames' times, streamed one at a time.
final class VideoSamples: ReadableFrames {
    enum Input {
        /// A walked file, opened by FFmpeg's file protocol (streamed, never held whole).
        case path([UInt8])
        /// A container's member, read from memory.
        case bytes([UInt8])
    }

    let reader: VideoReader
    let interval: Double
    private var due: Double?
    private(set) var samples = 0
    private(set) var secondsRead = 0.0

    /// - from: the first sample given (a recorded code's `frame`, found again for a picture of it).
    init(_ input: Input, interval: Double, maxSeconds: Double? = nil, from first: Int? = nil) throws(RecordError) {
        self.interval = interval
        let seconds = maxSeconds ?? Double((first ?? 0) + 1) * interval + 1
        do {
            switch input {
            case .path(let p): reader = try VideoReader(path: p, maxSeconds: seconds)
            case .bytes(let b): reader = try VideoReader(bytes: b, maxSeconds: seconds)
            }
        } catch {
            throw RecordError(VideoScanner.errorKind(error.kind), error.message)
        }
        if let first { due = Double(first) * interval - interval - 0.001 }
    }

    func next() -> SourceFrame? {
        guard let frame = reader.next(after: due, interval: interval) else { return nil }
        // The next sample is due on the grid of `interval` (no drift from the frames' times).
        due = max((due ?? -interval) + interval, (frame.seconds / interval).rounded(.down) * interval)
        samples += 1
        secondsRead = frame.seconds
        return SourceFrame(frame.image, index: frame.index, seconds: frame.seconds)
    }

    /// A sample has no more pixels than it came with.
    func pixels(of index: Int, _ request: PixelRequest) -> LumaImage? { nil }
}

/// A video (issue 61): its samples (`VideoSamples`, at `VideoSettings.samplesPerSecond`) read by
/// the frame loop, each unless the cheap look (`FrameChange`) sees it unchanged since the last one
/// read; codes merged across samples into spans (`CodeSpans`), each with its `seconds` on screen
/// and its corners from the sample it read best in.
enum VideoScanner {
    static func read(_ input: VideoSamples.Input, into record: inout FileRecord, _ context: ItemScanner.Context) {
        let settings = context.settings.videos
        let interval = 1 / settings.samplesPerSecond
        let samples: VideoSamples
        do { samples = try VideoSamples(input, interval: interval, maxSeconds: settings.maxSeconds) } catch {
            record.error = error
            return
        }
        let info = samples.reader.info
        // The per-file pixel limit holds for each sampled frame (the size is the file's word).
        let limit = context.settings.limits.maxPixels
        if info.width * info.height > limit {
            record.error = RecordError(
                .tooLarge,
                "the video's frames are \(info.width) x \(info.height) pixels; the limit is \(limit) pixels a frame (the safety limit of 120 MP a picture)")
            return
        }
        var summary = VideoSummary(
            container: info.container, codec: info.codec, width: info.width, height: info.height, rotation: info.rotation,
            bitDepth: info.bitDepth, duration: info.duration, frameRate: info.frameRate, interval: interval)
        record.width = info.width
        record.height = info.height
        var loop = FrameLoop(context.settings, grader: context.grader)
        loop.skipsUnchanged = true
        loop.merge = .timedSpans
        loop.progress = context.progress
        loop.run(samples, into: &record)
        summary.samples = samples.samples
        summary.secondsRead = samples.secondsRead
        summary.framesRead = loop.framesRead
        record.frames = summary.samples
        summary.capped = samples.reader.capped
        record.video = summary
        close(samples, interval: interval, settings, into: &record)
    }

    /// What the reading's end says: the length read (--max-video-seconds), damage, no frame.
    static func close(_ samples: VideoSamples, interval: Double, _ settings: VideoSettings, into record: inout FileRecord) {
        let reader = samples.reader
        if reader.capped {
            let of = reader.info.duration.map { " of \(NumberText.trimmed($0, decimals: 1)) s" } ?? ""
            record.warnings.append(
                "read the first \(NumberText.trimmed(settings.maxSeconds)) s\(of) (--max-video-seconds): codes after it were not looked for")
        }
        if let damage = reader.damage {
            // Stopped short of the length it declares: truncated; damage read past: a warning.
            if let d = reader.info.duration, samples.secondsRead + max(1, 2 * interval) < d, !reader.capped {
                record.error = RecordError(.truncated, "\(damage); the codes read before it are kept")
            } else {
                record.warnings.append("FFmpeg: \(damage)")
            }
        }
        if samples.samples == 0 && record.error == nil { record.error = RecordError(.corrupt, "FFmpeg decoded no frame of the video stream") }
    }

    static func errorKind(_ kind: VideoError.Kind) -> ErrorKind {
        switch kind {
        case .notVideo, .unsupported: .notImage
        case .corrupt: .corrupt
        case .truncated: .truncated
        case .unreadable: .unreadable
        }
    }
}
