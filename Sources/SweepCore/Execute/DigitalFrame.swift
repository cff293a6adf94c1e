import Records

/// Tells a clean digital frame (a screenshot, a rendered page, generated art) from a photo or a
/// scan, from the pixels alone: a camera's or scanner's noise and soft gradients make
/// neighbouring pixels differ by a level or two all over the frame; drawn pixels are either
/// equal (flat fills) or differ by an edge. Measured (`docs/engine-tuning.md`): the share of
/// horizontal neighbours 1 or 2 levels apart is 0.07-0.52 on the BoofCV phone photos (5th
/// percentile 0.19) and on the zxing-cpp corpus's JPEGs, 0.000-0.001 on 95 % of its PNGs and on
/// Chromium's screenshots.
public enum DigitalFrame {
    /// At most this share of neighbours 1-2 levels apart makes a frame digital.
    public static let maxNoiseShare = 0.03

    /// Whether `image` is a clean digital frame. Samples about 256 rows (every row of a small
    /// image), every pixel along them.
    public static func isDigital(_ image: LumaImage) -> Bool {
        noiseShare(image) <= maxNoiseShare
    }

    /// The share of horizontally neighbouring pixels 1 or 2 levels apart, on the sampled rows.
    public static func noiseShare(_ image: LumaImage) -> Double {
        let w = image.width, h = image.height
        guard w >= 2, h >= 1 else { return 0 }
        let step = max(1, h / 256)
        var near = 0, pairs = 0
        image.pixels.withUnsafeBufferPointer { p in
            var y = 0
            while y < h {
                let row = y * w
                var previous = Int(p[row])
                for x in 1..<w {
                    let v = Int(p[row + x])
                    let d = v > previous ? v - previous : previous - v
                    if d == 1 || d == 2 { near += 1 }
                    previous = v
                }
                pairs += w - 1
                y += step
            }
        }
        return Double(near) / Double(max(1, pairs))
    }
}

extension PlanExecutor {
    /// The frame decides its path: a clean digital frame takes the plan's digital passes (when
    /// it has them), a photo or a scan its other passes.
    func passes(for base: LumaImage) -> [ScanPass] {
        guard !options.plan.digital.isEmpty else { return options.plan.passes }
        let start = ContinuousClock.now
        let noise = DigitalFrame.noiseShare(base)
        let digital = noise <= DigitalFrame.maxNoiseShare
        trace?("frame ms=\(ms(since: start)) noise=\(NumberText.trimmed(noise, decimals: 4)) digital=\(digital)")
        return digital ? options.plan.digital : options.plan.passes
    }
}
