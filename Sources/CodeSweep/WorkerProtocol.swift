import Foundation
import SweepCore
import FileWalker

/// The line protocol between a sweep and its worker processes. One request line in, one
/// reply line out, both JSON objects on a single line.
///   request: {"path": ..., "path_b64": ..., "explicit": bool, "size": n, "mtime": t}
///   reply:   a record as documented (FileRecord.json), or {"skipped": true}; before it, any
///            number of {"partial": record} lines: the record so far, sent before the second
///            decoder runs (kept if the worker then dies or hangs).
enum WorkerProtocol {
    static func request(_ e: FileEntry) -> String {
        JSONValue.object([
            ("path", .string(e.path)),
            ("path_b64", .string(Base64.encode(e.pathBytes))),
            ("explicit", .bool(e.explicit)),
            ("size", .int(e.size)),
            ("mtime", .double(e.mtime)),
        ]).serialized() + "\n"
    }

    static func parseRequest(_ line: [UInt8]) -> FileEntry? {
        guard let v = try? JSONParser.parse(line), let path = v["path"]?.stringValue,
              let bytes = v["path_b64"]?.stringValue.flatMap(Base64.decode) else { return nil }
        return FileEntry(path: path, pathBytes: bytes, explicit: v["explicit"]?.boolValue ?? false,
                         size: v["size"]?.intValue ?? 0, mtime: v["mtime"]?.doubleValue ?? 0, device: 0, inode: 0)
    }

    static func reply(_ record: FileRecord?) -> String {
        guard let record else { return "{\"skipped\":true}\n" }
        return record.json().serialized() + "\n"
    }

    static func partial(_ record: FileRecord) -> String {
        JSONValue.object([("partial", record.json())]).serialized() + "\n"
    }

    enum Reply { case record(FileRecord), partial(FileRecord), skipped, invalid }

    static func parseReply(_ line: [UInt8]) -> Reply {
        guard let v = try? JSONParser.parse(line) else { return .invalid }
        if v["skipped"]?.boolValue == true { return .skipped }
        if let p = v["partial"] {
            guard let r = FileRecord(json: p) else { return .invalid }
            return .partial(r)
        }
        guard let r = FileRecord(json: v) else { return .invalid }
        return .record(r)
    }

    /// The settings a worker scans with, passed once as its command-line argument: all of
    /// them, as `Codable` JSON (the plan's passes and settings included), so a worker scans
    /// exactly as the coordinator would in its own process.
    static func encode(_ s: ScanSettings) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // ScanSettings holds strings, numbers, booleans and enums only: encoding cannot fail.
        guard let data = try? encoder.encode(s) else { fatalError("ScanSettings did not encode as JSON") }
        return String(decoding: data, as: UTF8.self)
    }

    static func decodeSettings(_ text: String) -> ScanSettings? {
        try? JSONDecoder().decode(ScanSettings.self, from: Data(text.utf8))
    }
}
