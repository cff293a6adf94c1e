import Foundation
import Records
import Reporting
import TestSupport
import Testing

/// `scan` on videos made here with ffmpeg (issue 61): every container and codec read with the
/// code's span; a code on screen for 0.5 s found; a code that leaves and comes back is two
/// entries; a phone's portrait video upright; a truncated file keeps its codes; no video stream
/// and sound only; --max-video-seconds; --timeout per second of video read; a video inside a ZIP;
/// --videos none.
@Suite("Videos: codes with their time on screen", .serialized)
struct VideoScanTests: SweepRuns {
    static let ffmpeg = "/usr/bin/ffmpeg"

    static func ffmpeg(_ args: [String]) throws { try run(ffmpeg, ["-v", "error", "-nostdin", "-y"] + args) }

    /// `seconds` of a white 640x360 screen (or testsrc2, moving, with `moving`) with code A shown
    /// over `a` and code B over `b` (each a closed interval of seconds, or several).
    static func clip(
        _ dir: TempDir, _ name: String, seconds: Double = 4, a: [(Double, Double)], b: [(Double, Double)] = [], codec: [String] = h264,
        moving: Bool = false, size: String = "640x360"
    ) throws -> String {
        let qa = dir.file("qa.png"), qb = dir.file("qb.png")
        try run(Tools.qrencode, ["-s", "6", "-o", qa, "code-A"])
        try run(Tools.qrencode, ["-s", "6", "-o", qb, "code-B"])
        func enable(_ spans: [(Double, Double)]) -> String { spans.map { "between(t,\($0.0),\($0.1))" }.joined(separator: "+") }
        let source = moving ? "testsrc2=size=\(size):rate=25:duration=\(seconds)" : "color=c=white:s=\(size):d=\(seconds):r=25"
        var filter = "[0][1]overlay=x=30:y=30:enable='\(enable(a))'[v]"
        if !b.isEmpty { filter = "[0][1]overlay=x=30:y=30:enable='\(enable(a))'[m];[m][2]overlay=x=330:y=30:enable='\(enable(b))'[v]" }
        let path = dir.file(name)
        try ffmpeg(["-f", "lavfi", "-i", source, "-i", qa, "-i", qb, "-filter_complex", filter, "-map", "[v]", "-an"] + codec + [path])
        return path
    }

    static let h264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"]

    static func scan(_ args: [String]) throws -> (status: Int32, records: [JSONValue], stderr: String) {
        let r = try run(codesweepBinary, ["scan", "-q"] + args, check: false)
        return (r.status, try Self.records(r.stdout), r.stderr)
    }

    /// Each code's text and its [first, last] seconds.
    static func spans(_ r: JSONValue?) -> [(String, [Double])] {
        (r?["codes"]?.arrayValue ?? []).map { ($0["text"]?.stringValue ?? "?", ($0["seconds"]?.arrayValue ?? []).compactMap(\.doubleValue)) }
    }

    @Test(
        "Each container and codec: the code read with its span",
        arguments: [
            ("mp4", h264), ("mov", h264), ("mkv", ["-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-x265-params", "log-level=error"]),
            ("webm", ["-c:v", "libvpx-vp9", "-b:v", "1M", "-deadline", "realtime", "-cpu-used", "8"]), ("webm", ["-c:v", "libvpx", "-b:v", "1M"]),
            ("avi", ["-c:v", "mpeg4", "-q:v", "3"]), ("ts", h264), ("mkv", ["-c:v", "libsvtav1", "-preset", "12"]),
        ])
    func containersAndCodecs(_ ext: String, _ codec: [String]) throws {
        let dir = try TempDir("video-codecs")
        let path = try Self.clip(dir, "clip.\(ext)", seconds: 3, a: [(1, 3)], codec: codec)
        let s = try Self.scan([path])
        #expect(s.status == 0, "\(s.stderr) \(s.records)")
        let spans = Self.spans(s.records.first)
        #expect(spans.map(\.0) == ["code-A"], "\(ext) \(codec): \(s.records)")
        if let t = spans.first?.1, t.count == 2 {
            #expect(abs(t[0] - 1) <= 0.3, "first seen at \(t[0])")
            #expect(t[1] >= 2.5, "last seen at \(t[1])")
        }
        let video = s.records.first?["video"]
        #expect(video?["width"]?.intValue == 640)
        #expect(video?["height"]?.intValue == 360)
        #expect(video?["codec"]?.stringValue != nil)
        #expect(video?["duration"]?.doubleValue.map { abs($0 - 3) < 0.2 } == true)
    }

