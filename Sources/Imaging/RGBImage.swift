/// Colours and RGB pictures: what `generate` draws in, and what `MagickBridge` hands over
/// (CSS colours, straight RGB pixels, their grey as a scanner sees it). No files, no C.

/// An sRGB colour, 8 bits per channel.
public struct RGBColor: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var r: UInt8, g: UInt8, b: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8) { self.r = r; self.g = g; self.b = b }
    public static let black = RGBColor(r: 0, g: 0, b: 0)
    public static let white = RGBColor(r: 255, g: 255, b: 255)

    /// "#rrggbb" (lowercase).
    public var hex: String {
        let digits: [Character] = Array("0123456789abcdef")
        var out = "#"
        for v in [r, g, b] {
            out.append(digits[Int(v >> 4)])
            out.append(digits[Int(v & 15)])
        }
        return out
    }
    public var description: String { hex }

    /// The grey a scanner sees: Rec. 601 luma in the integer arithmetic `ImageLoader` uses to
    /// turn every decoded picture to grey (0...255).
    public var luma: UInt8 {
        let y: UInt32 = (UInt32(r) * 19595 + UInt32(g) * 38470 + UInt32(b) * 7471 + 0x8000) >> 16
        return UInt8(y)
    }

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// CSS colours: `#rgb`, `#rrggbb` (the `#` may be left out) or one of the 148 CSS named colours.
    public init(css text: String) throws(ParseError) {
        let s = text.trimmingCharacters(in: " \t").lowercased()
        if let named = Self.named[s] { self = named; return }
        var h = Substring(s)
        if h.hasPrefix("#") { h = h.dropFirst() }
        let nibbles = h.compactMap { $0.hexDigitValue.map(UInt8.init) }
        guard nibbles.count == h.count else {
            throw ParseError(description: "'\(text)' is not a colour: use #rrggbb, #rgb or a CSS name (navy, darkgreen, ...)")
        }
        switch nibbles.count {
        case 3: self.init(r: nibbles[0] * 17, g: nibbles[1] * 17, b: nibbles[2] * 17)
        case 6: self.init(r: nibbles[0] << 4 | nibbles[1], g: nibbles[2] << 4 | nibbles[3], b: nibbles[4] << 4 | nibbles[5])
        default: throw ParseError(description: "'\(text)' is not a colour: use #rrggbb, #rgb or a CSS name (navy, darkgreen, ...)")
        }
    }

    /// The CSS Color Module Level 4 named colours.
    public static let named: [String: RGBColor] = {
        let table = """
            aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc bisque ffe4c4 \
            black 000000 blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a burlywood deb887 cadetblue 5f9ea0 \
            chartreuse 7fff00 chocolate d2691e coral ff7f50 cornflowerblue 6495ed cornsilk fff8dc crimson dc143c cyan 00ffff \
            darkblue 00008b darkcyan 008b8b darkgoldenrod b8860b darkgray a9a9a9 darkgreen 006400 darkgrey a9a9a9 \
            darkkhaki bdb76b darkmagenta 8b008b darkolivegreen 556b2f darkorange ff8c00 darkorchid 9932cc darkred 8b0000 \
            darksalmon e9967a darkseagreen 8fbc8f darkslateblue 483d8b darkslategray 2f4f4f darkslategrey 2f4f4f \
            darkturquoise 00ced1 darkviolet 9400d3 deeppink ff1493 deepskyblue 00bfff dimgray 696969 dimgrey 696969 \
            dodgerblue 1e90ff firebrick b22222 floralwhite fffaf0 forestgreen 228b22 fuchsia ff00ff gainsboro dcdcdc \
            ghostwhite f8f8ff gold ffd700 goldenrod daa520 gray 808080 green 008000 greenyellow adff2f grey 808080 \
            honeydew f0fff0 hotpink ff69b4 indianred cd5c5c indigo 4b0082 ivory fffff0 khaki f0e68c lavender e6e6fa \
            lavenderblush fff0f5 lawngreen 7cfc00 lemonchiffon fffacd lightblue add8e6 lightcoral f08080 lightcyan e0ffff \
            lightgoldenrodyellow fafad2 lightgray d3d3d3 lightgreen 90ee90 lightgrey d3d3d3 lightpink ffb6c1 \
            lightsalmon ffa07a lightseagreen 20b2aa lightskyblue 87cefa lightslategray 778899 lightslategrey 778899 \
            lightsteelblue b0c4de lightyellow ffffe0 lime 00ff00 limegreen 32cd32 linen faf0e6 magenta ff00ff maroon 800000 \
            mediumaquamarine 66cdaa mediumblue 0000cd mediumorchid ba55d3 mediumpurple 9370db mediumseagreen 3cb371 \
            mediumslateblue 7b68ee mediumspringgreen 00fa9a mediumturquoise 48d1cc mediumvioletred c71585 \
            midnightblue 191970 mintcream f5fffa mistyrose ffe4e1 moccasin ffe4b5 navajowhite ffdead navy 000080 \
            oldlace fdf5e6 olive 808000 olivedrab 6b8e23 orange ffa500 orangered ff4500 orchid da70d6 palegoldenrod eee8aa \
            palegreen 98fb98 paleturquoise afeeee palevioletred db7093 papayawhip ffefd5 peachpuff ffdab9 peru cd853f \
            pink ffc0cb plum dda0dd powderblue b0e0e6 purple 800080 rebeccapurple 663399 red ff0000 rosybrown bc8f8f \
            royalblue 4169e1 saddlebrown 8b4513 salmon fa8072 sandybrown f4a460 seagreen 2e8b57 seashell fff5ee \
            sienna a0522d silver c0c0c0 skyblue 87ceeb slateblue 6a5acd slategray 708090 slategrey 708090 snow fffafa \
            springgreen 00ff7f steelblue 4682b4 tan d2b48c teal 008080 thistle d8bfd8 tomato ff6347 turquoise 40e0d0 \
            violet ee82ee wheat f5deb3 white ffffff whitesmoke f5f5f5 yellow ffff00 yellowgreen 9acd32
            """
        let words = table.split(separator: " ")
        var out: [String: RGBColor] = [:]
        for i in stride(from: 0, to: words.count - 1, by: 2) {
            let h = words[i + 1].compactMap { $0.hexDigitValue.map(UInt8.init) }
            out[String(words[i])] = RGBColor(r: h[0] << 4 | h[1], g: h[2] << 4 | h[3], b: h[4] << 4 | h[5])
        }
        return out
    }()
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}

