import Foundation
import Testing

// Helpers shared by the Report* and Charset* tests: running commands, a temporary folder, the
// built CLI, a strict JSON parser and a JSON Schema validator for the subset our schemas use.
// The tests at the end check the helpers themselves, so that a lax parser or validator cannot
// make the other tests pass by accident.

enum ReportTestSupport {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `codesweep` executable built next to the test bundle (`swift build --build-tests`).
    static var cliPath: String {
        var candidates: [String] = Bundle.allBundles.map {
            $0.bundleURL.deletingLastPathComponent().appendingPathComponent("codesweep").path
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/codesweep").path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var out: String { String(decoding: stdout, as: UTF8.self) }
        var err: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Runs a program to completion (stdin closed), capturing both streams.
    @discardableResult
    static func run(_ program: String, _ args: [String], stdin: Data? = nil, cwd: String? = nil) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = args
        // In-process scans (FileScanner) point MAGICK_CONFIGURE_PATH at CodeSweep's own, strict
        // ImageMagick policy; child programs (convert, the CLI) must not inherit it.
        var env = ProcessInfo.processInfo.environment
        for key in ["MAGICK_CONFIGURE_PATH", "MAGICK_TEMPORARY_PATH", "MAGICK_THREAD_LIMIT"] { env.removeValue(forKey: key) }
        p.environment = env
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
        p.standardOutput = outPipe
        p.standardError = errPipe
        p.standardInput = inPipe
        try p.run()
        if let stdin { inPipe.fileHandleForWriting.write(stdin) }
        try inPipe.fileHandleForWriting.close()
        // Read both pipes concurrently so neither can fill up and block the child.
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box()
        let group = DispatchGroup()
        let errHandle = errPipe.fileHandleForReading
        DispatchQueue.global().async(group: group) { errBox.data = errHandle.readDataToEndOfFile() }
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: outData, stderr: errBox.data)
    }

