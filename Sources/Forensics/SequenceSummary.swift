import Payloads
import Records
import Reporting

/// `summarize`'s structured-append section: the sequences the reports' codes are parts of,
/// joined across files (`JoinedSequence`), each with its parts' files, what is missing, and
/// the joined payload.
extension PayloadSummary {
    package var sequences: [JoinedSequence] { JoinedSequence.join(sequenceParts) }

    var sequencesText: String {
        let all = sequences
        guard !all.isEmpty else { return "" }
        var s = "\nstructured append: \(all.count) sequence\(all.count == 1 ? "" : "s")\n"
        for q in all {
            let state =
                q.complete
                ? "complete"
                : q.count > 0
                    ? "incomplete, missing part\(q.missing.count == 1 ? "" : "s") \(q.missing.map { String($0 + 1) }.joined(separator: ", "))"
                    : "count not said"
            s += "  \(q.symbology.rawValue) id \(TerminalText.escape(q.id)), \(q.parts.count) of \(q.count) parts (\(state))\n"
            s += "      \(PayloadSummary.display(Payload(symbology: q.symbology.rawValue, bytes: q.bytes, text: text(q), first: "", last: "")))\n"
            for p in q.parts { s += "      part \(p.index + 1): \(TerminalText.escape(p.path))\n" }
        }
        return s
    }

    var sequencesJSON: JSONValue {
        .array(
            sequences.map { q in
                .object([
                    ("symbology", .string(q.symbology.rawValue)),
                    ("id", .string(q.id)),
                    ("count", .int(q.count)),
                    ("complete", .bool(q.complete)),
                    ("missing", .array(q.missing.map { .int($0) })),
                    ("text", text(q).map(JSONValue.string) ?? .null),
                    ("bytes_b64", .string(Base64.encode(q.bytes))),
                    ("parts", .array(q.parts.map { .object([("index", .int($0.index)), ("path", .string($0.path))]) })),
                ])
            })
    }

    func text(_ q: JoinedSequence) -> String? { PayloadText.decode(q.bytes, eci: nil, forcedCharset: nil).text }
}
