import Records

/// `--format csv`: RFC 4180 (comma, CRLF line ends, fields quoted when they hold a comma, quote,
/// CR or LF, quotes doubled), a header row, then one row per code. With `allFiles`, files
/// without a code and files that failed get a row too, and status and error columns are added.
///
/// Cells a spreadsheet would run as a formula (starting with = + - @, tab or CR) get a leading
/// single quote unless `neutraliseFormulas` is off. That applies to every text cell, including
/// `bytes_b64` (which can start with "+"); numbers we write ourselves are left alone.
///
/// The quoting is done on UTF-8 bytes, not on Characters: a quote or comma followed by a
/// combining mark is one Character in Swift but still a quote or comma to a CSV reader.
package struct CSVSink: RecordSink {
    package struct Options: Sendable {
        package var allFiles = false
        package var neutraliseFormulas = true
        package init(allFiles: Bool = false, neutraliseFormulas: Bool = true) {
            self.allFiles = allFiles; self.neutraliseFormulas = neutraliseFormulas
        }
    }

    /// A code's columns after `path`: its JSON fields (`DetectedCode`'s coding keys) with the
    /// corners spread over x0, y0 ... x3, y3; `untrusted` cells are payload or path text.
    static let codeFields: [(field: DetectedCode.Field, untrusted: Bool)] = [
        (.frame, false), (.symbology, false), (.text, true), (.bytes, true), (.encoding, false), (.corners, false), (.pass, true),
    ]
    package static let codeColumns =
        [FileRecord.CodingKeys.path.rawValue]
        + codeFields.flatMap { $0.field == .corners ? (0..<4).flatMap { ["x\($0)", "y\($0)"] } : [$0.field.rawValue] } + ["content_type"]
    package static let fileColumns = [FileRecord.CodingKeys.status.rawValue] + RecordError.Field.allCases.map { "error_" + $0.rawValue }

    let out: OutputFile
    let forcedCharset: String?
    let options: Options

    package init(out: OutputFile, forcedCharset: String? = nil, options: Options = Options()) {
        self.out = out; self.forcedCharset = forcedCharset; self.options = options
        let header = Self.codeColumns + (options.allFiles ? Self.fileColumns : [])
        out.write(row(header.map(Cell.number)))  // header names are ours: never neutralised
    }

    enum Cell {
        case text(String)  // untrusted: may be neutralised
        case number(String)  // written by us
    }

    package mutating func write(_ record: FileRecord) {
        var rows = ""
        let status: [Cell] = [.number(record.status.rawValue), .text(record.error?.kind.rawValue ?? ""), .text(record.error?.message ?? "")]
        for code in record.codes {
            var cells: [Cell] = [.text(record.location)]
            let json = code.json(forcedCharset: forcedCharset)
            for (field, untrusted) in Self.codeFields {
                for value in json[field.rawValue].map(Self.values) ?? [] { cells.append(untrusted ? .text(value) : .number(value)) }
            }
            cells.append(.number(json["content"]?["type"]?.stringValue ?? ""))
            if options.allFiles { cells += status }
            rows += row(cells)
        }
        if record.codes.isEmpty && options.allFiles {
            var cells: [Cell] = [.text(record.location)]
            cells += Array(repeating: Cell.number(""), count: Self.codeColumns.count - 1)
            rows += row(cells + status)
        }
        out.write(rows)  // one write per record
    }

    package mutating func finish(summary: SweepSummary) {}
    package var outputFailure: OutputError? { out.failure }

    /// A field's cells as its JSON has the value: text as it is, null empty, numbers as JSON
    /// writes them, an array (corners) flattened.
    static func values(_ v: JSONValue) -> [String] {
        switch v {
        case .string(let s): [s]
        case .null: [""]
        case .array(let items): items.flatMap(values)
        default: [v.serialized()]
        }
    }

    func row(_ cells: [Cell]) -> String {
        cells.map { cell -> String in
            switch cell {
            case .number(let s): Self.quoted(s)
            case .text(let s): Self.quoted(options.neutraliseFormulas ? Self.neutralised(s) : s)
            }
        }.joined(separator: ",") + "\r\n"
    }

    /// A leading ' keeps Excel, LibreOffice and Google Sheets from treating the cell as a formula:
    /// a cell starting with `=` `+` `-` `@` (or their full-width forms `＝` `＋` `－` `＠`, which
    /// some spreadsheets fold to ASCII), with tab or CR, or with white space (space, NBSP, U+3000,
    /// LF...) before one of those. The same quote breaks a GitHub Actions workflow command
    /// (`CSVSink` lines can reach a CI log): one before a `::` that starts the cell or a line in
    /// it (after white space), and one inside every `##[` (`#'#[`).
    package static func neutralised(_ s: String) -> String {
        let scalars = Array(s.unicodeScalars)
        guard let first = scalars.first else { return s }
        let start = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.count
        let formula = first == "\t" || first == "\r" || (start < scalars.count && formulaStarts.contains(scalars[start].value))
        var out = String.UnicodeScalarView()
        if formula { out.append("'") }
        var lineStart = !formula
        for (i, u) in scalars.enumerated() {
            if lineStart, u == ":", i + 1 < scalars.count, scalars[i + 1] == ":" { out.append("'") }
            if u == "[", i >= 2, scalars[i - 1] == "#", scalars[i - 2] == "#" {
                out.removeLast()
                out.append(contentsOf: "'#".unicodeScalars)
            }
            out.append(u)
            if u == "\n" || u == "\r" { lineStart = true } else if !u.properties.isWhitespace { lineStart = false }
        }
        return String(out)
    }

    /// `=` `+` `-` `@` and their full-width forms.
    static let formulaStarts: Set<UInt32> = [0x3D, 0x2B, 0x2D, 0x40, 0xFF1D, 0xFF0B, 0xFF0D, 0xFF20]

    /// RFC 4180 field: quoted (quotes doubled) when it holds a comma, quote, CR or LF, and also
    /// a semicolon or tab: spreadsheets set to those separators would otherwise split
    /// `x;=1+1` into a cell `=1+1` and run it.
    package static func quoted(_ s: String) -> String {
        let needs = s.utf8.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A
                || $0 == UInt8(ascii: ";") || $0 == 0x09
        }
        guard needs else { return s }
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for b in s.utf8 {
            bytes.append(b)
            if b == UInt8(ascii: "\"") { bytes.append(b) }
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }
}