/// An RGB picture, packed 3 bytes a pixel, row-major.
public struct RGBImage: Sendable, Equatable {
    public let width: Int, height: Int
    public var pixels: [UInt8]
    public init(width: Int, height: Int, fill: RGBColor) {
        self.width = width; self.height = height
        let n = width * height * 3
        pixels = [UInt8](unsafeUninitializedCapacity: n) { p, count in
            // One pixel, then the filled part doubled until the whole is.
            if n >= 3 { p[0] = fill.r; p[1] = fill.g; p[2] = fill.b }
            var done = min(3, n)
            while done < n {
                let k = min(done, n - done)
                (p.baseAddress! + done).initialize(from: p.baseAddress!, count: k)
                done += k
            }
            count = n
        }
    }
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3)
        self.width = width; self.height = height; self.pixels = pixels
    }

    public mutating func fill(_ rect: PixelRect, _ c: RGBColor) {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(width, rect.x + rect.width), y1 = min(height, rect.y + rect.height)
        guard x0 < x1, y0 < y1 else { return }
        pixels.withUnsafeMutableBufferPointer { p in
            for y in y0..<y1 {
                var i = (y * width + x0) * 3
                for _ in x0..<x1 { p[i] = c.r; p[i + 1] = c.g; p[i + 2] = c.b; i += 3 }
            }
        }
    }

    /// Grey as `ImageLoader` makes it from a decoded picture: Rec. 601 in 16-bit fixed point,
    /// exactly as Pillow's `convert("L")` (what zxing-cpp's Python module and most tools are fed);
    /// a borderline code read from one grey may be lost at one level off.
    public func luma() -> LumaImage {
        var out = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var j = 0
                for i in 0..<(width * height) {
                    let r = UInt32(src[j]), g = UInt32(src[j + 1]), b = UInt32(src[j + 2])
                    let y: UInt32 = (r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16
                    dst[i] = UInt8(y)
                    j += 3
                }
            }
        }
        return LumaImage(width: width, height: height, pixels: out)
    }

    /// Draws an RGBA picture (straight alpha) with its top-left corner at (x, y).
    public mutating func composite(rgba: [UInt8], width w: Int, height h: Int, x: Int, y: Int) {
        precondition(rgba.count == w * h * 4)
        for yy in 0..<h where y + yy >= 0 && y + yy < height {
            for xx in 0..<w where x + xx >= 0 && x + xx < width {
                let s = (yy * w + xx) * 4, d = ((y + yy) * width + x + xx) * 3
                let a = UInt32(rgba[s + 3])
                guard a > 0 else { continue }
                for c in 0..<3 {
                    let over: UInt32 = UInt32(rgba[s + c]) * a
                    let under: UInt32 = UInt32(pixels[d + c]) * (255 - a)
                    pixels[d + c] = UInt8((over + under + 127) / 255)
                }
            }
        }
    }
}
