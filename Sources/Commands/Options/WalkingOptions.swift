import ArgumentParser
import FileWalker

/// The help texts of the walking options, as each command words them (`scan` says what a glob
/// does, `merge` says "as given to scan"): the flags, defaults and meaning are the same.
protocol GlobHelp {
    static var include: ArgumentHelp { get }
    static var exclude: ArgumentHelp { get }
    static var iinclude: ArgumentHelp { get }
    static var iexclude: ArgumentHelp { get }
}

/// `GlobHelp`, and the words for the two flags that change how a folder is walked.
protocol WalkingHelp: GlobHelp {
    static var hidden: ArgumentHelp { get }
    static var followSymlinks: ArgumentHelp { get }
}

/// `--include`, `--exclude`, `--iinclude`, `--iexclude` (`scan`, `merge`, `check`).
struct GlobOptions<Help: GlobHelp>: ParsableArguments {
    @Option(help: Help.include)
    var include: [String] = []

    @Option(help: Help.exclude)
    var exclude: [String] = []

    @Option(help: Help.iinclude)
    var iinclude: [String] = []

    @Option(help: Help.iexclude)
    var iexclude: [String] = []

    /// The globs into the walker's options.
    func apply(to walk: inout WalkOptions) {
        walk.include = include
        walk.exclude = exclude
        walk.includeIgnoringCase = iinclude
        walk.excludeIgnoringCase = iexclude
    }
}

/// The globs, `--hidden` and `--follow-symlinks` (`scan`, and `merge` for `--root`).
struct WalkingOptions<Help: WalkingHelp>: ParsableArguments {
    @OptionGroup var globs: GlobOptions<Help>

    @Flag(help: Help.hidden)
    var hidden = false

    @Flag(help: Help.followSymlinks)
    var followSymlinks = false

    /// The walker's options, from the flags.
    var walkOptions: WalkOptions {
        var walk = WalkOptions()
        globs.apply(to: &walk)
        walk.hidden = hidden
        walk.followSymlinks = followSymlinks
        return walk
    }
}
