import Imaging
import Readers
import Records
import Testing

@testable import SweepCore

/// A reader that stops at a cap (zxing-cpp returns at most 255 symbols a read): the view read
/// again in overlapping tiles until no read is capped, each code once, at its place.
@Suite("Capped reads")
struct CappedReadTests {
    /// A picture of `boxes` (x, y) of `side` px each, box i filled with grey level i + 1 on
    /// black-free white (255), and a reader that "reads" every box wholly inside its view, in
    /// order, as a QR code of payload "box i", returning at most `cap`.
    static func scene(width: Int, height: Int, boxes: [(Int, Int)], side: Int = 40) -> LumaImage {
        var pixels = [UInt8](repeating: 255, count: width * height)
        for (i, (x, y)) in boxes.enumerated() {
            for yy in y..<(y + side) { for xx in x..<(x + side) { pixels[yy * width + xx] = UInt8(i + 1) } }
        }
        return LumaImage(width: width, height: height, pixels: pixels)
    }

    /// Every 4th pixel of every 4th row is looked at: a box of 40 px shows 10 x 10 samples
    /// whatever the view's offset, fewer when a view's edge cuts it.
    static func reader(cap: Int?, count: Int, side: Int = 40, reads: Counter? = nil) -> ViewReader {
        ViewReader(name: .zxing, symbologies: [.qr], symbolCap: cap) { image, _ in
            reads?.n += 1
            var lo = [(Int, Int)](repeating: (Int.max, Int.max), count: count), hi = [(Int, Int)](repeating: (-1, -1), count: count)
            var n = [Int](repeating: 0, count: count)
            image.pixels.withUnsafeBufferPointer { p in
                for y in stride(from: 0, to: image.height, by: 4) {
                    for x in stride(from: 0, to: image.width, by: 4) {
                        let v = Int(p[y * image.width + x])
                        guard v >= 1 && v <= count else { continue }
                        let i = v - 1
                        n[i] += 1
                        lo[i] = (min(lo[i].0, x), min(lo[i].1, y))
                        hi[i] = (max(hi[i].0, x), max(hi[i].1, y))
                    }
                }
            }
            var out: [RawSymbol] = []
            let whole = (side / 4) * (side / 4)
            for i in 0..<count where n[i] == whole {
                let (x0, y0) = (Double(lo[i].0), Double(lo[i].1)), (x1, y1) = (Double(hi[i].0 + 4), Double(hi[i].1 + 4))
                let points = [Point(x: x0, y: y0), Point(x: x0, y: y1), Point(x: x1, y: y1), Point(x: x1, y: y0)]
                out.append(RawSymbol(symbology: .qr, bytes: Array("box \(i)".utf8), points: points, quality: 1, orientation: 0))
                if let cap, out.count >= cap { break }
            }
            return ViewOutcome(symbols: out)
        }
    }

    final class Counter: @unchecked Sendable { var n = 0 }

    static func grid(columns: Int, rows: Int, pitch: Int, from origin: (Int, Int) = (10, 10)) -> [(Int, Int)] {
        (0..<(columns * rows)).map { (origin.0 + ($0 % columns) * pitch, origin.1 + ($0 / columns) * pitch) }
    }

    @Test("a read that returns the cap is read again in tiles: every code once, at its place, no warning")
    func tilesUntilUncapped() {
        let boxes = Self.grid(columns: 20, rows: 10, pitch: 97)
        let image = Self.scene(width: 2000, height: 1000, boxes: boxes)
        let counter = Counter()
        let result = CappedRead.read(image, reader: Self.reader(cap: 30, count: boxes.count, reads: counter), request: ViewRequest([.qr]))
        #expect(result.symbols.count == boxes.count)
        #expect(Set(result.symbols.map { String(decoding: $0.bytes, as: UTF8.self) }).count == boxes.count)
        for s in result.symbols {
            let i = Int(String(decoding: s.bytes, as: UTF8.self).dropFirst(4))!
            let b = s.corners.boundingBox
            #expect(abs(b.minX - Double(boxes[i].0)) < 4 && abs(b.minY - Double(boxes[i].1)) < 4 && abs(b.maxX - Double(boxes[i].0 + 40)) < 4, "box \(i): \(b)")
        }
        #expect(!result.stillCapped && result.reads == counter.n && result.reads > 1)
        #expect(result.smallestTile != nil)
    }

