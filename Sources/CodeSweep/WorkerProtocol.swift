import FileWalker
import Foundation
import SweepCore

/// The line protocol between a sweep and its worker processes. One request line in, one
/// reply line out, both JSON objects on a single line.
///   request: {"path": ..., "path_b64": ..., "explicit": bool, "size": n, "mtime": t}
///   reply:   a `Line` (private to the two sides, not the documented record): the record
///            (`Wire.Record`: the engine's own values: payload bytes, corners, orientation
///            index, mtime and timings unrounded, check's measurements), or that the file is
///            skipped; before it, any number of partial lines: the record so far, sent before
///            the second decoder runs (kept if the worker then dies or hangs). Payload text is
///            made by the coordinator's sinks.
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

    enum Reply: Equatable { case record(FileRecord), partial(FileRecord), skipped, invalid }

    /// A reply line as it crosses the pipe.
    struct Line: Codable {
        var record: Wire.Record?
        var partial: Wire.Record?
        var skipped: Bool?
    }

    static func reply(_ record: FileRecord?) -> String {
        line(record.map { Line(record: Wire.Record($0)) } ?? Line(skipped: true))
    }

    static func partial(_ record: FileRecord) -> String {
        line(Line(partial: Wire.Record(record)))
    }

    static func line(_ l: Line) -> String {
        // Strings, numbers (non-finite ones as strings), booleans and arrays of them: encoding cannot fail.
        guard let data = try? Wire.encoder.encode(l) else { fatalError("a worker reply did not encode as JSON") }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func parseReply(_ line: [UInt8]) -> Reply {
        guard let l = try? Wire.decoder.decode(Line.self, from: Data(line)) else { return .invalid }
        if l.skipped == true { return .skipped }
        if let r = l.partial?.record { return .partial(r) }
        if let r = l.record?.record { return .record(r) }
        return .invalid
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

/// A record as a worker sends it: `FileRecord`'s fields as the engine holds them.
enum Wire {
    static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return e
    }
    static var decoder: JSONDecoder {
        let d = JSONDecoder()
        d.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return d
    }

    struct Record: Codable {
        var path: String
        var format: ImageFormat?
        var width, height, orientation, frames: Int?
        var pages: [PageRender]?
        var codes: [Code]
        var error: ErrorKind?
        var errorMessage: String?
        var warnings: [String]
        var failedDecoder: String?
        var size: Int?
        var mtime: Double?
        var timings: [Timing]?
        var hashes: [String: String]?
        var metadata: Metadata?
        /// The grader's measurement of each code (`FileRecord.measurements`), as JSON text.
        var measurements: [String?]

        init(_ r: FileRecord) {
            path = r.path; format = r.format; width = r.width; height = r.height; orientation = r.orientation; frames = r.frames
            pages = r.pages.isEmpty ? nil : r.pages
            codes = r.codes.map(Code.init)
            error = r.error?.kind; errorMessage = r.error?.message
            warnings = r.warnings; failedDecoder = r.failedDecoder; size = r.size; mtime = r.mtime
            timings = r.timings?.map { Timing(name: $0.0, ms: $0.1) }
            hashes = r.hashes
            metadata = r.metadata.map(Metadata.init)
            measurements = r.measurements.map { $0?.serialized() }
        }

        /// The record; its path bytes are the coordinator's to set (the request's exact bytes).
        var record: FileRecord? {
            var r = FileRecord(path: path)
            r.format = format; r.width = width; r.height = height; r.orientation = orientation; r.frames = frames
            r.pages = pages ?? []
            var decoded: [DetectedCode] = []
            for c in codes {
                guard let code = c.code else { return nil }
                decoded.append(code)
            }
            r.codes = decoded
            r.error = error.map { RecordError($0, errorMessage ?? "") }
            r.warnings = warnings; r.failedDecoder = failedDecoder; r.size = size; r.mtime = mtime
            r.timings = timings?.map { ($0.name, $0.ms) }
            r.hashes = hashes
            r.metadata = metadata?.metadata
            for m in measurements {
                guard let m else { r.measurements.append(nil); continue }
                guard let value = try? JSONReading.value(m) else { return nil }
                r.measurements.append(value)
            }
            return r
        }
    }

    struct Code: Codable {
        var symbology: Symbology
        var bytes: Data
        /// x0, y0, ... x3, y3.
        var corners: [Double]
        var quality, orientation, frame: Int
        var pass: String
        var gs1: Bool?
        var qr: QRDetails?

        init(_ c: DetectedCode) {
            symbology = c.symbology; bytes = Data(c.bytes); corners = c.corners.points.flatMap { [$0.x, $0.y] }
            quality = c.quality; orientation = c.orientation; frame = c.frame; pass = c.pass; gs1 = c.gs1; qr = c.qr
        }

        var code: DetectedCode? {
            guard corners.count == 8 else { return nil }
            let points = stride(from: 0, to: 8, by: 2).map { Point(x: corners[$0], y: corners[$0 + 1]) }
            var c = DetectedCode(
                symbology: symbology, bytes: Array(bytes), corners: Quad(points), quality: quality,
                orientation: orientation, frame: frame, pass: pass, gs1: gs1)
            c.qr = qr
            return c
        }
    }

    struct Timing: Codable {
        var name: String
        var ms: Double
    }

    struct Metadata: Codable {
        var captureTime, cameraMake, cameraModel, software: String?
        var latitude, longitude, altitude: Double?

        init(_ m: ImageMetadata) {
            captureTime = m.captureTime; cameraMake = m.cameraMake; cameraModel = m.cameraModel; software = m.software
            latitude = m.gps?.latitude; longitude = m.gps?.longitude; altitude = m.gps?.altitude
        }

        var metadata: ImageMetadata {
            var gps: GPSPosition? = nil
            if let latitude, let longitude { gps = GPSPosition(latitude: latitude, longitude: longitude, altitude: altitude) }
            return ImageMetadata(captureTime: captureTime, cameraMake: cameraMake, cameraModel: cameraModel, gps: gps, software: software)
        }
    }
}
