import ArgumentParser
import CodeSweep
import FileWalker
import Forensics
import Reporting
import SweepSelection
import UserInput

/// What one `scan` runs with, built from its flags in one place (as ripgrep's HiArgs builds
/// walker, matcher and printer): the engine's settings, the files to sweep, the report and its
/// sink, the pictures of --annotate. Building it reads --files-from, plans the pictures and
/// opens the report (with --resume: locks it and checks its settings); a problem is said on
/// stderr and ends the scan with status 2.
struct ScanConfig {
    let settings: ScanSettings
    /// The roots: the paths (the stdin image's temporary file for '-') and the --files-from list.
    let roots: [[UInt8]]
    /// The walk of the roots, streamed into the sweep (memory flat in the number of files).
    let walked: Walker.Walk
    /// What of the walk gets swept: this shard's files that --resume has not recorded yet.
    let keep: @Sendable (WalkItem) -> Bool
    /// The files to sweep, in order (counting, as it is read, the failures recorded before).
    let items: AnyIterator<WalkItem>
    /// A resumed sweep's exit status also counts the failures its earlier part recorded in this shard.
    let previousFailures: Counter
    let pictures: AnnotationPlan?
    let out: OutputFile
    let sink: any RecordSink

    init(_ scan: Scan, settings: ScanSettings, stdinImage: StdinImage?) throws {
        self.settings = settings
        roots = try Self.roots(scan, stdinImage: stdinImage)
        // No report over an input: an image named or listed, the list itself, an image in a folder walked.
        var inputs = roots.map { OutputGuard.Input("the input", $0) }
        if let list = scan.filesFrom { inputs.append(OutputGuard.Input("the --files-from list", list)) }
        try OutputGuard.refuse("codesweep", flag: "--output", output: scan.report.output, inputs: inputs, roots: roots)
        try OutputGuard.refuse("codesweep", flag: "--resume", output: scan.resume, inputs: inputs, roots: roots)
        walked = Walker(options: scan.walking.walkOptions).items(roots)
        let shardChoice = scan.shard.flatMap(Shard.init(parsing:))
        let inShard: @Sendable (WalkItem) -> Bool = { item in shardChoice?.contains(item.pathBytes) ?? true }
        var previous: ResumeLog? = nil
        var annotated: [WalkItem]? = nil
        do {
            // Pictures are planned from the whole walk (no picture may overwrite an input, and
            // names must not depend on the shard), so --annotate walks first and keeps what it walked.
            let whole = scan.annotate == nil ? [] : Array(walked)
            annotated = scan.annotate == nil ? nil : whole.filter(inShard)
            pictures = try scan.annotate.map { [roots] in try AnnotationPlan(outputDir: $0, roots: roots, items: whole) }
            let report = try Self.openReport(scan, settings: settings)
            previous = report.log
            out = report.out
        } catch {
            Stderr.say("codesweep: \(String(describing: error))")
            throw ExitCode(2)
        }
        let keep: @Sendable (WalkItem) -> Bool = { [previous] item in inShard(item) && !(previous?.isRecorded(item) ?? false) }
        let previousFailures = Counter()
        let select: (WalkItem) -> Bool = { [previous] item in
            if previous?.isRecordedFailure(item) == true && inShard(item) { previousFailures.value += 1 }
            return keep(item)
        }
        self.keep = keep
        self.previousFailures = previousFailures
        items = annotated.map { AnyIterator($0.lazy.filter(select).makeIterator()) } ?? AnyIterator(walked.lazy.filter(select).makeIterator())
        sink = try scan.report.sink(out: out, raw: scan.raw, forcedCharset: scan.charset)
    }

    /// The paths named ('-': the stdin image's file), then those listed in --files-from.
    static func roots(_ scan: Scan, stdinImage: StdinImage?) throws -> [[UInt8]] {
        var roots = scan.paths.map { $0 == "-" ? stdinImage!.path : ArgumentBytes.bytes($0) }
        if let filesFrom = scan.filesFrom {
            do { roots += try PathList.read(filesFrom, nulSeparated: scan.nulSeparated) } catch {
                Stderr.say("codesweep: \(error.description)")
                throw ExitCode(2)
            }
        }
        return roots
    }

    /// The report's file (stdout without -o), and with --resume the log of what it holds.
    static func openReport(_ scan: Scan, settings: ScanSettings) throws -> (log: ResumeLog?, out: OutputFile) {
        if let resume = scan.resume {
            let (log, file) = try openResumed(resume, current: scan.resumeSettings(settings))
            return (log, file)
        }
        // With -o, the json sink writes a temporary file and renames it: stdout goes unused.
        if scan.report.output != nil, scan.report.format == .json { return (nil, .standardOutput) }
        return (nil, try scan.report.destination.open())
    }

    /// A --resume report, locked for the whole run (a second sweep on the same file is refused),
    /// whose records must have been written with the settings of this run.
    static func openResumed(_ resume: String, current: ResumeSettings) throws -> (ResumeLog, OutputFile) {
        let (log, file) = try ResumeLog.open(resume)
        let stored = ResumeSettings.stored(for: resume)
        if log.recordCount > 0 {
            let differences = stored.map { current.differences(from: $0) } ?? log.visibleDifferences(from: current)
            if !differences.isEmpty {
                file.close()
                throw OutputError(
                    message: "cannot resume \(ArgumentBytes.display(resume)) with other settings than it was written with (its records would not match): "
                        + differences.joined(separator: "; ") + ". Resume with the same settings, or write a new report")
            }
        }
        if stored == nil && log.recordCount > 0 {
            Stderr.say(
                "codesweep: note: \(ArgumentBytes.display(resume)) has no stored settings (it was not written with --resume); only --hash and --timings could be compared with its records"
            )
        }
        if log.membersCut > 0 {
            Stderr.say(
                "codesweep: note: \(ArgumentBytes.display(resume)) ended with \(log.membersCut) member record(s) of a container whose own record was never written (the sweep was stopped inside it); they were cut off and the container is read again whole"
            )
        }
        if stored != current { try current.store(for: resume) }
        return (log, file)
    }

    /// The progress line; when shown, its total counts only the files that will get a record
    /// (not a folder's documents): the files the sweep scans, by the scan's own rule, from
    /// their first bytes.
    func progress(shown: Bool) -> Progress {
        Progress(
            count: shown ? WalkCount(walked, keep: { [keep, settings] in keep($0) && FileScanner.willRecord($0, settings: settings) }) : nil, enabled: shown)
    }
}

extension Scan {
    /// The settings that change what a record says, as `--resume` stores and compares them.
    func resumeSettings(_ s: ScanSettings) -> ResumeSettings {
        ResumeSettings(
            symbologies: s.reader.symbologies.members.map(\.rawValue), effort: s.reader.plan.effort.rawValue,
            roi: s.reader.roi.map { "\($0.x),\($0.y),\($0.width),\($0.height)" },
            minQuality: s.reader.minLinearQuality, minITFLength: s.reader.minITFLength,
            hashes: s.hashes.map(\.rawValue), timings: s.timings, charset: charset,
            limits:
                "max_pixels=\(s.limits.maxPixels),max_frames=\(s.limits.maxFrames),max_total_pixels=\(s.limits.maxTotalPixels),max_file_bytes=\(s.maxFileBytes),max_pages=\(s.documents.maxPages),\(s.containers.summary),\(s.videos.summary)"
        )
    }
}
