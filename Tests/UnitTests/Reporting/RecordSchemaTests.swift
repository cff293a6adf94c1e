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
        r.pages = [
            PageRender(page: 0, widthPoints: 595.276, heightPoints: 841.89, dpi: 150, width: 1240, height: 1754),
            PageRender(page: 1, widthPoints: 595.276, heightPoints: 841.89, dpi: 75, width: 620, height: 877, userUnit: 2, unsized: true),
        ]
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
        var dm = DetectedCode(
            symbology: .datamatrix, bytes: Array("(01)123".utf8), corners: quad, quality: 0, orientation: -1, frame: 1, pass: "zxing", gs1: true)
        // zxing-cpp's facts: a part of a structured-append sequence, drawn inverted, a variant.
        var facts = SymbolFacts()
        facts.symbologyID = "]d2"; facts.version = "12x12"; facts.ecLevel = "x"; facts.variant = "rectangular"; facts.inverted = true
        facts.sequence = SequencePart(index: 0, count: 2, id: "7")
        dm.facts = facts
        // A Wi-Fi code read back from a redacted report: its content, with a redacted secret.
        let wifi = DetectedCode(
            symbology: .qr, bytes: Array("WIFI:T:WPA;S:net;P:********;;".utf8), corners: quad, quality: 1, orientation: 0, frame: 0, pass: "grid")
        r.codes = [qr, dm, wifi]
        // A member of a container (a Latin-1 name), a container's summary, a video's, a span.
        var member = FileRecord(path: "bundle.zip")
        member.member = [
            MemberLink(index: 0, nameBytes: Array("deck.pptx".utf8)), MemberLink(index: 3, nameBytes: Array("caf".utf8) + [0xE9] + Array(".png".utf8)),
        ]
        member.container = ContainerSummary(format: "zip")
        member.container?.detail = "ZIP 2.0 (deflation)"
        member.video = VideoSummary(
            container: "matroska,webm", codec: "vp9", width: 720, height: 1280, rotation: 90, bitDepth: 8, duration: 3, frameRate: 25, interval: 0.25)
        var spanned = wifi
        spanned.seconds = [1.25, 2.5]
        member.codes = [spanned]
        return [r, .failure(path: "b.png", RecordError(.corrupt, "broken")), member]
    }

    /// The every-field record with each top-level field the schema lists and it lacks filled in
    /// from the schema (its `examples`, or a value of its type), read back through the
    /// record's own decoder: a field added to the type and the schema is covered here without
    /// a change to this file, and a schema type the field's Swift type cannot hold fails to read.
    static func filledFromSchema(_ schema: JSONValue) throws -> FileRecord {
        guard case .object(var fields) = everyField()[0].json(), case .object(let properties)? = schema["properties"] else {
            throw SchemaError(what: "no properties")
        }
        for (name, node) in properties where !fields.contains(where: { $0.0 == name }) {
            fields.append((name, sample(node, root: schema)))
        }
        if let i = fields.firstIndex(where: { $0.0 == "status" }) { fields[i].1 = .string("error") }  // a new record's is "ok"
        return try FileRecord.read(json: Array(JSONValue.object(fields).serialized().utf8))
    }

    struct SchemaError: Error { var what: String }

    /// A value the schema node allows: its first example or enum value, else one of its type.
    static func sample(_ node: JSONValue, root: JSONValue) -> JSONValue {
        if let ref = node["$ref"]?.stringValue { return sample(root["$defs"]?[String(ref.dropFirst("#/$defs/".count))] ?? .null, root: root) }
        if let first = node["examples"]?.arrayValue?.first ?? node["enum"]?.arrayValue?.first { return first }
        switch node["type"]?.stringValue {
        case "string": return .string("x")
        case "integer": return .int(1)
        case "number": return .double(1.5)
        case "boolean": return .bool(true)
        case "array": return .array([sample(node["items"] ?? .null, root: root)])
        case "object":
            guard case .object(let properties)? = node["properties"] else { return .object([]) }
            return .object(properties.map { ($0.0, sample($0.1, root: root)) })
        default: return .null
        }
    }

    static func schema() throws -> JSONValue { try JSONReading.value(Array(try Data(contentsOf: Self.schemaURL))) }

    @Test func schemaAndEncoderAgreeFieldByField() throws {
        let schema = try Self.schema()
        let emitted = ([try Self.filledFromSchema(schema)] + Self.everyField().dropFirst()).map { $0.json() }
        var checked: [String] = []
        compare(emitted, schema, root: schema, at: "record", checked: &checked)
        // The walk reached every object the record has.
        #expect(
            Set(checked).isSuperset(of: [
                "record", "record.pages[]", "record.codes[]", "record.codes[].details", "record.error", "record.hashes", "record.metadata",
                "record.metadata.gps", "record.codes[].content", "record.codes[].content.sensitive[]",
            ]))
    }

    /// The record's coding keys are the schema's top-level properties, one for one, and every
    /// stored property of the record has a key except `measurements` (which is not in the JSON):
    /// a property added without its key would be missing from every report without a word.
    @Test func everyPropertyHasAKeyInTheSchema() throws {
        let schema = try Self.schema()
        guard case .object(let properties)? = schema["properties"] else { Issue.record("schema without properties"); return }
        let keys = FileRecord.CodingKeys.allCases
        #expect(Set(keys.map(\.rawValue)) == Set(properties.map(\.0)))
        // Filled from the schema, every stored property differs from a new record's (so the
        // JSON set it: it has a key), and every key is written, in the keys' order.
        let filled = try Self.filledFromSchema(schema)
        let fresh = Mirror(reflecting: FileRecord(path: "a")).children
        let set = Mirror(reflecting: filled).children
        #expect(fresh.count == set.count && fresh.count > 15)
        let unset = zip(fresh, set).filter { "\($0.value)" == "\($1.value)" }.compactMap(\.0.label)
        #expect(unset == ["measurements"], "stored properties with no key in the JSON: \(unset)")
        guard case .object(let written) = filled.json() else { Issue.record("a record that is not an object"); return }
        #expect(written.map(\.0) == keys.map(\.rawValue))
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
