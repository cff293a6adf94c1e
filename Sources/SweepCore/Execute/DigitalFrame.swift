import Imaging
import Records

/// Tells a clean digital frame (a screenshot, a rendered page, generated art) from a photo or a
/// scan, from the pixels alone: a camera's or scanner's noise and soft gradients make
/// neighbouring pixels differ by a level or two all over the frame; drawn pixels are either equal
/// (flat fills) or differ by an edge. A screenshot may hold a photo, so the frame is cut in
/// 32 x 32 tiles and the tiles that are not one flat colour are counted: a tile is clean when
/// at most 2 % of its horizontal neighbours are 1 or 2 levels apart. Measured (docs/engine-tuning.md):
/// the share of clean tiles is 0.56-1.0 on Chromium's screenshots (those with photos in them
/// included; 5th percentile 0.65), 0.00-0.08 on the BoofCV phone photos and 0.00-0.11 on the
/// zxing-cpp corpus's JPEGs.
public enum DigitalFrame {
    /// At least this share of the tiles that are not flat must be clean.
    public static let minCleanShare = 0.3
    static let tile = 32

    /// Whether `image` is a clean digital frame (a blank one is).
    public static func isDigital(_ image: LumaImage) -> Bool {
        cleanShare(image) >= minCleanShare
    }

    /// The mean grey of every 7th pixel.
    public static func meanGrey(_ image: LumaImage) -> Double {
        guard !image.pixels.isEmpty else { return 0 }
        var sum = 0, n = 0
        image.pixels.withUnsafeBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 7) { sum += Int(p[i]); n += 1 }
        }
        return Double(sum) / Double(n)
    }

    /// The share of clean tiles among those that are not one flat colour (1 when all are flat).
    /// Every second tile row and column is looked at (more apart in a frame of over 6,000 tiles).
    public static func cleanShare(_ image: LumaImage) -> Double {
        let w = image.width, h = image.height, t = tile
        let cols = (w - 1) / t, rows = h / t
        guard cols >= 1, rows >= 1 else { return 1 }
        let step = max(2, Int((Double(cols * rows) / 6_000).squareRoot().rounded(.up)))
        var busy = 0, clean = 0
        image.pixels.withUnsafeBufferPointer { p in
            for ty in stride(from: 0, to: rows, by: step) {
                for tx in stride(from: 0, to: cols, by: step) {
                    var near = 0, lo = 255, hi = 0
                    for y in (ty * t)..<(ty * t + t) {
                        let row = y * w + tx * t
                        var previous = Int(p[row])
                        for x in 1...t {
                            let v = Int(p[row + x])
                            let d = v > previous ? v - previous : previous - v
                            if d == 1 || d == 2 { near += 1 }
                            if v < lo { lo = v }
                            if v > hi { hi = v }
                            previous = v
                        }
                    }
                    guard hi > lo else { continue }
                    busy += 1
                    if near * 50 <= t * t { clean += 1 }
                }
            }
        }
        return busy == 0 ? 1 : Double(clean) / Double(busy)
    }
}
