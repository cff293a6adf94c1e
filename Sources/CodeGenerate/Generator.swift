import AssetCheck
import Imaging
import MagickBridge
import QREncodeBridge
import QRSymbol
import Records

/// One code made in memory: the file's bytes and what went into them.
package struct GeneratedCode: Sendable {
    package var payload: [UInt8]
    package var eci: UInt32?
    package var matrix: QRMatrix
    package var layout: QRLayout
    package var format: OutputKind
    /// The file as it will be written.
    package var file: [UInt8]
    /// The picture's pixels (for SVG: drawn at the same size, module for module).
    package var raster: RGBImage
    package var contrast: ColorContrast
    package var logo: LogoBudget?
    /// For people: an inverted colour pair, a charset without ECI number, ...
    package var warnings: [String]
}

/// Makes codes: payload bytes → libqrencode matrix → pixels (and a logo) → PNG, JPEG or SVG.
/// Checks that need no finished picture (contrast, logo budget) come first, so a refused code
/// costs little and nothing is written.
package enum CodeGenerator {
    /// `logo` holds the logo file's bytes when `spec.logoPath` is set (read by the caller).
    package static func make(_ input: [UInt8], spec: CodeSpec, logo: [UInt8]? = nil) throws(GenerateError) -> GeneratedCode {
        var warnings: [String] = []
        let contrast = ColorContrast(foreground: spec.foreground, background: spec.background)
        guard contrast.isEnough else {
            throw .refused(
                "the colours \(spec.foreground.hex) on \(spec.background.hex) have a contrast of \(NumberText.fixed(contrast.value, decimals: 2)) as a scanner sees them (grey levels \(spec.foreground.luma) and \(spec.background.luma) of 255); at least \(NumberText.fixed(ColorContrast.minimum, decimals: 2)) is needed (0.55 for grade B, 0.70 for A): darken the foreground or lighten the background"
            )
        }
        if contrast.inverted { warnings.append(Scannability.invertedNote) }

        let (bytes, eci) = try PayloadEncoding.encode(input, charset: spec.charset, eci: spec.eci)
        if let charset = spec.charset, spec.eci, eci == nil {
            warnings.append("\(charset) has no ECI number: the code carries no charset designator, readers must guess")
        }
        if let note = PayloadEncoding.note(bytes, charset: spec.charset, eci: eci) { warnings.append(note) }
        var matrix: QRMatrix
        do { matrix = try QREncoder.encode(bytes, ec: spec.effectiveEC, minVersion: spec.minVersion, eci: eci) } catch {
            throw .refused(error.description)
        }

        // A logo: its free bits chosen to show the plate and logo, maybe at a larger version (LogoPlacement).
        var placement: LogoPlacement? = nil
        if spec.logoPath != nil {
            let p = try LogoPlacement.place(on: matrix, bytes: bytes, eci: eci, spec: spec, logo: logo)
            matrix = p.matrix
            placement = p
        }
        let layout: QRLayout
        if let placement { layout = placement.layout } else { layout = try Self.layout(for: matrix, spec: spec) }

        var raster = layout.render(matrix, foreground: spec.foreground, background: spec.background)
        var logoPNG: [UInt8]? = nil
        if let placement {
            fillPlate(&raster, placement.platePx, radius: spec.plate == .rounded ? plateRadius * Double(layout.modulePx) : 0, color: spec.background)
            if let (pixels, x, y) = placement.logo {
                raster.composite(rgba: pixels.rgba, width: pixels.width, height: pixels.height, x: x, y: y)
                if spec.format == .svg {
                    do { logoPNG = try CodePicture.encodePNG(pixels) } catch { throw .refused("the logo: \(error.message)") }
                }
            }
        }
        let budget = placement?.budget

        let file: [UInt8]
        switch spec.format {
        case .png:
            guard let png = PNGWriter.encode(raster) else { throw .refused("cannot encode the picture: zlib could not compress it (out of memory)") }
            file = png
        case .jpeg:
            do { file = try CodePicture.encode(raster, as: .jpeg, quality: spec.jpegQuality) } catch {
                throw .refused("cannot encode the picture: \(error.message)")
            }
        case .svg:
            var logoPart: (png: [UInt8], plate: ModuleRect, inset: Double, radius: Double)? = nil
            if let budget, let logoPNG {
                logoPart = (logoPNG, budget.plate, Double(LogoBudget.plateBorderModules), spec.plate == .rounded ? plateRadius : 0)
            }
            // A requested --size that is not a whole number of modules: the SVG is scaled (exact
            // geometry); the raster it is verified with has the margin padded instead.
            file = Array(
                QRSVG.document(
                    matrix, margin: spec.margin, sidePx: spec.sizePx ?? layout.side, foreground: spec.foreground,
                    background: spec.background, logo: logoPart
                ).utf8)
        }
        return GeneratedCode(
            payload: bytes, eci: eci, matrix: matrix, layout: layout, format: spec.format, file: file,
            raster: raster, contrast: contrast, logo: budget, warnings: warnings)
    }

    /// Module size and margin for `matrix`: `--size` (the largest whole module that fits) or `--module`.
    static func layout(for matrix: QRMatrix, spec: CodeSpec) throws(GenerateError) -> QRLayout {
        let layout: QRLayout
        if let size = spec.sizePx {
            do { layout = try QRLayout(modules: matrix.size, fitting: size, marginModules: spec.margin) } catch { throw .usage(error.description) }
        } else {
            layout = QRLayout(modules: matrix.size, modulePx: spec.modulePx ?? CodeSpec.defaultModulePx, marginModules: spec.margin)
        }
        guard layout.side <= 20000 else { throw .usage("the picture would be \(layout.side) px wide; use a smaller --module") }
        return layout
    }

    /// How many versions above the payload's own a logo may push the code.
    package static let logoVersionSteps = 15

    /// Corner radius of a rounded plate, in modules.
    package static let plateRadius = 1.5

    /// The plate in the background colour; rounded corners with hard edges (a pixel is in when
    /// its centre is), so no blended grey lands next to modules.
    static func fillPlate(_ img: inout RGBImage, _ r: PixelRect, radius: Double, color: RGBColor) {
        guard radius > 0 else { img.fill(r, color); return }
        for y in r.y..<(r.y + r.height) {
            for x in r.x..<(r.x + r.width) {
                let cx = Double(x) + 0.5, cy = Double(y) + 0.5
                let dx = max(Double(r.x) + radius - cx, cx - (Double(r.x + r.width) - radius), 0)
                let dy = max(Double(r.y) + radius - cy, cy - (Double(r.y + r.height) - radius), 0)
                if dx * dx + dy * dy <= radius * radius { img.fill(PixelRect(x: x, y: y, width: 1, height: 1), color) }
            }
        }
    }
}
