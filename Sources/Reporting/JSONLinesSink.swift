import Records

/// `--format jsonl`: one JSON object per line, each written with a single write(2) as soon as the
/// record is ready, so a killed sweep leaves only complete lines behind.
package struct JSONLinesSink: RecordSink {
    let out: OutputFile
    let forcedCharset: String?
    package init(out: OutputFile, forcedCharset: String? = nil) { self.out = out; self.forcedCharset = forcedCharset }
    package mutating func write(_ record: FileRecord) {
        out.write(WorkflowSafeJSON.text(record.json(forcedCharset: forcedCharset).serialized()) + "\n")
    }
    package mutating func finish(summary: SweepSummary) {}
    package var outputFailure: OutputError? { out.failure }
}
