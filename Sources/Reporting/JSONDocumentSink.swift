import Records

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--format json`: one JSON document for the whole sweep:
///
///     {"schema_version":1,"tool":{"name":"codesweep","version":"0.1.0"},"started":"...",
///      "files":[record, ...],"finished":"...","summary":{...}}
///
/// A reader never sees half a document: to a file, records stream into a temporary file in the
/// target's folder, which is synced and renamed over the target at the end; to stdout, the
/// document is kept in memory and written at the end.
package struct JSONDocumentSink: RecordSink {
    package static let schemaVersion = 1

    enum Destination {
        case file(SafeFile.Pending)
        case memory(OutputFile)
    }

    var destination: Destination
    var buffer = ""
    var count = 0
    let forcedCharset: String?
    /// Set when a write, the fsync or the rename failed; the target was then left as it was.
    package private(set) var failure: OutputError?

    package var outputFailure: OutputError? {
        if let failure { return failure }
        switch destination {
        case .file(let pending): return pending.out.failure
        case .memory(let out): return out.failure
        }
    }

    /// Writes to `path` (atomically, at the end), or to stdout when `path` is nil.
    package init(path: String?, toolName: String, toolVersion: String, forcedCharset: String? = nil) throws(OutputError) {
        self.forcedCharset = forcedCharset
        if let path {
            // Through `SafeFile`: a link at the target is refused, the document is renamed into place whole.
            destination = .file(try SafeFile.begin(path))
        } else {
            destination = .memory(.standardOutput)
        }
        let head: JSONValue = .object([
            ("schema_version", .int(Self.schemaVersion)),
            ("tool", .object([("name", .string(toolName)), ("version", .string(toolVersion))])),
            ("started", .string(Timestamp.now())),
        ])
        var text = head.serialized()
        text.removeLast()  // the closing brace: the document goes on
        emit(text + ",\"files\":[")
    }

    mutating func emit(_ text: String) {
        switch destination {
        case .file(let pending): pending.out.write(WorkflowSafeJSON.text(text))
        case .memory: buffer += WorkflowSafeJSON.text(text)
        }
    }

    package mutating func write(_ record: FileRecord) {
        emit((count == 0 ? "\n" : ",\n") + record.json(forcedCharset: forcedCharset).serialized())
        count += 1
    }

    package mutating func finish(summary: SweepSummary) {
        emit(
            "\n],\"finished\":" + JSONValue.string(Timestamp.now()).serialized()
                + ",\"summary\":" + summary.json.serialized() + "}\n")
        switch destination {
        case .memory(let out):
            out.write(buffer)
            buffer = ""
            failure = out.sync()
        case .file(let pending):
            // Only a complete, synced document replaces the target: on any failure the
            // temporary file goes and an earlier report stays as it was.
            do { try pending.commit() } catch { failure = error }
        }
    }
}
