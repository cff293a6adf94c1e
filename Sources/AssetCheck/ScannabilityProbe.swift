import Imaging
import Payloads
import Records

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Measures a code found in an image and decodes degraded copies of its region.
/// `decode` is one plain single-pass read of the region (in production `plainLook`: the
/// engine's read with `ReaderOptions.plainLook`), passed in so this stays pure.
package struct ScannabilityProbe {
    package typealias Decode = (LumaImage, Symbology) -> [[UInt8]]
    package let decode: Decode
    package init(decode: @escaping Decode) { self.decode = decode }

    /// Shrink factors tried, in order (stops at the first that fails).
    package static let scaleSteps: [Double] = [1, 1.25, 1.5, 2, 3, 4]
    /// Blur σ in modules tried, in order.
    package static let blurSteps: [Double] = [0.1, 0.2, 0.35, 0.5, 0.7]
    /// Fractions of the code's contrast tried, in order.
    package static let contrastSteps: [Double] = [0.5, 0.3, 0.2, 0.12]

    /// Measures the code as it is; a code that a plain pass does not read but reads inverted
    /// (light on dark) is measured and graded on the inverted image, and marked `inverted`.
    ///
    /// `gate` (nil: every margin is searched to its first failing step, as `check` reports
    /// them): the minimum grade a gate applies. Each margin is then searched only as far as
    /// the result can still depend on it: a step is skipped once the margin's grade is at
    /// least both `gate` and the lowest grade known so far (the overall grade is the lowest
    /// parameter grade, and margins only grow with more steps). The overall grade, and which
    /// parameters are below `gate` with their grades, are the ones the full search gives
    /// (ScannabilityGateTests compares them); the margins are then lower bounds (`marginsComplete`
    /// false). `generate` verifies with `gate` = its --min-grade.
    package func measure(_ code: DetectedCode, in image: LumaImage, gate: Grade? = nil) -> Scannability {
        let plain = measure(code, in: image, inverted: false, gate: gate)
        guard !plain.readsAsIs, code.symbology.isTwoDimensional else { return plain }
        let reversed = measure(code, in: image.inverted(), inverted: true, gate: gate)
        return reversed.readsAsIs ? reversed : plain
    }

    func measure(_ code: DetectedCode, in image: LumaImage, inverted: Bool, gate: Grade? = nil) -> Scannability {
        let look = Self.look(at: code, in: image)
        let twoDimensional = code.symbology.isTwoDimensional
        // The code's region with a margin of real pixels around it (4 modules, or 16 px).
        let margin = max(16, (look.modulePx ?? 4) * (twoDimensional ? 4 : 10))
        let region = image.cropped(
            Self.region(
                around: code.corners.boundingBox, margin: margin, snap: look.modulePx ?? 4,
                width: image.width, height: image.height))
        // ZBar hands over a QR payload under an ECI designator converted to UTF-8 (even in
        // binary mode): that form of the code's bytes is the same code.
        let converted = PayloadText.zbarConverted(code.bytes, eci: code.qr?.eci)
        let reads: (LumaImage) -> Bool = { img in
            let got = decode(img, code.symbology)
            return got.contains(code.bytes) || converted.map(got.contains) == true
        }

        let readsAsIs = reads(region)
        var s = Scannability(
            modulePx: look.modulePx, modulesPerSide: look.modulesPerSide, version: look.version,
            quietZonePx: look.quietZonePx, quietZoneModules: look.modulePx.map { look.quietZonePx / $0 },
            quietZoneAtLeast: look.quietZoneAtLeast, contrast: look.contrast, readsAsIs: readsAsIs,
            scaleMargin: readsAsIs ? 1 : 0, blurMargin: 0, contrastMargin: 1, inverted: inverted, grades: [])
        if readsAsIs { Self.searchMargins(&s, region: region, twoDimensional: twoDimensional, gate: gate, reads: reads) }
        s.grades = Self.grades(s, twoDimensional: twoDimensional)
        return s
    }

    /// What is measured on the image before any decoding.
    struct Look {
        var contrast: Double
        var modulePx: Double?
        var modulesPerSide: Int?
        var version: Int?
        var quietZonePx: Double
        var quietZoneAtLeast: Bool
    }

    /// The code's contrast (10th and 90th percentile of luma inside its bounding box), module
    /// size and quiet zone, measured on `image`.
    static func look(at code: DetectedCode, in image: LumaImage) -> Look {
        let quad = code.corners
        let box = quad.boundingBox
        let inner = image.cropped(
            PixelRect(
                x: Int(box.minX.rounded(.down)), y: Int(box.minY.rounded(.down)),
                width: max(1, Int((box.maxX - box.minX).rounded(.up)) + 1),
                height: max(1, Int((box.maxY - box.minY).rounded(.up)) + 1)))
        let levels = inner.percentiles([0.10, 0.90])
        let dark = levels[0], light = levels[1]
        let threshold = (Double(dark) + Double(light)) / 2
        var look = Look(contrast: Double(Int(light) - Int(dark)) / 255, quietZonePx: 0, quietZoneAtLeast: false)

        // Module size.
        if code.symbology == .qr {
            if let n = qrModulesPerSide(quad, image: image, threshold: threshold) {
                let sides = (0..<4).map { distance(quad.points[$0], quad.points[($0 + 1) % 4]) }
                look.modulesPerSide = n
                look.version = (n - 17) / 4
                look.modulePx = sides.reduce(0, +) / 4 / Double(n)
            }
        } else if !code.symbology.isTwoDimensional {
            look.modulePx = linearModule(quad, image: image, threshold: threshold)
        }

        // Quiet zone: the narrowest light margin outside the code's sides (linear codes: left/right).
        let sideIndices = code.symbology.isTwoDimensional ? [0, 1, 2, 3] : [1, 3]
        let limit = (look.modulePx ?? 4) * (code.symbology.isTwoDimensional ? 8 : 15)
        let clearlyDark = Double(dark) + 0.25 * Double(Int(light) - Int(dark))
        look.quietZonePx =
            sideIndices.map {
                quietZone(
                    side: $0, quad: quad, image: image, threshold: threshold, clearlyDark: clearlyDark,
                    limit: limit, tolerance: max(2, (look.modulePx ?? 4) * 0.5))
            }.min() ?? 0
        look.quietZoneAtLeast = look.quietZonePx >= limit
        return look
    }

    /// Searches the margins of a code that reads as is, each to its first failing step (shrink,
    /// then blur, then fade), or with a `gate` only as far as the grade can still depend on it.
    static func searchMargins(
        _ s: inout Scannability, region: LumaImage, twoDimensional: Bool, gate: Grade?,
        reads: (LumaImage) -> Bool
    ) {
        // The lowest grade so far: the measured parameters' (and the margins' as they are
        // found). With a gate, a margin graded at least this and the gate changes nothing.
        var floor = gradeTable(s, twoDimensional: twoDimensional).filter { !$0.parameter.isMargin }.map(\.grade).min() ?? .A
        func enough(_ g: Grade) -> Bool {
            guard let gate, g >= floor, g >= gate else { return false }
            s.marginsComplete = false
            return true
        }
        for f in scaleSteps.dropFirst() {
            if enough(scaleGrade(s.scaleMargin)) { break }
            guard reads(region.resampled(scale: 1 / f)) else { break }
            s.scaleMargin = f
        }
        floor = min(floor, scaleGrade(s.scaleMargin))
        // Blur and contrast are judged in module units: bring big modules down to about
        // 6 px first (cheaper, and the same test for every print size).
        let modulePx = s.modulePx
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
        for sigma in blurSteps {
            if enough(blurGrade(s.blurMargin)) { break }
            let (w, m) = work()
            guard reads(w.gaussianBlurred(sigma: sigma * m)) else { break }
            s.blurMargin = sigma
        }
        floor = min(floor, blurGrade(s.blurMargin))
        var paper: UInt8? = nil
        for f in contrastSteps {
            if enough(contrastMarginGrade(s.contrastMargin)) { break }
            let w = work().work
            let light = paper ?? w.percentile(0.90)
            paper = light
            guard reads(w.contrastReduced(to: f, light: light)) else { break }
            s.contrastMargin = f
        }
    }

    /// The grades by parameter name, in report order (`Scannability.grades`).
    static func grades(_ s: Scannability, twoDimensional: Bool) -> [(parameter: String, grade: Grade)] {
        gradeTable(s, twoDimensional: twoDimensional).map { ($0.parameter.rawValue, $0.grade) }
    }

    /// The grading table (docs/check.md repeats it). Overall = the lowest of these.
    static func gradeTable(_ s: Scannability, twoDimensional: Bool) -> [(parameter: Scannability.Parameter, grade: Grade)] {
        var g: [(Scannability.Parameter, Grade)] = []
        // ISO 15415 symbol contrast bounds.
        g.append((.contrast, Grade.atLeast(s.contrast, 0.70, 0.55, 0.40, 0.20)))
        // Module size to 0.1 px: corners are located to about a pixel, so a 4 px module measures 3.98.
        if let m = s.modulePx { g.append((.moduleSize, Grade.atLeast((m * 10).rounded() / 10, 4, 3, 2, 1.5))) }
        // Quiet zone to 0.1 module, for the same reason: the module size behind it comes from
        // corners located to about a pixel (qrencode's 4-module margin at 6 px measures 3.95).
        let qz = ((s.quietZoneModules ?? (s.quietZonePx / 4)) * 10).rounded() / 10
        g.append((.quietZone, twoDimensional ? Grade.atLeast(qz, 4, 3, 2, 1) : Grade.atLeast(qz, 10, 7, 5, 2)))
        guard s.readsAsIs else {
            g.append((.readsAsIs, .F))  // the margins are not measured: nothing to degrade
            return g
        }
        g.append((.readsAsIs, .A))
        g.append((.shrinkMargin, scaleGrade(s.scaleMargin)))
        g.append((.blurMargin, blurGrade(s.blurMargin)))
        g.append((.contrastMargin, contrastMarginGrade(s.contrastMargin)))
        // Phone cameras read reversed codes, some older scanner apps do not: at best B.
        if s.inverted { g.append((.lightOnDark, .B)) }
        return g
    }

    static func scaleGrade(_ margin: Double) -> Grade { Grade.atLeast(margin, 2, 1.5, 1.25, 1) }
    static func blurGrade(_ margin: Double) -> Grade { Grade.atLeast(margin, 0.35, 0.2, 0.1, 0) }
    static func contrastMarginGrade(_ margin: Double) -> Grade { Grade.atMost(margin, 0.2, 0.3, 0.5, 1) }

}
