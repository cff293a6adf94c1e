import Foundation
import QRSymbol
import Records
import TestSupport
import Testing
import ZBarBridge

@testable import SweepCore

/// A mirrored QR code read by ZBar: its corners run clockwise from its own top-left as the grid
/// decoder gives a mirrored code's (ZBar's own order runs the other way round for it), so the
/// grid decoder, read again through them for the record's details, says mirrored. Before, a
/// mirrored code ZBar read first was recorded `mirrored: false` (5 of 46 mirrored codes in
/// `make bench-qr-details`) with its corners counter-clockwise.
@Suite("ZBar's corners of a mirrored QR code")
struct ZBarMirroredCornersTests {
    /// Twice the signed area of the corners, y down: positive when they run clockwise on screen.
    static func clockwise(_ q: Quad) -> Bool {
        let p = q.points
        return (0..<4).reduce(0.0) { s, i in s + p[i].x * p[(i + 1) % 4].y - p[(i + 1) % 4].x * p[i].y } > 0
    }

    @Test("as printed and mirrored: corners clockwise from the code's own top-left, the details read through them say mirrored or not")
    func mirrored() throws {
        let dir = try TempDir("zbarmirror")
        let plain = dir.file("plain.png"), flopped = dir.file("mirrored.png")
        let text = "https://example.com/zbar-mirrored-corners"
        try run(Tools.qrencode, ["-l", "Q", "-v", "4", "-s", "6", "-m", "4", "-o", plain, text])
        try Make.convert([plain, "-flop", flopped])
        let side = Double(try Make.pngWidth(plain)), q = 24.0  // the quiet zone: 4 modules of 6 px
        for (path, isMirrored) in [(plain, false), (flopped, true)] {
            let image = try Library.firstFrame(path)
            let symbols = ZBarDecoder.decode(image, symbologies: [.qr])
            let symbol = try #require(symbols.first, "\(path): ZBar read nothing")
            #expect(symbols.count == 1 && symbol.bytes == Array(text.utf8))
            let corners = symbol.corners
            #expect(Self.clockwise(corners), "\(path): \(corners.points)")
            // The code's own top-left finder: the image's top-left, or its top-right mirrored.
            let topLeft = Point(x: isMirrored ? side - q : q, y: q)
            #expect(QRLocator.distance(corners.points[0], topLeft) < 8, "\(path): \(corners.points)")
            let frame = try #require(GridPass.frameThroughCorners(corners, image: image), "\(path)")
            guard case .read(let r) = QRGridReader.read(image, candidate: frame, polish: false) else {
                Issue.record("\(path): not read through ZBar's corners")
                continue
            }
            #expect(r.mirrored == isMirrored && r.decoded.version == 4 && r.decoded.ec == .Q, "\(path)")
        }
    }
}
