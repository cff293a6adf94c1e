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

    /// The settings a worker scans with, passed once as its command-line argument.
    static func encode(_ s: ScanSettings) -> String {
        var fields: [(String, JSONValue)] = [
            ("symbologies", .array(s.reader.symbologies.members.sorted().map { .string($0.rawValue) })),
            ("effort", .string(s.reader.plan.effort.rawValue)),
            ("min_linear_quality", .int(s.reader.minLinearQuality)),
            ("min_itf_length", .int(s.reader.minITFLength)),
            ("max_pixels", .int(s.limits.maxPixels)),
            ("max_frames", .int(s.limits.maxFrames)),
            ("max_file_bytes", .int(s.maxFileBytes)),
            ("max_total_pixels", .int(s.limits.maxTotalPixels)),
            ("memory_limit_mib", .int(s.memoryLimitMiB)),
            ("timings", .bool(s.timings)),
            ("hashes", .array(s.hashes.map { .string($0.rawValue) })),
        ]
        if let r = s.reader.roi {
            fields.append(("roi", .array([.double(r.x), .double(r.y), .double(r.width), .double(r.height)])))
        }
        return JSONValue.object(fields).serialized()
    }

    static func decodeSettings(_ text: String) -> ScanSettings? {
        guard let v = try? JSONParser.parse(text) else { return nil }
        var s = ScanSettings()
        let names = (v["symbologies"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(Symbology.init(rawValue:)) }
        let effort = v["effort"]?.stringValue.flatMap(Effort.init(rawValue:)) ?? .normal
        var roi: FractionalRect? = nil
        if let r = v["roi"]?.arrayValue?.compactMap(\.doubleValue), r.count == 4 {
            roi = FractionalRect(x: r[0], y: r[1], width: r[2], height: r[3])
        }
        s.reader = ReaderOptions(symbologies: names.isEmpty ? .standard : SymbologySet(Set(names)), effort: effort, roi: roi,
                                 minLinearQuality: v["min_linear_quality"]?.intValue ?? 2,
                                 minITFLength: v["min_itf_length"]?.intValue ?? 6)
        if let p = v["max_pixels"]?.intValue { s.limits.maxPixels = p }
        if let f = v["max_frames"]?.intValue { s.limits.maxFrames = f }
        if let b = v["max_file_bytes"]?.intValue { s.maxFileBytes = b }
        if let t = v["max_total_pixels"]?.intValue { s.limits.maxTotalPixels = t }
        if let m = v["memory_limit_mib"]?.intValue { s.memoryLimitMiB = m }
        s.timings = v["timings"]?.boolValue ?? false
        s.hashes = (v["hashes"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(HashAlgorithm.init(rawValue:)) }
        return s
    }
}