    @Test("A code on screen for 0.5 s is found; one that leaves and comes back is two entries, each with its span")
    func shortAndTwoSpans() throws {
        let dir = try TempDir("video-spans")
        let path = try Self.clip(dir, "spans.mp4", seconds: 5, a: [(0.5, 1.5), (3.0, 4.0)], b: [(2.0, 2.5)])
        let s = try Self.scan([path])
        #expect(s.status == 0, "\(s.stderr)")
        let spans = Self.spans(s.records.first)
        #expect(spans.map(\.0) == ["code-A", "code-B", "code-A"], "\(spans)")
        guard spans.count == 3 else { return }
        #expect(spans[0].1.first.map { $0 >= 0.5 && $0 <= 0.8 } == true && spans[0].1.last.map { $0 >= 1.2 && $0 <= 1.5 } == true, "\(spans[0].1)")
        #expect(spans[1].1.count == 2 && spans[1].1[1] - spans[1].1[0] >= 0.2, "0.5 s on screen: seen at two samples at least, \(spans[1].1)")
        #expect(spans[2].1.first.map { $0 >= 3.0 && $0 <= 3.3 } == true, "\(spans[2].1)")
        // The samples of a still screen are not read again: fewer frames read than sampled.
        let video = s.records.first?["video"]
        #expect((video?["frames_read"]?.intValue ?? 99) < (video?["samples"]?.intValue ?? 0), "\(String(describing: video))")
    }

    @Test("A phone's portrait video (coded 640x360, rotated 90) reads upright as 360x640")
    func portrait() throws {
        let dir = try TempDir("video-portrait")
        let landscape = try Self.clip(dir, "land.mp4", seconds: 2, a: [(0, 2)])
        let portrait = dir.file("portrait.mp4")
        try Self.ffmpeg(["-i", landscape, "-c", "copy", "-metadata:s:v:0", "rotate=90", portrait])
        let s = try Self.scan([portrait])
        #expect(Self.spans(s.records.first).map(\.0) == ["code-A"])
        #expect(s.records.first?["width"]?.intValue == 360)
        #expect(s.records.first?["height"]?.intValue == 640)
        let corners = s.records.first?["codes"]?.arrayValue?.first?["corners"]?.arrayValue ?? []
        #expect(corners.allSatisfy { ($0.arrayValue?.first?.doubleValue ?? 999) <= 360 }, "corners in the upright frame: \(corners)")
    }

    @Test("A truncated video keeps the codes read before the damage; the record says where it broke")
    func truncated() throws {
        let dir = try TempDir("video-truncated")
        let whole = try Self.clip(dir, "whole.mkv", seconds: 8, a: [(0.5, 2)], b: [(6, 8)], moving: true)
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = dir.file("cut.mkv")
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        let s = try Self.scan([cut])
        #expect(s.status == 1)
        let r = s.records.first
        #expect(Self.spans(r).map(\.0) == ["code-A"])
        #expect(Self.kind(r ?? .null) == "truncated", "\(String(describing: r))")
    }

