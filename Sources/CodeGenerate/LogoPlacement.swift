import Imaging
import MagickBridge
import QREncodeBridge
import QRSymbol

/// A logo placed on a code: the symbol with its free bits chosen to show the plate and logo
/// (`LogoFit`), the budget that admitted it, the layout, and the logo's pixels with where they go.
struct LogoPlacement {
    var matrix: QRMatrix
    var budget: LogoBudget
    var layout: QRLayout
    /// The plate in pixels of the picture.
    var platePx: PixelRect
    /// The logo scaled to the plate's inside, and its top-left pixel (nil: no logo bytes given).
    var logo: (pixels: LogoPixels, x: Int, y: Int)?

    /// Tries the payload's own version and up to `CodeGenerator.logoVersionSteps` more (the
    /// plate must clear the finder, timing and format modules; a larger symbol has more free
    /// bits and more codewords to spread the damage), and takes the first whose budget fits.
    /// At each: the plate and logo are drawn at the picture's module size, every module under
    /// them gets its target (`ModuleTarget.under`), the free bits are fitted to the targets and
    /// the damage that remains is counted. None fits: refused with the numbers of the version
    /// that came closest.
    static func place(on first: QRMatrix, bytes: [UInt8], eci: UInt32?, spec: CodeSpec, logo: [UInt8]?) throws(GenerateError) -> LogoPlacement {
        var last: LogoBudget? = nil
        var v = first.version
        while true {
            let matrix: QRMatrix
            if v == first.version {
                matrix = first
            } else {
                guard let m = try? QREncoder.encode(bytes, ec: first.ec, minVersion: v, eci: eci) else { break }
                matrix = m
            }
            let plain = LogoBudget(matrix: matrix, areaFraction: spec.logoSize)
            if plain.functionModulesCovered == 0 {
                let layout = try CodeGenerator.layout(for: matrix, spec: spec)
                let p = try drawn(plain.plate, layout: layout, spec: spec, logo: logo)
                let targets = ModuleTarget.under(
                    plate: plain.plate, picture: p.canvas.luma(), modulePx: layout.modulePx,
                    symbolSize: matrix.size, foreground: spec.foreground.luma, background: spec.background.luma)
                let fit = LogoFit(matrix, targets: targets, giveUpAbove: LogoBudget.allowedPerBlock(version: matrix.version, ec: matrix.ec))
                let budget = LogoBudget(fit: fit, targets: targets, areaFraction: spec.logoSize)
                if budget.fits {
                    return LogoPlacement(matrix: fit.matrix, budget: budget, layout: layout, platePx: p.platePx, logo: p.logo)
                }
                // The refusal tells of the version that came closest.
                if last.map({ $0.functionModulesCovered > 0 || budget.worstBlock - budget.allowedPerBlock <= $0.worstBlock - $0.allowedPerBlock }) ?? true {
                    last = budget
                }
            } else if last == nil {
                last = plain
            }
            guard v < min(40, first.version + CodeGenerator.logoVersionSteps) else { break }
            v += 1
        }
        let reason = last?.refusal ?? "the logo does not fit"
        throw .refused(reason + " (at version \(last?.version ?? v), the closest of versions \(first.version)...\(v))")
    }

    /// The plate (background colour) with the logo on it, alone on a canvas the plate's size.
    static func drawn(_ plate: ModuleRect, layout: QRLayout, spec: CodeSpec, logo: [UInt8]?) throws(GenerateError)
        -> (canvas: RGBImage, platePx: PixelRect, logo: (pixels: LogoPixels, x: Int, y: Int)?)
    {
        let m = layout.modulePx
        let platePx = PixelRect(
            x: layout.originPx + plate.x * m, y: layout.originPx + plate.y * m,
            width: plate.width * m, height: plate.height * m)
        var canvas = RGBImage(width: platePx.width, height: platePx.height, fill: spec.background)
        guard let logo else { return (canvas, platePx, nil) }
        let inset = LogoBudget.plateBorderModules * m
        let inner = platePx.width - 2 * inset
        let pixels: LogoPixels
        do { pixels = try CodePicture.logo(logo, side: inner) } catch { throw .refused("the logo: \(error.message)") }
        let dx = inset + (inner - pixels.width) / 2, dy = inset + (inner - pixels.height) / 2
        canvas.composite(rgba: pixels.rgba, width: pixels.width, height: pixels.height, x: dx, y: dy)
        return (canvas, platePx, (pixels, platePx.x + dx, platePx.y + dy))
    }
}
