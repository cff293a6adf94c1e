import SweepCore

/// Where paths in the rules are anchored: absolute current directory and rules-file folder.
package struct PathContext: Sendable, Equatable {
    package var currentDirectory: String
    package var rulesDirectory: String?
    package init(currentDirectory: String, rulesDirectory: String? = nil) {
        self.currentDirectory = currentDirectory; self.rulesDirectory = rulesDirectory
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
    package func display(_ path: String) -> String {
        let cwd = Self.normalize(currentDirectory)
        return path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : path
    }

    package func absolute(_ path: String) -> String {
        Self.normalize(path.hasPrefix("/") ? path : currentDirectory + "/" + path)
    }

    /// The ways a checked file's path can be written in the rules: relative to the rules file's
    /// folder, as given on the command line, and absolute.
    package func candidates(_ path: String) -> [String] {
        let abs = absolute(path)
        var out: [String] = []
        if let base = rulesDirectory.map(Self.normalize), abs.hasPrefix(base + "/") { out.append(String(abs.dropFirst(base.count + 1))) }
        out.append(Self.normalize(path))
        out.append(abs)
        return out
    }

    /// A rule path or glob (`Glob`'s dialect, as `--include`) against a checked file's path. A
    /// pattern without '/' matches the file name; with '/', the path relative to the rules
    /// folder, as given, or (a pattern starting with '/') the absolute path.
    package func matches(_ pattern: String, path: String) -> Bool {
        if !pattern.contains("/") {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return Glob(pattern).matches(name)
        }
        let glob = Glob(Self.normalize(pattern))
        if pattern.hasPrefix("/") { return glob.matches(absolute(path)) }
        return candidates(path).contains { glob.matches($0) }
    }
}
