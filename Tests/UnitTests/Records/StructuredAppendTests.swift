import Records
import Testing

/// Structured append joined as zxing-cpp joins it (`JoinedSequence`).
@Suite("Structured append: sequences joined")
struct StructuredAppendTests {
    static func part(_ text: String, _ index: Int, of count: Int, id: String = "105", _ symbology: Symbology = .qr) -> DetectedCode {
        var c = DetectedCode(
            symbology: symbology, bytes: Array(text.utf8), corners: Quad([Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)]),
            quality: 1, orientation: 0, frame: 0, pass: "test")
        var f = SymbolFacts()
        f.sequence = SequencePart(index: index, count: count, id: id)
        c.facts = f
        return c
    }

    @Test("parts in any order, one read twice, join in index order; complete when all are there")
    func joins() {
        let codes = [
            ("a.png", Self.part("C", 2, of: 3)), ("a.png", Self.part("A", 0, of: 3)), ("b.png", Self.part("B", 1, of: 3)), ("b.png", Self.part("B", 1, of: 3)),
        ]
        let joined = JoinedSequence.join(codes)
        #expect(joined.count == 1)
        #expect(joined[0].bytes == Array("ABC".utf8))
        #expect(joined[0].complete && joined[0].missing.isEmpty && joined[0].spansFiles)
        #expect(joined[0].parts.map(\.index) == [0, 1, 2] && joined[0].parts.map(\.path) == ["a.png", "b.png", "a.png"])
    }

    @Test("a missing part, another sequence's id, and a code that is no part are kept apart")
    func apart() {
        var plain = Self.part("X", 0, of: 1)
        plain.facts = nil
        let codes = [("a", Self.part("A", 0, of: 3)), ("a", Self.part("C", 2, of: 3)), ("a", Self.part("Q", 0, of: 2, id: "7")), ("a", plain)]
        let joined = JoinedSequence.join(codes)
        #expect(joined.count == 2)
        #expect(!joined[0].complete && joined[0].missing == [1] && joined[0].bytes == Array("AC".utf8))
        #expect(joined[1].id == "7" && !joined[1].complete && joined[1].missing == [1])
    }
}
