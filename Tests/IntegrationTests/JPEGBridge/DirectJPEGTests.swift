import Foundation
import JPEGBridge
import MagickBridge
import TestSupport
import Testing

@testable import SweepCore

/// The direct JPEG path (libjpeg-turbo straight to grey, JPEGBridge) against MagickWand's: the
/// same photos, made here with ImageMagick, cjpeg and exiftool, loaded both ways and scanned by
/// the binary both ways (`CODESWEEP_JPEG_DECODER=imagemagick` forces MagickWand): same size,
/// orientation, metadata, warnings and codes (corners within a pixel); the files the direct path
/// declines (CMYK, 12-bit, arithmetic coding, truncated, broken) read as MagickWand reads them.
@Suite("Direct JPEG decoding")
struct DirectJPEGTests {
    /// The ways a photo is stored: `convert` options for the JPEG, and an EXIF orientation.
    static let kinds: [(name: String, options: [String], orientation: Int)] = [
        ("baseline-420", ["-sampling-factor", "2x2", "-quality", "88"], 1),
        ("baseline-444", ["-sampling-factor", "1x1", "-quality", "88"], 1),
        ("progressive", ["-interlace", "JPEG", "-quality", "85"], 1),
        ("grey", ["-colorspace", "Gray", "-quality", "90"], 1),
        ("exif6", ["-rotate", "270", "-quality", "88"], 6),
        ("exif8", ["-rotate", "90", "-interlace", "JPEG", "-quality", "88"], 8),
    ]

    /// A 2400x1800 photo-like scene (plasma, noise, blur) with a big and a small QR code; `fast`
    /// decodes it at 1/2, `normal` at full size.
    static func scene(_ dir: TempDir, name: String, options: [String], size: String = "2400x1800") throws -> String {
        let big = dir.file("big-\(name).png"), small = dir.file("small-\(name).png")
        try Make.qr("direct jpeg \(name) big", to: big, scale: 12, margin: 4)
        try Make.qr("direct jpeg \(name) small", to: small, scale: 5, margin: 4)
        let out = dir.file("photos/\(name).jpg")
        try FileManager.default.createDirectory(atPath: dir.file("photos"), withIntermediateDirectories: true)
        try Make.convert(
            [
                "-seed", "7", "-size", "160x120", "plasma:fractal", "-blur", "0x1", "-resize", "\(size)!",
                "-attenuate", "0.4", "+noise", "Gaussian", big, "-geometry", "+300+250", "-composite",
                small, "-geometry", "+1700+1300", "-composite", "-blur", "0x0.8",
            ] + options + [out])
        return out
    }

    /// Every kind of photo, made once per test process: the folder and the paths by kind.
    static let made = Task<(dir: TempDir, paths: [String: String]), Error> {
        let dir = try TempDir("direct-jpeg")
        return (dir, try photos(dir))
    }

    /// Writes every kind of photo (EXIF orientation and camera metadata set with exiftool).
    static func photos(_ dir: TempDir) throws -> [String: String] {
        var paths: [String: String] = [:]
        for kind in kinds {
            let path = try scene(dir, name: kind.name, options: kind.options)
            if kind.orientation != 1 {
                try run(
                    Tools.exiftool,
                    [
                        "-q", "-n", "-overwrite_original", "-Orientation=\(kind.orientation)", "-Make=CodeSweep",
                        "-Model=Direct \(kind.name)", "-DateTimeOriginal=2026:11:26 23:45:01", "-GPSLatitude=48.8584",
                        "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E", path,
                    ])
            }
            paths[kind.name] = path
        }
        // Odd sides: ImageMagick's jpeg:size asks libjpeg for 1/1 here, not 1/2 (2401 / 1201 < 2).
        paths["odd-size"] = try scene(dir, name: "odd-size", options: ["-quality", "88"], size: "2401x1801")
        return paths
    }

    static func load(_ path: String, _ jpeg: JPEGPath, minMegapixels: Double? = nil) throws -> LoadedImage {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return try ImageLoader.load(bytes, format: .jpeg, minMegapixels: minMegapixels, reduceToFit: true, jpeg: jpeg)
    }

