import Foundation
import Records
import TestSupport
import Testing

/// A multi-picture JPEG (MPO, CIPA DC-007) is as many frames as its MP index lists pictures.
@Suite("Multi-picture JPEG")
struct MultiPictureTests {
    @Test func everyPictureIsAFrame() throws {
        let dir = try TempDir()
        for (k, text) in ["left picture", "right picture"].enumerated() {
            try Make.qr(text, to: dir.file("\(k).png"), scale: 6, margin: 4)
            try Make.convert([dir.file("\(k).png"), "-quality", "95", dir.file("\(k).jpg")])
        }
        let pictures = try [0, 1].map { Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("\($0).jpg")))) }
        try Data(MultiPictureBytes.mpo(pictures[0], pictures[1])).write(to: URL(fileURLWithPath: dir.file("stereo.mpo")))
        // exiftool reads the index as a multi-picture file's.
        let info = try run(Tools.exiftool, ["-s", "-NumberOfImages", "-MPImageLength", dir.file("stereo.mpo")]).stdout
        #expect(info.contains("NumberOfImages                  : 2"), "\(info)")
        let r = try #require(try DocumentTests.scan([dir.file("stereo.mpo")]).records.first)
        #expect(r.status == .ok && r.format == .jpeg, "\(r.error?.message ?? "")")
        #expect(r.frames == 2)
        #expect(r.codes.map(\.text) == ["left picture", "right picture"])
        #expect(r.codes.map(\.frame) == [0, 1])
        // A plain JPEG is one frame, as before.
        let plain = try #require(try DocumentTests.scan([dir.file("0.jpg")]).records.first)
        #expect(plain.frames == 1 && plain.codes.map(\.text) == ["left picture"])
    }

    @Test func aLargeFirstPictureKeepsItsReducedDecodeAndTheOthersTheirOwnPixels() throws {
        let dir = try TempDir()
        // 12 MP: the first decode is DCT-scaled; the second picture is a quarter of the size.
        let left = try Make.qrOnCanvas("large left", in: dir, name: "l.png", width: 4000, height: 3000, at: 500, 400, scale: 30, margin: 4)
        let right = try Make.qrOnCanvas("small right", in: dir, name: "r.png", width: 2000, height: 1500, at: 300, 200, scale: 20, margin: 4)
        try Make.convert([dir.file("l.png"), "-quality", "90", dir.file("l.jpg")])
        try Make.convert([dir.file("r.png"), "-quality", "90", dir.file("r.jpg")])
        let pictures = try ["l.jpg", "r.jpg"].map { Array(try Data(contentsOf: URL(fileURLWithPath: dir.file($0)))) }
        try Data(MultiPictureBytes.mpo(pictures[0], pictures[1])).write(to: URL(fileURLWithPath: dir.file("large.mpo")))
        let r = try #require(try DocumentTests.scan([dir.file("large.mpo")]).records.first)
        #expect(r.status == .ok && r.frames == 2 && r.width == 4000 && r.height == 3000, "\(r.error?.message ?? "")")
        let byText = Dictionary(uniqueKeysWithValues: r.codes.map { ($0.text, $0) })
        let first = try #require(byText["large left"]), second = try #require(byText["small right"])
        #expect(first.frame == 0 && second.frame == 1)
        // Each picture's corners in its own full-resolution pixels.
        expectCorners(first.corners, near: left.quad, tolerance: 3, "first picture")
        expectCorners(second.corners, near: right.quad, tolerance: 3, "second picture")
    }
}
