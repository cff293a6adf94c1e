import TestSupport
import Testing

@testable import Imaging

/// A multi-picture JPEG's pictures found from its MP index, and a damaged index refused whole.
@Suite("JPEG pictures")
struct JPEGPicturesTests {
    /// A stand-in JPEG: SOI, a comment segment of `body`, EOI (the index needs no pixels).
    static func jpeg(_ body: String) -> [UInt8] {
        let text = Array(body.utf8)
        return [0xFF, 0xD8, 0xFF, 0xFE, UInt8((text.count + 2) >> 8), UInt8((text.count + 2) & 0xFF)] + text + [0xFF, 0xD9]
    }

    @Test func theIndexGivesEachPicture() throws {
        let first = Self.jpeg("left"), second = Self.jpeg("right picture")
        let file = MultiPictureBytes.mpo(first, second)
        let ranges = try #require(JPEGPictures.ranges(file))
        #expect(ranges.count == 2)
        #expect(ranges[0].lowerBound == 0 && ranges[1].upperBound == file.count)
        #expect(Array(file[ranges[1]]) == second)
        #expect(ranges[0].upperBound == ranges[1].lowerBound, "the first picture ends where the second starts")
    }

    @Test func aPlainJPEGOrADamagedIndexIsOnePicture() {
        #expect(JPEGPictures.ranges(Self.jpeg("plain")) == nil)
        let first = Self.jpeg("left"), second = Self.jpeg("right")
        // The second picture's offset past the end of the file, or not at a SOI marker.
        #expect(JPEGPictures.ranges(MultiPictureBytes.mpo(first, second, secondOffset: 10_000)) == nil)
        #expect(JPEGPictures.ranges(MultiPictureBytes.mpo(first, second, secondOffset: 3)) == nil)
        #expect(JPEGPictures.ranges([0xFF, 0xD8, 0xFF, 0xE2, 0x00]) == nil, "a truncated segment")
    }
}
