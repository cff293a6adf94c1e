import InputSources
import Records
import SweepCore
import VideoBridge

/// A video (issue 61): frames sampled by FFmpeg (VideoBridge) at `VideoSettings.samplesPerSecond`,
/// streamed one at a time, each read by the engine unless the cheap look (`FrameChange`) sees it
/// unchanged since the last one read; codes merged across samples into spans (`CodeSpans`),
/// each with its `seconds` on screen and its corners from the sample it read best in.
enum VideoScanner {
    enum Input {
        /// A walked file, opened by FFmpeg's file protocol (streamed, never held whole).
        case path([UInt8])
        /// A container's member, read from memory.
        case bytes([UInt8])
    }

    static func read(_ input: Input, into record: inout FileRecord, _ context: ItemScanner.Context) {
        let settings = context.settings.videos
        let reader: VideoReader
        do {
            switch input {
            case .path(let p): reader = try VideoReader(path: p, maxSeconds: settings.maxSeconds)
            case .bytes(let b): reader = try VideoReader(bytes: b, maxSeconds: settings.maxSeconds)
            }
        } catch {
            record.error = RecordError(errorKind(error.kind), error.message)
            return
        }
        let info = reader.info
        // The per-file pixel limit holds for each sampled frame (the size is the file's word).
        let limit = context.settings.limits.maxPixels
        if info.width * info.height > limit {
            record.error = RecordError(
                .tooLarge,
                "the video's frames are \(info.width) x \(info.height) pixels; the limit is \(limit) pixels a frame (the safety limit of 120 MP a picture)")
            return
        }
        let interval = 1 / settings.samplesPerSecond
        var summary = VideoSummary(
            container: info.container, codec: info.codec, width: info.width, height: info.height, rotation: info.rotation,
            bitDepth: info.bitDepth, duration: info.duration, frameRate: info.frameRate, interval: interval)
        record.width = info.width
        record.height = info.height
        var spans = CodeSpans(), change = FrameChange()
        var due: Double? = nil
        var failures = DecoderFailures()
        while let frame = reader.next(after: due, interval: interval) {
            // The next sample is due on the grid of `interval` (no drift from the frames' times).
            due = max((due ?? -interval) + interval, (frame.seconds / interval).rounded(.down) * interval)
            summary.samples += 1
            summary.secondsRead = frame.seconds
            if change.isUnchanged(frame.image) {
                spans.unchanged(at: frame.seconds)
                continue
            }
            summary.framesRead += 1
            let result = BarcodeReader.read(ReadFrame(frame.image, index: frame.index), context.settings.reader)
            spans.read(result.codes, at: frame.seconds)
            record.warnings += result.warnings.filter { !record.warnings.contains($0) }
            failures.add(result)
            context.progress()
        }
        record.codes = spans.codes()
        record.frames = summary.samples
        summary.capped = reader.capped
        record.video = summary
        failures.apply(to: &record)
        if reader.capped {
            let of = info.duration.map { " of \(NumberText.trimmed($0, decimals: 1)) s" } ?? ""
            record.warnings.append(
                "read the first \(NumberText.trimmed(settings.maxSeconds)) s\(of) (--max-video-seconds): codes after it were not looked for")
        }
        if let damage = reader.damage {
            // Stopped short of the length it declares: truncated; damage read past: a warning.
            if let d = info.duration, summary.secondsRead + max(1, 2 * interval) < d, !reader.capped {
                record.error = RecordError(.truncated, "\(damage); the codes read before it are kept")
            } else {
                record.warnings.append("FFmpeg: \(damage)")
            }
        }
        if summary.samples == 0 && record.error == nil { record.error = RecordError(.corrupt, "FFmpeg decoded no frame of the video stream") }
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
