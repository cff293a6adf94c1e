/// EXIF orientation (1...8), applied to luma in Swift: an 8-bit plane is cheap to turn,
/// where ImageMagick's auto-orient turns a 16-bit RGBA image.
public enum ExifOrientation {
    /// The upright image a person sees for pixels stored with this orientation tag.
    /// 1 as stored, 2 mirrored, 3 turned 180°, 4 flipped, 5 transposed, 6 turned 90° clockwise,
    /// 7 transversed, 8 turned 90° counter-clockwise.
    public static func upright(_ img: LumaImage, orientation: Int) -> LumaImage {
        let w = img.width, h = img.height
        guard (2...8).contains(orientation), w > 0, h > 0 else { return img }
        let swaps = orientation >= 5
        let uw = swaps ? h : w, uh = swaps ? w : h
        var out = [UInt8](repeating: 0, count: uw * uh)
        img.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for v in 0..<uh {
                    let row = v * uw
                    switch orientation {
                    case 2: for u in 0..<uw { dst[row + u] = src[v * w + (w - 1 - u)] }
                    case 3: for u in 0..<uw { dst[row + u] = src[(h - 1 - v) * w + (w - 1 - u)] }
                    case 4: for u in 0..<uw { dst[row + u] = src[(h - 1 - v) * w + u] }
                    case 5: for u in 0..<uw { dst[row + u] = src[u * w + v] }
                    case 6: for u in 0..<uw { dst[row + u] = src[(h - 1 - u) * w + v] }
                    case 7: for u in 0..<uw { dst[row + u] = src[(h - 1 - u) * w + (w - 1 - v)] }
                    default: for u in 0..<uw { dst[row + u] = src[u * w + (w - 1 - v)] }  // 8
                    }
                }
            }
        }
        return LumaImage(width: uw, height: uh, pixels: out)
    }

    /// Upright size for a stored size.
    public static func uprightSize(width: Int, height: Int, orientation: Int) -> (width: Int, height: Int) {
        (5...8).contains(orientation) ? (height, width) : (width, height)
    }
}
