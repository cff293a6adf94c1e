import CodeContent
import Payloads
import Records

extension DetectedCode {
    /// What the payload says (`CodeContent`), read from its text as the report decodes it.
    public func content(forcedCharset: String? = nil) -> CodeContent? {
        CodeContent.read(PayloadText.decode(bytes, eci: qr?.eci, forcedCharset: forcedCharset).text, gs1: isGS1)
    }

    /// The code with what its payload gives away masked in its bytes (`--redact`).
    public func redacted(forcedCharset: String? = nil) -> DetectedCode {
        let text = PayloadText.decode(bytes, eci: qr?.eci, forcedCharset: forcedCharset).text
        var c = self
        c.bytes = Redaction.redact(bytes, text: text, content: CodeContent.read(text, gs1: isGS1))
        return c
    }
}

extension FileRecord {
    /// The record with every code's secrets masked (`--redact`): every sink, and every report
    /// read back from it, shows the mask where the secret was.
    public func redacted(forcedCharset: String? = nil) -> FileRecord {
        var r = self
        r.codes = codes.map { $0.redacted(forcedCharset: forcedCharset) }
        return r
    }
}

/// `--redact`: the records reach the sink with their secrets masked.
package struct RedactingSink: RecordSink {
    var inner: any RecordSink
    let forcedCharset: String?
    package init(_ inner: any RecordSink, forcedCharset: String?) { self.inner = inner; self.forcedCharset = forcedCharset }
    package mutating func write(_ record: FileRecord) { inner.write(record.redacted(forcedCharset: forcedCharset)) }
    package mutating func finish(summary: SweepSummary) { inner.finish(summary: summary) }
    package var outputFailure: OutputError? { inner.outputFailure }
}

/// A `JSONValue` written through any encoder as the value it is (the `content` object).
extension JSONValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let fields):
            var c = encoder.container(keyedBy: AnyKey.self)
            for (k, v) in fields { try c.encode(v, forKey: AnyKey(stringValue: k)) }
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for v in items { try c.encode(v) }
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .int(let i):
            var c = encoder.singleValueContainer()
            try c.encode(i)
        case .double(let d):
            var c = encoder.singleValueContainer()
            try c.encode(d)
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        }
    }
}
