import Foundation
import Imaging
import TestSupport
import Testing
import VideoBridge

/// What bounds a `VideoReader`: the maxSeconds cap, damage (a file cut in half keeps the frames
/// before the cut and says where), files without a video stream, formats and codecs off the
/// whitelist; and a video in memory read as the same file on disk.
@Suite("Video frames through FFmpeg: bounds, damage, refusals")
struct VideoBridgeLimitTests {
    @Test("maxSeconds stops reading before the frame at that time and says so")
    func cap() throws {
        let dir = try TempDir("video-cap")
        let code = try VideoFixture.code(dir)
        let path = try VideoFixture.clip(dir, code, "cap.mp4", codec: VideoFixture.h264, seconds: 4)
        let capped = try VideoReader(path: Array(path.utf8), maxSeconds: 1.5)
        let frames = VideoFixture.samples(capped, interval: 0.25, grid: true)
        #expect(frames.map { Int(($0.seconds * 100).rounded()) } == [0, 28, 52, 76, 100, 128], "\(frames.map(\.seconds))")
        #expect(capped.capped && capped.damage == nil)
        #expect(VideoFixture.wrongModules(try #require(frames.last).image, code) == 0)
        let whole = try VideoReader(path: Array(path.utf8), maxSeconds: 4.5)
        #expect(VideoFixture.samples(whole, interval: 0.25, grid: true).count == 16)
        #expect(!whole.capped && whole.damage == nil)
    }

