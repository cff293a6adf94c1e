import ArgumentParser
import CodeSweep
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
        each as soon as it and every record before it are done. Files found by walking that \
        are not images are skipped quietly; files named on the command line are always reported.
        """
    )

    @Argument(help: "Files and folders to scan (folders are walked recursively).")
    var paths: [String]

    @Option(name: [.short, .long], help: "Write the report to this file instead of stdout.")
    var output: String?

    @Option(help: "Symbologies to look for: names and groups, comma-separated; '-name' removes one (see `codesweep symbologies`).")
    var symbologies: String = "default"

    @Option(help: "How hard to look: fast (one cheap pass), normal, thorough (every pass). See `codesweep plan`.")
    var effort: Effort = .normal

    @Option(help: "Region of interest 'x,y,w,h' as fractions of the upright image (e.g. 0.5,0,0.5,0.5 = top-right quarter). Corners stay in full-image pixels.")
    var roi: String?

    @Option(name: [.short, .long], help: "Images decoded in parallel (default: number of cores).")
    var jobs: Int?

    @Option(help: "Only scan files whose name (or path below the argument, if the glob has a '/') matches; repeatable.")
    var include: [String] = []

    @Option(help: "Skip files and folders matching this glob; repeatable.")
    var exclude: [String] = []

    @Flag(help: "Also walk hidden files and folders (names starting with '.').")
    var hidden = false

    @Flag(help: "Follow symbolic links found while walking (loops are detected).")
    var followSymlinks = false

    @Option(help: "Drop linear (1D) codes read on fewer scan lines than this (1 keeps everything).")
    var minQuality: Int = 2

    @Option(help: "Minimum length of an Interleaved 2 of 5 payload.")
    var minItfLength: Int = 6

    @Option(help: "Decode payload text with this charset instead of detecting it (utf-8, iso-8859-1, binary).")
    var charset: String?

    @Flag(help: "Add \"timings_ms\" (read, decode, scan) to each record.")
    var timings = false

    @Flag(name: [.short, .long], help: "No progress line on stderr.")
    var quiet = false

    @Option(help: "Where images are decoded: 'process' (worker processes: a crash or hang costs one file, recorded as error kind crash/timeout) or 'none' (in this process).")
    var isolation: IsolationMode = .process

    @Option(help: "Seconds one file may take before its worker is stopped and the file recorded as kind 'timeout' (with --isolation process).")
    var timeout: Double = 60

    @Option(help: ArgumentHelp("Also write an upright copy of every image with codes into DIR, each code outlined and labelled (the folder mirrors the input tree; inputs are never written over).", valueName: "DIR"))
    var annotate: String?

    @Option(help: "Continue an interrupted jsonl sweep: skip files already recorded in FILE (same path, size and mtime) and append the rest to it.")
    var resume: String?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let roi, FractionalRect(parsing: roi) == nil {
            throw ValidationError("--roi takes x,y,w,h as fractions in 0...1 with x+w <= 1 and y+h <= 1, e.g. 0.25,0.25,0.5,0.5")
        }
        do { _ = try SymbologySet.parse(symbologies) } catch { throw ValidationError(error.description) }
        if minQuality < 1 { throw ValidationError("--min-quality must be at least 1") }
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        if let resume, let output, output != resume {
            throw ValidationError("--resume appends to its own file; leave out --output or give the same file")
        }
    }

    func run() async throws {
        var settings = ScanSettings()
        settings.reader = ReaderOptions(symbologies: try SymbologySet.parse(symbologies), effort: effort,
                                        roi: roi.flatMap(FractionalRect.init(parsing:)),
                                        minLinearQuality: minQuality, minITFLength: minItfLength)
        settings.timings = timings
        var walk = WalkOptions()
        walk.include = include
        walk.exclude = exclude
        walk.hidden = hidden
        walk.followSymlinks = followSymlinks

        Interrupt.install()
        var items = Walker(options: walk).walk(paths)
        let out: OutputFile
        let pictures: AnnotationPlan?
        do {
            pictures = try annotate.map { try AnnotationPlan(outputDir: $0, roots: paths, items: items) }
            if let resume {
                let previous = try ResumeLog.load(resume)
                items = previous.remaining(items)
                out = try OutputFile.open(resume, append: true)
            } else if let output {
                out = try OutputFile.open(output)
            } else {
                out = .standardOutput
            }
        } catch {
            OutputFile.standardError.write("codesweep: \(error)\n")
            throw ExitCode(2)
        }
        defer { out.close() }
        let progress = Progress(total: items.count, enabled: !quiet && OutputFile.standardError.isTerminal)
        var sink = JSONLinesSink(out: out, forcedCharset: charset)
        var summary = SweepSummary()
        let clock = ContinuousClock.now
        let isolationSetting: Isolation
        switch isolation {
        case .none: isolationSetting = .none
        case .process: isolationSetting = .processes(executable: CodeSweepInfo.executablePath, timeoutSeconds: timeout)
        }
        let sweep = Sweep(settings: settings, jobs: jobs ?? Sweep.coreCount, isolation: isolationSetting)
        await sweep.run(items, emit: { record in
            sink.write(record)
            for message in pictures?.annotate(record) ?? [] { OutputFile.standardError.write("codesweep: \(message)\n") }
            summary.add(record)
            progress.update(summary, elapsed: clock.duration(to: .now).seconds)
        }, shouldStop: { Interrupt.requested })
        summary.elapsedSeconds = clock.duration(to: .now).seconds
        summary.interrupted = Interrupt.requested
        sink.finish(summary: summary)
        progress.finish(summary)
        if summary.interrupted { throw ExitCode(130) }
        if summary.filesFailed > 0 { throw ExitCode(1) }
    }
}

extension Effort: ExpressibleByArgument {}

enum IsolationMode: String, ExpressibleByArgument, CaseIterable {
    case process, none
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
