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
}
