import Foundation
import Imaging
import InputSources
import MagickBridge
import Records
import TestSupport
import Testing

@testable import CodeSweep

/// The one frame loop (issue 59) fed by a frame source made here: frames streamed one at a time
/// and read once; codes merged into spans; unchanged and flat frames skipped; a frame's notes,
/// page and the source's closing notes in the record; a source that fails part-way keeps what
/// was read; every code graded on its own frame, also when merged.
@Suite("The frame loop over a source made in the test")
struct FrameLoopTests {
    /// Frames given in order; fails with `failure` when asked for frame `failAt`.
    final class ScriptedFrames: ReadableFrames {
        let frames: [SourceFrame]
        var failAt: Int? = nil
        var given = 0
        var pixelRequests: [PixelRequest] = []
        init(_ frames: [SourceFrame]) { self.frames = frames }

        func next() throws(RecordError) -> SourceFrame? {
            if given == failAt { throw RecordError(.truncated, "the source broke at frame \(given)") }
            guard given < frames.count else { return nil }
            defer { given += 1 }
            return frames[given]
        }

        func pixels(of index: Int, _ request: PixelRequest) -> LumaImage? {
            pixelRequests.append(request)
            return nil
        }

        var closingNotes: [String] { ["closing note"] }
    }

    static let qr: [String: LumaImage] = {
        var out: [String: LumaImage] = [:]
        guard let dir = try? TempDir("frame-loop") else { return out }
        for text in ["frame-A", "frame-B"] {
            let path = dir.file(text + ".png")
            _ = try? run(Tools.qrencode, ["-s", "6", "-m", "4", "-o", path, text])
            if let bytes = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))),
                let image = try? ImageLoader.load(bytes, format: .png).frames.first
            {
                out[text] = image
            }
        }
        return out
    }()

    static func image(_ name: String) throws -> LumaImage { try #require(qr[name], "qrencode made no \(name)") }

    static func blank(like image: LumaImage) -> LumaImage {
        LumaImage(width: image.width, height: image.height, pixels: [UInt8](repeating: 250, count: image.pixelCount))
    }

    static func texts(_ record: FileRecord) -> [String] { record.codes.map { String(decoding: $0.bytes, as: UTF8.self) } }

    @Test("a video's samples: unchanged ones skipped, codes merged into spans with their seconds, the source asked frame by frame")
    func timedSpans() throws {
        let a = try Self.image("frame-A"), b = try Self.image("frame-B")
        let times = [0, 0.25, 0.5, 0.75, 1.0]
        let pictures = [a, a, Self.blank(like: a), b, b]
        let source = ScriptedFrames(zip(pictures, times).enumerated().map { SourceFrame($1.0, index: $0, seconds: $1.1) })
        var loop = FrameLoop(ScanSettings(), grader: nil)
        loop.skipsUnchanged = true
        loop.merge = .timedSpans
        var record = FileRecord(path: "video")
        loop.run(source, into: &record)
        #expect(Self.texts(record) == ["frame-A", "frame-B"])
        #expect(record.codes.map(\.seconds) == [[0, 0.25], [0.75, 1.0]])
        // The second A and the second B are unchanged: not read again, their spans go on.
        #expect(loop.framesGiven == 5 && loop.framesRead == 3 && source.given == 5)
        #expect(record.warnings == ["closing note"] && record.error == nil)
    }

    @Test("an animation's frames: spans without seconds; a multi-page picture's frames each their own codes")
    func framesWithoutTime() throws {
        let a = try Self.image("frame-A"), b = try Self.image("frame-B")
        let pictures = [a, a, b]
        var loop = FrameLoop(ScanSettings(), grader: nil)
        loop.merge = .spans
        var animated = FileRecord(path: "animation")
        loop.run(ScriptedFrames(pictures.enumerated().map { SourceFrame($1, index: $0) }), into: &animated)
        #expect(Self.texts(animated) == ["frame-A", "frame-B"] && animated.codes.allSatisfy { $0.seconds == nil })
        #expect(animated.codes.map(\.frame) == [0, 2] && loop.framesRead == 3)

        var pages = FrameLoop(ScanSettings(), grader: nil)
        var tiff = FileRecord(path: "pages")
        pages.run(ScriptedFrames(pictures.enumerated().map { SourceFrame($1, index: $0) }), into: &tiff)
        #expect(Self.texts(tiff) == ["frame-A", "frame-A", "frame-B"] && tiff.codes.map(\.frame) == [0, 1, 2])
    }

    @Test("a document's pages: each page and its notes in order, a flat page not read, the closing notes last")
    func pagesAndNotes() throws {
        let a = try Self.image("frame-A")
        let render = { (p: Int) in PageRender(page: p, widthPoints: 100, heightPoints: 100, dpi: 150, width: a.width, height: a.height) }
        let source = ScriptedFrames([
            SourceFrame(Self.blank(like: a), index: 0, page: render(0), notes: ["page 1 note"]),
            SourceFrame(a, index: 1, page: render(1), notes: ["page 2 note", "page 1 note"]),
        ])
        var loop = FrameLoop(ScanSettings(), grader: nil)
        loop.skipsFlat = true
        var record = FileRecord(path: "doc")
        loop.run(source, into: &record)
        #expect(record.pages.map(\.page) == [0, 1] && loop.framesRead == 1)
        #expect(record.warnings == ["page 1 note", "page 2 note", "closing note"])
        #expect(Self.texts(record) == ["frame-A"] && record.codes.first?.frame == 1)
    }

    @Test("a source that fails part-way: the frames read before keep their codes, the failure is the record's error")
    func failurePartWay() throws {
        let a = try Self.image("frame-A"), b = try Self.image("frame-B")
        let source = ScriptedFrames([SourceFrame(a, index: 0, seconds: 0), SourceFrame(b, index: 1, seconds: 0.25), SourceFrame(a, index: 2, seconds: 0.5)])
        source.failAt = 2
        var loop = FrameLoop(ScanSettings(), grader: nil)
        loop.merge = .timedSpans
        var record = FileRecord(path: "cut")
        loop.run(source, into: &record)
        #expect(Self.texts(record) == ["frame-A", "frame-B"])
        #expect(record.error?.kind == .truncated && record.error?.message == "the source broke at frame 2")
        #expect(record.warnings == ["closing note"])
    }

    @Test("grading: each code measured on its own frame, the measurement kept with its code through the merge")
    func grading() throws {
        let a = try Self.image("frame-A"), b = try Self.image("frame-B")
        // The frames differ in size, so a measurement says which frame it was made on.
        let wideB = LumaImage(
            width: b.width + 40, height: b.height,
            pixels: (0..<b.height).flatMap { y in b.pixels[(y * b.width)..<((y + 1) * b.width)] + [UInt8](repeating: 255, count: 40) })
        var settings = ScanSettings()
        settings.grade = true
        let grader = CodeGrader { code, image in .string("\(String(decoding: code.bytes, as: UTF8.self)) on \(image.width)") }
        var loop = FrameLoop(settings, grader: grader)
        loop.merge = .spans
        var record = FileRecord(path: "graded")
        let source = ScriptedFrames([SourceFrame(a, index: 0), SourceFrame(wideB, index: 1), SourceFrame(wideB, index: 2)])
        loop.run(source, into: &record)
        #expect(Self.texts(record) == ["frame-A", "frame-B"])
        #expect(record.measurements == [.string("frame-A on \(a.width)"), .string("frame-B on \(wideB.width)")])
        // Frames at full resolution (scale 1) are graded as they are: the source is not asked for more.
        #expect(source.pixelRequests.isEmpty)

        var reduced = FrameLoop(settings, grader: grader)
        var half = FileRecord(path: "reduced")
        let asked = ScriptedFrames([SourceFrame(a, index: 0, scale: 0.5)])
        reduced.run(asked, into: &half)
        // A reduced frame is graded at full resolution, which this source cannot give: a warning, no measurement.
        #expect(asked.pixelRequests.contains(.fullResolution))
        #expect(half.measurements == [nil] && half.warnings.contains("code 1 could not be graded: its frame did not decode at full resolution"))
    }
}
