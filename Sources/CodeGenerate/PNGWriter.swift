import Imaging
import ZlibBridge

/// The PNG files `generate` writes: the drawn pixels exactly, as small as the picture allows.
/// A code has few colours (two, or a few dozen with a logo): those are written indexed, at 1, 2,
/// 4 or 8 bits a pixel; a picture of more than 256 colours (a photo logo) as 8-bit RGB, each
/// row with the filter that suits it best. Chunks: IHDR, sRGB (with gAMA for older readers),
/// PLTE, one IDAT, IEND; no dates, so the same code gives the same file.
///
/// Written here rather than by MagickWand: MagickWand took about a tenth of a verified code's
/// time (converting to 16 bits and back, searching the colours) for the same pixels.
/// Verification decodes the file with MagickWand, as `check` does, so a fault here fails there.
enum PNGWriter {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func encode(_ image: RGBImage) -> [UInt8]? {
        guard image.width > 0, image.height > 0 else { return nil }
        let (colorType, bitDepth, palette, rows): (UInt8, UInt8, [UInt8]?, [UInt8])
        if let (colors, indices) = Self.palette(image) {
            let depth = colors.count <= 2 ? 1 : colors.count <= 4 ? 2 : colors.count <= 16 ? 4 : 8
            (colorType, bitDepth, palette, rows) = (
                3, UInt8(depth), colors.flatMap { [$0.r, $0.g, $0.b] },
                packed(indices, width: image.width, height: image.height, depth: depth)
            )
        } else {
            (colorType, bitDepth, palette, rows) = (2, 8, nil, filtered(image))
        }
        // Level 6: on these rows 9 costs five times as long (1.5 ms a code) for 5 % fewer bytes.
        guard let data = Zlib.compress(rows, level: 6) else { return nil }
        var file = signature
        var header = be32(UInt32(image.width)) + be32(UInt32(image.height))
        header += [bitDepth, colorType, 0, 0, 0]  // deflate, adaptive filtering, not interlaced
        chunk("IHDR", header, into: &file)
        chunk("sRGB", [0], into: &file)  // perceptual
        chunk("gAMA", be32(45455), into: &file)
        if let palette { chunk("PLTE", palette, into: &file) }
        chunk("IDAT", data, into: &file)
        chunk("IEND", [], into: &file)
        return file
    }

    /// The picture's colours in order of first appearance and each pixel's index, when there
    /// are at most 256.
    static func palette(_ image: RGBImage) -> (colors: [RGBColor], indices: [UInt8])? {
        var colors: [RGBColor] = []
        var index: [UInt32: UInt8] = [:]
        var indices = [UInt8](repeating: 0, count: image.width * image.height)
        var last: UInt32 = .max, lastIndex: UInt8 = 0
        let ok = image.pixels.withUnsafeBufferPointer { p -> Bool in
            for i in 0..<(image.width * image.height) {
                let key = UInt32(p[3 * i]) << 16 | UInt32(p[3 * i + 1]) << 8 | UInt32(p[3 * i + 2])
                if key != last {
                    if let k = index[key] {
                        lastIndex = k
                    } else {
                        guard colors.count < 256 else { return false }
                        lastIndex = UInt8(colors.count)
                        index[key] = lastIndex
                        colors.append(RGBColor(r: p[3 * i], g: p[3 * i + 1], b: p[3 * i + 2]))
                    }
                    last = key
                }
                indices[i] = lastIndex
            }
            return true
        }
        return ok ? (colors, indices) : nil
    }

    /// Rows of indices packed `depth` bits a pixel, the leftmost in the high bits, each row
    /// after its filter byte (0: none; indexed pixels gain little from filtering).
    static func packed(_ indices: [UInt8], width: Int, height: Int, depth: Int) -> [UInt8] {
        let rowBytes = (width * depth + 7) / 8, perByte = 8 / depth
        var out = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        out.withUnsafeMutableBufferPointer { dst in
            indices.withUnsafeBufferPointer { src in
                for y in 0..<height {
                    var o = y * (rowBytes + 1) + 1, x = y * width
                    let end = x + width
                    while x < end {
                        var byte: UInt8 = 0
                        for k in 0..<perByte { byte = byte << UInt8(depth) | (x + k < end ? src[x + k] : 0) }
                        dst[o] = byte
                        o += 1; x += perByte
                    }
                }
            }
        }
        return out
    }

    /// 8-bit RGB rows, each with the filter (none, sub, up, average, Paeth) whose output has the
    /// smallest sum of magnitudes, as libpng chooses.
    static func filtered(_ image: RGBImage) -> [UInt8] {
        let stride = image.width * 3
        var out = [UInt8](); out.reserveCapacity((stride + 1) * image.height)
        var candidate = [UInt8](repeating: 0, count: stride)
        var best = [UInt8](repeating: 0, count: stride)
        let zero = [UInt8](repeating: 0, count: stride)
        for y in 0..<image.height {
            let row = image.pixels[(y * stride)..<((y + 1) * stride)]
            let up = y == 0 ? zero[...] : image.pixels[((y - 1) * stride)..<(y * stride)]
            var bestType: UInt8 = 0, bestCost = Int.max
            for type: UInt8 in 0...4 {
                var cost = 0
                for i in 0..<stride {
                    let x = Int(row[row.startIndex + i]), b = Int(up[up.startIndex + i])
                    let a = i >= 3 ? Int(row[row.startIndex + i - 3]) : 0, c = i >= 3 ? Int(up[up.startIndex + i - 3]) : 0
                    let predicted: Int
                    switch type {
                    case 0: predicted = 0
                    case 1: predicted = a
                    case 2: predicted = b
                    case 3: predicted = (a + b) / 2
                    default:
                        let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                        predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                    }
                    let v = UInt8(truncatingIfNeeded: x - predicted)
                    candidate[i] = v
                    cost += v < 128 ? Int(v) : 256 - Int(v)
                }
                if cost < bestCost { bestCost = cost; bestType = type; swap(&best, &candidate) }
            }
            out.append(bestType)
            out.append(contentsOf: best)
        }
        return out
    }

    static func chunk(_ type: String, _ data: [UInt8], into file: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        file += be32(UInt32(data.count))
        let start = file.count
        file += typeBytes
        file += data
        file += be32(Zlib.crc32(file[start...]))
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }
}
