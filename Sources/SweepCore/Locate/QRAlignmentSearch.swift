import Records

/// The search for a QR code's (bottom-right) alignment pattern near where a frame puts it.
extension QRLocator {
    /// Alignment patterns (a one-module dark dot in a light ring in a dark ring) within a
    /// few modules of where the affine frame predicts one, nearest first (at most four; the
    /// data area holds look-alikes, which the frame score sorts out).
    static func alignments(_ L: Level, predicted: Point, module m: Double, tests: inout AlignmentTests) -> [Point] {
        let radius = max(4, Int((m * 4).rounded()))
        let px = Int(predicted.x), py = Int(predicted.y)
        var found: [(Point, Double)] = []
        for dy in -radius...radius {
            for dx in -radius...radius {
                guard let c = tests.center(px + dx, py + dy) else { continue }
                if found.contains(where: { distance($0.0, c) < m }) { continue }
                found.append((c, Double(dx * dx + dy * dy)))
            }
        }
        return found.sorted { $0.1 < $1.1 }.prefix(4).map(\.0)
    }

    /// The alignment-pattern test of single pixels (dark, with one-module runs through it across
    /// and down: then the centre of those runs), remembered in a window round the first pixel
    /// asked, so that searches round nearby predictions cost one test a pixel.
    struct AlignmentTests {
        let L: Level, m: Double, cap: Int
        var x0 = 0, y0 = 0, side = 0
        var state: [UInt8] = []  // 0 untested, 1 no, 2 yes
        var centers: [Point] = []

        init(_ L: Level, module m: Double) { self.L = L; self.m = m; cap = Int(m * 2.5) + 2 }

        mutating func center(_ x: Int, _ y: Int) -> Point? {
            if side == 0 {
                side = 2 * (3 * max(4, Int((m * 4).rounded()))) + 1
                x0 = x - side / 2; y0 = y - side / 2
                state = [UInt8](repeating: 0, count: side * side)
                centers = [Point](repeating: Point(x: 0, y: 0), count: side * side)
            }
            let u = x - x0, v = y - y0
            guard u >= 0, v >= 0, u < side, v < side else { return test(x, y) }
            let k = v * side + u
            switch state[k] {
            case 1: return nil
            case 2: return centers[k]
            default:
                let c = test(x, y)
                state[k] = c == nil ? 1 : 2
                if let c { centers[k] = c }
                return c
            }
        }

        func test(_ x: Int, _ y: Int) -> Point? {
            func oneModule(_ r: Int) -> Bool { Double(r) >= 0.4 * m && Double(r) <= 1.9 * m }
            guard L.isDark(x, y),
                let h = runsThrough(L, x, y, 1, 0, cap: cap), h.runs.allSatisfy(oneModule),
                let v = runsThrough(L, x, y, 0, 1, cap: cap), v.runs.allSatisfy(oneModule)
            else { return nil }
            return Point(x: Double(x) + h.center + 0.5, y: Double(y) + v.center + 0.5)
        }
    }
}
