import CodeDiff
import Records
import Testing

/// `check --baseline`'s comparison: which code of a file is which on the two sides, and what
/// changed about it. Pure values: codes in, changes out.
@Suite("Baseline diff")
struct BaselineDiffTests {
    /// A code of `side` pixels with its top-left corner at (x, y).
    static func code(
        _ index: Int, _ text: String, x: Double = 10, y: Double = 10, side: Double = 100, symbology: Symbology = .qr,
        grade: (String, Int)? = ("A", 4), moduleMM: Double? = nil, modulePx: Double? = 4, frame: Int = 0
    ) -> DiffCode {
        let quad = Quad([Point(x: x, y: y), Point(x: x + side, y: y), Point(x: x + side, y: y + side), Point(x: x, y: y + side)])
        return DiffCode(
            index: index, symbology: symbology, bytes: Array(text.utf8), text: text, frame: frame, corners: quad,
            grade: grade.map { DiffGrade(letter: $0.0, value: $0.1) }, moduleMM: moduleMM, modulePx: modulePx)
    }

    @Test("the same codes, in another order and a pixel apart, are no change")
    func unchanged() {
        let base = [Self.code(1, "https://example.com/a"), Self.code(2, "https://example.com/b", x: 300)]
        let head = [Self.code(1, "https://example.com/b", x: 301), Self.code(2, "https://example.com/a", y: 11)]
        #expect(BaselineDiff.compare(base: base, head: head).isEmpty)
        #expect(BaselineDiff.compare(base: [DiffImage(path: "a.png", codes: base)], head: [DiffImage(path: "./a.png", codes: base)]).isEmpty)
    }

    @Test("a new payload at the same place is a change; a code elsewhere is added, one gone is removed")
    func payloadAddedRemoved() {
        let base = [Self.code(1, "https://example.com/old"), Self.code(2, "https://example.com/gone", x: 400)]
        let head = [Self.code(1, "https://example.com/new", x: 12), Self.code(2, "https://example.com/extra", y: 400)]
        let changes = BaselineDiff.compare(base: base, head: head)
        #expect(changes.map(\.rule) == ["baseline.changed", "baseline.added", "baseline.removed"])
        #expect(changes[0].differences == ["payload \"https://example.com/old\" → \"https://example.com/new\""])
        #expect(changes[0].message == "code 1 changed: payload \"https://example.com/old\" → \"https://example.com/new\"")
        #expect(changes[1].message == "code 2 (QR Code \"https://example.com/extra\") is new: the baseline has no such code")
        #expect(changes[2].message == "the baseline's code 2 (QR Code \"https://example.com/gone\") is gone")
        #expect(changes[2].code == nil && changes[1].code == 2)
    }

    @Test("a smaller printed module and a lower grade: changed and grade-drop; a symbology change is named")
    func sizeGradeSymbology() {
        let base = [Self.code(1, "A", moduleMM: 0.5), Self.code(2, "B", x: 300, grade: ("B", 3)), Self.code(3, "C", y: 300, symbology: .qr)]
        let head = [
            Self.code(1, "A", side: 60, grade: ("D", 1), moduleMM: 0.3), Self.code(2, "B", x: 300, grade: ("A", 4)),
            Self.code(3, "C", y: 300, symbology: .datamatrix),
        ]
        let changes = BaselineDiff.compare(base: base, head: head)
        #expect(changes.count == 3)
        #expect(changes[0].kinds == [.changed, .gradeDrop] && changes[0].rule == "baseline.grade-drop")
        #expect(changes[0].differences == ["printed module 0.5 mm → 0.3 mm", "grade A → D"])
        // A grade that rose is a change, not a drop.
        #expect(changes[1].kinds == [.changed] && changes[1].differences == ["grade B → A"])
        #expect(changes[2].rule == "baseline.changed" && changes[2].differences == ["symbology QR Code → Data Matrix"])
    }

    @Test("module sizes within 5 % and a side without grades are no change")
    func tolerances() {
        let base = [Self.code(1, "A", grade: nil, moduleMM: 0.50, modulePx: 4.0)]
        #expect(BaselineDiff.compare(base: base, head: [Self.code(1, "A", moduleMM: 0.51, modulePx: 6)]).isEmpty)
        // Without a printed size on both sides, the module in pixels is compared.
        let raster = BaselineDiff.compare(base: [Self.code(1, "A", modulePx: 8)], head: [Self.code(1, "A", modulePx: 3)])
        #expect(raster.first?.differences == ["module 8 px → 3 px"])
    }

    @Test("files: only in the baseline its codes are removed (not in a spot check); a new file's codes are added; unreadable is not compared")
    func files() {
        let a = DiffImage(path: "a.png", codes: [Self.code(1, "A")])
        let gone = DiffImage(path: "gone.png", codes: [Self.code(1, "G")])
        let new = DiffImage(path: "new.png", codes: [Self.code(1, "N")])
        let files = BaselineDiff.compare(base: [a, gone], head: [a, new])
        #expect(files.map(\.path) == ["new.png", "gone.png"])
        #expect(files[0].onlyNow && files[0].changes.map(\.rule) == ["baseline.added"])
        #expect(files[1].onlyInBaseline && files[1].changes.map(\.rule) == ["baseline.removed"])
        #expect(BaselineDiff.compare(base: [a, gone], head: [a], onlyCheckedPaths: true).isEmpty)
        let unreadable = DiffImage(path: "a.png", codes: [], readable: false)
        #expect(BaselineDiff.compare(base: [a], head: [unreadable]).isEmpty)
        #expect(BaselineDiff.compare(base: [unreadable], head: [a]).isEmpty)
    }

    @Test("--fail-on: lists, all, none, the default; an unknown word is refused")
    func failOn() throws {
        #expect(try BaselineDiff.FailOn(parsing: "added, Removed").kinds == [.added, .removed])
        #expect(try BaselineDiff.FailOn(parsing: "all").kinds == Set(BaselineDiff.Kind.allCases))
        #expect(try BaselineDiff.FailOn(parsing: "none").kinds.isEmpty)
        #expect(BaselineDiff.FailOn.default.description == "removed,changed,grade-drop")
        #expect(throws: BaselineDiff.FailOn.Problem.self) { try BaselineDiff.FailOn(parsing: "addded") }
        #expect(throws: BaselineDiff.FailOn.Problem.self) { try BaselineDiff.FailOn(parsing: "none,added") }
        #expect(throws: BaselineDiff.FailOn.Problem.self) { try BaselineDiff.FailOn(parsing: "") }
        let drop = BaselineDiff.Change(kinds: [.changed, .gradeDrop], base: nil, head: nil, differences: [])
        #expect(try BaselineDiff.FailOn(parsing: "grade-drop").fails(drop) && !BaselineDiff.FailOn(parsing: "added").fails(drop))
    }
}
