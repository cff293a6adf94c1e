import Foundation
import Imaging
import TestSupport
import Testing
import VideoBridge

/// FFmpeg's libraries as a frame source (`VideoReader`): each container and codec of issue 61
/// decoded to the code laid over the clip, the display rotation as ffmpeg applies it, the sample
/// times, the cap, damage, files without video and formats off the whitelist, bytes read as the
/// path is. Clips are made here with the ffmpeg CLI (VideoFixtures.swift).
@Suite("Video frames through FFmpeg")
struct VideoBridgeTests {
    /// The clip's frames at 0.5 s: 0, 0.52, 1.04 and 1.56 of a 2 s clip, each with the code.
    static func expectCodeInEveryFrame(_ reader: VideoReader, _ code: VideoFixture.Code, _ what: String) {
        let frames = VideoFixture.samples(reader, interval: 0.5)
        #expect(frames.map(\.index) == [0, 1, 2, 3], "\(what): \(frames.map(\.seconds))")
        #expect(frames.first?.seconds == 0, "\(what)")
        for frame in frames {
            #expect(frame.image.width == 320 && frame.image.height == 240, "\(what)")
            #expect(VideoFixture.wrongModules(frame.image, code) == 0, "\(what) at \(frame.seconds) s")
        }
        #expect(reader.damage == nil && !reader.capped, "\(what): \(reader.damage ?? "")")
    }

    @Test(
        "each container opens and decodes to the code",
        arguments: [
            ("clip.mp4", "mov,mp4,m4a,3gp,3g2,mj2", "h264"), ("clip.mov", "mov,mp4,m4a,3gp,3g2,mj2", "h264"), ("clip.mkv", "matroska,webm", "h264"),
            ("clip.webm", "matroska,webm", "vp9"),
            ("clip.avi", "avi", "mpeg4"), ("clip.ts", "mpegts", "h264"),
        ])
    func containers(name: String, demuxer: String, codec: String) throws {
        let dir = try TempDir("video-container")
        let code = try VideoFixture.code(dir)
        let encoder =
            switch codec {
            case "vp9": ["-c:v", "libvpx-vp9", "-b:v", "1M"]
            case "mpeg4": ["-c:v", "mpeg4", "-q:v", "3"]
            default: VideoFixture.h264
            }
        let path = try VideoFixture.clip(dir, code, name, codec: encoder)
        let reader = try VideoReader(path: Array(path.utf8), maxSeconds: 100)
        #expect(reader.info.container == demuxer && reader.info.codec == codec, "\(name): \(reader.info)")
        #expect(reader.info.width == 320 && reader.info.height == 240 && reader.info.rotation == 0 && reader.info.bitDepth == 8, "\(name)")
        #expect(abs((reader.info.duration ?? 0) - 2) < 0.1 && abs((reader.info.frameRate ?? 0) - 25) < 0.01, "\(name): \(reader.info)")
        Self.expectCodeInEveryFrame(reader, code, name)
    }

