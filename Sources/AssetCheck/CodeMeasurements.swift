import Imaging
import Records

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the probe measures on the image itself, before any decoding: the code's contrast,
/// module size (QR: from its finder patterns; linear codes: from their narrow bars) and the
/// pixels its degraded copies are made of. (The quiet zone: QuietZone.swift.)
extension ScannabilityProbe {
    static func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

    /// The pixels the degraded copies are made of: `box` with `margin` px around it, in the
    /// image. A side that comes within `snap` px (a module) of the image's edge takes the edge:
    /// the corners a decoder reports are off by a pixel or so, and a sliver of margin left
    /// outside would be an arbitrary cut. (A code whose margin fills its picture, as
    /// `generate` makes them, is then measured on the very pixels the read decoded.)
    static func region(
        around box: (minX: Double, minY: Double, maxX: Double, maxY: Double), margin: Double, snap: Double,
        width: Int, height: Int
    ) -> PixelRect {
        var x0 = Int((box.minX - margin).rounded(.down)), y0 = Int((box.minY - margin).rounded(.down))
        var x1 = x0 + Int((box.maxX - box.minX + 2 * margin).rounded(.up)) + 1
        var y1 = y0 + Int((box.maxY - box.minY + 2 * margin).rounded(.up)) + 1
        if Double(x0) < snap { x0 = 0 }
        if Double(y0) < snap { y0 = 0 }
        if Double(width - x1) < snap { x1 = width }
        if Double(height - y1) < snap { y1 = height }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Counts a QR code's modules per side from its three finder patterns. Along the diagonal from
    /// a finder corner toward the opposite corner, a finder reads dark-light-dark-light-dark in the
    /// ratio 1:1:3:1:1 = 7 modules; the fraction of the diagonal those five runs take is 7/N.
    /// The three estimates are averaged and N is snapped to 17 + 4·version (version 1...40).
    static func qrModulesPerSide(_ q: Quad, image: LumaImage, threshold: Double) -> Int? {
        let p = q.points
        var estimates: [Double] = []
        for (from, to) in [(p[0], p[2]), (p[1], p[3]), (p[3], p[1])] {
            let len = ((to.x - from.x) * (to.x - from.x) + (to.y - from.y) * (to.y - from.y)).squareRoot()
            guard len > 4 else { continue }
            let steps = Int(len * 4)  // quarter-pixel steps
            let half = steps / 2
            var runs: [(dark: Bool, length: Int)] = []
            for i in 0...half {
                let t = Double(i) / Double(steps)
                let v = image.sample(Point(x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t))
                let isDark = v < threshold
                if let last = runs.last, last.dark == isDark { runs[runs.count - 1].length += 1 } else { runs.append((isDark, 1)) }
            }
            if runs.first?.dark == false { runs.removeFirst() }  // the corner may sit just outside the code
            guard runs.count >= 6 else { continue }
            let five = runs.prefix(5).map { Double($0.length) }
            let unit = five.reduce(0, +) / 7
            // 1:1:3:1:1 within a generous tolerance (sampling at quarter pixels, small modules).
            let expected: [Double] = [1, 1, 3, 1, 1]
            guard zip(five, expected).allSatisfy({ abs($0 - $1 * unit) <= max(0.75 * unit, 3) }) else { continue }
            estimates.append(7 * Double(steps) / five.reduce(0, +))
        }
        guard !estimates.isEmpty else { return nil }
        let n = estimates.reduce(0, +) / Double(estimates.count)
        let version = max(1, min(40, Int(((n - 17) / 4).rounded())))
        return 17 + 4 * version
    }

    /// Narrow-bar width of a linear code: runs along the middle line between its left and right
    /// sides; the mean of the runs no longer than 1.5 × the 10th-percentile run.
    static func linearModule(_ q: Quad, image: LumaImage, threshold: Double) -> Double? {
        let p = q.points
        let a = Point(x: (p[0].x + p[3].x) / 2, y: (p[0].y + p[3].y) / 2)
        let b = Point(x: (p[1].x + p[2].x) / 2, y: (p[1].y + p[2].y) / 2)
        let len = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        guard len > 8 else { return nil }
        let steps = Int(len * 4)
        var runs: [Int] = []
        var current: Bool? = nil
        for i in 0...steps {
            let t = Double(i) / Double(steps)
            let isDark = image.sample(Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)) < threshold
            if current == isDark { runs[runs.count - 1] += 1 } else { runs.append(1); current = isDark }
        }
        guard runs.count > 6 else { return nil }
        let inner = runs.dropFirst().dropLast().sorted()
        let p10 = inner[inner.count / 10]
        let narrow = inner.filter { Double($0) <= 1.5 * Double(p10) }
        return Double(narrow.reduce(0, +)) / Double(narrow.count) / 4
    }
}