    static func which(_ name: String) -> String? {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name) {
            return dir + "/" + name
        }
        return nil
    }

    /// A new empty folder under the system temporary folder.
    static func makeTempDir(_ label: String) throws -> String {
        let dir = NSTemporaryDirectory() + "codesweep-\(label)-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Encodes text to bytes with the iconv command (independent of the code under test).
    static func iconvEncode(_ text: String, to charset: String) throws -> [UInt8] {
        let r = try run("/usr/bin/iconv", ["-f", "UTF-8", "-t", charset], stdin: Data(text.utf8))
        guard r.status == 0 else { throw TestFailure("iconv to \(charset) failed: \(r.err)") }
        return [UInt8](r.stdout)
    }

    /// Writes a QR code PNG holding exactly `bytes` (qrencode's 8-bit mode, no ECI).
    static func makeQR(_ bytes: [UInt8], at png: String, moduleSize: Int = 4) throws {
        let raw = png + ".bin"
        try Data(bytes).write(to: URL(fileURLWithPath: raw))
        let r = try run(which("qrencode") ?? "/usr/bin/qrencode", ["-8", "-r", raw, "-s", String(moduleSize), "-m", "4", "-o", png])
        try? FileManager.default.removeItem(atPath: raw)
        guard r.status == 0 else { throw TestFailure("qrencode failed: \(r.err)") }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

// MARK: - A strict JSON parser (RFC 8259): no trailing commas, no comments, no raw control chars.

indirect enum TJSON: Equatable {
    case null, bool(Bool), number(Double, isInteger: Bool), string(String), array([TJSON]), object([(String, TJSON)])

    static func == (l: TJSON, r: TJSON) -> Bool {
        switch (l, r) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a, _), .number(b, _)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    subscript(key: String) -> TJSON? {
        if case .object(let f) = self { return f.first { $0.0 == key }?.1 }
        return nil
    }
    var string: String? { if case .string(let s) = self { return s }; return nil }
    var array: [TJSON]? { if case .array(let a) = self { return a }; return nil }
    var int: Int? { if case .number(let d, true) = self { return Int(d) }; return nil }
    var double: Double? { if case .number(let d, _) = self { return d }; return nil }
    var isNull: Bool { self == .null }

    static func parse(_ text: String) throws -> TJSON {
        var p = Parser(bytes: Array(text.utf8))
        p.skipWS()
        let v = try p.value(depth: 0)
        p.skipWS()
        guard p.i == p.bytes.count else { throw p.fail("trailing data") }
        return v
    }

    struct Parser {
        let bytes: [UInt8]
        var i = 0
        func fail(_ m: String) -> TestFailure { TestFailure("JSON: \(m) at byte \(i)") }
        mutating func skipWS() { while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 } }
        mutating func expect(_ s: String) throws {
            let b = Array(s.utf8)
            guard i + b.count <= bytes.count, Array(bytes[i..<(i + b.count)]) == b else { throw fail("expected \(s)") }
            i += b.count
        }
        mutating func value(depth: Int) throws -> TJSON {
            guard depth < 200, i < bytes.count else { throw fail("unexpected end") }
            switch bytes[i] {
            case UInt8(ascii: "n"): try expect("null"); return .null
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["):
                i += 1; skipWS()
                var items: [TJSON] = []
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    skipWS(); items.append(try value(depth: depth + 1)); skipWS()
                    guard i < bytes.count else { throw fail("unterminated array") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                    throw fail("expected , or ]")
                }
            case UInt8(ascii: "{"):
                i += 1; skipWS()
                var fields: [(String, TJSON)] = []
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
                while true {
                    skipWS()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected key") }
                    let k = try string(); skipWS()
                    try expect(":"); skipWS()
                    if fields.contains(where: { $0.0 == k }) { throw fail("duplicate key \(k)") }
                    fields.append((k, try value(depth: depth + 1))); skipWS()
                    guard i < bytes.count else { throw fail("unterminated object") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
                    throw fail("expected , or }")
                }
            default: return try number()
            }
        }
        mutating func number() throws -> TJSON {
            let start = i
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            func digits() -> Int { let s = i; while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }; return i - s }
            let intStart = i
            let n = digits()
            guard n > 0, !(n > 1 && bytes[intStart] == 0x30) else { throw fail("bad number") }
            var isInt = true
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") { i += 1; isInt = false; guard digits() > 0 else { throw fail("bad fraction") } }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1; isInt = false
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { throw fail("bad exponent") }
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            guard let d = Double(text) else { throw fail("bad number") }
            return .number(d, isInteger: isInt)
        }
        mutating func string() throws -> String {
            i += 1
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() throws {
                guard let s = String(validating: raw, as: UTF8.self) else { throw fail("invalid UTF-8") }
                scalars.append(contentsOf: s.unicodeScalars); raw.removeAll()
            }
            while true {
                guard i < bytes.count else { throw fail("unterminated string") }
                let c = bytes[i]
                if c == UInt8(ascii: "\"") { i += 1; try flush(); return String(scalars) }
                if c < 0x20 { throw fail("raw control character in string") }
                if c != UInt8(ascii: "\\") { raw.append(c); i += 1; continue }
                try flush()
                i += 1
                guard i < bytes.count else { throw fail("bad escape") }
                let e = bytes[i]; i += 1
                switch e {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var v = try hex4()
                    if (0xD800...0xDBFF).contains(v) {
                        try expect("\\u")
                        let lo = try hex4()
                        guard (0xDC00...0xDFFF).contains(lo) else { throw fail("lone surrogate") }
                        v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(v) { throw fail("lone surrogate") }
                    scalars.append(Unicode.Scalar(v)!)
                default: throw fail("bad escape")
                }
            }
        }
        mutating func hex4() throws -> UInt32 {
            guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16) else { throw fail("bad \\u") }
            i += 4
            return v
        }
    }
}

// MARK: - JSON Schema (draft 2020-12) validator for the keywords our schemas use:
// $ref ("#/$defs/..." and sibling files), type, enum, const, required, properties, additionalProperties,
// items, minItems, maxItems, minimum, maximum, minLength, pattern (ECMA-ish, via NSRegularExpression), anyOf.

struct SchemaValidator {
    /// Schema documents by file name; references like "record.schema.json#/$defs/code" resolve
    /// to files in the same folder.
    var documents: [String: TJSON] = [:]
    let rootName: String
    let folder: String

    init(file: String) throws {
        folder = (file as NSString).deletingLastPathComponent
        rootName = (file as NSString).lastPathComponent
        _ = try document(rootName)
    }

    mutating func document(_ name: String) throws -> TJSON {
        if let d = documents[name] { return d }
        let d = try TJSON.parse(String(contentsOfFile: folder + "/" + name, encoding: .utf8))
        documents[name] = d
        return d
    }

    /// Every violation, as "path: problem"; empty when valid.
    func validate(_ instance: TJSON) -> [String] {
        var me = self
        // Load every referenced document first, so that checking needs no mutation.
        for name in ["record.schema.json", "report.schema.json"] { _ = try? me.document(name) }
        var errors: [String] = []
        me.check(instance, against: me.documents[rootName]!, doc: rootName, at: "$", errors: &errors)
        return errors
    }

    func resolve(_ ref: String, from doc: String) -> (TJSON, String)? {
        let parts = ref.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let name = parts[0].isEmpty ? doc : parts[0]
        guard var node = documents[name] else { return nil }
        if parts.count > 1 {
            for key in parts[1].split(separator: "/") { guard let next = node[String(key)] else { return nil }; node = next }
        }
        return (node, name)
    }

    static let known: Set<String> = ["$schema", "$id", "$ref", "$defs", "title", "description", "type", "enum", "const",
                                     "required", "properties", "additionalProperties", "items", "minItems", "maxItems",
                                     "minimum", "maximum", "minLength", "pattern", "anyOf", "examples", "format"]

    func check(_ v: TJSON, against s: TJSON, doc: String, at path: String, errors: inout [String]) {
        guard case .object(let keywords) = s else { errors.append("\(path): schema is not an object"); return }
        for (k, _) in keywords where !Self.known.contains(k) { errors.append("\(path): validator does not support keyword \(k)") }
        if let ref = s["$ref"]?.string {
            guard let (target, targetDoc) = resolve(ref, from: doc) else { errors.append("\(path): unresolved $ref \(ref)"); return }
            check(v, against: target, doc: targetDoc, at: path, errors: &errors)
        }
        if let t = s["type"] {
            let types = t.array?.compactMap(\.string) ?? [t.string ?? ""]
            if !types.contains(where: { matches(v, type: $0) }) { errors.append("\(path): expected \(types.joined(separator: "|")), got \(v)") }
        }
        if let e = s["enum"]?.array, !e.contains(v) { errors.append("\(path): \(v) not in enum") }
        if let c = s["const"], c != v { errors.append("\(path): \(v) is not \(c)") }
        if let anyOf = s["anyOf"]?.array {
            let ok = anyOf.contains { sub in var e: [String] = []; check(v, against: sub, doc: doc, at: path, errors: &e); return e.isEmpty }
            if !ok { errors.append("\(path): matches none of anyOf") }
        }
        if case .object(let fields) = v {
            for r in s["required"]?.array?.compactMap(\.string) ?? [] where !fields.contains(where: { $0.0 == r }) {
                errors.append("\(path): missing required \(r)")
            }
            let props = s["properties"]
            for (k, fv) in fields {
                if let ps = props?[k] {
                    check(fv, against: ps, doc: doc, at: "\(path).\(k)", errors: &errors)
                } else if let ap = s["additionalProperties"] {
                    if ap == .bool(false) { errors.append("\(path): unexpected property \(k)") }
                    else if case .object = ap { check(fv, against: ap, doc: doc, at: "\(path).\(k)", errors: &errors) }
                }
            }
        }
        if case .array(let items) = v {
            if let min = s["minItems"]?.int, items.count < min { errors.append("\(path): fewer than \(min) items") }
            if let max = s["maxItems"]?.int, items.count > max { errors.append("\(path): more than \(max) items") }
            if let itemSchema = s["items"] {
                for (i, item) in items.enumerated() { check(item, against: itemSchema, doc: doc, at: "\(path)[\(i)]", errors: &errors) }
            }
        }
        if case .number(let d, _) = v {
            if let min = s["minimum"]?.double, d < min { errors.append("\(path): \(d) < \(min)") }
            if let max = s["maximum"]?.double, d > max { errors.append("\(path): \(d) > \(max)") }
        }
        if case .string(let str) = v {
            if let min = s["minLength"]?.int, str.unicodeScalars.count < min { errors.append("\(path): shorter than \(min)") }
            if let pattern = s["pattern"]?.string {
                let re = try! NSRegularExpression(pattern: pattern)
                let ns = str as NSString
                if re.firstMatch(in: str, range: NSRange(location: 0, length: ns.length)) == nil {
                    errors.append("\(path): \"\(str)\" does not match \(pattern)")
                }
            }
        }
    }

    func matches(_ v: TJSON, type: String) -> Bool {
        switch (type, v) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number): true
        case ("integer", .number(let d, _)): d == d.rounded()
        default: false
        }
    }
}

