import ArgumentParser
import CodeSweep

/// The help text of `--jobs`, as each command words it (images decoded, codes made).
protocol JobsHelp {
    static var jobs: ArgumentHelp { get }
}

/// `-j/--jobs` (`scan`, `check`, `generate`). Each command checks it where it checks its other
/// flags (its own message and exit status), with `problem`.
struct JobsOptions<Help: JobsHelp>: ParsableArguments {
    @Option(name: [.short, .long], help: Help.jobs)
    var jobs: Int?

    /// How many at a time: the flag, else one a core.
    var count: Int { jobs ?? Sweep.coreCount }

    /// What is wrong with the flag, if anything.
    var problem: String? {
        if let jobs, jobs < 1 { return "--jobs must be at least 1" }
        return nil
    }
}

/// The help text of `--isolation`, as each command words it.
protocol IsolationHelp {
    static var isolation: ArgumentHelp { get }
}

/// `--isolation process|none` (`scan`, `check`).
struct IsolationOptions<Help: IsolationHelp>: ParsableArguments {
    @Option(help: Help.isolation)
    var isolation: IsolationMode = .process

    /// The sweep's setting: worker processes of this executable, each file given `timeoutSeconds`.
    func setting(timeoutSeconds: Double) -> Isolation {
        switch isolation {
        case .none: return .none
        case .process: return .processes(executable: CodeSweepInfo.executablePath, timeoutSeconds: timeoutSeconds)
        }
    }
}

enum IsolationMode: String, ExpressibleByArgument, CaseIterable {
    case process, none
}
