/// A structured-append sequence whose parts a record's codes hold (`JoinedSequence`, joined as
/// zxing-cpp joins them): the parts stay in `codes`, the joined payload is here. `parts` are the
/// indices found; `codes` the positions of those codes in the record's `codes`. Its JSON shape
/// is Reporting's (`RecordSequenceCoding.swift`).
public struct RecordSequence: Sendable, Equatable {
    public var symbology: Symbology
    public var id: String
    public var count: Int
    public var parts: [Int]
    public var codes: [Int]
    public var complete: Bool
    public var bytes: [UInt8]

    public init(_ joined: JoinedSequence) {
        symbology = joined.symbology; id = joined.id; count = joined.count
        parts = joined.parts.map(\.index); codes = joined.parts.map(\.code); complete = joined.complete; bytes = joined.bytes
    }

    /// The sequences among one record's codes.
    public static func within(_ codes: [DetectedCode]) -> [RecordSequence] {
        JoinedSequence.join(codes.map { ("", $0) }).map(RecordSequence.init)
    }

    package init(symbology: Symbology, id: String, count: Int, parts: [Int], codes: [Int], complete: Bool, bytes: [UInt8]) {
        self.symbology = symbology; self.id = id; self.count = count; self.parts = parts; self.codes = codes
        self.complete = complete; self.bytes = bytes
    }
}
