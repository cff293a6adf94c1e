import UserInput

/// Where paths in the rules are anchored: absolute current directory and rules-file folder.
///
/// Paths are compared as records show them (`ArgumentBytes.display`: U+FFFD for each byte that
/// is not UTF-8), whatever form they come in: the folders and the paths built on them to open
/// files are escaped argument text (`UserPath`), a record's path is display text.
package struct PathContext: Sendable, Equatable {
    package var currentDirectory: String
    package var rulesDirectory: String?
    package init(currentDirectory: String, rulesDirectory: String? = nil) {
        self.currentDirectory = ArgumentBytes.display(currentDirectory)
        self.rulesDirectory = rulesDirectory.map(ArgumentBytes.display)
    }

    /// "a/./b/../c" → "a/c"; keeps a leading "/".
    package static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for p in path.split(separator: "/", omittingEmptySubsequences: true) {
            if p == "." { continue }
            if p == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(p)
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// An absolute path shown relative to the current directory when it is below it.
    package func display(_ path: String) -> String { Self.relative(ArgumentBytes.display(path), to: currentDirectory) }

    /// PATH relative to CWD when it is below it (both in the same form), else as it is.
    package static func relative(_ path: String, to cwd: String) -> String {
        let cwd = normalize(cwd)
        return path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : path
    }

    package func absolute(_ path: String) -> String {
        let path = ArgumentBytes.display(path)
        return Self.normalize(path.hasPrefix("/") ? path : currentDirectory + "/" + path)
    }

    /// The ways a checked file's path can be written in the rules: relative to the rules file's
    /// folder, as given on the command line, and absolute.
    package func candidates(_ path: String) -> [String] {
        let abs = absolute(path)
        var out: [String] = []
        if let base = rulesDirectory.map(Self.normalize), abs.hasPrefix(base + "/") { out.append(String(abs.dropFirst(base.count + 1))) }
        out.append(Self.normalize(ArgumentBytes.display(path)))
        out.append(abs)
        return out
    }

    /// A rule path or glob (`Glob`'s dialect, as `--include`) against a checked file's path. A
    /// pattern without '/' matches the file name; with '/', the path relative to the rules
    /// folder, as given, or (a pattern starting with '/') the absolute path.
    package func matches(_ pattern: String, path: String) -> Bool {
        let pattern = ArgumentBytes.display(pattern), path = ArgumentBytes.display(path)
        if !pattern.contains("/") {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return Glob(pattern).matches(name)
        }
        let glob = Glob(Self.normalize(pattern))
        if pattern.hasPrefix("/") { return glob.matches(absolute(path)) }
        return candidates(path).contains { glob.matches($0) }
    }
}
