import CHeif
import Foundation
import HEIFBridge
import Imaging
import MagickBridge
import PNGBridge
import Records
import TestSupport
import Testing

/// libheif's luma plane (`HEIFDecoder`, the loader's direct HEIC/AVIF path) against MagickWand's
/// decode of the same files, made here: by ImageMagick and heif-enc from qrencode's PNGs (8-bit,
/// 10-bit, a transparent background), and by libheif's encoder with an irot/imir orientation and
/// an EXIF orientation beside it (as phones write them). Same size, orientation, metadata and
/// warnings; pixels within rounding (MagickWand's now converted from the YCbCr its HEIC coder
/// leaves them in); the code read; a transparent background white, as drawn.
@Suite("HEIC and AVIF decoding with libheif")
struct HEIFDecoderTests {
    static let text = "https://www.example.com/heic"
    static let heifEnc = "/usr/bin/heif-enc"

    /// A 198x260 white canvas with a qrencode code (4 px a module) at (30, 60), as PNG.
    static func canvas(_ dir: TempDir, options: [String] = [], name: String = "canvas.png") throws -> String {
        try Make.qr(Self.text, to: dir.file("q.png"), scale: 4, margin: 0)
        let out = dir.file(name)
        try Make.convert(["-size", "198x260", "xc:white", dir.file("q.png"), "-geometry", "+30+60", "-composite"] + options + [out])
        return out
    }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Loaded both ways: the direct path through libheif, as MagickWand loads it.
    static func expectLoadsAsMagickWand(_ path: String, format: ImageFormat, width: Int, height: Int, _ what: String) throws {
        let bytes = try Self.bytes(path)
        let direct = try ImageLoader.load(bytes, format: format, jpeg: .direct)
        let magick = try ImageLoader.load(bytes, format: format, jpeg: .imageMagick)
        #expect(direct.decoder == .libheif && magick.decoder == .imageMagick, "\(what)")
        #expect(direct.width == width && direct.height == height, "\(what): \(direct.width)x\(direct.height)")
        #expect(direct.width == magick.width && direct.height == magick.height && direct.orientation == magick.orientation, "\(what)")
        #expect(direct.metadata == magick.metadata && direct.warnings == magick.warnings, "\(what)")
        let a = try #require(direct.frames.first), b = try #require(magick.frames.first)
        #expect(a.width == width && a.height == height, "\(what): frame \(a.width)x\(a.height)")
        let diff = try #require(PixelDifference(a, b), "\(what): \(a.width)x\(a.height) vs \(b.width)x\(b.height)")
        #expect(diff.mean < 1.0 && diff.worst <= 8, "\(what): \(diff)")
    }

    @Test("8-bit HEIC and AVIF, and a 10-bit HEIC, load through libheif as MagickWand loads them")
    func loadsAsMagickWand() throws {
        let dir = try TempDir("heic")
        let png = try Self.canvas(dir)
        try Make.convert([png, "-quality", "90", dir.file("q.heic")])
        try Make.convert([png, "-quality", "90", dir.file("q.avif")])
        try Make.convert([png, "-depth", "16", "PNG48:" + dir.file("q16.png")])
        try run(Self.heifEnc, ["-b", "10", "-q", "90", "-o", dir.file("q10.heic"), dir.file("q16.png")])
        let depth = try run("/usr/bin/identify", ["-format", "%z", dir.file("q10.heic")]).stdout
        #expect(depth == "10", "the 10-bit file's depth: \(depth)")
        for (name, format) in [("q.heic", ImageFormat.heic), ("q.avif", .avif), ("q10.heic", .heic)] {
            try Self.expectLoadsAsMagickWand(dir.file(name), format: format, width: 198, height: 260, name)
            let grey = try HEIFDecoder.decodeGrey(try Self.bytes(dir.file(name)), maxSide: 32768)
            // The quiet zone is white and the first module (the finder's corner) black.
            #expect(grey.pixels[10 * 198 + 10] >= 245 && grey.pixels[62 * 198 + 32] <= 10, "\(name)")
        }
    }

    /// Dark modules on a transparent background that is black beneath: composed over white, the
    /// picture the code was drawn on (MagickWand's HEIC coder drops the alpha: black on black).
    @Test func transparentBackgroundIsWhite() throws {
        let dir = try TempDir("heic-alpha")
        let drawn = try Self.canvas(dir)
        let png = try Self.canvas(dir, options: ["-transparent", "white", "-background", "black", "-alpha", "background"], name: "a.png")
        try Make.convert([png, "PNG32:" + dir.file("a32.png")])
        try FileManager.default.createDirectory(atPath: dir.file("files"), withIntermediateDirectories: true)
        let path = dir.file("files/a.heic")
        try run(Self.heifEnc, ["-q", "90", "-o", path, dir.file("a32.png")])
        let bytes = try Self.bytes(path)
        let grey = try HEIFDecoder.decodeGrey(bytes, maxSide: 32768)
        #expect(grey.pixels[10 * 198 + 10] >= 245 && grey.pixels[62 * 198 + 32] <= 10)
        let loaded = try ImageLoader.load(bytes, format: .heic, jpeg: .direct)
        #expect(loaded.decoder == .libheif && loaded.width == 198 && loaded.height == 260)
        let frame = try #require(loaded.frames.first), original = try PNGDecoder.decodeGrey(try Self.bytes(drawn))
        let diff = try #require(PixelDifference(frame, original))
        #expect(diff.mean < 2.0, "against the picture drawn: \(diff)")
        let scan = try DirectJPEGTests.scan(dir.file("files"), effort: "normal", env: ["CODESWEEP_TRACE": "1"])
        #expect(scan.decodes.count == 1 && scan.decodes.allSatisfy { $0.hasPrefix("libheif") }, "\(scan.decodes)")
        #expect((scan.records.first?["codes"] as? [[String: Any]])?.first?["text"] as? String == Self.text, "\(scan.records)")
    }

