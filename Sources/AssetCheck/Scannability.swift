import SweepCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How well one code will scan: measurements taken on the image, and the margins found by
/// decoding degraded copies of the code's region again. See docs/check.md ("Scannability grade").
public struct Scannability: Sendable, Equatable {
    /// Module (narrow bar / QR cell) size in image pixels; nil when it could not be measured.
    public var modulePx: Double?
    /// QR only: modules per side (17 + 4·version) and the version, counted from the finder patterns.
    public var modulesPerSide: Int?
    public var version: Int?
    /// Light margin around the code on its narrowest side (for linear codes: left/right only).
    public var quietZonePx: Double
    public var quietZoneModules: Double?
    /// The quiet zone was light as far as it was measured (8 modules for 2D, 15 for linear codes).
    public var quietZoneAtLeast = false
    /// Symbol contrast (ISO 15415 SC): (90th − 10th percentile of luma inside the code) / 255.
    public var contrast: Double
    /// Read by one plain decoder pass on the code's region at the image's own resolution.
    public var readsAsIs: Bool
    /// Largest shrink factor (1 = own size) at which the code still reads; 0 when it does not read as is.
    public var scaleMargin: Double
    /// Strongest Gaussian blur (σ in modules) at which it still reads; 0 when none was survived.
    public var blurMargin: Double
    /// Smallest fraction of its contrast at which it still reads (1 = needs all of it).
    public var contrastMargin: Double
    /// The margins were searched to the first failing step (`check`); false: only as far as
    /// the overall grade needed (`generate`'s verification), so each is at least what it says.
    public var marginsComplete = true
    /// Light modules on a dark background (reflectance reversed, as ISO/IEC 18004 allows): the
    /// code was measured and decoded on the inverted image.
    public var inverted = false
    /// Per-parameter grades, in report order.
    public var grades: [(parameter: String, grade: Grade)]
    /// The overall grade: the lowest parameter grade (as ISO 15415 takes the lowest).
    public var grade: Grade { grades.map(\.grade).min() ?? .F }

    public static func == (l: Scannability, r: Scannability) -> Bool {
        l.modulePx == r.modulePx && l.modulesPerSide == r.modulesPerSide && l.quietZonePx == r.quietZonePx
            && l.contrast == r.contrast && l.readsAsIs == r.readsAsIs && l.scaleMargin == r.scaleMargin
            && l.blurMargin == r.blurMargin && l.contrastMargin == r.contrastMargin
            && l.inverted == r.inverted && l.grades.map(\.grade) == r.grades.map(\.grade)
    }

    /// What a person should know beyond the grades.
    public var notes: [String] {
        inverted ? [Self.invertedNote] : []
    }
    public static let invertedNote = "inverted (light on dark): some older scanner apps cannot read it"

    /// The parameter grades that are below `grade`, for messages.
    public func weakest(below grade: Grade) -> [(parameter: String, grade: Grade)] {
        grades.filter { $0.grade < grade }
    }
}

