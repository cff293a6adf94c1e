/// The output formats (`--format`). Each is a RecordSink in its own file.
package enum ReportFormat: String, CaseIterable, Sendable {
    case jsonl, json, csv, text

    package var help: String {
        switch self {
        case .jsonl: "one JSON record per line, each written as soon as it is ready (default)"
        case .json: "one JSON document with every record and a summary, put in place at the end"
        case .csv: "RFC 4180 CSV, one row per code"
        case .text: "one line per code for people, control characters escaped"
        }
    }
}
