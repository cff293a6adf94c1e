import Foundation
import Imaging
import QREncodeBridge
import TestSupport
import Testing

@testable import CodeGenerate

/// `generate`'s own PNG writer: every file decodes (ImageMagick's CLI, through libpng) to exactly
/// the pixels drawn, in the smallest form: indexed at 1, 2, 4 or 8 bits, or RGB past 256 colours.
@Suite("PNG writer")
struct PNGWriterTests {
    /// The pixels ImageMagick decodes from `png`, as 8-bit RGB.
    func decoded(_ png: [UInt8]) throws -> [UInt8] {
        [UInt8](try run(Tools.convert, ["png:-", "-depth", "8", "rgb:-"], stdin: Data(png)).stdoutBytes)
    }

    /// The chunks in file order, each CRC checked with a bitwise CRC-32 of its own.
    func chunks(_ png: [UInt8]) throws -> [(type: String, data: [UInt8])] {
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var out: [(String, [UInt8])] = []
        var i = 8
        func be32(_ at: Int) -> Int { png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        while i + 12 <= png.count {
            let n = be32(i)
            let body = Array(png[(i + 4)..<(i + 8 + n)])
            var crc: UInt32 = 0xFFFF_FFFF
            for b in body {
                crc ^= UInt32(b)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            #expect(UInt32(be32(i + 8 + n)) == ~crc, "CRC of \(String(decoding: body.prefix(4), as: UTF8.self))")
            out.append((String(decoding: body.prefix(4), as: UTF8.self), Array(body.dropFirst(4))))
            i += 12 + n
        }
        #expect(i == png.count)
        return out
    }

    /// A picture of `colors` colours, `width` wide (odd widths leave part of a row's last byte).
    func picture(width: Int, height: Int, colors: Int) -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let c = (x * 7 + y * 3) % colors
                pixels += [UInt8(c % 256), UInt8((c * 37) % 256), UInt8(c / 256 * 60 + 17)]
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    @Test("Indexed at the depth the colours need, RGB past 256; the pixels exact", arguments: [2, 3, 4, 5, 16, 17, 256, 300])
    func roundTrip(colors: Int) throws {
        for (width, height) in [(1, 9), (13, 9), (64, 9), (61, 7)] {
            let image = picture(width: width, height: height, colors: colors)
            let used = Set(stride(from: 0, to: image.pixels.count, by: 3).map { image.pixels[$0..<($0 + 3)] }).count
            let (depth, colorType): (UInt8, UInt8) = used <= 2 ? (1, 3) : used <= 4 ? (2, 3) : used <= 16 ? (4, 3) : used <= 256 ? (8, 3) : (8, 2)
            let png = try #require(PNGWriter.encode(image))
            let parts = try chunks(png)
            #expect(parts.map(\.type) == (colorType == 3 ? ["IHDR", "sRGB", "gAMA", "PLTE", "IDAT", "IEND"] : ["IHDR", "sRGB", "gAMA", "IDAT", "IEND"]))
            let header = parts[0].data
            #expect(Array(header[0..<8]) == [0, 0, 0, UInt8(width), 0, 0, 0, UInt8(height)])
            #expect(header[8] == depth && header[9] == colorType, "\(used) colours")
            if colorType == 3 { #expect(parts[3].data.count == 3 * used) }
            #expect(try decoded(png) == image.pixels, "\(used) colours, \(width)×\(height)")
        }
    }

    @Test("A made code: two colours at one bit a pixel, the pixels exact, a stable file")
    func code() throws {
        let matrix = try QREncoder.encode(Array("https://example.com/pngwriter".utf8), ec: .M, minVersion: 1, eci: nil)
        let layout = QRLayout(modules: matrix.size, modulePx: 5, marginModules: 4)
        let image = layout.render(matrix, foreground: RGBColor(r: 0, g: 0x33, b: 0x66), background: RGBColor(r: 255, g: 251, b: 230))
        let png = try #require(PNGWriter.encode(image))
        #expect(try chunks(png)[0].data[8] == 1)
        #expect(try decoded(png) == image.pixels)
        #expect(PNGWriter.encode(image) == png)
        // A filled picture is that colour in every pixel, whatever its size.
        for (w, h) in [(1, 1), (5, 3), (7, 1), (64, 33)] {
            #expect(RGBImage(width: w, height: h, fill: RGBColor(r: 1, g: 2, b: 3)).pixels == Array([[UInt8]](repeating: [1, 2, 3], count: w * h).joined()))
        }
    }
}