    @Test("a read under the cap, or by a reader without one, is one read")
    func oneReadUnderTheCap() {
        let boxes = Self.grid(columns: 5, rows: 2, pitch: 97)
        let image = Self.scene(width: 600, height: 300, boxes: boxes)
        for cap in [nil, 11] as [Int?] {
            let result = CappedRead.read(image, reader: Self.reader(cap: cap, count: boxes.count), request: ViewRequest([.qr]))
            #expect(result.symbols.count == 10 && result.reads == 1 && !result.stillCapped && result.smallestTile == nil)
        }
        // Exactly the cap: not done, read again (and found to hold no more).
        let capped = CappedRead.read(image, reader: Self.reader(cap: 10, count: boxes.count), request: ViewRequest([.qr]))
        #expect(capped.symbols.count == 10 && capped.reads > 1 && !capped.stillCapped)
    }

    @Test("codes packed closer than the smallest tile holds are said: still capped, the codes read kept")
    func stillCappedIsSaid() {
        let boxes = Self.grid(columns: 6, rows: 6, pitch: 44, from: (2, 2))
        let image = Self.scene(width: 300, height: 300, boxes: boxes)
        let result = CappedRead.read(image, reader: Self.reader(cap: 5, count: boxes.count), request: ViewRequest([.qr]))
        #expect(result.stillCapped && result.reads == 1 && result.symbols.count == 5)
    }

    @Test("through the plan: a frame still capped gives the record a warning naming the reader, the frame and the pass")
    func stillCappedWarns() {
        let boxes = Self.grid(columns: 6, rows: 6, pitch: 44, from: (2, 2))
        let image = Self.scene(width: 300, height: 300, boxes: boxes)
        var executor = PlanExecutor(options: ReaderOptions(effort: .fast), readers: [Self.reader(cap: 5, count: boxes.count)])
        final class Notes: @unchecked Sendable { var warnings: [String] = [] }
        let notes = Notes()
        executor.warn = { notes.warnings.append($0) }
        let codes = executor.scan(image)
        #expect(codes.count >= 5)
        #expect(notes.warnings == ["zxing-cpp returned its most symbols a read (5) in frame 1, pass zxing-frame: codes may be missing"], "\(notes.warnings)")
        // Uncapped, the same frame warns nothing.
        var uncapped = PlanExecutor(options: ReaderOptions(effort: .fast), readers: [Self.reader(cap: nil, count: boxes.count)])
        uncapped.warn = { notes.warnings.append("uncapped: " + $0) }
        #expect(uncapped.scan(image).count == 36 && notes.warnings.count == 1)
    }

    @Test("tiles: two halves a side at least twice the overlap, overlapping by it; none for a small view")
    func quadrants() {
        let q = CappedRead.quadrants(width: 7400, height: 4500, overlap: 256)
        #expect(q.count == 4)
        #expect(q.allSatisfy { $0.width == 3828 && $0.height == 2378 })
        #expect(Set(q.map(\.x)) == [0, 3572] && Set(q.map(\.y)) == [0, 2122])
        #expect(CappedRead.quadrants(width: 3000, height: 400, overlap: 256).count == 2)
        #expect(CappedRead.quadrants(width: 500, height: 500, overlap: 256).isEmpty)
        let corners = [Point(x: 0, y: 0), Point(x: 0, y: 300), Point(x: 300, y: 300), Point(x: 300, y: 0)]
        let big = RawSymbol(symbology: .qr, bytes: [1], points: corners, quality: 1, orientation: 0)
        #expect(CappedRead.overlap([big]) == 600 && CappedRead.overlap([]) == 256)
    }
}
