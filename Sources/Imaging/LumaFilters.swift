// MARK: - Filters used by scan passes: the same size, other pixel values (thresholds, median,
// contrast, sharpening). Each returns a new image; none mutates self.

extension LumaImage {
    /// Integral image (summed-area table) with a zero row and column, as UInt32 sums.
    func integral() -> [UInt32] {
        let iw = width + 1
        var table = [UInt32](repeating: 0, count: iw * (height + 1))
        pixels.withUnsafeBufferPointer { src in
            table.withUnsafeMutableBufferPointer { t in
                for y in 0..<height {
                    var rowSum: UInt32 = 0
                    for x in 0..<width {
                        rowSum &+= UInt32(src[y * width + x])
                        t[(y + 1) * iw + x + 1] = t[y * iw + x + 1] &+ rowSum
                    }
                }
            }
        }
        return table
    }

    /// Each pixel mapped from its own value and the sum and size of its (2*radius+1)^2
    /// neighbourhood (clipped at the edges), through an integral image: any radius costs the same.
    @inline(__always)
    func mapBoxNeighbourhoods(radius: Int, _ map: (_ pixel: Int, _ sum: Int, _ count: Int) -> UInt8) -> LumaImage {
        let table = integral()
        let iw = width + 1
        var out = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeBufferPointer { src in
            table.withUnsafeBufferPointer { t in
                out.withUnsafeMutableBufferPointer { dst in
                    for y in 0..<height {
                        let y0 = max(0, y - radius), y1 = min(height, y + radius + 1)
                        for x in 0..<width {
                            let x0 = max(0, x - radius), x1 = min(width, x + radius + 1)
                            let sum = Int(t[y1 * iw + x1]) - Int(t[y0 * iw + x1]) - Int(t[y1 * iw + x0]) + Int(t[y0 * iw + x0])
                            dst[y * width + x] = map(Int(src[y * width + x]), sum, (y1 - y0) * (x1 - x0))
                        }
                    }
                }
            }
        }
        return LumaImage(width: width, height: height, pixels: out)
    }

    /// Adaptive (local mean) binarisation: a pixel is black when darker than the mean of its
    /// (2*radius+1)^2 neighbourhood minus `offset`. Evens out glare gradients and low contrast.
    public func adaptiveThresholded(radius: Int, offset: Int = 4) -> LumaImage {
        guard width > 0, height > 0 else { return self }
        return mapBoxNeighbourhoods(radius: radius) { p, sum, count in p * count < sum - offset * count ? 0 : 255 }
    }

    /// 3x3 median (edges kept as they are): removes the speckle a local threshold leaves in
    /// glare and sensor noise without moving the edges of modules.
    public func median3() -> LumaImage {
        guard width >= 3, height >= 3 else { return self }
        var out = pixels
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var v = [UInt8](repeating: 0, count: 9)
                for y in 1..<(height - 1) {
                    for x in 1..<(width - 1) {
                        var k = 0
                        for dy in -1...1 {
                            let row = (y + dy) * width + x
                            v[k] = src[row - 1]; v[k + 1] = src[row]; v[k + 2] = src[row + 1]; k += 3
                        }
                        // Partial selection sort up to the middle element.
                        for i in 0...4 {
                            var mi = i
                            for j in (i + 1)..<9 where v[j] < v[mi] { mi = j }
                            v.swapAt(i, mi)
                        }
                        dst[y * width + x] = v[4]
                    }
                }
            }
        }
        return LumaImage(width: width, height: height, pixels: out)
    }

    /// Global contrast stretch: maps the 1st..99th percentile to 0...255.
    public func contrastStretched() -> LumaImage {
        guard !pixels.isEmpty else { return self }
        var hist = [Int](repeating: 0, count: 256)
        for p in pixels { hist[Int(p)] += 1 }
        let cut = max(1, pixels.count / 100)
        var lo = 0, acc = 0
        while lo < 255 { acc += hist[lo]; if acc >= cut { break }; lo += 1 }
        var hi = 255; acc = 0
        while hi > 0 { acc += hist[hi]; if acc >= cut { break }; hi -= 1 }
        guard hi > lo else { return self }
        var lut = [UInt8](repeating: 0, count: 256)
        for i in 0..<256 {
            let v = (i - lo) * 255 / (hi - lo)
            lut[i] = UInt8(max(0, min(255, v)))
        }
        return LumaImage(width: width, height: height, pixels: pixels.map { lut[Int($0)] })
    }

    /// Unsharp mask with a box blur of the given radius: out = p + amount * (p - blur).
    /// Radius 1 sharpens fine detail; a larger radius (with more amount) lifts a blurred code's
    /// bars out of the grey they were smeared into.
    public func sharpened(radius: Int = 1, amount: Double = 1.0) -> LumaImage {
        guard width > 2, height > 2, radius >= 1 else { return self }
        let k = Int(amount * 256)
        return mapBoxNeighbourhoods(radius: radius) { p, sum, count in
            UInt8(max(0, min(255, p + ((p - sum / count) * k) >> 8)))
        }
    }

    /// Global binarisation at Otsu's threshold (the level that best splits the histogram in two).
    public func binarized() -> LumaImage {
        guard !pixels.isEmpty else { return self }
        var hist = [Int](repeating: 0, count: 256)
        for p in pixels { hist[Int(p)] += 1 }
        let total = Double(pixels.count)
        let sumAll = (0..<256).reduce(0.0) { $0 + Double($1 * hist[$1]) }
        var best = 0.0, level = 127, wB = 0.0, sumB = 0.0
        for t in 0..<256 {
            wB += Double(hist[t])
            guard wB > 0 else { continue }
            let wF = total - wB
            if wF <= 0 { break }
            sumB += Double(t * hist[t])
            let mB = sumB / wB, mF = (sumAll - sumB) / wF
            let between = wB * wF * (mB - mF) * (mB - mF)
            if between > best { best = between; level = t }
        }
        return LumaImage(width: width, height: height, pixels: pixels.map { Int($0) <= level ? 0 : 255 })
    }
}
