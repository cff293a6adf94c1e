import Foundation
import Imaging
import TestSupport
import Testing
import VideoBridge

/// Clips for the VideoBridge tests, made with Debian's ffmpeg CLI from lavfi sources: testsrc2
/// (a moving picture, so the encoders make real P- and B-frames) at 320x240, 25 fps, with a
/// qrencode code (6 px a module, a 2-module quiet zone) laid over it at (20, 20), from a chosen
/// time on.
enum VideoFixture {
    static let ffmpeg = "/usr/bin/ffmpeg"
    static let text = "https://www.example.com/video"
    static let origin = 20
    static let module = 6

    /// The code's picture and its grey pixels (what each module should look like in a frame).
    struct Code {
        var png: String
        var side: Int
        var grey: [UInt8]
    }

    static func code(_ dir: TempDir) throws -> Code {
        let png = dir.file("code.png")
        let side = try Make.qr(text, to: png, scale: module, margin: 2) + 4 * module
        let raw = dir.file("code.gray")
        try run(ffmpeg, ["-v", "error", "-nostdin", "-y", "-i", png, "-f", "rawvideo", "-pix_fmt", "gray", raw])
        let grey = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        guard grey.count == side * side else { throw ToolFailure("code.gray: \(grey.count) bytes for a \(side) px picture") }
        return Code(png: png, side: side, grey: grey)
    }

    /// ffmpeg with `arguments`, quiet unless it fails.
    static func ffmpeg(_ arguments: [String]) throws {
        try run(ffmpeg, ["-v", "error", "-nostdin", "-y"] + arguments)
    }

    /// A clip `name` in `dir`: `seconds` of testsrc2 with the code from `codeFrom` seconds on,
    /// encoded with `codec` (the encoder's arguments, the container from the name's extension).
    static func clip(
        _ dir: TempDir, _ code: Code, _ name: String, codec: [String], seconds: Double = 2, codeFrom: Double = 0, size: String = "320x240"
    ) throws -> String {
        let path = dir.file(name)
        try ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25:duration=\(seconds)", "-i", code.png, "-filter_complex",
                "[0][1]overlay=\(origin):\(origin):enable='gte(t,\(codeFrom))'", "-an",
            ] + codec + [path])
        return path
    }

    static let h264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"]

    /// How many of the code's modules a picture gets wrong: each module's centre, dark in the
    /// code, is dark (< 100) in `image` at the code's place, a light one light (> 155).
    static func wrongModules(_ image: LumaImage, _ code: Code, at x0: Int = origin, _ y0: Int = origin) -> Int {
        var wrong = 0
        for my in 0..<(code.side / module) {
            for mx in 0..<(code.side / module) {
                let cx = mx * module + module / 2, cy = my * module + module / 2
                let dark = code.grey[cy * code.side + cx] < 128
                let px = image[x0 + cx, y0 + cy]
                if dark ? px >= 100 : px <= 155 { wrong += 1 }
            }
        }
        return wrong
    }

    static func moduleCount(_ code: Code) -> Int { (code.side / module) * (code.side / module) }

    /// Every sample of `reader` at `interval`: after the last frame's time, or (`grid`) after the
    /// previous multiple of `interval`.
    static func samples(_ reader: VideoReader, interval: Double, grid: Bool = false) -> [VideoFrame] {
        var frames: [VideoFrame] = []
        while let frame = reader.next(after: grid ? frames.indices.last.map { Double($0) * interval } : frames.last?.seconds, interval: interval) {
            frames.append(frame)
        }
        return frames
    }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The error a reader of `path` throws, or nil when it opens.
    static func openingError(_ path: String) -> VideoError? {
        do {
            _ = try VideoReader(path: Array(path.utf8), maxSeconds: 100)
            return nil
        } catch {
            return error
        }
    }
}

extension VideoFixture {
    /// The error a reader of `bytes` in memory throws, or nil when it opens.
    static func openingError(bytes: [UInt8]) -> VideoError? {
        do {
            _ = try VideoReader(bytes: bytes, maxSeconds: 100)
            return nil
        } catch {
            return error
        }
    }
}
