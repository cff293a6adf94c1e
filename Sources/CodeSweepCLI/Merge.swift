import ArgumentParser
import CodeSweep
import Forensics
import FileWalker
import Reporting
import SweepCore

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge shard reports (jsonl) into one report, ordered as a single run, checking no file is missing or duplicated.",
        discussion: """
        Lines are copied byte for byte. Without --expect-from or --root, records are ordered \
        as the walker orders paths (component by component, bytes) and checked for \
        duplicates only. With them, records follow the order a single scan of those paths \
        would have written, and a file the scan would have recorded but no shard did is an \
        error, as is a record for a path not expected.

        Exit status: 0 merged, 1 missing, duplicated or unexpected files (nothing written), \
        2 usage error or unreadable input.
        """
    )

    @Argument(help: "Shard reports written by `codesweep scan --shard K/N` (jsonl).")
    var reports: [String]

    @Option(name: [.short, .long], help: "Write the merged report to this file instead of stdout.")
    var output: String?

    @Option(help: "The list the shards were fed with (--files-from): every path in it must be in exactly one shard.")
    var expectFrom: String?

    @Flag(name: [.customShort("0"), .long], help: "The --expect-from list is NUL-separated.")
    var null = false

    @Option(help: "A root the shards walked (repeatable, in the order given to scan): its walk must be covered.")
    var root: [String] = []

    @Option(help: "As given to scan (repeatable), for --root.")
    var include: [String] = []

    @Option(help: "As given to scan (repeatable), for --root.")
    var exclude: [String] = []

    @Option(help: "As given to scan (repeatable), for --root.")
    var iinclude: [String] = []

    @Option(help: "As given to scan (repeatable), for --root.")
    var iexclude: [String] = []

    @Flag(help: "As given to scan, for --root.")
    var hidden = false

    @Flag(help: "As given to scan, for --root.")
    var followSymlinks = false

    func run() throws {
        let lines: [ReportMerge.Line]
        do { lines = try ReportMerge.load(reports) } catch {
            Stderr.say("codesweep merge: \(error)")
            throw ExitCode(2)
        }
        var expectation: ReportMerge.Expectation? = nil
        if expectFrom != nil || !root.isEmpty {
            var walk = WalkOptions()
            walk.include = include
            walk.exclude = exclude
            walk.includeIgnoringCase = iinclude
            walk.excludeIgnoringCase = iexclude
            walk.hidden = hidden
            walk.followSymlinks = followSymlinks
            let walker = Walker(options: walk)
            var items = walker.walk(root)
            if let expectFrom {
                do { items += walker.walk(byteRoots: try PathList.read(expectFrom, nulSeparated: null)) } catch {
                    Stderr.say("codesweep merge: \(error)")
                    throw ExitCode(2)
                }
            }
            expectation = ReportMerge.Expectation(items: items)
        }
        let merged: [ReportMerge.Line]
        do { merged = try ReportMerge.merge(lines, expecting: expectation) } catch {
            for problem in error.problems { Stderr.say("codesweep merge: \(problem)") }
            Stderr.say("codesweep merge: nothing written")
            throw ExitCode(1)
        }
        let out: OutputFile
        do { out = try output.map { try OutputFile.open($0) } ?? .standardOutput } catch {
            Stderr.say("codesweep merge: \(error)")
            throw ExitCode(2)
        }
        var chunk = [UInt8]()
        for l in merged {
            chunk += l.text
            chunk.append(0x0A)
            if chunk.count >= 1 << 20 { out.write(String(decoding: chunk, as: UTF8.self)); chunk.removeAll(keepingCapacity: true) }
        }
        out.write(String(decoding: chunk, as: UTF8.self))
        if let failure = out.close() {
            Stderr.say("codesweep merge: \(failure.message)")
            throw ExitCode(2)
        }
        Stderr.say("codesweep merge: \(ProgressLine.count(merged.count, "record")) from \(ProgressLine.count(reports.count, "report"))")
    }
}
