import ArgumentParser
import CodeSweep
import Reporting

/// Where and how `scan` writes its report: `-o`, `--format`, the CSV flags and `--redact`.
struct ReportOptions: ParsableArguments {
    @OptionGroup var destination: OutputOptions<Scan.Help>

    @Option(help: "Output format: jsonl (default), json, csv or text (see docs/output.md).")
    var format: ReportFormat = .jsonl

    @Flag(help: "CSV: also write a row for each file with no code or an error (adds status and error columns).")
    var csvAllFiles = false

    @Flag(help: "CSV: leave cells starting with = + - @ as they are (by default a ' is put before them so spreadsheets do not run them as formulas).")
    var csvRawFormulas = false

    @Flag(
        help:
            "Mask what payloads give away (Wi-Fi passwords, one-time-password secrets, private keys and seeds, credentials in URLs; see content.sensitive) in every output format. Records keep them by default."
    )
    var redact = false

    var output: String? { destination.output }

    /// The sink for the records: --raw's payloads, or the report in `format`. The json sink
    /// writes its own temporary file next to `output` and renames it (`out` is then unused);
    /// when it cannot, the scan ends with status 2.
    func sink(out: OutputFile, raw: Bool, forcedCharset charset: String?) throws -> any RecordSink {
        let sink = try formatSink(out: out, raw: raw, forcedCharset: charset)
        return redact ? RedactingSink(sink, forcedCharset: charset) : sink
    }

    func formatSink(out: OutputFile, raw: Bool, forcedCharset charset: String?) throws -> any RecordSink {
        switch raw ? nil : format {
        case nil: return RawSink(out: out, forcedCharset: charset)
        case .jsonl: return JSONLinesSink(out: out, forcedCharset: charset)
        case .csv:
            return CSVSink(
                out: out, forcedCharset: charset,
                options: CSVSink.Options(allFiles: csvAllFiles, neutraliseFormulas: !csvRawFormulas))
        case .text: return TextSink(out: out, forcedCharset: charset)
        case .json:
            do {
                return try JSONDocumentSink(path: output, toolName: "codesweep", toolVersion: CodeSweepInfo.version, forcedCharset: charset)
            } catch {
                Stderr.say("codesweep: \(error.message)")
                throw ExitCode(2)
            }
        }
    }
}

extension ReportFormat: ExpressibleByArgument {}
