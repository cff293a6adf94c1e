import ArgumentParser
import CodeSweep
import Forensics
import FileWalker
import Reporting
import SweepCore
#if canImport(Glibc)
import Glibc
#endif

struct Scan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Scan files and folders for barcodes and QR codes (the default command).",
        discussion: """
        Writes one JSON Lines record per file to stdout (or --output), in sorted path order, \
        each as soon as it and every record before it are done; --format picks json, csv or \
        text instead (see docs/output.md). Files found by walking that \
        are not images are skipped quietly; files named on the command line are always reported. \
        '-' reads one image from standard input (its record's path is '-').

        Exit status: 0 done, no file failed; 1 some file could not be read; 2 usage or output \
        error; 4 with --fail-if-none, no code was found in any file (zbarimg's exit 4); 130 interrupted.
        """
    )

    @Argument(help: "Files and folders to scan (folders are walked recursively); '-' reads an image from standard input.")
    var paths: [String] = []

    @Flag(help: "Print only the payloads, one per line, exactly as read (no path, no escaping), like zbarimg --raw; each file that fails is named on stderr (codesweep: error: PATH: KIND: MESSAGE). A payload may hold newlines, terminal escapes and bidi controls: pipe it, do not print it on a terminal.")
    var raw = false

    @Flag(help: "Exit 4 when no code was found in any file and none failed (zbarimg exits 4 when it detects no barcode).")
    var failIfNone = false

    @Option(name: [.short, .long], help: "Write the report to this file instead of stdout.")
    var output: String?

    @Option(help: "Output format: jsonl (default), json, csv or text (see docs/output.md).")
    var format: ReportFormat = .jsonl

    @Flag(help: "CSV: also write a row for each file with no code or an error (adds status and error columns).")
    var csvAllFiles = false

    @Flag(help: "CSV: leave cells starting with = + - @ as they are (by default a ' is put before them so spreadsheets do not run them as formulas).")
    var csvRawFormulas = false

    @Option(help: "Symbologies to look for: names and groups, comma-separated; '-name' removes one (see `codesweep symbologies`).")
    var symbologies: String = "default"

    @Option(help: "How hard to look: fast (one cheap pass), normal, thorough (every pass). See `codesweep plan`.")
    var effort: Effort = .normal

    @Option(help: "Region of interest 'x,y,w,h' as fractions of the upright image (e.g. 0.5,0,0.5,0.5 = top-right quarter). Corners stay in full-image pixels.")
    var roi: String?

    @Option(name: [.short, .long], help: "Images decoded in parallel (default: number of cores).")
    var jobs: Int?

    @Option(help: "Only scan files whose name (or path below the argument, if the glob has a '/') matches; repeatable. '{jpg,heic}' alternatives; a trailing '/' names folders: the files below them.")
    var include: [String] = []

    @Option(help: "Skip files and folders matching this glob; repeatable. A trailing '/' (Photos/) names folders only.")
    var exclude: [String] = []

    @Option(help: "As --include, ignoring ASCII case ('*.jpg' also matches A.JPG; ripgrep's --iglob); repeatable.")
    var iinclude: [String] = []

    @Option(help: "As --exclude, ignoring ASCII case; repeatable.")
    var iexclude: [String] = []

    @Flag(help: "Also walk hidden files and folders (names starting with '.').")
    var hidden = false

    @Flag(help: "Follow symbolic links found while walking (loops are detected).")
    var followSymlinks = false

    @Option(help: "Drop linear (1D) codes read on fewer scan lines than this (1 keeps everything).")
    var minQuality: Int = 2

    @Option(help: "Minimum length of an Interleaved 2 of 5 payload.")
    var minItfLength: Int = 6

    @Option(help: "Read payload text in this charset instead of detecting it: utf-8, gb18030, shift_jis, big5, euc-kr, iso-8859-1, any other name iconv knows, or binary.")
    var charset: String?

    @Flag(help: "Add \"timings_ms\" to each record: milliseconds spent reading, hashing, decoding, scanning, and on a full-resolution decode when one was needed.")
    var timings = false

    @Flag(name: [.short, .long], help: "No progress line on stderr.")
    var quiet = false

    @Option(help: "Where images are decoded: 'process' (worker processes: a crash or hang costs one file, recorded as error kind crash/timeout) or 'none' (in this process).")
    var isolation: IsolationMode = .process

    @Option(help: "Seconds one file may take before its worker is stopped and the file recorded as kind 'timeout' (with --isolation process).")
    var timeout: Double = 60

    @Option(help: ArgumentHelp("Memory one file may take in a worker process, in MiB: the worker's address space may grow by no more than this (setrlimit), whatever a decoder does; a file that needs more is recorded as too_large. 0: no limit.", valueName: "MIB"))
    var maxMemory: Int = 1024

    @Option(help: ArgumentHelp("Also write an upright copy of every image with codes into DIR, each code outlined and labelled (the folder mirrors the input tree; inputs are never written over).", valueName: "DIR"))
    var annotate: String?

    @Option(help: "Continue an interrupted jsonl sweep: skip files already recorded in FILE (same path, size and mtime) and append the rest to it.")
    var resume: String?

    @Option(help: "Add the file's digest to each record as \"hashes\" (sha256, md5, sha1, sha512; repeatable or comma-separated).")
    var hash: [String] = []

    @Option(help: "Also scan the paths listed in FILE ('-' = stdin), one per line (NUL-separated with -0); each is treated as named on the command line.")
    var filesFrom: String?

    @Flag(name: [.customShort("0"), .customLong("null")], help: "The --files-from list is NUL-separated (find -print0).")
    var nulSeparated = false

    @Option(help: "Scan only shard K of N (0 <= K < N): the files whose path's FNV-1a hash mod N is K. See docs/scale-out.md.")
    var shard: String?

    func validate() throws {
        if paths.isEmpty && filesFrom == nil { throw ValidationError("give files or folders to scan, or --files-from FILE") }
        do { _ = try HashAlgorithm.parseList(hash) } catch { throw ValidationError(error.description) }
        if let shard, Shard(parsing: shard) == nil {
            throw ValidationError("--shard takes K/N with 0 <= K < N (shards count from 0), e.g. --shard 0/4")
        }
        if nulSeparated && filesFrom == nil { throw ValidationError("-0/--null applies to --files-from") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let roi, FractionalRect(parsing: roi) == nil {
            throw ValidationError("--roi takes x,y,w,h as fractions in 0...1 with x+w <= 1 and y+h <= 1, e.g. 0.25,0.25,0.5,0.5")
        }
        do { _ = try SymbologySet.parse(symbologies) } catch { throw ValidationError(error.description) }
        if maxMemory < 0 || (maxMemory > 0 && maxMemory < 128) { throw ValidationError("--max-memory takes MiB, at least 128 (0: no limit)") }
        if minQuality < 1 { throw ValidationError("--min-quality must be at least 1") }
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        if let resume, let output, output != resume {
            throw ValidationError("--resume appends to its own file; leave out --output or give the same file")
        }
        if let charset, !PayloadText.isSupportedCharset(charset) { throw ValidationError("unknown charset '\(charset)' for --charset") }
        if (csvAllFiles || csvRawFormulas) && format != .csv { throw ValidationError("--csv-all-files and --csv-raw-formulas need --format csv") }
        if resume != nil && format != .jsonl { throw ValidationError("--resume continues a jsonl report; it cannot be used with --format \(format.rawValue)") }
        if raw && (format != .jsonl || csvAllFiles || csvRawFormulas) { throw ValidationError("--raw prints payloads only; it cannot be used with --format or the --csv options") }
        if raw && resume != nil { throw ValidationError("--raw cannot be used with --resume (which continues a jsonl report)") }
        if failIfNone && resume != nil { throw ValidationError("--fail-if-none looks at this run's codes only; it cannot be used with --resume") }
        let stdinPaths = paths.filter { $0 == "-" }.count
        if stdinPaths > 1 { throw ValidationError("'-' (standard input) can be named once") }
        if stdinPaths == 1 && filesFrom == "-" { throw ValidationError("'-' and --files-from - both read standard input; use one") }
        if stdinPaths == 1 && (annotate != nil || resume != nil) { throw ValidationError("'-' (an image from standard input) cannot be used with --annotate or --resume") }
    }

    func run() async throws {
        var settings = ScanSettings()
        settings.reader = ReaderOptions(symbologies: try SymbologySet.parse(symbologies), effort: effort,
                                        roi: roi.flatMap(FractionalRect.init(parsing:)),
                                        minLinearQuality: minQuality, minITFLength: minItfLength)
        settings.timings = timings
        settings.hashes = try HashAlgorithm.parseList(hash)
        settings.memoryLimitMiB = maxMemory
        var walk = WalkOptions()
        walk.include = include
        walk.exclude = exclude
        walk.includeIgnoringCase = iinclude
        walk.excludeIgnoringCase = iexclude
        walk.hidden = hidden
        walk.followSymlinks = followSymlinks

        Interrupt.install()
        var stdinImage: StdinImage? = nil
        if paths.contains("-") {
            do { stdinImage = try StdinImage.save(limit: settings.maxFileBytes) } catch {
                Stderr.say("codesweep: \(error)")
                throw ExitCode(2)
            }
        }
        defer { stdinImage?.remove() }
        var roots = paths.map { $0 == "-" ? stdinImage!.path : ArgumentBytes.bytes($0) }
        if let filesFrom {
            do { roots += try PathList.read(filesFrom, nulSeparated: nulSeparated) } catch {
                Stderr.say("codesweep: \(error.description)")
                throw ExitCode(2)
            }
        }
        // The walk is streamed into the sweep (memory flat in the number of files); what is
        // kept of it (this shard, not recorded yet) is decided item by item.
        let walked = Walker(options: walk).items(roots)
        let shardChoice = shard.flatMap(Shard.init(parsing:))
        let inShard: @Sendable (WalkItem) -> Bool = { item in shardChoice?.contains(item.pathBytes) ?? true }
        var previous: ResumeLog? = nil
        let previousFailures = Counter()
        let out: OutputFile
        let pictures: AnnotationPlan?
        var annotated: [WalkItem]? = nil
        do {
            // Pictures are planned from the whole walk (no picture may overwrite an input, and
            // names must not depend on the shard), so --annotate walks first and keeps what it walked.
            let whole = annotate == nil ? [] : Array(walked)
            annotated = annotate == nil ? nil : whole.filter(inShard)
            pictures = try annotate.map { try AnnotationPlan(outputDir: $0, roots: roots, items: whole) }
            if let resume {
                // Locked for the whole run: a second sweep on the same file is refused.
                let (log, file) = try ResumeLog.open(resume)
                let current = resumeSettings(settings)
                let stored = ResumeSettings.stored(for: resume)
                if log.recordCount > 0 {
                    let differences = stored.map { current.differences(from: $0) } ?? log.visibleDifferences(from: current)
                    if !differences.isEmpty {
                        file.close()
                        throw OutputError(message: "cannot resume \(ArgumentBytes.display(resume)) with other settings than it was written with (its records would not match): "
                                          + differences.joined(separator: "; ") + ". Resume with the same settings, or write a new report")
                    }
                }
                if stored == nil && log.recordCount > 0 {
                    Stderr.say("codesweep: note: \(ArgumentBytes.display(resume)) has no stored settings (it was not written with --resume); only --hash and --timings could be compared with its records")
                }
                if stored != current { try current.store(for: resume) }
                previous = log
                out = file
            } else if output != nil, format == .json {
                out = .standardOutput // unused: the json sink writes a temporary file and renames it
            } else if let output {
                out = try OutputFile.open(output)
            } else {
                out = .standardOutput
            }
        } catch {
            Stderr.say("codesweep: \(String(describing: error))")
            throw ExitCode(2)
        }
        let keep: @Sendable (WalkItem) -> Bool = { [previous] item in inShard(item) && !(previous?.isRecorded(item) ?? false) }
        let select: (WalkItem) -> Bool = { [previous] item in
            // A resumed sweep's exit status also counts the failures its earlier part recorded in this shard.
            if previous?.isRecordedFailure(item) == true && inShard(item) { previousFailures.value += 1 }
            return keep(item)
        }
        let items = annotated.map { AnyIterator($0.lazy.filter(select).makeIterator()) } ?? AnyIterator(walked.lazy.filter(select).makeIterator())
        let progressShown = !quiet && OutputFile.standardError.isTerminal
        // The total counts only the files that will get a record (not a folder's documents):
        // the files the sweep scans, by the scan's own rule, from their first bytes.
        let progress = Progress(count: progressShown ? WalkCount(walked, keep: { keep($0) && FileScanner.willRecord($0) }) : nil,
                                enabled: progressShown)
        var sink: any RecordSink
        switch raw ? nil : format {
        case nil: sink = RawSink(out: out, forcedCharset: charset)
        case .jsonl: sink = JSONLinesSink(out: out, forcedCharset: charset)
        case .csv: sink = CSVSink(out: out, forcedCharset: charset,
                                  options: CSVSink.Options(allFiles: csvAllFiles, neutraliseFormulas: !csvRawFormulas))
        case .text: sink = TextSink(out: out, forcedCharset: charset)
        case .json:
            do {
                sink = try JSONDocumentSink(path: output, toolName: "codesweep", toolVersion: CodeSweepInfo.version, forcedCharset: charset)
            } catch {
                Stderr.say("codesweep: \(error.message)")
                throw ExitCode(2)
            }
        }
        var summary = SweepSummary()
        // The first write error (report or picture) stops the sweep: nothing is lost silently.
        var writeFailure: OutputError? = sink.outputFailure
        var pictureProblems = 0
        var failedNames: [String] = []
        if writeFailure != nil { Interrupt.stopForWriteFailure() }
        // A live line on stderr would tangle with records printed to the same terminal; the
        // summary still comes at the end.
        let liveProgress = output != nil || !OutputFile.standardOutput.isTerminal
        let clock = ContinuousClock.now
        let isolationSetting: Isolation
        switch isolation {
        case .none: isolationSetting = .none
        case .process: isolationSetting = .processes(executable: CodeSweepInfo.executablePath, timeoutSeconds: timeout)
        }
        let sweep = Sweep(settings: settings, jobs: jobs ?? Sweep.coreCount, isolation: isolationSetting)
        await sweep.run(items, emit: { scanned in
            guard writeFailure == nil else { return }
            let record = stdinImage?.relabel(scanned) ?? scanned
            sink.write(record)
            if let failure = sink.outputFailure {
                writeFailure = failure
                Interrupt.stopForWriteFailure()
                return
            }
            if let pictures {
                for message in pictures.annotate(record) {
                    Stderr.say("codesweep: \(message)")
                }
                pictureProblems = pictures.problems
                if let failure = pictures.writeFailure {
                    writeFailure = OutputError(message: failure)
                    Interrupt.stopForWriteFailure()
                    return
                }
            }
            summary.add(record)
            // --raw has no place for a failure in its output: each one goes to stderr, as
            // zbarimg's ERROR lines do (-q too), so a pipeline learns which file failed.
            if raw, let error = record.error {
                Stderr.say("codesweep: error: \(TerminalText.escape(record.path)): \(error.kind.rawValue): \(TerminalText.escape(error.message))")
            }
            Interrupt.holdIfAsked(written: summary.filesScanned)
            if let error = record.error, failedNames.count < 3 {
                failedNames.append("\(TerminalText.escape(record.path)) (\(error.kind.rawValue))")
            }
            if liveProgress { progress.update(summary, elapsed: clock.duration(to: .now).seconds, current: record.path) }
        }, shouldStop: { Interrupt.requested || Interrupt.writeFailed })
        summary.elapsedSeconds = clock.duration(to: .now).seconds
        summary.interrupted = Interrupt.requested
        let stoppedEarly = writeFailure != nil
        sink.finish(summary: summary)
        if writeFailure == nil { writeFailure = sink.outputFailure }
        if let problem = out.close(), writeFailure == nil { writeFailure = problem }
        progress.finish(summary, failedNames: failedNames)
        if summary.filesScanned == 0 && resume == nil && !quiet && !summary.interrupted && writeFailure == nil {
            Stderr.say("codesweep: no images found in \(paths.map { "'\($0)'" }.joined(separator: ", "))"
                       + (filesFrom != nil ? " or the --files-from list" : "")
                       + (include.isEmpty ? "" : " matching --include \(include.map { "'\($0)'" }.joined(separator: ", ")) (globs are case-sensitive)")
                       + (iinclude.isEmpty ? "" : " matching --iinclude \(iinclude.map { "'\($0)'" }.joined(separator: ", "))")
                       + (shard != nil ? " in shard \(shard!)" : "")
                       + (include.isEmpty ? "" : "; --iinclude matches without regard to case"))
        }
        if let writeFailure {
            Stderr.say("codesweep: \(writeFailure.message)" + (stoppedEarly ? "; the sweep was stopped" : ""))
            throw ExitCode(2)
        }
        if summary.interrupted { throw ExitCode(130) }
        // A resumed sweep's status also counts the failures recorded by its earlier part.
        if summary.filesFailed > 0 || previousFailures.value > 0 || pictureProblems > 0 { throw ExitCode(1) }
        if failIfNone && summary.codes == 0 { throw ExitCode(4) }
    }
}

extension Scan {
    /// The settings that change what a record says, as `--resume` stores and compares them.
    func resumeSettings(_ s: ScanSettings) -> ResumeSettings {
        ResumeSettings(symbologies: s.reader.symbologies.members.map(\.rawValue), effort: s.reader.plan.effort.rawValue,
                       roi: s.reader.roi.map { "\($0.x),\($0.y),\($0.width),\($0.height)" },
                       minQuality: s.reader.minLinearQuality, minITFLength: s.reader.minITFLength,
                       hashes: s.hashes.map(\.rawValue), timings: s.timings, charset: charset,
                       limits: "max_pixels=\(s.limits.maxPixels),max_frames=\(s.limits.maxFrames),max_total_pixels=\(s.limits.maxTotalPixels),max_file_bytes=\(s.maxFileBytes)")
    }
}

extension Effort: ExpressibleByArgument {}
extension ReportFormat: ExpressibleByArgument {}

enum IsolationMode: String, ExpressibleByArgument, CaseIterable {
    case process, none
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
