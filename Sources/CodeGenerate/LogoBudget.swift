import QRSymbol
import Records

/// Where a centred logo goes and how much of the code it costs, against what the error
/// correction can restore.
///
/// The logo sits on a plate of the background colour, one module wider than the logo on every
/// side and aligned to the module grid. A plate over a finder, timing or format module is
/// refused outright. Under the plate the codewords show the plate and the logo, not their own
/// modules; `LogoFit` chooses the symbol's free bits (the pad after the payload) so that as many
/// of them as possible already show exactly that. The codewords that still do not — a module
/// that differs, or a module under a grey the scanner may read either way — are the damage, and
/// they are counted from the modules per Reed-Solomon block: in every block they may use at most
/// `safety` × what the block restores (the rest is left for print flaws, glare and wear).
package struct LogoBudget: Sendable, Equatable {
    /// Share of what a block restores that the logo may use.
    package static let safety = 0.6
    package static let plateBorderModules = 1

    package var plate: ModuleRect
    /// Logo side in modules (the plate's inside).
    package var logoModules: Double
    package var areaFraction: Double
    package var version: Int
    package var ec: QRErrorCorrection
    /// Function modules (finder, timing, format, version) under the plate; alignment patterns are counted apart.
    package var functionModulesCovered: Int
    package var alignmentPatternsCovered: Int

    package var totalCodewords: Int
    /// Codewords with a module under the plate.
    package var coveredCodewords: Int
    /// Data bits after the payload and its terminator, which the fit chose.
    package var freeBits: Int
    /// Bits of covered codewords with a clear target (light or dark).
    package var bitsToFix: Int
    /// Covered codewords that do not show the plate and logo (they are errors to a decoder).
    package var damagedCodewords: Int
    package var damagedPerBlock: [Int]
    /// Codewords per block (the longest block) and what one block restores.
    package var blockLength: Int
    package var correctablePerBlock: Int
    /// At most this many damaged codewords in any one block.
    package var allowedPerBlock: Int
    /// The allowance of all blocks together.
    package var allowedCodewords: Int { allowedPerBlock * damagedPerBlock.count }
    package var worstBlock: Int { damagedPerBlock.max() ?? 0 }

    /// false: no fit was made, or it gave up because a block that holds only payload (no free
    /// bits) was already over the allowance.
    package var fitted = false

    package var fits: Bool { functionModulesCovered == 0 && worstBlock <= allowedPerBlock }

    /// How many damaged codewords one block of this version and level may have.
    package static func allowedPerBlock(version: Int, ec: QRErrorCorrection) -> Int {
        Int((Double(QRBlockLayout(version: version, ec: ec).correctablePerBlock) * safety).rounded(.down))
    }

    /// The plate for a logo of `areaFraction` of a `size`-module symbol (without quiet zone):
    /// logo + border, whole modules, centred (the same parity as `size` keeps it symmetric).
    package static func plate(size n: Int, areaFraction: Double) -> (plate: ModuleRect, logoModules: Double) {
        let logoSide = (areaFraction * Double(n * n)).squareRoot()
        var side = Int((logoSide + 2 * Double(plateBorderModules)).rounded(.up))
        if side % 2 != n % 2 { side += 1 }
        side = min(side, n)
        let origin = (n - side) / 2
        return (ModuleRect(x: origin, y: origin, width: side, height: side), logoSide)
    }

    /// Targets of a plate with nothing drawn on it: every module under it light.
    package static func plainTargets(size n: Int, plate: ModuleRect) -> [ModuleTarget] {
        (0..<(n * n)).map { plate.contains($0 % n, $0 / n) ? .light : .open }
    }

    /// The budget of `fit` (the symbol with its free bits chosen for `targets`).
    package init(fit: LogoFit, targets: [ModuleTarget], areaFraction: Double) {
        self.init(matrix: fit.matrix, areaFraction: areaFraction, targets: targets)
        freeBits = fit.freeBits
        bitsToFix = fit.bitsToFix
        fitted = fit.solved
    }

    /// The budget of `matrix` as it is, with `targets` (nil: a plain plate) drawn over it.
    package init(matrix: QRMatrix, areaFraction: Double, targets: [ModuleTarget]? = nil) {
        let n = matrix.size
        (plate, logoModules) = Self.plate(size: n, areaFraction: areaFraction)
        self.areaFraction = areaFraction
        version = matrix.version
        ec = matrix.ec
        let roles = QRStructure.roles(version: matrix.version)
        var function = 0
        var alignment = Set<Int>()
        let centres = QRStructure.alignmentPatterns(version: matrix.version)
        for y in plate.y..<(plate.y + plate.height) {
            for x in plate.x..<(plate.x + plate.width) {
                switch roles[y * n + x] {
                case .data: break
                case .alignment:
                    if let k = centres.firstIndex(where: { abs($0.x - x) <= 2 && abs($0.y - y) <= 2 }) { alignment.insert(k) }
                default: function += 1
                }
            }
        }
        functionModulesCovered = function
        alignmentPatternsCovered = alignment.count
        let t = targets ?? Self.plainTargets(size: n, plate: plate)
        let damage = LogoDamage(matrix, targets: t)
        coveredCodewords = damage.covered
        damagedPerBlock = damage.damagedPerBlock
        damagedCodewords = damage.damaged
        let bitMap = QRStructure.bitMap(version: matrix.version)
        var bits = 0
        for (i, target) in t.enumerated() where (target == .light || target == .dark) && bitMap[i] >= 0 { bits += 1 }
        bitsToFix = bits
        freeBits = 0
        let layout = QRBlockLayout(version: matrix.version, ec: matrix.ec)
        totalCodewords = layout.totalCodewords
        blockLength = (0..<layout.blockCount).map { layout.length(ofBlock: $0) }.max() ?? 0
        correctablePerBlock = layout.correctablePerBlock
        allowedPerBlock = Self.allowedPerBlock(version: matrix.version, ec: matrix.ec)
    }

    /// Why the logo is refused, with the numbers.
    package var refusal: String? {
        if functionModulesCovered > 0 {
            return
                "a logo of \(percent(areaFraction)) of the code's area needs a \(plate.width)×\(plate.height)-module plate, which covers \(functionModulesCovered) finder/timing/format modules of this \(QRStructure.size(version: version))-module code; use a smaller --logo-size or a higher --min-version"
        }
        guard !fits else { return nil }
        let head =
            "a logo of \(percent(areaFraction)) of the code's area (plate \(plate.width)×\(plate.height) modules) covers \(coveredCodewords) of \(totalCodewords) codewords; "
        let middle =
            fitted
            ? "the \(freeBits) free bits after the payload, against \(bitsToFix) bits to fix, make \(coveredCodewords - damagedCodewords) of them show the plate and logo and leave \(damagedCodewords) damaged, up to \(worstBlock) in one block of \(blockLength) codewords; "
            : "the blocks that hold the payload have no free bits (the \(freeBits) free bits after the payload lie in other blocks; \(bitsToFix) bits to fix), and one of them has \(worstBlock) damaged codewords of \(blockLength); "
        return head + middle + "error correction \(ec.rawValue) restores about \(percent(ec.restorableFraction)) (\(correctablePerBlock) a block), "
            + "and with the safety margin (\(percent(Self.safety)) of that) a logo may damage at most \(allowedPerBlock) a block. Use a smaller --logo-size\(ec < .H ? " or --ec H" : "")"
    }

    func percent(_ f: Double) -> String {
        NumberText.trimmed(f * 100, decimals: 1) + " %"
    }
}
