import Payloads
import Records

/// `scan --raw`: the payloads only, one per line, exactly as read — no path, no symbology, no
/// escaping — like `zbarimg --raw`, for shell pipelines (`codesweep scan --raw x.png | xargs …`).
/// A text payload is written in UTF-8 (read in its detected charset, or `--charset`); a binary
/// one as its bytes. Nothing is escaped: a payload holding a newline reads as two lines, and one
/// holding terminal escapes or bidi controls acts on a terminal. Errors are not written here (the
/// progress summary and the exit status say them).
package struct RawSink: RecordSink {
    let out: OutputFile
    let forcedCharset: String?
    package init(out: OutputFile, forcedCharset: String? = nil) { self.out = out; self.forcedCharset = forcedCharset }

    package mutating func write(_ record: FileRecord) {
        var bytes: [UInt8] = []
        for code in record.codes {
            let decoded = PayloadText.decode(code.bytes, eci: code.qr?.eci, forcedCharset: forcedCharset)
            bytes += decoded.text.map { Array($0.utf8) } ?? code.bytes
            bytes.append(UInt8(ascii: "\n"))
        }
        out.write(bytes: bytes)
    }

    package mutating func finish(summary: SweepSummary) {}
    package var outputFailure: OutputError? { out.failure }
}
