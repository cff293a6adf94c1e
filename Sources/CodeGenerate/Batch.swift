import AssetCheck
import Reporting
import UserInput
import Yams

#if canImport(Glibc)
import Glibc
#endif

/// One line of a batch list: the file's name, the payload text and per-code options.
package struct BatchEntry: Sendable, Equatable {
    package var name: String
    package var payload: String
    package var options: [Option]
    /// Where it came from, for messages: "list.csv:12".
    package var origin: String
    package struct Option: Sendable, Equatable {
        package var key: String, value: String
        package init(_ key: String, _ value: String) { self.key = key; self.value = value }
    }
    package init(name: String, payload: String, options: [Option] = [], origin: String) {
        self.name = name; self.payload = payload; self.options = options; self.origin = origin
    }
}

/// Batch lists: CSV (`name,payload[,options]`, RFC 4180 quoting, an optional header line
/// starting `name,payload`) or YAML (a sequence of mappings with `name`, `payload`, `options`
/// and/or option keys, or a mapping name → payload). Options are `key=value` words, the flag
/// names without `--` (`ec=H fg=#003366 logo=logo.png`).
package enum BatchList {
    package static func parse(_ text: String, source: String) throws(GenerateError) -> [BatchEntry] {
        let lower = source.lowercased()
        let entries = lower.hasSuffix(".yml") || lower.hasSuffix(".yaml") ? try parseYAML(text, source: source) : try parseCSV(text, source: source)
        var seen: [String: String] = [:]
        for e in entries {
            try checkName(e.name, e.origin)
            let key = e.name.lowercased()
            if let first = seen[key] { throw .usage("\(e.origin): the name '\(e.name)' is used twice (first at \(first))") }
            seen[key] = e.origin
        }
        return entries
    }

    /// A file name, nothing else: no folders, no hidden or special names.
    static func checkName(_ name: String, _ at: String) throws(GenerateError) {
        if name.isEmpty { throw .usage("\(at): the name is empty") }
        if name.contains("/") || name.contains("\0") || name.hasPrefix(".") || name.hasPrefix("-") {
            throw .usage("\(at): '\(name)' is not a plain file name (no '/', no leading '.' or '-')")
        }
    }

    /// `key=value` words (a leading `--` is allowed).
    package static func options(_ text: String, _ at: String) throws(GenerateError) -> [BatchEntry.Option] {
        var out: [BatchEntry.Option] = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ";" }) {
            var w = Substring(word)
            if w.hasPrefix("--") { w = w.dropFirst(2) }
            if w == "no-eci" { out.append(.init("no-eci", "true")); continue }
            guard let eq = w.firstIndex(of: "=") else { throw .usage("\(at): option '\(word)' is not key=value") }
            let key = String(w[..<eq]), value = String(w[w.index(after: eq)...])
            guard CodeSpec.optionNames.contains(key) else {
                throw .usage("\(at): unknown option '\(key)' (known: \(CodeSpec.optionNames.joined(separator: ", ")))")
            }
            out.append(.init(key, value))
        }
        return out
    }

    static func parseCSV(_ text: String, source: String) throws(GenerateError) -> [BatchEntry] {
        var entries: [BatchEntry] = []
        for (lineNo, row) in try csvRows(text, source: source) {
            let at = "\(source):\(lineNo)"
            if row.allSatisfy({ $0.isEmpty }) { continue }
            if entries.isEmpty, row.count >= 2, row[0].lowercased() == "name", row[1].lowercased() == "payload" { continue }
            guard (2...3).contains(row.count) else { throw .usage("\(at): \(row.count) fields; a line is name,payload[,options]") }
            entries.append(BatchEntry(name: row[0], payload: row[1], options: row.count == 3 ? try options(row[2], at) : [], origin: at))
        }
        return entries
    }

    /// RFC 4180 rows with the line each starts on (quoted fields may span lines; CRLF or LF).
    static func csvRows(_ text: String, source: String) throws(GenerateError) -> [(Int, [String])] {
        var rows: [(Int, [String])] = []
        var row: [String] = [], field = "", quoted = false, wasQuoted = false
        var line = 1, start = 1
        var chars = Array(text.unicodeScalars)[...]
        if chars.first == "\u{FEFF}" { chars = chars.dropFirst() }
        var i = chars.startIndex
        func endRow() { row.append(field); rows.append((start, row)); row = []; field = ""; wasQuoted = false }
        while i < chars.endIndex {
            let c = chars[i]
            if quoted {
                if c == "\"" {
                    if i + 1 < chars.endIndex && chars[i + 1] == "\"" { field.unicodeScalars.append("\""); i += 1 } else { quoted = false }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
            } else {
                switch c {
                case "\"":
                    guard field.isEmpty, !wasQuoted else {
                        throw .usage("\(source):\(line): a quote inside an unquoted field (quote the whole field, doubling quotes inside)")
                    }
                    quoted = true; wasQuoted = true
                case ",": row.append(field); field = ""; wasQuoted = false
                case "\r": break
                case "\n": endRow(); line += 1; start = line
                default: field.unicodeScalars.append(c)
                }
            }
            i += 1
        }
        if quoted { throw .usage("\(source):\(start): a quoted field is not closed") }
        if !field.isEmpty || !row.isEmpty { endRow() }
        return rows
    }

    static func parseYAML(_ text: String, source: String) throws(GenerateError) -> [BatchEntry] {
        do { try RulesFile.checkText(text, source: source) } catch { throw .usage("\(error)") }
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch { throw .usage("\(source): not valid YAML: \(RulesFile.shortened(error))") }
        guard let root else { return [] }
        if let map = root.mapping {
            return try map.map { (k, v) throws(GenerateError) in
                let at = "\(source):\((k.mark?.line ?? 0) + 1)"
                guard let name = k.string, let payload = v.string else { throw .usage("\(at): a mapping of name → payload text") }
                return BatchEntry(name: name, payload: payload, origin: at)
            }
        }
        guard let seq = root.sequence else { throw .usage("\(source): a list of {name, payload, options} or a mapping name → payload") }
        var out: [BatchEntry] = []
        for item in seq {
            let at = "\(source):\((item.mark?.line ?? 0) + 1)"
            guard let map = item.mapping else { throw .usage("\(at): each item is a mapping with name and payload") }
            var name: String?, payload: String?, opts: [BatchEntry.Option] = []
            for (k, v) in map {
                guard let key = k.string, let value = v.string else { throw .usage("\(at): keys and values are text") }
                switch key {
                case "name": name = value
                case "payload": payload = value
                case "options": opts += try options(value, at)
                default:
                    guard CodeSpec.optionNames.contains(key) else {
                        throw .usage("\(at): unknown key '\(key)' (known: name, payload, options, \(CodeSpec.optionNames.joined(separator: ", ")))")
                    }
                    opts.append(.init(key, value))
                }
            }
            guard let name, let payload else { throw .usage("\(at): an item needs both name and payload") }
            out.append(BatchEntry(name: name, payload: payload, options: opts, origin: at))
        }
        return out
    }
}

