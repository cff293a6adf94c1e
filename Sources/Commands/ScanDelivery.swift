import CodeSweep
import Forensics
import Records
import Reporting

/// Where a scan's records go as the sweep emits them, in order: the report's sink, the
/// pictures of --annotate, --raw's failures on stderr, the progress line. The first write
/// error (report or picture) stops the sweep: nothing is lost silently.
final class ScanDelivery {
    private var sink: any RecordSink
    private let pictures: AnnotationPlan?
    private let stdinImage: StdinImage?
    private let raw: Bool
    private let progress: Progress
    private let liveProgress: Bool
    private let clock = ContinuousClock.now
    private var failedNames: [String] = []
    private(set) var summary = SweepSummary()
    private(set) var writeFailure: OutputError?
    private(set) var pictureProblems = 0
    /// A write error stopped the sweep before its end.
    private(set) var stoppedEarly = false

    init(_ config: ScanConfig, scan: Scan, stdinImage: StdinImage?) {
        sink = config.sink
        pictures = config.pictures
        self.stdinImage = stdinImage
        raw = scan.raw
        progress = config.progress(shown: !scan.quiet && OutputFile.standardError.isTerminal)
        // A live line on stderr would tangle with records printed to the same terminal; the
        // summary still comes at the end.
        liveProgress = scan.report.output != nil || !OutputFile.standardOutput.isTerminal
        writeFailure = sink.outputFailure
        if writeFailure != nil { Interrupt.stopForWriteFailure() }
    }

    /// One record, as the sweep emits it (the stdin image's record says '-').
    func deliver(_ scanned: FileRecord) {
        guard writeFailure == nil else { return }
        var record = stdinImage?.relabel(scanned) ?? scanned
        // The pictures first: a picture that could not be made is a warning on the file's record
        // (and on stderr); only a picture that could not be written for want of space or an I/O
        // error stops the sweep, after this record is written.
        var pictureFailure: String? = nil
        if let pictures {
            let messages = pictures.annotate(record)
            for message in messages { Stderr.say("codesweep: \(message)") }
            record.warnings += messages
            pictureProblems = pictures.problems
            pictureFailure = pictures.writeFailure
        }
        sink.write(record)
        if let failure = sink.outputFailure { return stop(failure) }
        if let pictureFailure { return stop(OutputError(message: pictureFailure)) }
        summary.add(record)
        // --raw has no place for a failure in its output: each one goes to stderr, as
        // zbarimg's ERROR lines do (-q too), so a pipeline learns which file failed.
        if raw, let error = record.error {
            Stderr.say("codesweep: error: \(record.path): \(error.kind.rawValue): \(error.message)")
        }
        if let error = record.error, failedNames.count < 3 {
            failedNames.append("\(TerminalText.escape(record.path)) (\(error.kind.rawValue))")
        }
        if liveProgress { progress.update(summary, elapsed: clock.duration(to: .now).seconds, current: record.path) }
    }

    private func stop(_ failure: OutputError) {
        writeFailure = failure
        Interrupt.stopForWriteFailure()
    }

    /// After the sweep: the summary ends the report, `out` is closed (the first write error
    /// is kept), and the progress line gives way to the summary on stderr.
    func finish(closing out: OutputFile) {
        summary.elapsedSeconds = clock.duration(to: .now).seconds
        summary.interrupted = Interrupt.requested
        stoppedEarly = writeFailure != nil
        sink.finish(summary: summary)
        if writeFailure == nil { writeFailure = sink.outputFailure }
        if let problem = out.close(), writeFailure == nil { writeFailure = problem }
        progress.finish(summary, failedNames: failedNames)
    }
}
