import Foundation
import Records
import TestSupport
import Testing

@testable import SweepCore

/// EXIF orientation: a picture is drawn upright with a QR code off-centre, stored transformed
/// the way a camera would store it for each tag value, tagged with exiftool, and scanned: the
/// record must report the upright size and the code where it sits in the upright picture.
@Suite("EXIF orientation")
struct OrientationTests {
    /// How to store an upright picture so that a viewer applying tag `o` shows it upright:
    /// the inverse of the tag's display transform.
    static let storeAs: [Int: [String]] = [
        1: [],
        2: ["-flop"],  // display: mirror left-right (its own inverse)
        3: ["-rotate", "180"],
        4: ["-flip"],  // display: mirror top-bottom
        5: ["-transpose"],  // display: transpose (its own inverse)
        6: ["-rotate", "270"],  // display: turn 90° clockwise
        7: ["-transverse"],  // display: transverse (its own inverse)
        8: ["-rotate", "90"],  // display: turn 90° anticlockwise
    ]

    /// The stored picture's size for tag `o`, given the upright size.
    static func storedSize(_ o: Int, width: Int, height: Int) -> (Int, Int) {
        o >= 5 ? (height, width) : (width, height)
    }

    @Test(arguments: 1...8)
    func uprightSizeAndCornersForEveryOrientation(_ orientation: Int) throws {
        let dir = try TempDir()
        // Off-centre in a landscape picture: any wrong turn or mirror moves it elsewhere.
        let placed = try Make.qrOnCanvas(
            "orientation \(orientation)", in: dir, name: "upright.png",
            width: 360, height: 240, at: 40, 30)
        let path = dir.file("stored-\(orientation).jpg")
        try Make.convert([dir.file("upright.png")] + Self.storeAs[orientation]! + ["-quality", "95", path])
        try Make.setOrientation(path, orientation)
        // The pixels really are stored transformed.
        let stored = try run("/usr/bin/identify", ["-format", "%w %h %[EXIF:Orientation]", path]).stdout
        let (sw, sh) = Self.storedSize(orientation, width: 360, height: 240)
        #expect(stored == "\(sw) \(sh) \(orientation)")

        let r = try Library.file(path)
        #expect(r.status == .ok, "\(r.error?.message ?? "")")
        #expect(r.orientation == orientation)
        #expect(r.width == 360 && r.height == 240, "reported \(r.width ?? -1)x\(r.height ?? -1)")
        #expect(r.codes.count == 1)
        let code = try #require(r.codes.first)
        #expect(code.text == "orientation \(orientation)")
        expectCorners(code.corners, near: placed.quad, tolerance: 2, "orientation \(orientation)")
    }

    /// Corners start from the code's own top-left, wherever the code is turned in the picture.
    @Test(arguments: [0, 90, 180, 270], [1, 6])
    func cornersStartAtTheCodesOwnTopLeft(codeTurn: Int, orientation: Int) throws {
        let dir = try TempDir()
        let qr = dir.file("qr.png")
        let side = Double(try Make.qr("turned \(codeTurn)", to: qr, scale: 5, margin: 2))
        try Make.convert([qr, "-rotate", String(codeTurn), dir.file("turned.png")])
        try Make.convert([
            "-size", "360x240", "xc:white", dir.file("turned.png"), "-geometry", "+190+60", "-composite",
            dir.file("upright.png"),
        ])
        let path = dir.file("stored.jpg")
        try Make.convert([dir.file("upright.png")] + Self.storeAs[orientation]! + ["-quality", "95", path])
        try Make.setOrientation(path, orientation)

        // The symbol occupies the same square whatever its turn; the corner order changes.
        let x0 = 200.0, y0 = 70.0, x1 = x0 + side, y1 = y0 + side
        let clockwiseFromOwnTopLeft: [Point] =
            switch codeTurn {
            case 0: [Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1)]
            case 90: [Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1), Point(x: x0, y: y0)]
            case 180: [Point(x: x1, y: y1), Point(x: x0, y: y1), Point(x: x0, y: y0), Point(x: x1, y: y0)]
            default: [Point(x: x0, y: y1), Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1)]
            }
        let r = try Library.file(path)
        #expect(r.width == 360 && r.height == 240)
        let code = try #require(r.codes.first)
        #expect(code.text == "turned \(codeTurn)")
        expectCorners(code.corners, near: clockwiseFromOwnTopLeft, tolerance: 2, "code turned \(codeTurn)°, tag \(orientation)")
    }

    /// A PNG without EXIF is reported with orientation 1 and its stored size.
    @Test func imagesWithoutATagAreUpright() throws {
        let dir = try TempDir()
        let placed = try Make.qrOnCanvas("no tag", in: dir, name: "plain.png", width: 200, height: 300, at: 10, 150)
        let r = try Library.file(dir.file("plain.png"))
        #expect(r.orientation == 1 && r.width == 200 && r.height == 300)
        let code = try #require(r.codes.first)
        expectCorners(code.corners, near: placed.quad, tolerance: 2)
    }
}
