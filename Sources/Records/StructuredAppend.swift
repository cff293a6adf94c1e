/// Structured append: one message spread over several symbols (ISO/IEC 18004 8.3 for QR; Data
/// Matrix, Aztec, PDF417 and MaxiCode have their own), joined as zxing-cpp 3.x joins them
/// (`MergeStructuredAppendSequence`): the parts of one sequence (same symbology family, id and
/// count) ordered by index, their bytes concatenated, complete when every index from 0 to
/// count - 1 is there once. Pure values: the parts stay in their records.
public struct JoinedSequence: Sendable, Equatable {
    /// Where a part was read: the file (its path as the record has it) and the code's index there.
    public struct Part: Sendable, Equatable {
        public var index: Int
        public var path: String
        public var code: Int
        public init(index: Int, path: String, code: Int) { self.index = index; self.path = path; self.code = code }
    }
    public var symbology: Symbology
    public var id: String
    /// How many parts the symbols say there are (0 where the symbology does not say).
    public var count: Int
    /// The parts found, in index order.
    public var parts: [Part]
    /// The parts' bytes joined in index order (whatever parts were found).
    public var bytes: [UInt8]
    /// Every part from 0 to count - 1 was found, each once.
    public var complete: Bool
    /// The indices missing from a sequence that says its count.
    public var missing: [Int] {
        guard count > 0 else { return [] }
        let have = Set(parts.map(\.index))
        return (0..<count).filter { !have.contains($0) }
    }
    /// Whether its parts were read in more than one file.
    public var spansFiles: Bool { Set(parts.map(\.path)).count > 1 }

    /// The sequences among `codes` (each with the path of its file), joined; in the order their
    /// first part was seen. A part read twice (the same index, the same bytes) counts once.
    public static func join(_ codes: [(path: String, code: DetectedCode)]) -> [JoinedSequence] {
        struct Key: Hashable { var family: String, id: String, count: Int }
        var order: [Key] = []
        var groups: [Key: [(part: Part, bytes: [UInt8])]] = [:]
        for (i, item) in codes.enumerated() {
            guard let seq = item.code.facts?.sequence else { continue }
            let key = Key(family: family(item.code.symbology), id: seq.id, count: seq.count)
            if groups[key] == nil { order.append(key) }
            let part = Part(index: seq.index, path: item.path, code: i)
            if groups[key]?.contains(where: { $0.part.index == seq.index && $0.bytes == item.code.bytes }) == true { continue }
            groups[key, default: []].append((part, item.code.bytes))
        }
        return order.map { key in
            let parts = groups[key]!.sorted { $0.part.index < $1.part.index }
            let indices = parts.map(\.part.index)
            let complete = key.count > 0 && indices == Array(0..<key.count)
            let first = codes[parts[0].part.code].code.symbology
            return JoinedSequence(
                symbology: first, id: key.id, count: key.count, parts: parts.map(\.part), bytes: parts.flatMap(\.bytes), complete: complete)
        }
    }

    /// Symbols of one family share sequences (a QR Code model 2 and its Micro QR cousins do not
    /// mix in practice, but zxing-cpp groups by symbology).
    static func family(_ s: Symbology) -> String {
        switch s {
        case .qr, .microqr, .rmqr: "qr"
        case .pdf417, .micropdf417: "pdf417"
        default: s.rawValue
        }
    }
}
