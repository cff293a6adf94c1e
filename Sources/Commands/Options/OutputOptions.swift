import ArgumentParser
import Reporting

/// The help text of `-o/--output`, as each command words it.
protocol OutputHelp {
    static var output: ArgumentHelp { get }
}

/// `-o/--output FILE`: the report goes to this file instead of stdout (`scan`, `merge`).
struct OutputOptions<Help: OutputHelp>: ParsableArguments {
    @Option(name: [.short, .long], help: Help.output)
    var output: String?

    /// The file named, opened for writing, or stdout.
    func open() throws(OutputError) -> OutputFile {
        guard let output else { return .standardOutput }
        return try OutputFile.open(output)
    }
}
