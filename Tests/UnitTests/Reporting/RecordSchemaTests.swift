import Foundation
import Records
import Reporting
import Testing

/// docs/schema/record.schema.json and the record's encoder agree field by field: every
/// property the encoder emits (records with every optional field set) is in the schema, and
/// every property in the schema is emitted by one of them, at every level (codes and their
/// details, pages, error, hashes, metadata and its GPS fix).
@Suite("Record schema")
struct RecordSchemaTests {
    /// The schema in the package this file is in (found by walking up to Package.swift).
    static var schemaURL: URL {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while dir.path != "/" && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("docs/schema/record.schema.json")
    }

    /// Records that between them set every optional field the encoder has.
    static func everyField() -> [FileRecord] {
        var r = FileRecord(path: "caf\u{FFFD}.pdf", pathBytes: Array("caf".utf8) + [0xE9] + Array(".pdf".utf8))
        r.format = .pdf; r.width = 640; r.height = 480; r.orientation = 6; r.frames = 2; r.size = 1234; r.mtime = 1_700_000_000.125
        r.pages = [PageRender(page: 0, widthPoints: 595.276, heightPoints: 841.89, dpi: 150, width: 1240, height: 1754)]
        r.warnings = ["frame 2: unreadable"]; r.failedDecoder = "zxing-cpp"
        r.hashes = ["md5": "a", "sha1": "b", "sha256": "c", "sha512": "d"]
        r.metadata = ImageMetadata(
            captureTime: "2023-07-14T10:32:05+02:00", cameraMake: "Make", cameraModel: "Model",
            gps: GPSPosition(latitude: -1.5, longitude: 2.25, altitude: -3), software: "Tool")
        r.timings = RecordTimings()
        r.timings?.read = 1.5; r.timings?.scan = 10.5
        let quad = Quad([Point(x: 1, y: 2), Point(x: 10.5, y: 2), Point(x: 10.5, y: 9), Point(x: 1, y: 9)])
        var qr = DetectedCode(symbology: .qr, bytes: Array("hi".utf8), corners: quad, quality: 1, orientation: 2, frame: 0, pass: "gray-full")
        qr.qr = QRDetails(version: 2, ecLevel: "Q", mask: 5, mirrored: true, eci: 26)
        let dm = DetectedCode(
            symbology: .datamatrix, bytes: Array("(01)123".utf8), corners: quad, quality: 0, orientation: -1, frame: 1, pass: "zxing", gs1: true)
        r.codes = [qr, dm]
        return [r, .failure(path: "b.png", RecordError(.corrupt, "broken"))]
    }

    @Test func schemaAndEncoderAgreeFieldByField() throws {
        let schema = try JSONReading.value(Array(try Data(contentsOf: Self.schemaURL)))
        let emitted = Self.everyField().map { $0.json() }
        var checked: [String] = []
        compare(emitted, schema, root: schema, at: "record", checked: &checked)
        // The walk reached every object the record has.
        #expect(
            Set(checked).isSuperset(of: [
                "record", "record.pages[]", "record.codes[]", "record.codes[].details", "record.error", "record.hashes", "record.metadata",
                "record.metadata.gps",
            ]))
    }

    /// Compares the properties `values` have with those `schema` lists, then each property's values below.
    func compare(_ values: [JSONValue], _ node: JSONValue, root: JSONValue, at path: String, checked: inout [String]) {
        var schema = node
        if let ref = schema["$ref"]?.stringValue, ref.hasPrefix("#/$defs/") {
            schema = root["$defs"]?[String(ref.dropFirst("#/$defs/".count))] ?? .null
        }
        if let items = schema["items"] {
            compare(values.flatMap { $0.arrayValue ?? [] }, items, root: root, at: path + "[]", checked: &checked)
        }
        guard case .object(let properties)? = schema["properties"] else { return }
        checked.append(path)
        var emitted: Set<String> = []
        for case .object(let fields) in values { emitted.formUnion(fields.map(\.0)) }
        let listed = Set(properties.map(\.0))
        #expect(emitted.subtracting(listed).isEmpty, "\(path): emitted but not in the schema: \(emitted.subtracting(listed).sorted())")
        #expect(listed.subtracting(emitted).isEmpty, "\(path): in the schema but never emitted: \(listed.subtracting(emitted).sorted())")
        for (name, sub) in properties {
            compare(values.compactMap { $0[name] }, sub, root: root, at: path + "." + name, checked: &checked)
        }
    }
}