    @Test(
        "each codec decodes to the code, 10-bit HEVC and VP9 brought to 8 bits, RGB through libswscale",
        arguments: [
            ("h264.mp4", "h264", 8, VideoFixture.h264),
            ("hevc.mp4", "hevc", 8, ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-tag:v", "hvc1", "-x265-params", "log-level=error"]),
            ("hevc10.mp4", "hevc", 10, ["-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1", "-x265-params", "log-level=error"]),
            ("vp8.webm", "vp8", 8, ["-c:v", "libvpx", "-b:v", "1M"]),
            ("vp9.webm", "vp9", 8, ["-c:v", "libvpx-vp9", "-b:v", "1M"]),
            ("vp9-10.webm", "vp9", 10, ["-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p10le", "-b:v", "1M"]),
            // libx264rgb: planar GBR, no luma plane to copy, so grey comes through libswscale.
            ("rgb.mkv", "h264", 8, ["-c:v", "libx264rgb", "-preset", "veryfast"]),
            ("av1.mkv", "av1", 8, ["-c:v", "libsvtav1", "-preset", "12", "-svtav1-params", "lp=1"]),
            ("mpeg4.mp4", "mpeg4", 8, ["-c:v", "mpeg4", "-q:v", "3"]),
        ])
    func codecs(name: String, codec: String, depth: Int, encoder: [String]) throws {
        let dir = try TempDir("video-codec")
        let code = try VideoFixture.code(dir)
        let path = try VideoFixture.clip(dir, code, name, codec: encoder)
        let reader = try VideoReader(path: Array(path.utf8), maxSeconds: 100)
        #expect(reader.info.codec == codec && reader.info.bitDepth == depth, "\(name): \(reader.info)")
        Self.expectCodeInEveryFrame(reader, code, name)
    }

    /// A display matrix written on a stream copy (`-metadata:s:v:0 rotate=N`, which FFmpeg 5.1
    /// keeps only when it does not encode): the frames are turned as ffmpeg itself turns them
    /// (its autorotation, the Y plane extracted), and the size is the upright one.
    @Test("a display rotation turns the frames as ffmpeg does", arguments: [90, 180, 270])
    func rotation(tag: Int) throws {
        let dir = try TempDir("video-rotation")
        let code = try VideoFixture.code(dir)
        let plain = try VideoFixture.clip(dir, code, "plain.mp4", codec: VideoFixture.h264, seconds: 1)
        let turned = dir.file("turned.mp4")
        try VideoFixture.ffmpeg(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=\(tag)", turned])
        let reader = try VideoReader(path: Array(turned.utf8), maxSeconds: 100)
        let upright = tag % 180 == 0 ? (320, 240) : (240, 320)
        // FFmpeg 5.1 stores `rotate=N` as a counter-clockwise turn of N for display.
        #expect(reader.info.rotation == (360 - tag) % 360, "\(reader.info)")
        #expect(reader.info.width == upright.0 && reader.info.height == upright.1, "\(reader.info)")
        let frame = try #require(reader.next(after: nil, interval: 0.25))
        #expect(frame.image.width == upright.0 && frame.image.height == upright.1)
        let raw = dir.file("ffmpeg.gray")
        try VideoFixture.ffmpeg(["-i", turned, "-frames:v", "1", "-vf", "extractplanes=y", "-f", "rawvideo", raw])
        #expect(frame.image.pixels == (try VideoFixture.bytes(raw)), "not the picture ffmpeg shows")
        let stored = try #require(try VideoReader(path: Array(plain.utf8), maxSeconds: 100).next(after: nil, interval: 0.25))
        #expect(frame.image.pixels != stored.image.pixels)
    }

    /// A 4 s clip at 25 fps with the code from 1 s on, sampled every 0.25 s: chained on the
    /// frames' own times (each sample 0.25 s to a frame more after the last), and on the grid
    /// (within a frame after each multiple of 0.25); every time is a frame's (a multiple of 0.04),
    /// and the code is in exactly the samples from 1 s on.
    @Test("samples at 0.25 s on a 25 fps clip come at their times and show what is on screen then")
    func sampleTimes() throws {
        let dir = try TempDir("video-times")
        let code = try VideoFixture.code(dir)
        let path = try VideoFixture.clip(dir, code, "times.mp4", codec: VideoFixture.h264, seconds: 4, codeFrom: 1)
        let chained = VideoFixture.samples(try VideoReader(path: Array(path.utf8), maxSeconds: 100), interval: 0.25)
        #expect(chained.first?.seconds == 0)
        for (a, b) in zip(chained, chained.dropFirst()) {
            #expect(b.seconds - a.seconds > 0.25 - 1e-6 && b.seconds - a.seconds < 0.29 + 1e-6, "\(a.seconds) then \(b.seconds)")
        }
        let grid = VideoFixture.samples(try VideoReader(path: Array(path.utf8), maxSeconds: 100), interval: 0.25, grid: true)
        #expect(grid.count == 16, "\(grid.map(\.seconds))")
        for (k, frame) in grid.enumerated() {
            #expect(frame.index == k)
            #expect(frame.seconds >= Double(k) * 0.25 - 1e-6 && frame.seconds < Double(k) * 0.25 + 0.04, "sample \(k) at \(frame.seconds)")
        }
        let all = VideoFixture.moduleCount(code)
        for frame in chained + grid {
            #expect(abs(frame.seconds * 25 - (frame.seconds * 25).rounded()) < 1e-6, "\(frame.seconds) is no frame's time")
            let wrong = VideoFixture.wrongModules(frame.image, code)
            if frame.seconds >= 1 {
                #expect(wrong == 0, "the code at \(frame.seconds) s: \(wrong) modules wrong")
            } else {
                #expect(wrong > all / 5, "no code yet at \(frame.seconds) s: only \(wrong) of \(all) modules differ")
            }
        }
    }

    /// Skipping the non-reference frames before a sample is due loses none: the same samples,
    /// the same pixels, as decoding every frame (x264's B-frames, most not referenced).
    @Test("skipping non-reference frames gives the samples decoding every frame does")
    func skippingKeepsSamples() throws {
        let dir = try TempDir("video-skip")
        let code = try VideoFixture.code(dir)
        let path = try VideoFixture.clip(dir, code, "skip.mkv", codec: VideoFixture.h264 + ["-bf", "3"], seconds: 4, codeFrom: 1)
        let skipping = try VideoReader(path: Array(path.utf8), maxSeconds: 100)
        let full = try VideoReader(path: Array(path.utf8), maxSeconds: 100)
        full.skipsNonReference = false
        let a = VideoFixture.samples(skipping, interval: 0.25), b = VideoFixture.samples(full, interval: 0.25)
        #expect(a.count == 15 && a.map(\.seconds) == b.map(\.seconds), "\(a.map(\.seconds)) against \(b.map(\.seconds))")
        #expect(a.map(\.image) == b.map(\.image))
    }
}
