#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SweepCore

/// `--format json`: one JSON document for the whole sweep:
///
///     {"schema_version":1,"tool":{"name":"codesweep","version":"0.1.0"},"started":"...",
///      "files":[record, ...],"finished":"...","summary":{...}}
///
/// A reader never sees half a document: to a file, records stream into a temporary file in the
/// target's folder, which is synced and renamed over the target at the end; to stdout, the
/// document is kept in memory and written at the end.
public struct JSONDocumentSink: RecordSink {
    public static let schemaVersion = 1

    enum Destination {
        case file(target: String, temp: OutputFile)
        case memory(OutputFile)
    }

    var destination: Destination
    var buffer = ""
    var count = 0
    let forcedCharset: String?
    /// Set when a write, the fsync or the rename failed; the target was then left as it was.
    public private(set) var failure: OutputError?

    public var outputFailure: OutputError? {
        if let failure { return failure }
        switch destination {
        case .file(_, let temp): return temp.failure
        case .memory(let out): return out.failure
        }
    }

    /// Writes to `path` (atomically, at the end), or to stdout when `path` is nil.
    public init(path: String?, toolName: String, toolVersion: String, forcedCharset: String? = nil) throws(OutputError) {
        self.forcedCharset = forcedCharset
        if let path {
            // A file left by a killed run whose pid is now ours: take the next name.
            var attempt = 0
            var temp: OutputFile?
            while temp == nil {
                let name = Self.temporaryPath(for: path, attempt: attempt)
                do {
                    temp = try OutputFile.createNew(name)
                } catch {
                    attempt += 1
                    if ArgumentBytes.withCPath(name, { access($0, F_OK) }) != 0 || attempt >= 20 { throw error } // not a name clash
                }
            }
            temp!.label = "'\(ArgumentBytes.display(path))' (through its temporary file '\(ArgumentBytes.display(temp!.path!))', removed; the target was left as it was)"
            destination = .file(target: path, temp: temp!)
        } else {
            destination = .memory(.standardOutput)
        }
        let head: JSONValue = .object([
            ("schema_version", .int(Self.schemaVersion)),
            ("tool", .object([("name", .string(toolName)), ("version", .string(toolVersion))])),
            ("started", .string(Timestamp.now())),
        ])
        var text = head.serialized()
        text.removeLast() // the closing brace: the document goes on
        emit(text + ",\"files\":[")
    }

    /// ".NAME.codesweep-PID.tmp" beside the target, so the rename stays in one file system.
    static func temporaryPath(for target: String, attempt: Int = 0) -> String {
        let slash = target.lastIndex(of: "/")
        let dir = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        return "\(dir).\(name).codesweep-\(getpid())\(attempt == 0 ? "" : "-\(attempt)").tmp"
    }

    mutating func emit(_ text: String) {
        switch destination {
        case .file(_, let temp): temp.write(text)
        case .memory: buffer += text
        }
    }

    public mutating func write(_ record: FileRecord) {
        emit((count == 0 ? "\n" : ",\n") + record.json(forcedCharset: forcedCharset).serialized())
        count += 1
    }

    public mutating func finish(summary: SweepSummary) {
        emit("\n],\"finished\":" + JSONValue.string(Timestamp.now()).serialized()
             + ",\"summary\":" + summary.json.serialized() + "}\n")
        switch destination {
        case .memory(let out):
            out.write(buffer)
            buffer = ""
            failure = out.sync()
        case .file(let target, let temp):
            let tempPath = temp.path!
            // Only a complete, synced document replaces the target: on any failure the
            // temporary file goes and an earlier report stays as it was.
            if let problem = temp.close() {
                failure = problem
                _ = ArgumentBytes.withCPath(tempPath) { unlink($0) }
                return
            }
            let renamed = ArgumentBytes.withCPath(tempPath) { t in ArgumentBytes.withCPath(target) { rename(t, $0) } }
            if renamed != 0 {
                failure = OutputError(message: "cannot write to '\(ArgumentBytes.display(target))': cannot rename \(ArgumentBytes.display(tempPath)) over it: \(String(cString: strerror(errno)))")
                _ = ArgumentBytes.withCPath(tempPath) { unlink($0) }
                return
            }
            // Make the rename itself durable.
            let slash = target.lastIndex(of: "/")
            let dir = slash.map { String(target[...$0]) } ?? "."
            let fd = ArgumentBytes.withCPath(dir) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            if fd >= 0 {
                if fsync(fd) != 0 && errno != EINVAL {
                    failure = OutputError(message: "cannot write to '\(ArgumentBytes.display(target))': fsync of its folder failed: \(String(cString: strerror(errno)))")
                }
                close(fd)
            }
        }
    }
}