/// The expectations file `codesweep check --expectations` reads: a YAML mapping of image path
/// (relative to the manifest's folder) → payload, in the order given. Values are YAML
/// double-quoted scalars with escapes, so any text survives.
package enum Manifest {
    package static let defaultName = "expected.yml"

    /// A code's path below the batch folder, as the manifest names it: `codes/a.png` in `codes`,
    /// `codes/` or `codes//` is `a.png`.
    package static func name(_ path: String, in folder: String) -> String {
        var trimmed = Substring(folder)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard !trimmed.isEmpty, path.hasPrefix(trimmed) else { return path }
        return String(path.dropFirst(trimmed.count).drop { $0 == "/" })
    }

    package static func yaml(_ entries: [(file: String, payload: String)]) -> String {
        var s = "# Made by codesweep generate: image → payload. Check with\n#   codesweep check --expectations <this file> <folder>\n"
        for e in entries { s += "\(quoted(e.file)): \(quoted(e.payload))\n" }
        return s
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for u in text.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                // Controls, and what YAML does not allow printed (C1, surrogates, BOM, non-characters).
                if u.value < 0x20 || (0x7F...0x9F).contains(u.value) || u.value == 0xFEFF || u.value == 0xFFFE || u.value == 0xFFFF
                    || u.value == 0x2028 || u.value == 0x2029
                {
                    let hex = String(u.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}

/// What `generate` is about to write, checked before anything is made: no two outputs on one
/// file (`a` and `a.png`, `b` with format=svg and `b.svg`, the manifest on a picture), no output
/// on one of the inputs (the batch list, a logo, the rules file), no output through a link.
package enum OutputPlan {
    /// `outputs`: each path to be written and what it is for ("list.csv:3", "the manifest");
    /// `inputs`: each file read and what it is. Two paths are one file when they are spelt the
    /// same after normalisation, or when both exist and have the same device and inode.
    package static func check(outputs: [(path: String, origin: String)], inputs: [(path: String, what: String)], cwd: String) throws(GenerateError) {
        func key(_ p: String) -> String { PathContext.normalize(p.hasPrefix("/") ? p : cwd + "/" + p) }
        func identity(_ p: String, follow: Bool) -> String? {
            UserPath.status(p, follow: follow).map { "\($0.st_dev):\($0.st_ino)" }
        }
        var seen: [String: String] = [:]
        for o in outputs {
            let k = key(o.path)
            if let first = seen[k] {
                throw .usage("\(o.origin): writes \(ArgumentBytes.display(o.path)), which \(first) writes too (names must differ after the extension is added)")
            }
            seen[k] = o.origin
        }
        var inputIDs: [String: String] = [:], inputKeys: [String: String] = [:]
        for i in inputs {
            inputKeys[key(i.path)] = i.what
            if let id = identity(i.path, follow: true) { inputIDs[id] = i.what }
        }
        for o in outputs {
            let what =
                inputKeys[key(o.path)] ?? identity(o.path, follow: false).flatMap { inputIDs[$0] }
                ?? identity(o.path, follow: true).flatMap { inputIDs[$0] }
            if let what {
                throw .usage("\(o.origin): would write over \(what) \(ArgumentBytes.display(o.path)), which this run reads; choose another name or folder")
            }
            do { try SafeFile.checkTarget(o.path) } catch { throw .usage("\(o.origin): \(error.description)") }
        }
    }
}
