import Records

/// Documents recognised by content, as their readers accept them: a PDF by `%PDF-` anywhere in
/// its first 1024 bytes (Adobe Illustrator files saved with PDF compatibility are PDFs), an SVG
/// by an `<svg` root element after at most an XML declaration, comments, processing
/// instructions, a doctype and white space (a byte order mark first is allowed).
extension ImageFormat {
    /// How many first bytes `sniffDocument` looks at.
    public static let documentSniffBytes = 1024

    public var isDocument: Bool { self == .pdf || self == .svg }

    /// File name extensions of documents: a walked file named so is recorded even when its
    /// content is not a document (a broken PDF is reported, not skipped).
    public static let documentExtensions: Set<String> = ["pdf", "ai", "svg"]

    /// The document format of a file from its first `documentSniffBytes` bytes, or nil.
    public static func sniffDocument<C: Collection>(_ head: C) -> ImageFormat? where C.Element == UInt8 {
        let b = Array(head.prefix(documentSniffBytes))
        if contains(b, Array("%PDF-".utf8)) { return .pdf }
        return hasSVGRoot(b) ? .svg : nil
    }

    static func contains(_ b: [UInt8], _ needle: [UInt8]) -> Bool {
        guard b.count >= needle.count else { return false }
        for i in 0...(b.count - needle.count) where b[i] == needle[0] && Array(b[i..<(i + needle.count)]) == needle {
            return true
        }
        return false
    }

    /// Skips the prolog (declaration, comments, processing instructions, doctype with an internal
    /// subset) and says whether the first element is `svg` (optionally with a namespace prefix).
    static func hasSVGRoot(_ b: [UInt8]) -> Bool {
        guard var i = rootElementStart(b) else { return false }
        i += 1
        var name: [UInt8] = []
        while i < b.count, !([0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(b[i])) {
            name.append(b[i])
            i += 1
        }
        let local = name.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).last ?? []
        return Array(local) == Array("svg".utf8)
    }

    /// Where an XML document's first element starts (the index of its `<`), past the prolog
    /// (a byte order mark, declaration, comments, processing instructions, a doctype with an
    /// internal subset, white space); nil when the bytes end first or hold something else.
    public static func rootElementStart(_ b: [UInt8]) -> Int? {
        var i = 0
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        func skipSpace() { while i < b.count, [0x20, 0x09, 0x0A, 0x0D].contains(b[i]) { i += 1 } }
        func starts(_ s: String) -> Bool { b[i...].starts(with: Array(s.utf8)) }
        func skip(past end: String) -> Bool {
            let e = Array(end.utf8)
            while i < b.count {
                if b[i...].starts(with: e) { i += e.count; return true }
                i += 1
            }
            return false
        }
        while true {
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "<") else { return nil }
            if starts("<?") {
                guard skip(past: "?>") else { return nil }
            } else if starts("<!--") {
                guard skip(past: "-->") else { return nil }
            } else if starts("<!DOCTYPE") || starts("<!doctype") {
                guard skipDoctype(b, &i) else { return nil }
            } else {
                return i
            }
        }
    }

    /// Past a doctype's closing `>`, internal subset (`[...]`) and quoted strings included.
    static func skipDoctype(_ b: [UInt8], _ i: inout Int) -> Bool {
        var depth = 0
        var quote: UInt8? = nil
        while i < b.count {
            let c = b[i]
            i += 1
            if let q = quote {
                if c == q { quote = nil }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                quote = c
            } else if c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "]") {
                depth -= 1
            } else if c == UInt8(ascii: ">") && depth <= 0 {
                return true
            }
        }
        return false
    }
}