/// Grades in the ISO 15415 spirit: A=4 … D=1, F=0.
public enum Grade: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case F = 0, D = 1, C = 2, B = 3, A = 4
    public static func < (l: Grade, r: Grade) -> Bool { l.rawValue < r.rawValue }
    public var description: String { ["F", "D", "C", "B", "A"][rawValue] }
    /// A minimum grade as a gate asks for it: A, B, C or D (or 4...1). F is not a minimum (it
    /// would pass every code) and there is no E.
    public init?(minimum text: String) {
        switch text.trimmingSpaces().uppercased() {
        case "A", "4": self = .A
        case "B", "3": self = .B
        case "C", "2": self = .C
        case "D", "1": self = .D
        default: return nil
        }
    }
    /// The grades `init(minimum:)` takes, in the one wording `--help`, the flag's error and the
    /// rules file's error all use.
    public static let minimumChoices = "A, B, C, D (or 4...1)"
    /// The grade of `value` given the lower bounds for A, B, C, D (higher is better).
    static func atLeast(_ value: Double, _ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Grade {
        value >= a ? .A : value >= b ? .B : value >= c ? .C : value >= d ? .D : .F
    }
    /// The grade of `value` given the upper bounds for A, B, C, D (lower is better).
    static func atMost(_ value: Double, _ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Grade {
        value <= a ? .A : value <= b ? .B : value <= c ? .C : value <= d ? .D : .F
    }
}

extension String {
    fileprivate func trimmingSpaces() -> Substring {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}

/// Measures a code found in an image and decodes degraded copies of its region.
/// `decode` is the plain single-pass decoder (ZBar in production), passed in so this stays pure.
public struct ScannabilityProbe {
    public typealias Decode = (LumaImage, Symbology) -> [[UInt8]]
    public let decode: Decode
    public init(decode: @escaping Decode) { self.decode = decode }

    /// Shrink factors tried, in order (stops at the first that fails).
    public static let scaleSteps: [Double] = [1, 1.25, 1.5, 2, 3, 4]
    /// Blur σ in modules tried, in order.
    public static let blurSteps: [Double] = [0.1, 0.2, 0.35, 0.5, 0.7]
    /// Fractions of the code's contrast tried, in order.
    public static let contrastSteps: [Double] = [0.5, 0.3, 0.2, 0.12]

    /// Measures the code as it is; a code that a plain pass does not read but reads inverted
    /// (light on dark) is measured and graded on the inverted image, and marked `inverted`.
    ///
    /// `gate` (nil: every margin is searched to its first failing step, as `check` reports
    /// them): the minimum grade a gate applies. Each margin is then searched only as far as
    /// the result can still depend on it: a step is skipped once the margin's grade is at
    /// least both `gate` and the lowest grade known so far (the overall grade is the lowest
    /// parameter grade, and margins only grow with more steps). The overall grade, and which
    /// parameters are below `gate` with their grades, are the ones the full search gives
    /// (ScannabilityTests compares them); the margins are then lower bounds (`marginsComplete`
    /// false). `generate` verifies with `gate` = its --min-grade.
    public func measure(_ code: DetectedCode, in image: LumaImage, gate: Grade? = nil) -> Scannability {
        let plain = measure(code, in: image, inverted: false, gate: gate)
        guard !plain.readsAsIs, code.symbology.isTwoDimensional else { return plain }
        let reversed = measure(code, in: image.inverted(), inverted: true, gate: gate)
        return reversed.readsAsIs ? reversed : plain
    }

    func measure(_ code: DetectedCode, in image: LumaImage, inverted: Bool, gate: Grade? = nil) -> Scannability {
        let quad = code.corners
        let sides = (0..<4).map { distance(quad.points[$0], quad.points[($0 + 1) % 4]) }
        let box = quad.boundingBox
        let inner = image.cropped(PixelRect(x: Int(box.minX.rounded(.down)), y: Int(box.minY.rounded(.down)),
                                            width: max(1, Int((box.maxX - box.minX).rounded(.up)) + 1),
                                            height: max(1, Int((box.maxY - box.minY).rounded(.up)) + 1)))
        let levels = inner.percentiles([0.10, 0.90])
        let dark = levels[0], light = levels[1]
        let contrast = Double(Int(light) - Int(dark)) / 255
        let threshold = (Double(dark) + Double(light)) / 2

        // Module size.
        var modulePx: Double? = nil
        var perSide: Int? = nil
        var version: Int? = nil
        if code.symbology == .qr {
            if let n = Self.qrModulesPerSide(quad, image: image, threshold: threshold) {
                perSide = n
                version = (n - 17) / 4
                modulePx = sides.reduce(0, +) / 4 / Double(n)
            }
        } else if !code.symbology.isTwoDimensional {
            modulePx = Self.linearModule(quad, image: image, threshold: threshold)
        }

        // Quiet zone: the narrowest light margin outside the code's sides (linear codes: left/right).
        let sideIndices = code.symbology.isTwoDimensional ? [0, 1, 2, 3] : [1, 3]
        let limit = (modulePx ?? 4) * (code.symbology.isTwoDimensional ? 8 : 15)
        let clearlyDark = Double(dark) + 0.25 * Double(Int(light) - Int(dark))
        let quiet = sideIndices.map { Self.quietZone(side: $0, quad: quad, image: image, threshold: threshold, clearlyDark: clearlyDark,
                                                     limit: limit, tolerance: max(2, (modulePx ?? 4) * 0.5)) }.min() ?? 0
        let quietModules = modulePx.map { quiet / $0 }
        let quietCapped = quiet >= limit

        // The code's region with a margin of real pixels around it (4 modules, or 16 px).
        let margin = max(16, (modulePx ?? 4) * (code.symbology.isTwoDimensional ? 4 : 10))
        let region = image.cropped(Self.region(around: box, margin: margin, snap: modulePx ?? 4, width: image.width, height: image.height))
        // ZBar hands over a QR payload under an ECI designator converted to UTF-8 (even in
        // binary mode): that form of the code's bytes is the same code.
        let converted = PayloadText.zbarConverted(code.bytes, eci: code.qr?.eci)
        let reads: (LumaImage) -> Bool = { img in
            let got = decode(img, code.symbology)
            return got.contains(code.bytes) || converted.map(got.contains) == true
        }

        let readsAsIs = reads(region)
        var s = Scannability(modulePx: modulePx, modulesPerSide: perSide, version: version, quietZonePx: quiet,
                             quietZoneModules: quietModules, quietZoneAtLeast: quietCapped, contrast: contrast, readsAsIs: readsAsIs,
                             scaleMargin: readsAsIs ? 1 : 0, blurMargin: 0, contrastMargin: 1, inverted: inverted, grades: [])
        if readsAsIs {
            // The lowest grade so far: the measured parameters' (and the margins' as they are
            // found). With a gate, a margin graded at least this and the gate changes nothing.
            var floor = Self.grades(s, twoDimensional: code.symbology.isTwoDimensional).filter { !$0.parameter.hasSuffix("margin") }
                .map(\.grade).min() ?? .A
            func enough(_ g: Grade) -> Bool {
                guard let gate, g >= floor, g >= gate else { return false }
                s.marginsComplete = false
                return true
            }
            for f in Self.scaleSteps.dropFirst() {
                if enough(Self.scaleGrade(s.scaleMargin)) { break }
                guard reads(region.resampled(scale: 1 / f)) else { break }
                s.scaleMargin = f
            }
            floor = min(floor, Self.scaleGrade(s.scaleMargin))
            // Blur and contrast are judged in module units: bring big modules down to about
            // 6 px first (cheaper, and the same test for every print size).
            var prepared: (work: LumaImage, m: Double)? = nil
            func work() -> (work: LumaImage, m: Double) {
                if let prepared { return prepared }
                var work = region, m = modulePx ?? 6
                // (The region itself reads: that is why the margins are searched.)
                if m > 6 {
                    work = region.resampled(scale: 6 / m); m = 6
                    if !reads(work) { work = region; m = modulePx ?? 6 }
                }
                prepared = (work, m)
                return (work, m)
            }
            for sigma in Self.blurSteps {
                if enough(Self.blurGrade(s.blurMargin)) { break }
                let (w, m) = work()
                guard reads(w.gaussianBlurred(sigma: sigma * m)) else { break }
                s.blurMargin = sigma
            }
            floor = min(floor, Self.blurGrade(s.blurMargin))
            var paper: UInt8? = nil
            for f in Self.contrastSteps {
                if enough(Self.contrastMarginGrade(s.contrastMargin)) { break }
                let w = work().work
                let light = paper ?? w.percentile(0.90)
                paper = light
                guard reads(w.contrastReduced(to: f, light: light)) else { break }
                s.contrastMargin = f
            }
        }
        s.grades = Self.grades(s, twoDimensional: code.symbology.isTwoDimensional)
        return s
    }

    /// The grading table (docs/check.md repeats it). Overall = the lowest of these.
    static func grades(_ s: Scannability, twoDimensional: Bool) -> [(parameter: String, grade: Grade)] {
        var g: [(String, Grade)] = []
        // ISO 15415 symbol contrast bounds.
        g.append(("contrast", Grade.atLeast(s.contrast, 0.70, 0.55, 0.40, 0.20)))
        // Module size to 0.1 px: corners are located to about a pixel, so a 4 px module measures 3.98.
        if let m = s.modulePx { g.append(("module size", Grade.atLeast((m * 10).rounded() / 10, 4, 3, 2, 1.5))) }
        // Quiet zone to 0.1 module, for the same reason: the module size behind it comes from
        // corners located to about a pixel (qrencode's 4-module margin at 6 px measures 3.95).
        let qz = ((s.quietZoneModules ?? (s.quietZonePx / 4)) * 10).rounded() / 10
        g.append(("quiet zone", twoDimensional ? Grade.atLeast(qz, 4, 3, 2, 1) : Grade.atLeast(qz, 10, 7, 5, 2)))
        guard s.readsAsIs else {
            g.append(("reads as is", .F)) // the margins are not measured: nothing to degrade
            return g
        }
        g.append(("reads as is", .A))
        g.append(("shrink margin", scaleGrade(s.scaleMargin)))
        g.append(("blur margin", blurGrade(s.blurMargin)))
        g.append(("contrast margin", contrastMarginGrade(s.contrastMargin)))
        // Phone cameras read reversed codes, some older scanner apps do not: at best B.
        if s.inverted { g.append(("light on dark", .B)) }
        return g
    }

    static func scaleGrade(_ margin: Double) -> Grade { Grade.atLeast(margin, 2, 1.5, 1.25, 1) }
    static func blurGrade(_ margin: Double) -> Grade { Grade.atLeast(margin, 0.35, 0.2, 0.1, 0) }
    static func contrastMarginGrade(_ margin: Double) -> Grade { Grade.atMost(margin, 0.2, 0.3, 0.5, 1) }

    // MARK: - Measurements

    func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

    /// The pixels the degraded copies are made of: `box` with `margin` px around it, in the
    /// image. A side that comes within `snap` px (a module) of the image's edge takes the edge:
    /// the corners a decoder reports are off by a pixel or so, and a sliver of margin left
    /// outside would be an arbitrary cut. (A code whose margin fills its picture, as
    /// `generate` makes them, is then measured on the very pixels the read decoded.)
    static func region(around box: (minX: Double, minY: Double, maxX: Double, maxY: Double), margin: Double, snap: Double,
                       width: Int, height: Int) -> PixelRect {
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
            let steps = Int(len * 4) // quarter-pixel steps
            let half = steps / 2
            var runs: [(dark: Bool, length: Int)] = []
            for i in 0...half {
                let t = Double(i) / Double(steps)
                let v = image.sample(Point(x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t))
                let isDark = v < threshold
                if let last = runs.last, last.dark == isDark { runs[runs.count - 1].length += 1 } else { runs.append((isDark, 1)) }
            }
            if runs.first?.dark == false { runs.removeFirst() } // the corner may sit just outside the code
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

    /// Light margin (px) outside side `side` (corner side → side+1). The corners a decoder
    /// reports are off by a pixel or two (inside the code at one end, outside at the other), so
    /// the margin is not measured from the corner line: at each point along the side, a walk
    /// along the side's normal starts `tolerance` px inside the line; where it starts on a dark
    /// module it follows that dark run out to the code's real edge, then counts light until a
    /// dark pixel or the image border (the image covers -0.5 ... width - 0.5). Points where the
    /// walk starts on a light module (the code's edge is light there) cannot show the edge and
    /// are passed over. The narrowest margin found counts, up to `limit`.
    ///
    /// What ends the margin is a *clearly* dark sample (below `clearlyDark`, a quarter of the way
    /// from the code's dark level to its light one), not one just under the midpoint: in a code
    /// turned a few degrees and resampled, a walk that runs along the border between a dark and
    /// a light module of the code's edge reads values hovering around the midpoint, and took a
    /// flicker there for the end of a quiet zone 0.3 modules wide (an F for a code on a wide
    /// white margin). Anything printed near the code is clearly dark. And a margin seen by one
    /// walk alone does not count: the side's margin is the second narrowest of its walks (one
    /// pixel apart), so a seam between two dark modules of a photographed code, read lighter
    /// than the midpoint for a pixel, cannot end the quiet zone either; a mark beside the code
    /// or the image border, met by neighbouring walks, does.
    static func quietZone(side: Int, quad: Quad, image: LumaImage, threshold: Double, clearlyDark: Double? = nil, limit: Double, tolerance: Double) -> Double {
        let a = quad.points[side], b = quad.points[(side + 1) % 4], c = quad.center
        let first = quietZone(from: a, to: b, center: c, image: image, threshold: threshold, clearlyDark: clearlyDark, limit: limit, tolerance: tolerance)
        // The side's line, corrected: a reported corner may lie more than the tolerance inside
        // (or outside) the code (a photographed version 7 code's corner 4.6 px inside: the walks
        // near it started inside and met the code's own modules). The code's real edge is
        // fitted from the outermost edge found in each eighth of the side; when it lies more
        // than half the tolerance from the line at either end, the side is measured again
        // along the fitted edge. This measures along the code's own edge, not the corners'.
        guard let (e0, e1) = first.edgeFit, max(abs(e0), abs(e1)) > tolerance / 2, let n = first.normal else { return first.margin }
        let a2 = Point(x: a.x + n.x * e0, y: a.y + n.y * e0), b2 = Point(x: b.x + n.x * e1, y: b.y + n.y * e1)
        return quietZone(from: a2, to: b2, center: c, image: image, threshold: threshold, clearlyDark: clearlyDark, limit: limit, tolerance: tolerance).margin
    }

    /// One side measured from the line a → b: the margin, the outward normal, and the fitted
    /// offset (px, along the normal) of the code's real edge at a and at b (nil: too few edges).
    static func quietZone(from a: Point, to b: Point, center c: Point, image: LumaImage, threshold: Double, clearlyDark: Double?,
                          limit: Double, tolerance: Double) -> (margin: Double, normal: Point?, edgeFit: (Double, Double)?) {
        let stop = clearlyDark ?? threshold
        let dx = b.x - a.x, dy = b.y - a.y
        let len = (dx * dx + dy * dy).squareRoot()
        guard len > 0 else { return (0, nil, nil) }
        var nx = dy / len, ny = -dx / len
        let mid = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
        if (mid.x - c.x) * nx + (mid.y - c.y) * ny < 0 { nx = -nx; ny = -ny }
        let step = 0.25
        let maxX = Double(image.width) - 0.5, maxY = Double(image.height) - 0.5
        func inside(_ x: Double, _ y: Double) -> Bool { x >= -0.5 && y >= -0.5 && x <= maxX && y <= maxY }
        // The narrowest and second narrowest margins found, and how many walks measured.
        var narrowest = limit, second = limit, walks = 0
        func found(_ m: Double) {
            if m < narrowest { second = narrowest; narrowest = m } else if m < second { second = m }
        }
        // The outermost edge (offset from the line) found in each eighth of the side, where the
        // dark run ended within the tolerance.
        var outermost = [(t: Double, edge: Double)?](repeating: nil, count: 8)
        let samples = max(2, Int(len))
        image.withSampler { sample in
            for i in 0...samples {
                let t = Double(i) / Double(samples)
                let px = a.x + dx * t, py = a.y + dy * t
                var d = -tolerance
                func dark() -> Bool { sample(px + nx * d, py + ny * d) < threshold }
                guard inside(px + nx * d, py + ny * d), dark() else { continue }
                walks += 1
                // Out along the dark run to the code's edge (no further than `tolerance` past the line).
                var ended = false
                while d + step <= tolerance, inside(px + nx * (d + step), py + ny * (d + step)) {
                    d += step
                    if !dark() { d -= step; ended = true; break }
                }
                let edge = d + step / 2 // the crossing lies between the last dark and the first light sample
                if ended {
                    let k = min(7, Int(t * 8))
                    if outermost[k].map({ edge > $0.edge }) ?? true { outermost[k] = (t, edge) }
                }
                // Light from the edge until a dark sample or the border, or until it cannot be narrower.
                d += step
                while d - edge < second {
                    guard inside(px + nx * d, py + ny * d) else {
                        // The border: the last sample inside lies within `step` of the image's edge.
                        found(max(0, d - step / 2 - edge))
                        break
                    }
                    if sample(px + nx * d, py + ny * d) < stop { found(max(0, d - step / 2 - edge)); break }
                    d += step
                }
            }
        }
        var fit: (Double, Double)? = nil
        let points = outermost.compactMap { $0 }
        if points.count >= 4 {
            let mt = points.reduce(0) { $0 + $1.t } / Double(points.count), me = points.reduce(0) { $0 + $1.edge } / Double(points.count)
            let varT = points.reduce(0) { $0 + ($1.t - mt) * ($1.t - mt) }
            let slope = varT > 0 ? points.reduce(0) { $0 + ($1.t - mt) * ($1.edge - me) } / varT : 0
            fit = (me - slope * mt, me + slope * (1 - mt))
        }
        return (walks >= 2 ? second : narrowest, Point(x: nx, y: ny), fit)
    }
}
