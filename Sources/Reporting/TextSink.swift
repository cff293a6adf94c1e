import Payloads
import Records

/// `--format text`: for people. One line per code, `path: Symbology payload`, e.g.
///
///     photos/a.jpg: QR Code https://example.com
///     scans/page.tif [frame 2]: EAN-13 4006381333931
///     blob.png: QR Code [binary, 23 bytes] AAECAwQF...
///     bad.jpg: error corrupt: Premature end of JPEG file
///
/// Files without codes print nothing. Every untrusted string (paths too) goes through
/// TerminalText.escape, so no control character or escape sequence is ever printed raw.
package struct TextSink: RecordSink {
    let out: OutputFile
    let forcedCharset: String?
    package init(out: OutputFile, forcedCharset: String? = nil) { self.out = out; self.forcedCharset = forcedCharset }

    package mutating func write(_ record: FileRecord) {
        let path = TerminalText.escape(record.location)
        var lines = ""
        if let error = record.error {
            lines += "\(path): error \(error.kind.rawValue): \(TerminalText.escape(error.message))\n"
        }
        for code in record.codes {
            let decoded = PayloadText.decode(code.bytes, eci: code.qr?.eci, forcedCharset: forcedCharset)
            let frame = (record.frames ?? 1) > 1 || code.frame > 0 ? " [frame \(code.frame)]" : ""
            let payload =
                decoded.text.map(TerminalText.escape)
                ?? "[binary, \(code.bytes.count) bytes] \(Base64.encode(code.bytes))"
            lines += "\(path)\(frame): \(code.symbology.displayName) \(payload)\n"
        }
        out.write(lines)
    }

    package mutating func finish(summary: SweepSummary) {}
    package var outputFailure: OutputError? { out.failure }
}
