import Imaging
import InputSources
import Records
import Testing

/// Codes merged across a video's samples (`CodeSpans`) and the cheap look that skips unchanged
/// samples (`FrameChange`), on values made here.
@Suite("CodeSpans and FrameChange: codes across frames")
struct CodeSpansTests {
    static func code(_ text: String, quality: Int = 10, x: Double = 0, frame: Int = 0) -> DetectedCode {
        let q = Quad([Point(x: x, y: 0), Point(x: x + 10, y: 0), Point(x: x + 10, y: 10), Point(x: x, y: 10)])
        return DetectedCode(symbology: .qr, bytes: Array(text.utf8), corners: q, quality: quality, orientation: 0, frame: frame, pass: "p")
    }

    @Test("A code read on consecutive samples is one span; one that leaves and comes back is two")
    func spans() {
        var s = CodeSpans()
        s.read([Self.code("a")], at: 0)
        s.read([Self.code("a"), Self.code("b")], at: 0.25)
        s.read([Self.code("b")], at: 0.5)
        s.read([Self.code("a")], at: 0.75)
        let codes = s.codes()
        #expect(codes.map { String(decoding: $0.bytes, as: UTF8.self) } == ["a", "b", "a"])
        #expect(codes.map { $0.seconds ?? [] } == [[0, 0.25], [0.25, 0.5], [0.75, 0.75]])
    }

    @Test("Corners and frame come from the sample that read best; an unchanged sample keeps the spans open")
    func bestAndUnchanged() {
        var s = CodeSpans()
        s.read([Self.code("a", quality: 5, x: 1, frame: 0)], at: 0)
        s.read([Self.code("a", quality: 50, x: 2, frame: 1)], at: 0.25)
        s.unchanged(at: 0.5)
        s.unchanged(at: 0.75)
        s.read([Self.code("a", quality: 7, x: 3, frame: 4)], at: 1)
        s.read([], at: 1.25)
        s.read([Self.code("a", quality: 9, x: 4, frame: 6)], at: 1.5)
        let codes = s.codes()
        #expect(codes.count == 2)
        #expect(codes.first?.seconds == [0, 1])
        #expect(codes.first?.frame == 1)
        #expect(codes.first?.corners.points.first?.x == 2)
        #expect(codes.last?.seconds == [1.5, 1.5])
    }

    @Test("FrameChange: the same picture is unchanged, a small change in one place is not, another size is not")
    func change() {
        var look = FrameChange()
        var image = LumaImage(width: 640, height: 360, fill: 255)
        var seen: [Bool] = []
        seen.append(look.isUnchanged(image))
        seen.append(look.isUnchanged(image))
        for y in 100..<130 { for x in 200..<230 { image.pixels[y * 640 + x] = 0 } }
        seen.append(look.isUnchanged(image))
        seen.append(look.isUnchanged(image))
        seen.append(look.isUnchanged(LumaImage(width: 320, height: 180, fill: 255)))
        // The first frame is never unchanged; a 30 x 30 dark square appearing is a change; another size too.
        #expect(seen == [false, true, false, true, false])
    }
}
