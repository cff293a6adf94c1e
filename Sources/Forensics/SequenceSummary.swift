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
            s += "  \(q.symbology.rawValue) id \(TerminalText.escape(q.id)), \(q.parts.count) of \(q.count) parts (\(q.state))\n"
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

/// `merge`'s structured-append note: the sequences whose parts the shards' records hold in more
/// than one file, joined (a record joins only the parts it holds itself). Only lines naming a
/// sequence part are decoded; the merged report itself stays byte for byte.
extension ReportMerge {
    package static func sequencesAcrossFiles(_ lines: [Line]) -> [JoinedSequence] {
        let marker = Array("\"sequence_index\"".utf8)
        var parts: [(path: String, code: DetectedCode)] = []
        for line in lines where line.text.contains(marker) {
            guard let record = try? JSONReading.decode(FileRecord.self, from: line.text[...]) else { continue }
            parts += record.codes.filter { $0.facts?.sequence != nil }.map { (record.path, $0) }
        }
        return JoinedSequence.join(parts).filter(\.spansFiles)
    }

    /// One line each for `merge`'s standard error: the sequence, its parts' files, what is missing.
    package static func sequenceNotes(_ joined: [JoinedSequence]) -> [String] {
        joined.map { q in
            let text = PayloadText.decode(q.bytes, eci: nil, forcedCharset: nil).text.map { TerminalText.escape($0) } ?? "(\(q.bytes.count) bytes, not text)"
            return
                "structured append across files: \(q.symbology.rawValue) id \(TerminalText.escape(q.id)), \(q.parts.count) of \(q.count) parts (\(q.state)) in \(Set(q.parts.map(\.path)).count) files: \(text)"
        }
    }
}

extension JoinedSequence {
    /// "complete", "incomplete, missing parts 2, 3" (counted from 1), or "count not said".
    var state: String {
        guard !complete else { return "complete" }
        guard count > 0 else { return "count not said" }
        return "incomplete, missing part\(missing.count == 1 ? "" : "s") \(missing.map { String($0 + 1) }.joined(separator: ", "))"
    }
}