    /// An MP4 with its index first (`-movflags +faststart`, as a streamed clip has it) and a
    /// Matroska file, each cut at half its bytes: the frames before the cut are read, then
    /// `damage` says where it broke (the MP4's demuxer flags the part-read packet; the Matroska
    /// one ends cleanly, short of the duration its header declares). An MPEG-TS declares no
    /// duration: one cut where a packet ends reads as whole.
    @Test(
        "a file cut in half keeps the frames before the cut and says where it broke",
        arguments: [("cut.mp4", "corrupt data after"), ("cut.mkv", "truncated")])
    func truncated(name: String, says: String) throws {
        let dir = try TempDir("video-cut")
        let code = try VideoFixture.code(dir)
        let path = try VideoFixture.clip(dir, code, name, codec: VideoFixture.h264 + (name.hasSuffix(".mp4") ? ["-movflags", "+faststart"] : []), seconds: 4)
        let bytes = try VideoFixture.bytes(path)
        try dir.write("half-" + name, Array(bytes.prefix(bytes.count / 2)))
        let reader = try VideoReader(path: Array(dir.file("half-" + name).utf8), maxSeconds: 100)
        #expect(abs((reader.info.duration ?? 0) - 4) < 0.1, "\(reader.info)")
        let frames = VideoFixture.samples(reader, interval: 0.25, grid: true)
        #expect(frames.count >= 4 && frames.count < 14, "\(name): \(frames.map(\.seconds))")
        for frame in frames { #expect(VideoFixture.wrongModules(frame.image, code) == 0, "\(name) at \(frame.seconds) s") }
        let damage = try #require(reader.damage, "\(name): no damage reported")
        #expect(damage.contains(says), "\(damage)")
        #expect(!reader.capped)
    }

    /// A tenth of the bytes in the middle of a 4 s clip overwritten with noise: the frames before
    /// it show the code, and `damage` says where it began (a packet the decoder refuses or the
    /// demuxer flags, a frame with errors concealed). The MP4's and the MPEG-TS's demuxers go on
    /// past it; the Matroska one stops there.
    @Test(
        "noise in the middle of a file keeps the frames before it and says where it began",
        arguments: [("noise.mp4", "corrupt data", true), ("noise.ts", "corrupt data", true), ("noise.mkv", "corrupt", false)])
    func noise(name: String, says: String, goesOn: Bool) throws {
        let dir = try TempDir("video-noise")
        let code = try VideoFixture.code(dir)
        let path = try VideoFixture.clip(dir, code, name, codec: VideoFixture.h264 + (name.hasSuffix(".mp4") ? ["-movflags", "+faststart"] : []), seconds: 4)
        var bytes = try VideoFixture.bytes(path)
        var rand = SplitMix(seed: 61)
        for i in (bytes.count * 45 / 100)..<(bytes.count * 55 / 100) { bytes[i] = UInt8(truncatingIfNeeded: rand.next()) }
        try dir.write("noisy-" + name, bytes)
        let reader = try VideoReader(path: Array(dir.file("noisy-" + name).utf8), maxSeconds: 100)
        let frames = VideoFixture.samples(reader, interval: 0.25, grid: true)
        let damage = try #require(reader.damage, "\(name): no damage reported")
        #expect(damage.contains(says), "\(damage)")
        for frame in frames where frame.seconds < 1 { #expect(VideoFixture.wrongModules(frame.image, code) == 0, "\(name) at \(frame.seconds) s") }
        #expect(frames.count >= 4, "\(name): \(frames.map(\.seconds))")
        #expect(goesOn == (frames.last.map { $0.seconds > 3 } ?? false), "\(name): \(frames.map(\.seconds))")
    }

    @Test("what is no video at all: empty and random bytes are corrupt, a missing file unreadable")
    func notAVideo() throws {
        var rand = SplitMix(seed: 7)
        let noise = (0..<100_000).map { _ in UInt8(truncatingIfNeeded: rand.next()) }
        for bytes in [[], noise] {
            let error = try #require(VideoFixture.openingError(bytes: bytes))
            #expect(error.kind == .corrupt && error.message.hasPrefix("not a recognised container"), "\(error)")
        }
        let dir = try TempDir("video-missing")
        let missing = try #require(VideoFixture.openingError(dir.file("gone.mp4")))
        #expect(missing.kind == .unreadable && missing.message == "cannot open the file: No such file or directory", "\(missing)")
    }

    /// An MP4 as ffmpeg writes it by default keeps its index (moov) at the end: cut in half, it
    /// has no index at all, and does not open.
    @Test("an MP4 cut before its index does not open, with FFmpeg's reason")
    func cutBeforeIndex() throws {
        let dir = try TempDir("video-cut-index")
        let code = try VideoFixture.code(dir)
        let bytes = try VideoFixture.bytes(try VideoFixture.clip(dir, code, "whole.mp4", codec: VideoFixture.h264, seconds: 2))
        try dir.write("half.mp4", Array(bytes.prefix(bytes.count / 2)))
        let error = try #require(VideoFixture.openingError(dir.file("half.mp4")))
        #expect(error.kind == .corrupt && error.message.contains("Invalid data"), "\(error)")
    }

    @Test(
        "a file with no video stream is notVideo, saying what it holds",
        arguments: [("sine.m4a", ["-c:a", "aac"], "aac"), ("sine.mkv", ["-c:a", "libvorbis"], "vorbis"), ("wave.mov", ["-c:a", "pcm_s16le"], "pcm_s16le")])
    func noVideo(name: String, encoder: [String], codec: String) throws {
        let dir = try TempDir("video-audio")
        try VideoFixture.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=1"] + encoder + [dir.file(name)])
        let error = try #require(VideoFixture.openingError(dir.file(name)), "\(name) opened")
        #expect(error.kind == .notVideo, "\(error)")
        #expect(error.message == "no video stream: the file holds audio (\(codec))", "\(error)")
        let fromBytes = try #require(VideoFixture.openingError(bytes: try VideoFixture.bytes(dir.file(name))))
        #expect(fromBytes == error)
    }

    /// FLV and GIF (demuxers off the whitelist, refused after probing, before they open) and
    /// MPEG-2 video in an MPEG-TS (a codec off it), from a path and from bytes.
    @Test(
        "a format or a codec off the whitelist is unsupported",
        arguments: [
            ("clip.flv", [String](), "the flv format"), ("clip.gif", [], "the gif format"),
            ("mpeg2.ts", ["-c:v", "mpeg2video"], "mpeg2video video is not a codec"),
        ])
    func unsupported(name: String, encoder: [String], says: String) throws {
        let dir = try TempDir("video-refused")
        try VideoFixture.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=1"] + encoder + [dir.file(name)])
        let error = try #require(VideoFixture.openingError(dir.file(name)), "\(name) opened")
        #expect(error.kind == .unsupported && error.message.contains(says), "\(error)")
        let fromBytes = try #require(VideoFixture.openingError(bytes: try VideoFixture.bytes(dir.file(name))))
        #expect(fromBytes == error)
    }

    /// A video in memory (an archive's member) through the custom AVIOContext: the same
    /// description, samples, times and pixels as the file read from its path.
    @Test("bytes in memory give the frames the path gives", arguments: ["memory.mp4", "memory.webm", "memory.ts"])
    func bytesAsPath(name: String) throws {
        let dir = try TempDir("video-bytes")
        let code = try VideoFixture.code(dir)
        let encoder = name.hasSuffix(".webm") ? ["-c:v", "libvpx-vp9", "-b:v", "1M"] : VideoFixture.h264
        let path = try VideoFixture.clip(dir, code, name, codec: encoder, seconds: 3, codeFrom: 1)
        let fromPath = try VideoReader(path: Array(path.utf8), maxSeconds: 100)
        let fromBytes = try VideoReader(bytes: try VideoFixture.bytes(path), maxSeconds: 100)
        #expect(fromPath.info == fromBytes.info)
        let a = VideoFixture.samples(fromPath, interval: 0.25), b = VideoFixture.samples(fromBytes, interval: 0.25)
        #expect(a.count >= 10 && a.map(\.seconds) == b.map(\.seconds), "\(a.map(\.seconds)) against \(b.map(\.seconds))")
        #expect(a.map(\.image) == b.map(\.image))
        #expect(VideoFixture.wrongModules(try #require(b.last).image, code) == 0)
    }
}
