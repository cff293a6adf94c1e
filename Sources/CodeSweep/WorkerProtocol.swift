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
    /// A request: the entry's path (also as base64, exact bytes), whether it was named
    /// explicitly, and the size and mtime the walk saw.
    struct Request: Decodable {
        var path: String
        var pathB64: String
        var explicit: Bool
        var size: Int
        var mtime: Double
        enum CodingKeys: String, CodingKey { case path, pathB64 = "path_b64", explicit, size, mtime }
    }

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
        guard let r = try? JSONReading.decode(Request.self, from: line), let bytes = Base64.decode(r.pathB64) else { return nil }
        return FileEntry(path: r.path, pathBytes: bytes, explicit: r.explicit, size: r.size, mtime: r.mtime, device: 0, inode: 0)
    }

    static func reply(_ record: FileRecord?) -> String {
        guard let record else { return "{\"skipped\":true}\n" }
        return record.json().serialized() + "\n"
    }

    static func partial(_ record: FileRecord) -> String {
        JSONValue.object([("partial", record.json())]).serialized() + "\n"
    }

    enum Reply { case record(FileRecord), partial(FileRecord), skipped, invalid }

    /// A reply line: `{"skipped": true}`, `{"partial": record}` or a record.
    struct ReplyLine: Decodable {
        var reply: Reply
        enum CodingKeys: String, CodingKey { case skipped, partial }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if try c.decodeIfPresent(Bool.self, forKey: .skipped) == true { reply = .skipped }
            else if c.contains(.partial) { reply = .partial(try c.decode(FileRecord.self, forKey: .partial)) }
            else { reply = .record(try FileRecord(from: decoder)) }
        }
    }

    static func parseReply(_ line: [UInt8]) -> Reply {
        (try? JSONReading.decode(ReplyLine.self, from: line))?.reply ?? .invalid
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
