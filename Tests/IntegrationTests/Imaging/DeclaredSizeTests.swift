import FileWalker
import Foundation
import Imaging
import Records
import Reporting
import TestSupport
import Testing

@testable import CodeSweep

/// `ImageHeader` reads a picture's declared size from its header without decoding it, on files
/// ImageMagick wrote.
@Suite("Declared sizes are read from headers", .serialized)
struct DeclaredSizeTests {
    @Test("Declared sizes are read from headers without decoding")
    func headerSizes() throws {
        let dir = try TempDir("robust-headers")
        for (ext, format) in [("png", ImageFormat.png), ("jpg", .jpeg), ("gif", .gif), ("bmp", .bmp), ("webp", .webp)] {
            let f = dir.url.appendingPathComponent("x.\(ext)")
            #expect(try run(Tools.convert, ["-size", "123x45", "xc:gray", f.path], check: false).status == 0)
            let bytes = Array(try Data(contentsOf: f))
            #expect(ImageFormat.sniff(bytes) == format)
            let size = try #require(ImageHeader.declaredSize(bytes, format: format))
            #expect(size.width == 123 && size.height == 45, "\(ext)")
            #expect(!ImageHeader.looksTruncated(bytes, format: format))
        }
    }
}
