import QRSymbol
import Records
import TestSupport
import Testing

@testable import SweepCore

/// The grid decoder's sampler on sharp, square pictures: real function patterns (finders,
/// timing, the alignment pattern, the dark module) round random data modules, drawn at whole
/// pixels a module, exactly framed. No encoder needed: the sampler must give back every module.
@Suite("QR grid sampling")
struct QRGridSamplingTests {
    /// A symbol of `version` with its function patterns and random other modules.
    static func symbol(version v: Int, _ r: inout Rand) -> QRMatrix {
        let n = QRStructure.size(version: v)
        var modules = (0..<(n * n)).map { _ in r.below(2) == 0 }
        for k in QRGridReader.Sampler.knownModules(version: v) { modules[Int(k.v) * n + Int(k.u)] = k.t > 0 }
        return QRMatrix(version: v, ec: .L, size: n, modules: modules)
    }

    @Test("a sharp alignment pattern is found at its centre, not a quarter module up and left where the flat match begins")
    func alignmentPatternCentred() throws {
        var r = Rand(state: 7)
        for v in 2...6 {
            for px in [4, 5, 6, 8] {
                let m = Self.symbol(version: v, &r)
                let side = Double(m.size * px)
                let corners = [Point(x: 20, y: 20), Point(x: 20 + side, y: 20), Point(x: 20 + side, y: 20 + side), Point(x: 20, y: 20 + side)]
                let frame = Drawn.frame(m, corners: corners)
                let img = Drawn.qr(m, canvas: (Int(side) + 40, Int(side) + 40), toImage: frame)
                let sampler = QRGridReader.Sampler(image: img, frame: frame, dimension: m.size, refine: false)
                let c = Double(QRStructure.alignmentCentres(version: v).last!) + 0.5
                let o = try #require(sampler.searchAlignment(frame, at: Point(x: c, y: c), centred: true), "v\(v) \(px) px")
                #expect(abs(o.x) < 0.15 && abs(o.y) < 0.15, "v\(v) at \(px) px a module: offset \(o)")
            }
        }
    }

    @Test("version 2 to 6 symbols drawn sharp and square are sampled module for module, the far corner where it is")
    func everyModuleSampled() {
        var r = Rand(state: 11)
        for v in 2...6 {
            for px in [4, 5, 6, 8] {
                let m = Self.symbol(version: v, &r)
                let n = m.size, side = Double(n * px)
                let corners = [Point(x: 20, y: 20), Point(x: 20 + side, y: 20), Point(x: 20 + side, y: 20 + side), Point(x: 20, y: 20 + side)]
                let frame = Drawn.frame(m, corners: corners)
                let img = Drawn.qr(m, canvas: (Int(side) + 40, Int(side) + 40), toImage: frame)
                let sampler = QRGridReader.Sampler(image: img, frame: frame, dimension: n)
                let far = sampler.map(Double(n), Double(n))
                #expect(QRLocator.distance(far, corners[2]) < 0.2 * Double(px), "v\(v) \(px) px: far corner at \(far)")
                for (k, grid) in sampler.grids().enumerated() {
                    let wrong = (0..<(n * n)).filter { grid.isDark($0 % n, $0 / n) != m.modules[$0] }.count
                    #expect(wrong == 0, "v\(v) at \(px) px a module, grid \(k): \(wrong) modules misread")
                }
            }
        }
    }
}
