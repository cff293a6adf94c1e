import Imaging
import InputSources
import MagickBridge
import Records
import SweepCore

/// The frame loop of a loaded picture: each frame read by the engine, the second decoder's
/// failures collected as warnings, and grading on the full-resolution frames.
enum FrameReading {
    /// Reads every frame with the engine, adding the codes (and the second decoder's failures,
    /// as warnings) to `record`.
    static func readFrames(
        of loaded: LoadedImage, fullResolution full: FullResolutionFrames, into record: inout FileRecord,
        settings: ScanSettings, checkpoint: ((FileRecord) -> Void)?
    ) {
        var failures = DecoderFailures()
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
            failures.add(read)
        }
        failures.apply(to: &record)
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

    /// An animation's codes, frame by frame, merged as a video's samples are (`CodeSpans`): one
    /// code for each run of consecutive frames that read it, from the frame it read best in.
    static func spans(_ codes: [DetectedCode]) -> [DetectedCode] {
        var spans = CodeSpans()
        let frames = codes.map(\.frame).max() ?? 0
        for f in 0...frames { spans.read(codes.filter { $0.frame == f }, at: Double(f)) }
        return spans.codes().map { c in
            var c = c
            c.seconds = nil
            return c
        }
    }
}
