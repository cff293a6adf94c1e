import FileWalker
import Foundation
import Records
import Reporting

/// The line protocol between a sweep and its worker processes. One request line in, one
/// reply line out, both JSON objects on a single line.
///   request: {"path": ..., "path_b64": ..., "explicit": bool, "size": n, "mtime": t}
///   reply:   a `Line`: the record in the documented record's own `Codable` shape, its
///            numbers unrounded (`RecordStyle.exact`), beside it what the record's JSON does
///            not hold (check's measurements); or that
///            the file is skipped. Before it, any number of partial lines: the record so far,
///            sent before the isolated reader runs (kept if the worker then dies or hangs),
///            and the records of the items expanded from the file (a container's members),
///            each as it is done, before the file's own.
///            Payload text is made again by the coordinator's sinks (with --charset).
enum WorkerProtocol {
    /// A request: the entry's path (also as base64, exact bytes), whether it was named
    /// explicitly, and the size and mtime the walk saw.
    struct Request: Decodable {
        var path: String
        var pathB64: String
        var explicit: Bool
        var size: Int
        var mtime: Double
        /// Readers (`ReaderName` names) to leave out: the file is read again without the one
        /// that died on it.
        var without: [String]?
        /// Which share of a walked container's members to read, [k, n] (several workers read it).
        var part: [Int]?
        enum CodingKeys: String, CodingKey { case path, pathB64 = "path_b64", explicit, size, mtime, without, part }
    }

    static func request(_ e: FileEntry, without: [ReaderName] = [], part: [Int]? = nil) -> String {
        var fields: [(String, JSONValue)] = [
            ("path", .string(e.path)),
            ("path_b64", .string(Base64.encode(e.pathBytes))),
            ("explicit", .bool(e.explicit)),
            ("size", .int(e.size)),
            ("mtime", .double(e.mtime)),
        ]
        if !without.isEmpty { fields.append(("without", .array(without.map { .string($0.rawValue) }))) }
        if let part { fields.append(("part", .array(part.map { .int($0) }))) }
        return JSONValue.object(fields).serialized() + "\n"
    }

    static func parseRequest(_ line: [UInt8]) -> (FileEntry, without: Set<ReaderName>, part: [Int]?)? {
        guard let r = try? JSONReading.decode(Request.self, from: line), let bytes = Base64.decode(r.pathB64) else { return nil }
        let without = Set((r.without ?? []).compactMap(ReaderName.init(rawValue:)))
        return (FileEntry(path: r.path, pathBytes: bytes, explicit: r.explicit, size: r.size, mtime: r.mtime, device: 0, inode: 0), without, r.part)
    }

    enum Reply: Equatable { case record(FileRecord), partial(FileRecord), member(FileRecord), progress, skipped, ready(IdleSize), invalid }

    /// A worker's size once started, before its first file (its address-space limit set): what
    /// the coordinator measures a dead worker's growth from. Measured by the worker itself, so a
    /// busy machine cannot make the coordinator sample it after it began to grow.
    struct IdleSize: Codable, Equatable {
        /// Address space (statm's first field) and peak resident size (VmHWM), bytes.
        var virtual: Int
        var peakResident: Int
    }

    /// A reply line as it crosses the pipe: one JSON object, decoded once.
    struct Line: Codable {
        var record: FileRecord?
        var partial: FileRecord?
        /// A record of an item expanded from the file (a container's member), sent as it is done.
        var member: FileRecord?
        var skipped: Bool?
        /// A long item goes on (a video's frames are being read): the --timeout starts again.
        var progress: Bool?
        var ready: IdleSize?
        /// The grader's measurement of each code (`FileRecord.measurements`), beside the record
        /// (the record's JSON does not hold them).
        var measurements: [JSONValue?]?

        init(record: FileRecord? = nil, partial: FileRecord? = nil, member: FileRecord? = nil, skipped: Bool? = nil) {
            self.record = record; self.partial = partial; self.member = member; self.skipped = skipped
            measurements = (record ?? partial ?? member)?.measurements
        }

        /// `r` with what the record's JSON does not hold put back.
        func completed(_ r: FileRecord) -> FileRecord {
            var r = r
            r.measurements = measurements ?? []
            return r
        }
    }

    static func reply(_ record: FileRecord?) -> String {
        line(record.map { Line(record: $0) } ?? Line(skipped: true))
    }

    static func partial(_ record: FileRecord) -> String {
        line(Line(partial: record))
    }

    static func member(_ record: FileRecord) -> String {
        line(Line(member: record))
    }

    static var progress: String {
        var l = Line()
        l.progress = true
        return line(l)
    }

    /// The first line a worker writes, before it reads a request.
    static func ready(_ size: IdleSize) -> String {
        var l = Line()
        l.ready = size
        return line(l)
    }

    static func line(_ l: Line) -> String {
        // Strings, numbers (non-finite ones as strings), booleans and arrays of them: encoding cannot fail.
        guard let data = try? Wire.encoder.encode(l) else { fatalError("a worker reply did not encode as JSON") }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func parseReply(_ line: [UInt8]) -> Reply {
        guard let l = try? Wire.decoder.decode(Line.self, from: Data(line)) else { return .invalid }
        if l.skipped == true { return .skipped }
        if l.progress == true { return .progress }
        if let size = l.ready { return .ready(size) }
        if let r = l.partial { return .partial(l.completed(r)) }
        if let r = l.member { return .member(l.completed(r)) }
        if let r = l.record { return .record(l.completed(r)) }
        return .invalid
    }
}

/// How a reply line is encoded: JSON with non-finite numbers as strings, and the record in
/// `RecordStyle.exact` (the documented record's shape, numbers unrounded).
enum Wire {
    static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        e.userInfo[RecordStyle.key] = RecordStyle(exact: true)
        return e
    }
    static var decoder: JSONDecoder {
        let d = JSONDecoder()
        d.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        d.userInfo[RecordStyle.key] = RecordStyle(exact: true)
        return d
    }
}
