import Foundation
import Imaging
import MagickBridge
import TestSupport
import Testing
import WebPBridge

/// libwebp straight to grey (`WebPDecoder`, the loader's direct WebP path) on WebPs ImageMagick
/// writes here from qrencode's PNGs: lossy and lossless, a code on a transparent background
/// (black under the transparency), an animated WebP and a truncated one (declined, read as
/// MagickWand reads them); MagickWand's grey to the pixel, the binary's records the same both
/// ways; the lossy luma plane (`LossySource.lumaPlane`) within a level or two of it.
@Suite("WebP decoding with libwebp")
struct WebPDecoderTests {
    static let text = "https://www.example.com/webp"

    /// A 300x300 white canvas with a qrencode code (6 px a module) at (40, 40), written as `name`
    /// with `options`; the symbol's modules and where the first module's centre lies.
    static func code(_ dir: TempDir, _ name: String, options: [String]) throws -> (path: String, modules: [[Bool]]) {
        let path = dir.file("files/" + name)
        try FileManager.default.createDirectory(atPath: dir.file("files"), withIntermediateDirectories: true)
        try Make.qr(Self.text, to: dir.file("q.png"), scale: 6, margin: 0)
        try Make.convert(["-size", "300x300", "xc:white", dir.file("q.png"), "-geometry", "+40+40", "-composite"] + options + [path])
        return (path, try PDFMaker.qrMatrix(Self.text))
    }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Every module's centre in `image`: dark ones at most `slack`, light ones at least 255 - `slack`.
    static func expectModules(_ image: LumaImage, _ modules: [[Bool]], slack: Int, _ what: String) {
        var wrong = 0
        for (y, row) in modules.enumerated() {
            for (x, dark) in row.enumerated() {
                let px = Int(image.pixels[(40 + y * 6 + 3) * image.width + 40 + x * 6 + 3])
                if dark ? px > slack : px < 255 - slack { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(what): \(wrong) modules off")
    }

    @Test("lossy and lossless WebPs decode to their modules, as MagickWand's luma, through libwebp")
    func lossyAndLossless() throws {
        let dir = try TempDir("webp")
        for (name, options, slack) in [
            ("lossy.webp", ["-quality", "85"], 40), ("lossless.webp", ["-define", "webp:lossless=true"], 0),
        ] {
            let (path, modules) = try Self.code(dir, name, options: options)
            let bytes = try Self.bytes(path)
            let features = try WebPDecoder.inspect(bytes)
            #expect(features.width == 300 && features.height == 300 && !features.animated && !features.hasAlpha, "\(name)")
            #expect(features.lossless == (name == "lossless.webp"), "\(name)")
            let grey = try WebPDecoder.decodeGrey(bytes)
            #expect(grey.width == 300 && grey.height == 300, "\(name)")
            Self.expectModules(grey, modules, slack: slack, name)
            let direct = try ImageLoader.load(bytes, format: .webp, jpeg: .direct)
            let magick = try ImageLoader.load(bytes, format: .webp, jpeg: .imageMagick)
            #expect(direct.decoder == .libwebp && magick.decoder == .imageMagick, "\(name)")
            #expect(direct.width == magick.width && direct.height == magick.height && direct.orientation == magick.orientation, "\(name)")
            #expect(direct.metadata == magick.metadata && direct.warnings == magick.warnings, "\(name)")
            // The same RGB from libwebp, weighed the same: MagickWand's grey to the pixel.
            let a = try #require(direct.frames.first), b = try #require(magick.frames.first)
            let diff = try #require(PixelDifference(a, b))
            #expect(diff.worst == 0, "\(name): \(diff)")
            // The luma plane: the same picture within a level or two (lossless: RGB all the same).
            let plane = try WebPDecoder.decodeGrey(bytes, lossy: .lumaPlane)
            Self.expectModules(plane, modules, slack: slack, "\(name), luma plane")
            let planeDiff = try #require(PixelDifference(plane, grey))
            #expect(planeDiff.worst <= (name == "lossless.webp" ? 0 : 2), "\(name): \(planeDiff)")
        }
    }

    /// Black modules on a transparent background whose colour is black too: read as luma alone
    /// the code would be black on black; composed over white it is the code.
    @Test("a code on a transparent background (black beneath) decodes black on white", arguments: ["lossy", "lossless"])
    func transparentBackground(kind: String) throws {
        let dir = try TempDir("webp-alpha")
        let options =
            ["-transparent", "white", "-background", "black", "-alpha", "background", "-define", "webp:exact=true"]
            + (kind == "lossless" ? ["-define", "webp:lossless=true"] : ["-quality", "90", "-define", "webp:alpha-quality=100"])
        let (path, modules) = try Self.code(dir, "\(kind)-alpha.webp", options: options)
        // Without its alpha the picture is black: the test means something.
        let mean = try run("/usr/bin/convert", [path, "-alpha", "off", "-colorspace", "Gray", "-format", "%[fx:mean]", "info:"]).stdout
        #expect((Double(mean) ?? 1) < 0.05, "mean without alpha: \(mean)")
        let bytes = try Self.bytes(path)
        #expect(try WebPDecoder.inspect(bytes).hasAlpha)
        let grey = try WebPDecoder.decodeGrey(bytes)
        Self.expectModules(grey, modules, slack: kind == "lossless" ? 0 : 40, kind)
        #expect(grey.pixels[5 * 300 + 5] == 255 && grey.pixels[295 * 300 + 295] == 255, "the background is white")
        let direct = try ImageLoader.load(bytes, format: .webp, jpeg: .direct)
        let magick = try ImageLoader.load(bytes, format: .webp, jpeg: .imageMagick)
        #expect(direct.decoder == .libwebp)
        let a = try #require(direct.frames.first), b = try #require(magick.frames.first)
        let diff = try #require(PixelDifference(a, b))
        #expect(diff.worst == 0, "\(kind): \(diff)")
        let plane = try WebPDecoder.decodeGrey(bytes, lossy: .lumaPlane)
        Self.expectModules(plane, modules, slack: kind == "lossless" ? 0 : 40, "\(kind), luma plane")
        #expect(plane.pixels[5 * 300 + 5] == 255, "the luma plane's background is white too")
        let scan = try DirectJPEGTests.scan(dir.file("files"), effort: "normal", env: ["CODESWEEP_TRACE": "1"])
        #expect(scan.decodes.allSatisfy { $0.hasPrefix("libwebp") } && !scan.decodes.isEmpty, "\(scan.decodes)")
        let codes = scan.records.first?["codes"] as? [[String: Any]] ?? []
        #expect(codes.map { $0["text"] as? String } == [Self.text], "\(scan.records)")
    }

    /// An animated WebP (two frames) and a truncated one: libwebp declines both with the reason;
    /// the loader reads the animation's frames with MagickWand, and the truncated file gives the
    /// error MagickWand gives (a record with status error and a message, no crash).
    @Test func animatedAndTruncatedAreDeclined() throws {
        let dir = try TempDir("webp-declined")
        let (lossy, _) = try Self.code(dir, "one.webp", options: ["-quality", "85"])
        let animated = dir.file("files/animated.webp")
        try Make.convert([lossy, "(", lossy, "-negate", ")", "-loop", "0", animated])
        let anim = try Self.bytes(animated)
        #expect(try WebPDecoder.inspect(anim).animated)
        do {
            _ = try WebPDecoder.decodeGrey(anim)
            Issue.record("an animated WebP decoded")
        } catch {
            #expect(error.reason.contains("animated"), "\(error.reason)")
        }
        let frames = try ImageLoader.load(anim, format: .webp, jpeg: .direct)
        #expect(frames.decoder == .imageMagick && frames.frames.count == 2)

        let whole = try Self.bytes(lossy)
        let cut = Array(whole.prefix(whole.count / 2))
        try Data(cut).write(to: URL(fileURLWithPath: dir.file("files/truncated.webp")))
        #expect(throws: WebPDecoder.Declined.self) { _ = try WebPDecoder.decodeGrey(cut) }
        // A RIFF size that holds, over a picture cut short: libwebp's own decode stops.
        var short = Array(whole.prefix(whole.count * 2 / 3))
        let riff = short.count - 8
        for k in 0..<4 { short[4 + k] = UInt8(truncatingIfNeeded: riff >> (8 * k)) }
        #expect(throws: WebPDecoder.Declined.self) { _ = try WebPDecoder.decodeGrey(short) }
        for broken in [cut, short] {
            do {
                let loaded = try ImageLoader.load(broken, format: .webp, jpeg: .direct)
                #expect(loaded.decoder == .imageMagick, "a broken WebP read by \(loaded.decoder)")
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
        let scan = try DirectJPEGTests.scan(dir.file("files"), effort: "normal", env: ["CODESWEEP_TRACE": "1"])
        var byName: [String: [String: Any]] = [:]
        for r in scan.records { byName[URL(fileURLWithPath: r["path"] as? String ?? "").lastPathComponent] = r }
        #expect(byName["truncated.webp"]?["status"] as? String == "error", "\(scan.records)")
        #expect((byName["animated.webp"]?["frames"] as? Int) == 2, "\(scan.records)")
        #expect(byName["one.webp"]?["status"] as? String == "ok")
    }

    /// The binary both ways (`CODESWEEP_JPEG_DECODER=imagemagick` forces MagickWand) over lossy,
    /// lossless, transparent and EXIF-tagged WebPs: the same records, codes and all (corners
    /// within a pixel); the direct run's trace shows libwebp's decodes.
    @Test func scansAsMagickWandScans() throws {
        let dir = try TempDir("webp-scan")
        _ = try Self.code(dir, "lossy.webp", options: ["-quality", "80"])
        _ = try Self.code(dir, "lossless.webp", options: ["-define", "webp:lossless=true"])
        _ = try Self.code(dir, "alpha.webp", options: ["-transparent", "white", "-quality", "90"])
        let (tagged, _) = try Self.code(dir, "exif.webp", options: ["-quality", "80"])
        try run(Tools.exiftool, ["-q", "-overwrite_original", "-Make=CodeSweep", "-DateTimeOriginal=2026:12:01 21:00:00", tagged])
        #expect(try WebPDecoder.inspect(try Self.bytes(tagged)).hasMetadata)
        let direct = try DirectJPEGTests.scan(dir.file("files"), effort: "normal", env: ["CODESWEEP_TRACE": "1"])
        let magick = try DirectJPEGTests.scan(dir.file("files"), effort: "normal", env: ["CODESWEEP_JPEG_DECODER": "imagemagick"])
        #expect(direct.records.count == 4 && magick.records.count == 4)
        #expect(direct.decodes.filter { $0.hasPrefix("libwebp") }.count == 4, "\(direct.decodes)")
        for (a, b) in zip(direct.records, magick.records) {
            DirectJPEGTests.expectSameRecord(a, b)
            #expect((a["codes"] as? [[String: Any]])?.first?["text"] as? String == Self.text, "\(a)")
        }
    }
}