    @Test("No video stream: sound only in an MP4 brand M4A (skipped, saying so) and in a Matroska file (an error naming it)")
    func noVideo() throws {
        let dir = try TempDir("video-none")
        let m4a = dir.file("sound.m4a"), mka = dir.file("sound.mkv")
        try Self.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac", m4a])
        try Self.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "libvorbis", mka])
        let s = try Self.scan([m4a, mka])
        #expect(s.status == 1)
        #expect(s.records.count == 2)
        #expect(s.records[0]["error"]?["message"]?.stringValue?.contains("sound only") == true, "\(s.records[0])")
        #expect(s.records[1]["error"]?["message"]?.stringValue?.contains("no video stream") == true, "\(s.records[1])")
        // Walked, the M4A is not an input the sweep reads: no record.
        let walked = try Self.scan([dir.path])
        #expect(!walked.records.contains { $0["path"]?.stringValue?.hasSuffix(".m4a") == true })
    }

    @Test("--max-video-seconds caps the time read and the record says so; --timeout applies to each second of video read")
    func capAndTimeout() throws {
        let dir = try TempDir("video-cap")
        let path = try Self.clip(dir, "long.mp4", seconds: 40, a: [(1, 3)], b: [(30, 40)], moving: true)
        let capped = try Self.scan(["--max-video-seconds", "10", path])
        #expect(Self.spans(capped.records.first).map(\.0) == ["code-A"])
        #expect(capped.records.first?["video"]?["capped"]?.boolValue == true)
        #expect(capped.records.first?["warnings"]?.arrayValue?.contains { $0.stringValue?.contains("--max-video-seconds") == true } == true)
        // 160 moving samples take longer than 2 s to read, which no single second of video does.
        let whole = try Self.scan(["--isolation", "process", "--timeout", "2", path])
        #expect(whole.status == 0, "\(whole.records.first.map { "\($0["error"] ?? .null)" } ?? "") \(whole.stderr)")
        #expect(Self.spans(whole.records.first).map(\.0) == ["code-A", "code-B"])
    }

    @Test("A video inside a ZIP is read from memory as the walked one is; --videos none leaves videos alone")
    func inZipAndNone() throws {
        let dir = try TempDir("video-zip")
        let root = try dir.mkdir("case")
        let clip = try Self.clip(dir, "ad.webm", seconds: 2, a: [(0, 2)], codec: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"])
        try Containers.zip(root + "/ads.zip", [.init("final/ad.webm", from: clip)], stored: true)
        let s = try Self.scan([root])
        #expect(s.status == 0, "\(s.stderr)")
        let member = s.records.first { $0["member"] != nil }
        #expect(Self.spans(member).map(\.0) == ["code-A"], "\(s.records)")
        #expect(member?["video"]?["codec"]?.stringValue == "vp9")
        let loose = try Self.scan([clip])
        #expect(Self.spans(loose.records.first).map(\.1) == Self.spans(member).map(\.1))
        let none = try run(codesweepBinary, ["scan", "--videos", "none", clip], check: false)
        #expect(none.status == 1)
        #expect(none.stdout.contains("--videos none"))
    }

    @Test("An animated GIF of 200 frames with one code on each reports it once; two codes one after the other are two")
    func animatedGIF() throws {
        let dir = try TempDir("video-gif")
        let clip = try Self.clip(dir, "anim.mp4", seconds: 8, a: [(0, 8)], size: "320x240")
        let gif = dir.file("anim.gif")
        try Self.ffmpeg(["-i", clip, "-vf", "fps=25,scale=320:-1:flags=neighbor", gif])
        let s = try Self.scan([gif])
        #expect(s.status == 0, "\(s.stderr)")
        let r = s.records.first
        #expect((r?["frames"]?.intValue ?? 0) > 1, "\(String(describing: r))")
        #expect(r?["codes"]?.arrayValue?.compactMap { $0["text"]?.stringValue } == ["code-A"], "\(String(describing: r?["codes"]))")
        let two = try Self.clip(dir, "two.mp4", seconds: 2, a: [(0, 0.9)], b: [(1.1, 2)], size: "640x360")
        let gif2 = dir.file("two.gif")
        try Self.ffmpeg(["-i", two, "-vf", "fps=10", gif2])
        let t = try Self.scan([gif2])
        #expect(t.records.first?["codes"]?.arrayValue?.compactMap { $0["text"]?.stringValue } == ["code-A", "code-B"], "\(t.records)")
    }
}
