import Imaging

/// How far two grey pictures of one size differ, pixel by pixel: the mean and the largest
/// absolute difference. Here (TestSupport is compiled optimised) rather than in a suite: a loop
/// over 4 megapixels at -Onone costs seconds a picture.
package struct PixelDifference: Sendable, Equatable {
    package var mean: Double
    package var worst: Int

    /// nil when the sizes differ.
    package init?(_ a: LumaImage, _ b: LumaImage) {
        guard a.width == b.width, a.height == b.height else { return nil }
        var total = 0, worst = 0
        a.pixels.withUnsafeBufferPointer { p in
            b.pixels.withUnsafeBufferPointer { q in
                for i in 0..<p.count {
                    let d = abs(Int(p[i]) - Int(q[i]))
                    total += d
                    if d > worst { worst = d }
                }
            }
        }
        mean = a.pixels.isEmpty ? 0 : Double(total) / Double(a.pixels.count)
        self.worst = worst
    }
}
