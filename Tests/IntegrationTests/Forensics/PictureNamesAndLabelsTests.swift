import Foundation
import MagickBridge
import Records
import TestSupport
import Testing

@testable import Forensics

/// `--annotate`: two inputs with the same name give two pictures (named by a tag of their
/// paths, the same in every run and shard), and labels overlap neither each other, nor the codes,
/// nor the first corner's dot.
@Suite("Annotated pictures: one per input, labels clear of the codes")
struct PictureNamesAndLabelsTests {
    typealias S = PictureSupport

    /// FNV-1a 64 written here again (not the code under test's), first 8 hex digits.
    static func tag(_ path: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in path.utf8 { h ^= UInt64(b); h &*= 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(8))
    }

    @Test("two inputs named image001.png in different folders give two pictures, named by a tag of their paths, the same in every run and shard")
    func sameNameTwoPictures() throws {
        let dir = try TempDir("picture-names")
        try S.makeQR("first", at: dir.url.appendingPathComponent("a/image001.png"), scale: 4, canvas: (w: 300, h: 260, x: 90, y: 80))
        try S.makeQR("second", at: dir.url.appendingPathComponent("b/image001.png"), scale: 4, canvas: (w: 300, h: 260, x: 90, y: 80))
        try S.makeQR("alone", at: dir.url.appendingPathComponent("b/other.png"), scale: 4, canvas: (w: 300, h: 260, x: 90, y: 80))
        // As `find . -name '*.png' -print0 | codesweep scan --files-from - -0 --annotate out`.
        let list = Data(["a/image001.png", "b/image001.png", "b/other.png"].joined(separator: "\0").utf8 + [0])
        let r = try run(
            codesweepBinary, ["scan", "-q", "--files-from", "-", "-0", "--annotate", "out"], stdin: list,
            currentDirectory: dir.path, check: false)
        #expect(r.status == 0, "\(r.stderr)")
        let expected = [
            "image001.png.\(Self.tag("a/image001.png")).annotated.png",
            "image001.png.\(Self.tag("b/image001.png")).annotated.png", "other.png.annotated.png",
        ].sorted()
        #expect(S.files(below: dir.url.appendingPathComponent("out")) == expected)
        // Each picture holds its own input's code.
        for (name, text) in [
            (expected.first { $0.contains(Self.tag("a/image001.png")) }!, "first"),
            (expected.first { $0.contains(Self.tag("b/image001.png")) }!, "second"),
        ] {
            let back = try run(codesweepBinary, ["scan", "-q", "--isolation", "none", "out/" + name], currentDirectory: dir.path, check: false)
            #expect(try S.records(back).first?["codes"]?.arrayValue?.first?["text"]?.stringValue == text, "\(name)")
        }

        // Named as files on the command line: the same names.
        let args = try run(codesweepBinary, ["scan", "-q", "a/image001.png", "b/image001.png", "--annotate", "out2"], currentDirectory: dir.path, check: false)
        #expect(args.status == 0, "\(args.stderr)")
        #expect(S.files(below: dir.url.appendingPathComponent("out2")) == expected.filter { !$0.hasPrefix("other") })

        // Shards annotating into one folder: each picture gets the name the whole run gives it.
        for k in 0..<2 {
            let s = try run(
                codesweepBinary, ["scan", "-q", "--shard", "\(k)/2", "--files-from", "-", "-0", "--annotate", "out3"], stdin: list,
                currentDirectory: dir.path, check: false)
            #expect(s.status == 0, "\(s.stderr)")
        }
        #expect(S.files(below: dir.url.appendingPathComponent("out3")) == expected)
    }

    /// Two codes side by side with long payloads: the labels would overlap above them. Each
    /// label is placed clear of the others, of the codes and of every first-corner dot, and the
    /// dot's white rim above the first corner is not covered (real font metrics, real pixels).
    @Test("labels do not overlap each other, the codes or the first-corner dots")
    func labelsKeepClear() throws {
        let dir = try TempDir("picture-labels")
        let long1 = "https://www.example.com/a-rather-long-campaign-path/left"
        let long2 = "https://www.example.com/a-rather-long-campaign-path/right"
        try Make.qr(long1, to: dir.file("q1.png"), scale: 4, margin: 0)
        try Make.qr(long2, to: dir.file("q2.png"), scale: 4, margin: 0)
        try Make.convert([
            "-size", "640x420", "xc:white", dir.file("q1.png"), "-geometry", "+60+150", "-composite",
            dir.file("q2.png"), "-geometry", "+270+150", "-composite", dir.file("pair.png"),
        ])
        let scan = try run(codesweepBinary, ["scan", "-q", "--isolation", "none", dir.file("pair.png")], check: false)
        let codes = try #require(try S.records(scan).first?["codes"]?.arrayValue)
        #expect(codes.count == 2, "\(scan.stdout)")
        let marks = codes.map { c in
            AnnotationMark(
                corners: (c["corners"]?.arrayValue ?? []).map { p in
                    Point(x: p.arrayValue?[0].doubleValue ?? 0, y: p.arrayValue?[1].doubleValue ?? 0)
                }, label: "QR Code " + String((c["text"]?.stringValue ?? "").prefix(32)))
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.file("pair.png"))))
        let picture = try Annotator.annotate(bytes, format: .png, marks: marks, as: .png)
        #expect(picture.labelsDrawn && picture.labels.count == 2)
        let (a, b) = (picture.labels[0], picture.labels[1])
        #expect(!a.intersects(b), "labels overlap: \(a) \(b)")
        let r = picture.firstCornerRadius
        for m in marks {
            let first = m.corners[0]
            let dot = LabelBox(x: first.x - r, y: first.y - r, width: 2 * r, height: 2 * r)
            let xs = m.corners.map(\.x), ys = m.corners.map(\.y)
            let code = LabelBox(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
            for l in picture.labels {
                #expect(!l.intersects(dot), "a label covers a first-corner dot: \(l) \(dot)")
                #expect(!l.intersects(code), "a label covers a code: \(l) \(code)")
            }
        }
        // In the pixels: the white rim just above each first corner is white, not a label's band.
        try Data(picture.bytes).write(to: URL(fileURLWithPath: dir.file("out.png")))
        let img = try S.readRGB(URL(fileURLWithPath: dir.file("out.png")))
        for m in marks {
            let p = img.at(Int(m.corners[0].x.rounded()), Int((m.corners[0].y - r * 0.85).rounded()))
            #expect(p.0 > 200 && p.1 > 200 && p.2 > 200, "the rim above the first corner is \(p)")
        }
    }
}
