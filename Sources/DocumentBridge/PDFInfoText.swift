import Records

/// `pdfinfo -f 1 -l N -box`'s output read as data. The document's own strings (Title, Author,
/// Subject...) come first in it and may hold newlines: a Title of "x\nPages: 2\nPage    2
/// CropBox: ..." writes lines that look like pdfinfo's. Everything pdfinfo writes after its
/// last `Pages:` line is its own (the encryption, the pages' sizes and boxes, the file size,
/// the version), so only that part is read, and strictly: `Pages:` a whole number, then the
/// pages' `size` and `rot` lines and their five box lines, the lines of each kind numbering
/// the pages 1, 2, 3... in turn.
/// (A damaged page tree may describe fewer pages than it counts: those are returned.)
enum PDFInfoText {
    /// The document's page count and the first `maxPages` pages' crop boxes and rotations.
    static func pages(_ text: String, maxPages: Int) throws(RecordError) -> (count: Int, pages: [PDFPageInfo]) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        guard let countLine = lines.lastIndex(where: { $0.first == "Pages:" }) else { return (0, []) }
        guard lines[countLine].count == 2, let count = Int(lines[countLine][1]), count >= 0 else {
            throw RecordError(.corrupt, "pdfinfo's page count is not a number: \(lines[countLine].joined(separator: " "))")
        }
        // pdfinfo writes each page's size and rot lines, then each page's five boxes: the lines
        // of each kind must number the pages 1, 2, 3... in turn.
        var crops: [(Double, Double)] = []
        var rotations: [Int] = []
        var counts: [Substring: Int] = [:]
        for words in lines[(countLine + 1)...] where words.first == "Page" {
            guard words.count >= 3, let number = Int(words[1]) else {
                throw RecordError(.corrupt, "pdfinfo wrote a page line it should not: '\(words.joined(separator: " "))'")
            }
            let kind = words[2]
            guard number == counts[kind, default: 0] + 1 else {
                throw RecordError(
                    .corrupt, "pdfinfo's page lines are out of sequence at '\(words.joined(separator: " "))' (page \(counts[kind, default: 0] + 1) expected)")
            }
            counts[kind] = number
            if kind == "CropBox:" {
                let v = words.dropFirst(3).compactMap { Double($0) }
                guard words.count == 7, v.count == 4, v.allSatisfy(\.isFinite) else {
                    throw RecordError(.corrupt, "pdfinfo's crop box of page \(number) is unreadable: '\(words.joined(separator: " "))'")
                }
                crops.append((abs(v[2] - v[0]), abs(v[3] - v[1])))
            } else if kind == "rot:" {
                guard words.count == 4, let r = Int(words[3]) else {
                    throw RecordError(.corrupt, "pdfinfo's rotation of page \(number) is unreadable: '\(words.joined(separator: " "))'")
                }
                rotations.append(((r % 360) + 360) % 360)
            }
        }
        let pages = zip(crops, rotations).map { PDFPageInfo(cropWidth: $0.0, cropHeight: $0.1, rotate: $1) }
        // Fewer pages described than counted (a damaged page tree) is the scanner's to report.
        return (count, Array(pages.prefix(maxPages)))
    }
}
