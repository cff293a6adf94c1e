import Foundation
import Imaging
import MagickBridge

/// Fixtures of generate's tests that the scannability gate's tests use too.
extension Make {
    /// A red disc with a white square in it, transparent around: a logo as a PNG.
    static func logoPNG() throws -> [UInt8] {
        let n = 120
        var rgba = [UInt8](repeating: 0, count: n * n * 4)
        for y in 0..<n {
            for x in 0..<n {
                let dx = Double(x) - 59.5, dy = Double(y) - 59.5
                guard dx * dx + dy * dy <= 58 * 58 else { continue }
                let inner = abs(dx) < 22 && abs(dy) < 22
                let i = (y * n + x) * 4
                rgba[i] = inner ? 255 : 0xD6; rgba[i + 1] = inner ? 255 : 0x28; rgba[i + 2] = inner ? 255 : 0x28; rgba[i + 3] = 255
            }
        }
        return try CodePicture.encodePNG(LogoPixels(width: n, height: n, rgba: rgba))
    }
}

/// Plain definitions the faster code is held to.
enum Reference {
    /// The plain loops `gaussianBlurred` had before it was made faster for verification.
    static func gaussianBlur(_ img: LumaImage, sigma: Double) -> LumaImage {
        let width = img.width, height = img.height, pixels = img.pixels
        let r = max(1, Int((3 * sigma).rounded(.up)))
        var kernel = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        var tmp = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var s = 0.0
                for k in -r...r { s += kernel[k + r] * Double(pixels[y * width + min(width - 1, max(0, x + k))]) }
                tmp[y * width + x] = s
            }
        }
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var s = 0.0
                for k in -r...r { s += kernel[k + r] * tmp[min(height - 1, max(0, y + k)) * width + x] }
                out[y * width + x] = UInt8(max(0, min(255, s.rounded())))
            }
        }
        return LumaImage(width: width, height: height, pixels: out)
    }
}
