import UserInput

/// What a `check` run checks, and by which rules: the rules file (the one named, or
/// `.codesweep.yml` in the current folder unless told not to look), the folder its paths are
/// relative to, and the roots to walk (the command line's, else the file's `paths:`, else ".").
package struct CheckSetup: Sendable, Equatable {
    package static let defaultRulesFile = ".codesweep.yml"

    package var rules = CheckRules()
    /// The rules file read, as given (nil: none).
    package var rulesPath: String?
    /// Its folder, absolute: paths and globs in the file are relative to it.
    package var rulesDirectory: String?
    package let currentDirectory: String

    /// Finds and reads the rules file. `read` gives a file's bytes (nil: cannot be read). A rules
    /// file that is named, or the default one when it exists, must read; a missing default is
    /// no error (the flags are the rules).
    package init(
        rulesFile: String?, lookForDefault: Bool, currentDirectory cwd: String,
        exists: (String) -> Bool, read: (String) throws -> [UInt8]?
    ) throws {
        currentDirectory = cwd
        let path = rulesFile ?? (lookForDefault && exists(Self.defaultRulesFile) ? Self.defaultRulesFile : nil)
        guard let path else { return }
        let loaded = try RulesFile.load(path: path, cwd: cwd, read: read)
        rules = loaded.rules
        rulesPath = path
        rulesDirectory = loaded.directory
    }

    /// Where the rules came from, for the summary: "flags", the file, or "FILE + flags".
    package func source(withFlags flags: Bool) -> String {
        guard let rulesPath else { return "flags" }
        let shown = ArgumentBytes.display(rulesPath)
        return flags ? shown + " + flags" : shown
    }

    /// What rule paths and globs are anchored in.
    package var context: PathContext { PathContext(currentDirectory: currentDirectory, rulesDirectory: rulesDirectory ?? currentDirectory) }

    /// The roots to walk: the command line's paths, else the rules file's `paths:` (relative to
    /// the file's folder, shown relative to the current one), else ".".
    package func roots(commandLine paths: [String]) -> [String] {
        if !paths.isEmpty { return paths }
        guard !rules.paths.isEmpty else { return ["."] }
        return rules.paths.map { p in
            guard let rulesDirectory, !p.hasPrefix("/") else { return p }
            // Escaped argument text, not display text: the walker opens it by its bytes.
            return PathContext.relative(PathContext.normalize(rulesDirectory + "/" + p), to: currentDirectory)
        }
    }
}