    /// libheif's encoder writes the orientation as irot/imir and an EXIF orientation beside it;
    /// libheif applies the first, MagickWand's coder does the same and reports orientation 1, so
    /// the EXIF tag is not applied again: each file loads upright, the same both ways, and the
    /// binary reads the code the same both ways.
    @Test(arguments: [(6, false), (3, false), (5, true)])
    func rotatedLoadsAsMagickWand(orientation: Int, avif: Bool) throws {
        let dir = try TempDir("heic-irot")
        let grey = try PNGDecoder.decodeGrey(try Self.bytes(try Self.canvas(dir)))
        try FileManager.default.createDirectory(atPath: dir.file("files"), withIntermediateDirectories: true)
        let path = dir.file("files/rotated.\(avif ? "avif" : "heic")")
        try Self.encode(grey, avif: avif, orientation: orientation, to: path)
        let turned = orientation >= 5
        try Self.expectLoadsAsMagickWand(
            path, format: avif ? .avif : .heic, width: turned ? 260 : 198, height: turned ? 198 : 260, "orientation \(orientation)")
        let direct = try DirectJPEGTests.scan(dir.file("files"), effort: "normal", env: ["CODESWEEP_TRACE": "1"])
        let magick = try DirectJPEGTests.scan(dir.file("files"), effort: "normal", env: ["CODESWEEP_JPEG_DECODER": "imagemagick"])
        #expect(direct.decodes.allSatisfy { $0.hasPrefix("libheif") } && direct.decodes.count == 1, "\(direct.decodes)")
        for (a, b) in zip(direct.records, magick.records) { DirectJPEGTests.expectSameRecord(a, b) }
        #expect((direct.records.first?["codes"] as? [[String: Any]])?.first?["text"] as? String == Self.text, "\(direct.records)")
    }

    /// `grey` as a HEIC (x265) or AVIF (aom), 4:2:0 with neutral chroma, through libheif's own
    /// encoder: `orientation` (EXIF's numbering) as its irot/imir boxes, and an EXIF block saying
    /// the same orientation.
    static func encode(_ grey: LumaImage, avif: Bool, orientation: Int, to path: String) throws {
        func check(_ e: heif_error, _ what: String) throws {
            if e.code != heif_error_Ok { throw ToolFailure("\(what): \(e.message.map { String(cString: $0) } ?? "?")") }
        }
        guard let context = heif_context_alloc() else { throw ToolFailure("no libheif context") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer? = nil
        try check(heif_context_get_encoder_for_format(context, avif ? heif_compression_AV1 : heif_compression_HEVC, &encoder), "encoder")
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, 92), "quality")
        var image: OpaquePointer? = nil
        let (w, h) = (grey.width, grey.height)
        try check(heif_image_create(Int32(w), Int32(h), heif_colorspace_YCbCr, heif_chroma_420, &image), "image")
        defer { heif_image_release(image) }
        for (channel, cw, ch) in [(heif_channel_Y, w, h), (heif_channel_Cb, (w + 1) / 2, (h + 1) / 2), (heif_channel_Cr, (w + 1) / 2, (h + 1) / 2)] {
            try check(heif_image_add_plane(image, channel, Int32(cw), Int32(ch), 8), "plane")
            var stride: Int32 = 0
            guard let p = heif_image_get_plane(image, channel, &stride) else { throw ToolFailure("no plane") }
            for y in 0..<ch {
                for x in 0..<cw { p[y * Int(stride) + x] = channel == heif_channel_Y ? grey.pixels[y * w + x] : 128 }
            }
        }
        let options = heif_encoding_options_alloc()
        defer { heif_encoding_options_free(options) }
        options?.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation))
        var handle: OpaquePointer? = nil
        try check(heif_context_encode_image(context, image, encoder, options, &handle), "encode")
        defer { heif_image_handle_release(handle) }
        // Big-endian TIFF, one IFD entry: Orientation (0x0112), SHORT, 1, the value.
        let exif: [UInt8] = [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation), 0, 0, 0, 0, 0, 0]
        try check(exif.withUnsafeBytes { heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count)) }, "exif")
        try check(heif_context_write_to_file(context, path), "write")
    }
}