@Suite("Report test helpers")
struct ReportSupportTests {
    @Test func strictJSONParserRejectsWhatJSONForbids() throws {
        for bad in ["{\"a\":1,}", "[1,2", "{\"a\":\"x\ny\"}", "01", "{\"a\":1}{", "'a'", "{\"a\":1,\"a\":2}", "\"\\ud800\""] {
            #expect(throws: (any Error).self, "\(bad) should not parse") { try TJSON.parse(bad) }
        }
        let v = try TJSON.parse(#"{"a":[1,2.5,"\u00e9\ud83d\ude00",null,true]}"#)
        #expect(v["a"]?.array?.count == 5)
        #expect(v["a"]?.array?[2].string == "é😀")
    }

    @Test func schemaValidatorReportsViolations() throws {
        let schemaFile = ReportTestSupport.packageRoot.appendingPathComponent("docs/schema/record.schema.json").path
        let validator = try SchemaValidator(file: schemaFile)
        let good = try TJSON.parse(#"{"path":"a.png","status":"ok","codes":[]}"#)
        #expect(validator.validate(good) == [])
        // Missing field, wrong type, unknown field, bad enum: each must be reported.
        for bad in [#"{"path":"a.png","codes":[]}"#, #"{"path":1,"status":"ok","codes":[]}"#,
                    #"{"path":"a.png","status":"ok","codes":[],"extra":1}"#, #"{"path":"a.png","status":"maybe","codes":[]}"#,
                    #"{"path":"a.png","status":"ok","codes":[{"symbology":"qr"}]}"#] {
            #expect(!validator.validate(try TJSON.parse(bad)).isEmpty, "\(bad) should be invalid")
        }
    }
}
