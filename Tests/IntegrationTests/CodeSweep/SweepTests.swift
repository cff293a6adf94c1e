import Foundation
import Records
import Reporting
import TestSupport
import Testing

@testable import CodeSweep
@testable import FileWalker
@testable import SweepCore

/// The library's sweep: walking, error records, deterministic order, and the bundled samples.
@Suite("Sweep")
struct SweepTests {
    /// A folder with good images, a corrupt and an empty file, a non-image, and subfolders.
    static func mixedFolder(_ dir: TempDir) throws -> String {
        let root = try dir.mkdir("tree")
        try dir.mkdir("tree/b-sub")
        try dir.mkdir("tree/a-sub/deeper")
        _ = try Make.qrOnCanvas("first", in: dir, name: "tree/a.png", width: 200, height: 160, at: 10, 10)
        _ = try Make.qrOnCanvas("deep", in: dir, name: "tree/a-sub/deeper/z.jpg", width: 200, height: 160, at: 50, 20)
        _ = try Make.qrOnCanvas("sub b", in: dir, name: "tree/b-sub/x.gif", width: 200, height: 160, at: 30, 10)
        try Make.convert(["-size", "120x90", "gradient:white-gray", dir.file("tree/c-nocode.png")])
        // A truncated-to-nothing JPEG body and an empty file, both named like images.
        try dir.write("tree/broken.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0garbage garbage garbage".utf8))
        try dir.write("tree/empty.png", [])
        // Not an image, not named like one: skipped quietly when found by walking.
        try dir.write("tree/notes.txt", Array("hello".utf8))
        for i in 0..<6 {
            _ = try Make.qrOnCanvas("many \(i)", in: dir, name: "tree/m\(i).png", width: 160, height: 160, at: 10 + i * 3, 10)
        }
        return root
    }

    static let expectedOrder = [
        "a-sub/deeper/z.jpg", "a.png", "b-sub/x.gif", "broken.jpg", "c-nocode.png", "empty.png",
        "m0.png", "m1.png", "m2.png", "m3.png", "m4.png", "m5.png",
    ]

    @Test func errorsAreRecordsAndTheOtherFilesAreStillReported() async throws {
        let dir = try TempDir()
        let root = try Self.mixedFolder(dir)
        let records = await Library.sweep([root], jobs: 2)
        #expect(records.map { String($0.path.dropFirst(root.count + 1)) } == Self.expectedOrder)
        let byName = Dictionary(uniqueKeysWithValues: records.map { (String($0.path.dropFirst(root.count + 1)), $0) })

        let broken = try #require(byName["broken.jpg"])
        #expect(broken.status == .error)
        #expect([ErrorKind.corrupt, .truncated].contains(broken.error?.kind))
        #expect(broken.codes.isEmpty)
        #expect(broken.error?.message.isEmpty == false)

        let empty = try #require(byName["empty.png"])
        #expect(empty.status == .error && empty.error?.kind == .empty)
        #expect(empty.size == 0)

        let nocode = try #require(byName["c-nocode.png"])
        #expect(nocode.status == .ok && nocode.codes.isEmpty && nocode.width == 120 && nocode.height == 90)

        #expect(byName["a.png"]?.codes.map(\.text) == ["first"])
        #expect(byName["a-sub/deeper/z.jpg"]?.codes.map(\.text) == ["deep"])
        #expect(byName["b-sub/x.gif"]?.codes.map(\.text) == ["sub b"])
        for i in 0..<6 { #expect(byName["m\(i).png"]?.codes.map(\.text) == ["many \(i)"]) }
        // Every record carries the file's size and mtime.
        for r in records { #expect(r.size != nil && r.mtime != nil, "\(r.path)") }
    }

    @Test func explicitNonImagesAreReportedWalkedOnesSkipped() throws {
        let dir = try TempDir()
        try dir.write("notes.txt", Array("plain text".utf8))
        try dir.write("draw.mvg", Array("push graphic-context\nviewbox 0 0 10 10\npop graphic-context\n".utf8))
        let explicit = try Library.file(dir.file("notes.txt"))
        #expect(explicit.status == .error && explicit.error?.kind == .notImage)
        // MVG is never handed to ImageMagick, even when named explicitly (SVG goes to librsvg: DocumentTests).
        let mvg = try Library.file(dir.file("draw.mvg"))
        #expect(mvg.error?.kind == .notImage && mvg.format == nil)
        let walked = Walker().walk([dir.path])
        #expect(walked.count == 2)
        let settings = ScanSettings()
        for case .file(let e) in walked { #expect(FileScanner.scan(e, settings: settings) == nil, "\(e.path)") }
        let missing = try Library.file(dir.file("does-not-exist.png"))
        #expect(missing.error?.kind == .notFound)
    }

    @Test func orderAndContentDoNotDependOnJobs() async throws {
        let dir = try TempDir()
        let root = try Self.mixedFolder(dir)
        let one = await Library.sweep([root], jobs: 1)
        let four = await Library.sweep([root], jobs: 4)
        #expect(one.count == Self.expectedOrder.count)
        #expect(one.map(\.path) == four.map(\.path))
        #expect(one == four)
        let lines1 = one.map { $0.json().serialized() }, lines4 = four.map { $0.json().serialized() }
        #expect(lines1 == lines4)
    }

    @Test("the walk streams: a file made in a later folder while the walk is under way is found, and the sweep pulls only a window ahead")
    func walkStreams() async throws {
        let dir = try TempDir()
        let root = try dir.mkdir("s")
        for d in ["a", "b", "c"] {
            try dir.mkdir("s/" + d)
            for k in 0..<3 { try dir.write("s/\(d)/f\(k).png", [0x89, 0x50, 0x4E, 0x47]) }
        }
        var walk = Walker().items([Array(root.utf8)]).makeIterator()
        #expect(walk.next().map { Walker.display($0.pathBytes) } == root + "/a/f0.png")
        // Folder c is not read yet: what is made there now is walked.
        try dir.write("s/c/late.png", [0x89, 0x50, 0x4E, 0x47])
        var rest: [String] = []
        while let item = walk.next() { rest.append(String(Walker.display(item.pathBytes).dropFirst(root.count + 1))) }
        #expect(rest == ["a/f1.png", "a/f2.png", "b/f0.png", "b/f1.png", "b/f2.png", "c/f0.png", "c/f1.png", "c/f2.png", "c/late.png"])
        #expect(Walker().walk([root]).count == 10)

        // The sweep reads its items as it goes: when the first record comes out, it has pulled
        // at most its window (jobs x 16) of 1,000 items.
        final class Pulled: @unchecked Sendable { var count = 0; var atFirstRecord = -1 }
        let pulled = Pulled()
        let items = (0..<1000).lazy.map { k -> WalkItem in
            pulled.count += 1
            return .failure(path: "missing-\(k)", pathBytes: Array("missing-\(k)".utf8), RecordError(.notFound, "cannot access"))
        }
        var records = 0
        await Sweep(settings: ScanSettings(), jobs: 2).run(
            items,
            emit: { _ in
                if records == 0 { pulled.atFirstRecord = pulled.count }
                records += 1
            })
        #expect(records == 1000)
        #expect(pulled.atFirstRecord >= 1 && pulled.atFirstRecord <= 32, "\(pulled.atFirstRecord)")
    }

    @Test("a worker process scans with exactly the coordinator's settings: a custom plan, limits and all")
    func workersGetTheWholeSettings() async throws {
        let dir = try TempDir()
        let root = try dir.mkdir("w")
        _ = try Make.qrOnCanvas("whole settings", in: dir, name: "w/a.png", width: 400, height: 300, at: 40, 30, scale: 6)
        _ = try Make.qrOnCanvas("second", in: dir, name: "w/b.png", width: 400, height: 300, at: 100, 60, scale: 4)
        var settings = ScanSettings()
        // One pass only, named as no built-in pass is, at a quarter of the size, where one of
        // the two codes is lost; the default plan reads both.
        settings.reader.plan = ScanPlan(effort: .normal, passes: [ScanPass("custom-quarter", [.downscale(4)])])
        settings.limits.maxSide = 20_000
        #expect(ScanSettings(workerArgument: settings.workerArgument) == settings)
        let items = Walker().walk([root])
        var inProcess: [FileRecord] = [], inWorkers: [FileRecord] = []
        await Sweep(settings: settings, jobs: 2).run(items, emit: { inProcess.append($0) })
        await Sweep(settings: settings, jobs: 2, isolation: .processes(executable: codesweepBinary, timeoutSeconds: 60))
            .run(items, emit: { inWorkers.append($0) })
        #expect(inProcess.count == 2)
        // As reported (the worker's record crossed the pipe as the engine's own values).
        #expect(inWorkers.map { $0.json().serialized() } == inProcess.map { $0.json().serialized() })
        #expect(inProcess.flatMap(\.codes).allSatisfy { $0.pass == "custom-quarter" })
        #expect(inProcess.flatMap(\.codes).count == 1, "\(inProcess.flatMap(\.codes).map(\.text))")
        let defaults = await Library.sweep([root], jobs: 2)
        #expect(defaults.flatMap(\.codes).count == 2)
    }

    @Test func fileNamesThatAreNotUTF8AreFoundAndReportedExactly() async throws {
        let dir = try TempDir()
        let tree = try dir.mkdir("latin1")
        _ = try Make.qrOnCanvas("latin-1 name", in: dir, name: "latin1/plain.png", width: 160, height: 160, at: 5, 5)
        // "café.png" in Latin-1: the byte 0xE9 alone is not valid UTF-8.
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".png".utf8)
        let target = Array(tree.utf8) + [UInt8(ascii: "/")] + name
        let renamed = (target + [0]).withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { rename(dir.file("latin1/plain.png"), $0.baseAddress!) }
        }
        #expect(renamed == 0)
        let records = await Library.sweep([tree], jobs: 1)
        #expect(records.count == 1)
        let r = try #require(records.first)
        #expect(r.pathBytes == target)
        #expect(!r.pathIsValidUTF8)
        #expect(r.path.hasSuffix("caf\u{FFFD}.png"))
        #expect(r.codes.map(\.text) == ["latin-1 name"])
        let line = r.json().serialized()
        #expect(line.contains("\"path_b64\":\"\(Base64.encode(target))\""), "\(line)")
    }

    /// The bundled demo: a real sweep of Samples/ matches Samples/expected.jsonl.
    @Test func samplesMatchExpectedJSONL() async throws {
        let samples = PackageRoot.samples
        let lines = try String(contentsOfFile: samples + "/expected.jsonl", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        struct Expected: Decodable {
            struct Code: Decodable {
                var symbology: String; var text: String; var corners: [[Double]]; var tolerance: Double; var frame: Int; var seconds: [Double]?
            }
            var path: String; var status: String; var codes: [Code]; var error_kind: String?
        }
        let expected = try lines.map { try JSONDecoder().decode(Expected.self, from: Data($0.utf8)) }
        #expect(expected.count >= 9)
        let records = await Library.sweep([samples], jobs: 2)
        // A container's member by its location (bundle.zip!/labels/a-qr.png).
        #expect(records.map { String($0.location.dropFirst(samples.count + 1)) } == expected.map(\.path))
        for (want, got) in zip(expected, records) {
            #expect(got.status.rawValue == want.status, "\(want.path): \(got.error?.message ?? "")")
            if let kind = want.error_kind { #expect(got.error?.kind.rawValue == kind, "\(want.path)") }
            #expect(got.codes.count == want.codes.count, "\(want.path): \(got.codes.map(\.text))")
            for w in want.codes {
                guard let c = got.codes.first(where: { $0.symbology.rawValue == w.symbology && $0.text == w.text }) else {
                    Issue.record("\(want.path): \(w.symbology) \(w.text) not found; got \(got.codes.map(\.text))")
                    continue
                }
                #expect(c.frame == w.frame, "\(want.path)")
                if let span = w.seconds {
                    // A video's code: each end of its span within one sample (0.25 s) and a frame.
                    let near = c.seconds.map { zip($0, span).allSatisfy { abs($0 - $1) <= 0.3 } && $0.count == 2 } ?? false
                    #expect(near, "\(want.path): seconds \(c.seconds ?? []), expected \(span)")
                }
                expectCorners(c.corners, near: w.corners.map { Point(x: $0[0], y: $0[1]) }, tolerance: w.tolerance, want.path)
            }
        }
    }
}
