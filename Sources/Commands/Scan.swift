import ArgumentParser
import CodeSweep
import FileWalker
import Forensics
import Imaging
import Payloads
import Records
import Reporting
import SweepCore
import SweepSelection

#if canImport(Glibc)
import Glibc
#endif

struct Scan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Scan files and folders for barcodes and QR codes (the default command).",
        discussion: """
            Writes one JSON Lines record per file to stdout (or --output), in sorted path order, \
            each as soon as it and every record before it are done; --format picks json, csv or \
            text instead (see docs/output.md). A container's members (archive, office package, \
            mail) each get a record of their own, before the container's; a video's codes carry \
            the seconds they are on screen. Files found by walking that are no input scan reads \
            (`codesweep formats`) are skipped quietly, unless named like an image or a document; \
            files named on the command line are always reported. '-' reads one input from \
            standard input (its record's path is '-'). scan never goes online.

            Exit status: 0 done, no file failed; 1 some file could not be read; 2 usage or output \
            error; 4 with --fail-if-none, no code was found in any file (zbarimg's exit 4); 130 interrupted.
            """
    )

    @Argument(
        help:
            "Files and folders to scan (folders are walked recursively); '-' reads one input (an image, a document, an archive, a mail, a video) from standard input."
    )
    var paths: [String] = []

    @Flag(
        help:
            "Print only the payloads, one per line, exactly as read (no path, no escaping), like zbarimg --raw; each file that fails is named on stderr (codesweep: error: PATH: KIND: MESSAGE). A payload may hold newlines, terminal escapes and bidi controls: pipe it, do not print it on a terminal."
    )
    var raw = false

    @Flag(help: "Exit 4 when no code was found in any file and none failed (zbarimg exits 4 when it detects no barcode).")
    var failIfNone = false

    @OptionGroup var report: ReportOptions

    @Option(help: "Symbologies to look for: names and groups, comma-separated; '-name' removes one (see `codesweep symbologies`).")
    var symbologies: String = "default"

    @Option(help: "How hard to look: fast (one cheap pass), normal, thorough (every pass). See `codesweep plan`.")
    var effort: Effort = .normal

    @Option(help: "Region of interest 'x,y,w,h' as fractions of the upright image (e.g. 0.5,0,0.5,0.5 = top-right quarter). Corners stay in full-image pixels.")
    var roi: String?

    @OptionGroup var jobs: JobsOptions<Help>

    @OptionGroup var walking: WalkingOptions<Help>

    @Option(help: "Drop linear (1D) codes read on fewer scan lines than this (1 keeps everything).")
    var minQuality: Int = 2

    @Option(
        help: ArgumentHelp(
            "Minimum length of an Interleaved 2 of 5 payload, for every reader. (default: each reader's own rule: ZBar 6 digits; zxing-cpp 6, or 4 for a code alone on its line, as in a crop or a label of the code alone)",
            valueName: "digits"))
    var minItfLength: Int?

    @Option(
        help:
            "Read payload text in this charset instead of detecting it: utf-8, gb18030, shift_jis, big5, euc-kr, iso-8859-1, any other name iconv knows, or binary."
    )
    var charset: String?

    @Flag(
        help: "Add \"timings_ms\" to each record: milliseconds spent reading, hashing, decoding, scanning, and on a full-resolution decode when one was needed."
    )
    var timings = false

    @Flag(name: [.short, .long], help: "No progress line on stderr.")
    var quiet = false

    @OptionGroup var isolation: IsolationOptions<Help>

    @OptionGroup(title: "Containers") var containerOptions: ContainerOptions

    @OptionGroup(title: "Videos") var videoOptions: VideoOptions

    @Option(
        help:
            "Seconds one file may take before its worker is stopped and the file recorded as kind 'timeout' (with --isolation process); for a container, each member; for a video, each second of it read."
    )
    var timeout: Double = 60

    @Option(help: "Pages read from one document (PDF) at most; a document with more gets a warning naming how many were read.")
    var maxPages: Int = 100

    @Option(
        help: ArgumentHelp(
            "Memory one file may take in a worker process, in MiB: the worker's address space may grow by no more than this (setrlimit), whatever a decoder does; a file that needs more is recorded as too_large. 0: no limit.",
            valueName: "MIB"))
    var maxMemory: Int = 1024

    @Option(
        help: ArgumentHelp(
            "Also write an upright copy of every picture with codes into DIR (an image's frames, a document's pages, a video's samples, a container's members), each code outlined and labelled (the folder mirrors the input tree; inputs are never written over).",
            valueName: "DIR"))
    var annotate: String?

    @Option(help: "Continue an interrupted jsonl sweep: skip files already recorded in FILE (same path, size and mtime) and append the rest to it.")
    var resume: String?

    @Option(help: "Add the file's digest to each record as \"hashes\" (sha256, md5, sha1, sha512; repeatable or comma-separated).")
    var hash: [String] = []

    @Option(help: "Also scan the paths listed in FILE ('-' = stdin), one per line (NUL-separated with -0); each is treated as named on the command line.")
    var filesFrom: String?

    @Flag(name: [.customShort("0"), .customLong("null")], help: "The --files-from list is NUL-separated (find -print0).")
    var nulSeparated = false

    @Option(help: "Scan only shard K of N (0 <= K < N): the files whose path's FNV-1a hash mod N is K. See docs/forensics.md.")
    var shard: String?

    func validate() throws {
        if paths.isEmpty && filesFrom == nil { throw ValidationError("give files or folders to scan, or --files-from FILE") }
        do { _ = try HashAlgorithm.parseList(hash) } catch { throw ValidationError(error.description) }
        if let shard, Shard(parsing: shard) == nil {
            throw ValidationError("--shard takes K/N with 0 <= K < N (shards count from 0), e.g. --shard 0/4")
        }
        if nulSeparated && filesFrom == nil { throw ValidationError("-0/--null applies to --files-from") }
        if let problem = jobs.problem { throw ValidationError(problem) }
        if let roi, FractionalRect(parsing: roi) == nil {
            throw ValidationError("--roi takes x,y,w,h as fractions in 0...1 with x+w <= 1 and y+h <= 1, e.g. 0.25,0.25,0.5,0.5")
        }
        do { _ = try SymbologySet.parse(symbologies) } catch { throw ValidationError(error.description) }
        if maxMemory < 0 || (maxMemory > 0 && maxMemory < 128) { throw ValidationError("--max-memory takes MiB, at least 128 (0: no limit)") }
        if minQuality < 1 { throw ValidationError("--min-quality must be at least 1") }
        if let n = minItfLength, n < 2 { throw ValidationError("--min-itf-length takes a number of digits, at least 2") }
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        if maxPages < 1 { throw ValidationError("--max-pages must be at least 1") }
        if let resume, let output = report.output, output != resume {
            throw ValidationError("--resume appends to its own file; leave out --output or give the same file")
        }
        if let charset, !PayloadText.isSupportedCharset(charset) { throw ValidationError("unknown charset '\(charset)' for --charset") }
        let format = report.format, csvFlags = report.csvAllFiles || report.csvRawFormulas
        if csvFlags && format != .csv { throw ValidationError("--csv-all-files and --csv-raw-formulas need --format csv") }
        if resume != nil && format != .jsonl { throw ValidationError("--resume continues a jsonl report; it cannot be used with --format \(format.rawValue)") }
        if raw && (format != .jsonl || csvFlags) { throw ValidationError("--raw prints payloads only; it cannot be used with --format or the --csv options") }
        if raw && resume != nil { throw ValidationError("--raw cannot be used with --resume (which continues a jsonl report)") }
        if failIfNone && resume != nil { throw ValidationError("--fail-if-none looks at this run's codes only; it cannot be used with --resume") }
        let stdinPaths = paths.filter { $0 == "-" }.count
        if stdinPaths > 1 { throw ValidationError("'-' (standard input) can be named once") }
        if stdinPaths == 1 && filesFrom == "-" { throw ValidationError("'-' and --files-from - both read standard input; use one") }
        if stdinPaths == 1 && (annotate != nil || resume != nil) {
            throw ValidationError("'-' (an image from standard input) cannot be used with --annotate or --resume")
        }
    }

    /// Builds the run from the flags (`ScanConfig`), sweeps, and ends with the exit status.
    func run() async throws {
        let settings = try scanSettings()
        Interrupt.install()
        let stdinImage = try saveStdinImage(limit: settings.maxFileBytes)
        defer { stdinImage?.remove() }
        let config = try ScanConfig(self, settings: settings, stdinImage: stdinImage)
        let delivery = ScanDelivery(config, scan: self, stdinImage: stdinImage)
        let sweep = Sweep(settings: config.settings, jobs: jobs.count, isolation: isolation.setting(timeoutSeconds: timeout))
        await sweep.run(config.items, emit: delivery.deliver, shouldStop: { Interrupt.requested || Interrupt.writeFailed })
        delivery.finish(closing: config.out)
        try end(delivery, previousFailures: config.previousFailures.value)
    }

    /// The engine's settings, from the flags (checked in `validate`).
    func scanSettings() throws -> ScanSettings {
        var settings = ScanSettings()
        settings.reader = ReaderOptions(
            symbologies: try SymbologySet.parse(symbologies), effort: effort,
            roi: roi.flatMap(FractionalRect.init(parsing:)),
            minLinearQuality: minQuality, minITFLength: minItfLength)
        settings.timings = timings
        settings.hashes = try HashAlgorithm.parseList(hash)
        settings.memoryLimitMiB = maxMemory
        settings.documents.maxPages = maxPages
        settings.documents.timeoutSeconds = timeout
        settings.containers = try containerOptions.settings()
        settings.videos = videoOptions.settings
        return settings
    }

    /// With '-' among the paths: the image on standard input, saved (a failure ends the scan, status 2).
    func saveStdinImage(limit: Int) throws -> StdinImage? {
        guard paths.contains("-") else { return nil }
        do { return try StdinImage.save(limit: limit) } catch {
            Stderr.say("codesweep: \(error)")
            throw ExitCode(2)
        }
    }

    /// After the sweep: the note when nothing was found, then the exit status (a resumed
    /// sweep's status also counts the failures recorded by its earlier part).
    func end(_ delivery: ScanDelivery, previousFailures: Int) throws {
        let summary = delivery.summary
        if summary.filesScanned == 0 && resume == nil && !quiet && !summary.interrupted && delivery.writeFailure == nil {
            Stderr.say("\(noImagesNote)")
        }
        if let writeFailure = delivery.writeFailure {
            Stderr.say("codesweep: \(writeFailure.message)\(escaped: delivery.stoppedEarly ? "; the sweep was stopped" : "")")
            throw ExitCode(2)
        }
        if summary.interrupted { throw ExitCode(130) }
        if summary.filesFailed > 0 || previousFailures > 0 || delivery.pictureProblems > 0 { throw ExitCode(1) }
        if failIfNone && summary.codes == 0 { throw ExitCode(4) }
    }

    /// "no images found in ...", saying which globs, list and shard the walk was limited by.
    var noImagesNote: String {
        let include = walking.globs.include, iinclude = walking.globs.iinclude
        return "codesweep: no images found in \(paths.map { "'\($0)'" }.joined(separator: ", "))"
            + (filesFrom != nil ? " or the --files-from list" : "")
            + (include.isEmpty ? "" : " matching --include \(include.map { "'\($0)'" }.joined(separator: ", ")) (globs are case-sensitive)")
            + (iinclude.isEmpty ? "" : " matching --iinclude \(iinclude.map { "'\($0)'" }.joined(separator: ", "))")
            + (shard != nil ? " in shard \(shard!)" : "")
            + (include.isEmpty ? "" : "; --iinclude matches without regard to case")
    }
}