    /// Loaded both ways at full size and reduced as `fast` and `normal` load them: the direct
    /// path decodes every kind, to the same size, scale, orientation, metadata and warnings, and
    /// pixels that differ from MagickWand's luma by rounding only.
    @Test func loadsAsMagickWandLoads() async throws {
        let paths = try await Self.made.value.paths
        for (name, path) in paths.sorted(by: { $0.key < $1.key }) {
            for mp: Double? in [nil, 1] {
                let direct = try Self.load(path, .direct, minMegapixels: mp)
                let magick = try Self.load(path, .imageMagick, minMegapixels: mp)
                let what = "\(name) at \(mp.map { "\($0) MP" } ?? "full size")"
                #expect(direct.decoder == .libjpegTurbo, "\(what)")
                #expect(magick.decoder == .imageMagick, "\(what)")
                #expect(direct.width == magick.width && direct.height == magick.height, "\(what)")
                #expect(direct.orientation == magick.orientation, "\(what)")
                #expect(direct.scale == magick.scale, "\(what): \(direct.scale) vs \(magick.scale)")
                #expect(direct.scale == (mp == nil || name == "odd-size" ? 1 : 0.5), "\(what): \(direct.scale)")
                #expect(direct.metadata == magick.metadata, "\(what)")
                #expect(direct.warnings == magick.warnings, "\(what)")
                let a = try #require(direct.frames.first), b = try #require(magick.frames.first)
                #expect(a.width == b.width && a.height == b.height, "\(what): \(a.width)x\(a.height) vs \(b.width)x\(b.height)")
                guard let diff = PixelDifference(a, b) else { continue }
                #expect(diff.mean < 1.0 && diff.worst <= 12, "\(what): mean difference \(diff.mean), largest \(diff.worst)")
            }
        }
        let exif = try Self.load(try #require(paths["exif6"]), .direct)
        #expect(exif.orientation == 6 && exif.width == 2400 && exif.height == 1800)
        #expect(exif.metadata?.cameraMake == "CodeSweep" && exif.metadata?.gps != nil)
        #expect(try Self.load(try #require(paths["odd-size"]), .direct, minMegapixels: 1).scale == 1)
    }

    /// The binary, run both ways over the same photos: the same records (mtime and timings
    /// aside), codes in the same order with corners within a pixel.
    @Test(arguments: ["fast", "normal"])
    func scansAsMagickWandScans(effort: String) async throws {
        let (dir, paths) = try await Self.made.value
        let direct = try Self.scan(dir.file("photos"), effort: effort, env: ["CODESWEEP_TRACE": "1"])
        let magick = try Self.scan(dir.file("photos"), effort: effort, env: ["CODESWEEP_JPEG_DECODER": "imagemagick", "CODESWEEP_TRACE": "1"])
        #expect(direct.records.count == paths.count && magick.records.count == paths.count)
        #expect(direct.decodes.filter { $0.hasPrefix("libjpeg-turbo") }.count >= paths.count, "\(direct.decodes)")
        #expect(magick.decodes.allSatisfy { $0.hasPrefix("ImageMagick") }, "\(magick.decodes)")
        for (a, b) in zip(direct.records, magick.records) {
            Self.expectSameRecord(a, b)
            let codes = a["codes"] as? [[String: Any]] ?? []
            #expect(codes.count == 2, "\(a["path"] ?? "?"): \(codes.count) codes")
        }
    }

    struct Scan { var records: [[String: Any]]; var decodes: [String] }

    static func scan(_ root: String, effort: String, env: [String: String], extra: [String] = []) throws -> Scan {
        let r = try run(
            codesweepBinary, ["scan", "-q", "--effort", effort, "--jobs", "1", "--isolation", "none"] + extra + [root], env: env,
            check: false)
        #expect(r.status == 0 || r.status == 1, "exit \(r.status): \(r.stderr.suffix(500))")
        let records = try TestJSON.lines(r.stdout).map { try #require($0.value as? [String: Any]) }
        let decodes = r.stderr.split(separator: "\n").filter { $0.hasPrefix("trace decode ") }.map { String($0.dropFirst(13)) }
        return Scan(records: records, decodes: decodes)
    }

    /// Every field but mtime and timings equal; codes equal but for corners, which may move by a pixel.
    static func expectSameRecord(_ a: [String: Any], _ b: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) {
        let path = a["path"] as? String ?? "?"
        func rest(_ r: [String: Any]) -> String {
            var r = r
            for key in ["mtime", "timings_ms", "codes"] { r[key] = nil }
            let data = try? JSONSerialization.data(withJSONObject: r, options: [.sortedKeys])
            return data.map { String(decoding: $0, as: UTF8.self) } ?? "?"
        }
        #expect(rest(a) == rest(b), "\(path)", sourceLocation: sourceLocation)
        let ca = a["codes"] as? [[String: Any]] ?? [], cb = b["codes"] as? [[String: Any]] ?? []
        #expect(ca.count == cb.count, "\(path): \(ca.count) codes vs \(cb.count)", sourceLocation: sourceLocation)
        for (x, y) in zip(ca, cb) {
            #expect(x["bytes_b64"] as? String == y["bytes_b64"] as? String, "\(path)", sourceLocation: sourceLocation)
            #expect(x["symbology"] as? String == y["symbology"] as? String, "\(path)", sourceLocation: sourceLocation)
            let px = (x["corners"] as? [[Double]] ?? []).flatMap { $0 }, py = (y["corners"] as? [[Double]] ?? []).flatMap { $0 }
            #expect(px.count == 8 && px.count == py.count, "\(path)", sourceLocation: sourceLocation)
            let off = zip(px, py).map { abs($0 - $1) }.max() ?? 0
            #expect(off <= 1.0, "\(path): corners \(off) px apart", sourceLocation: sourceLocation)
        }
    }
}
