import ArgumentParser
import CodeSweep
import FileWalker
import Forensics
import Reporting
import SweepSelection

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge shard reports (jsonl) into one report, ordered as a single run, checking no file is missing or duplicated.",
        discussion: """
            Lines are copied byte for byte (but for the first '#' of a CI runner's legacy \
            command marker, written \\u0023: the same JSON string, see docs/output.md). Without --expect-from or --root, records are ordered \
            as the walker orders paths (component by component, bytes) and checked for \
            duplicates only. With them, records follow the order a single scan of those paths \
            would have written, and a file the scan would have recorded but no shard did is an \
            error, as is a record for a path not expected.

            A structured-append sequence whose parts were read in different files is joined and \
            named on standard error, complete or with the parts missing (each record's \
            "sequences" joins only the parts it holds; `summarize` joins them too).

            Exit status: 0 merged, 1 missing, duplicated or unexpected files (nothing written), \
            2 usage error or unreadable input.
            """
    )

    @Argument(help: "Shard reports written by `codesweep scan --shard K/N` (jsonl).")
    var reports: [String]

    @OptionGroup var output: OutputOptions<Help>

    @Option(help: "The list the shards were fed with (--files-from): every path in it must be in exactly one shard.")
    var expectFrom: String?

    @Flag(name: [.customShort("0"), .long], help: "The --expect-from list is NUL-separated.")
    var null = false

    @Option(help: "A root the shards walked (repeatable, in the order given to scan): its walk must be covered.")
    var root: [String] = []

    @OptionGroup var walking: WalkingOptions<Help>

    func run() throws {
        var inputs = reports.map { OutputGuard.Input("the report", $0) }
        if let expectFrom { inputs.append(OutputGuard.Input("the --expect-from list", expectFrom)) }
        try OutputGuard.refuse("codesweep merge", flag: "--output", output: output.output, inputs: inputs)
        let lines: [ReportMerge.Line]
        do { lines = try ReportMerge.load(reports) } catch {
            for problem in error.problems { Stderr.say("codesweep merge: \(problem)") }
            throw ExitCode(2)
        }
        var expectation: ReportMerge.Expectation? = nil
        if expectFrom != nil || !root.isEmpty {
            let walker = Walker(options: walking.walkOptions)
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
        do { out = try output.open() } catch {
            Stderr.say("codesweep merge: \(error)")
            throw ExitCode(2)
        }
        var chunk = [UInt8]()
        for l in merged.flatMap({ $0.members + [$0] }) {
            chunk += WorkflowSafeJSON.bytes(l.text)
            chunk.append(0x0A)
            if chunk.count >= 1 << 20 { out.write(String(decoding: chunk, as: UTF8.self)); chunk.removeAll(keepingCapacity: true) }
        }
        out.write(String(decoding: chunk, as: UTF8.self))
        if let failure = out.close() {
            Stderr.say("codesweep merge: \(failure.message)")
            throw ExitCode(2)
        }
        Stderr.say(
            "codesweep merge: \(ProgressLine.count(merged.reduce(0) { $0 + 1 + $1.members.count }, "record")) from \(ProgressLine.count(reports.count, "report"))"
        )
        for note in ReportMerge.sequenceNotes(ReportMerge.sequencesAcrossFiles(merged)) { Stderr.say("codesweep merge: \(note)") }
    }
}

extension Merge {
    /// Merge's words for the options it shares with `scan`.
    enum Help: WalkingHelp, OutputHelp {
        static var output: ArgumentHelp { "Write the merged report to this file instead of stdout." }
        static var include: ArgumentHelp { "As given to scan (repeatable), for --root." }
        static var exclude: ArgumentHelp { include }
        static var iinclude: ArgumentHelp { include }
        static var iexclude: ArgumentHelp { include }
        static var hidden: ArgumentHelp { "As given to scan, for --root." }
        static var followSymlinks: ArgumentHelp { hidden }
    }
}