extension Scan {
    /// Scan's words for the options it shares with other commands.
    enum Help: WalkingHelp, JobsHelp, IsolationHelp, OutputHelp {
        static var output: ArgumentHelp { "Write the report to this file instead of stdout." }
        static var jobs: ArgumentHelp { "Files read in parallel (default: the cores this process may use)." }
        static var include: ArgumentHelp {
            "Only scan files whose name (or path below the argument, if the glob has a '/') matches; repeatable. '{jpg,heic}' alternatives; a trailing '/' names folders: the files below them."
        }
        static var exclude: ArgumentHelp { "Skip files and folders matching this glob; repeatable. A trailing '/' (Photos/) names folders only." }
        static var iinclude: ArgumentHelp { "As --include, ignoring ASCII case ('*.jpg' also matches A.JPG; ripgrep's --iglob); repeatable." }
        static var iexclude: ArgumentHelp { "As --exclude, ignoring ASCII case; repeatable." }
        static var hidden: ArgumentHelp { "Also walk hidden files and folders (names starting with '.')." }
        static var followSymlinks: ArgumentHelp { "Follow symbolic links found while walking (loops are detected)." }
        static var isolation: ArgumentHelp {
            "Where files are decoded: 'process' (worker processes: a crash or hang costs one file, recorded as error kind crash/timeout) or 'none' (in this process)."
        }
    }
}

extension Effort: ExpressibleByArgument {}
