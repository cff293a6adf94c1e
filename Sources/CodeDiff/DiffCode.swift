import Records

/// One code as `check --baseline` compares it, on either side: what the scan read (symbology,
/// payload, where), and what `check` measured when it is known (grade, module size).
package struct DiffCode: Sendable, Equatable {
    /// 1-based, in the order its scan reported codes.
    package var index: Int
    package var symbology: Symbology
    package var bytes: [UInt8]
    /// The payload's text as the report wrote it; nil for binary data.
    package var text: String?
    /// The frame or page (from 0) it is on.
    package var frame: Int
    package var corners: Quad
    /// The scannability grade, when the side was graded (a `check --json` report; a scan report
    /// carries none).
    package var grade: DiffGrade?
    /// The printed module, in millimetres, for a code on a page of known size.
    package var moduleMM: Double?
    /// The module in pixels, as the grader measured it.
    package var modulePx: Double?

    package init(
        index: Int, symbology: Symbology, bytes: [UInt8], text: String?, frame: Int = 0, corners: Quad,
        grade: DiffGrade? = nil, moduleMM: Double? = nil, modulePx: Double? = nil
    ) {
        self.index = index; self.symbology = symbology; self.bytes = bytes; self.text = text; self.frame = frame
        self.corners = corners; self.grade = grade; self.moduleMM = moduleMM; self.modulePx = modulePx
    }

    /// "QR Code \"https://example.com/a\"" (`<binary, 12 bytes>` for data that is no text).
    /// Not escaped: each output escapes messages once.
    package var described: String { "\(symbology.displayName) \(payloadShown)" }

    package var payloadShown: String {
        guard let text else { return "<binary, \(bytes.count) bytes>" }
        return "\"" + (text.count > 120 ? String(text.prefix(120)) + "…" : text) + "\""
    }
}

/// A scannability grade: its letter and its rank (F = 0 ... A = 4, higher is better).
package struct DiffGrade: Sendable, Equatable {
    package var letter: String
    package var value: Int
    package init(letter: String, value: Int) { self.letter = letter; self.value = value }
}

/// One file's codes on one side.
package struct DiffImage: Sendable, Equatable {
    package var path: String
    package var codes: [DiffCode]
    /// False when that side could not read the file: its codes are unknown, not none.
    package var readable: Bool
    package init(path: String, codes: [DiffCode], readable: Bool = true) {
        self.path = path; self.codes = codes; self.readable = readable
    }
}
