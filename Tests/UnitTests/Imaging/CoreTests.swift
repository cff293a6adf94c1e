import Foundation
import Records
import Reporting
import Testing

@testable import Imaging

/// Unit tests of the pure core: no files, no C.
@Suite("Pure core")
struct CoreTests {

    // MARK: LumaImage

    @Test func downscaleAveragesBoxesAndDropsPartialEdges() {
        // 5x3: the last column and row do not fill a 2x2 box and are dropped.
        let img = LumaImage(
            width: 5, height: 3,
            pixels: [
                0, 2, 100, 101, 9,
                4, 6, 102, 103, 9,
                9, 9, 9, 9, 9,
            ])
        let half = img.downscaled(by: 2)
        #expect(half.width == 2 && half.height == 1)
        #expect(half.pixels == [3, 102])  // (0+2+4+6)/4 = 3, (100+101+102+103)/4 = 101.5 -> 102
        #expect(img.downscaled(by: 1) == img)
        #expect(img.downscaled(by: 8).pixelCount == 0)
    }

    @Test func upscaleKeepsUniformImagesAndInterpolatesEdges() {
        let flat = LumaImage(width: 3, height: 2, fill: 77).upscaled(by: 3)
        #expect(flat.width == 9 && flat.height == 6)
        #expect(flat.pixels.allSatisfy { $0 == 77 })
        let ramp = LumaImage(width: 2, height: 1, pixels: [0, 200]).upscaled(by: 2)
        #expect(ramp.width == 4 && ramp.height == 2)
        #expect(ramp.pixels == [0, 50, 150, 200, 0, 50, 150, 200])
    }

    @Test func invertAndCrop() {
        let img = LumaImage(width: 3, height: 3, pixels: [0, 1, 2, 3, 4, 5, 6, 7, 255])
        #expect(img.inverted().pixels == [255, 254, 253, 252, 251, 250, 249, 248, 0])
        let c = img.cropped(PixelRect(x: 1, y: 1, width: 5, height: 5))  // clamped to 2x2
        #expect(c.width == 2 && c.height == 2 && c.pixels == [4, 5, 7, 255])
        #expect(img.cropped(PixelRect(x: 5, y: 5, width: 2, height: 2)).pixelCount == 0)
    }

    @Test func adaptiveThresholdBinarisesAcrossAGradient() {
        // A dark dot on a bright left half and a dark dot on a dim right half: both turn black,
        // their surroundings white, although the right dot is brighter than the left background.
        var img = LumaImage(width: 40, height: 20, fill: 0)
        for y in 0..<20 { for x in 0..<40 { img[x, y] = x < 20 ? 220 : 120 } }
        img[10, 10] = 150
        img[30, 10] = 60
        let t = img.adaptiveThresholded(radius: 4)
        #expect(Set(t.pixels).isSubset(of: [0, 255]))
        #expect(t[10, 10] == 0 && t[30, 10] == 0)
        #expect(t[5, 5] == 255 && t[35, 5] == 255)
    }

    @Test func contrastStretchSpreadsToFullRange() {
        var px = [UInt8]()
        for i in 0..<1000 { px.append(UInt8(100 + i % 50)) }
        let s = LumaImage(width: 100, height: 10, pixels: px).contrastStretched()
        #expect(s.pixels.min() == 0 && s.pixels.max() == 255)
    }

    @Test func rotationMapsPixelsBackToTheirSource() {
        var img = LumaImage(width: 40, height: 30, fill: 255)
        for y in 5...7 { for x in 8...10 { img[x, y] = 0 } }
        let (rot, back) = img.rotated(degrees: 30)
        #expect(rot.width == Int((40 * cos(Double.pi / 6) + 30 * sin(Double.pi / 6)).rounded(.up)))
        var dark = 0
        for v in 0..<rot.height {
            for u in 0..<rot.width where rot[u, v] < 100 {
                dark += 1
                let p = back.apply(Point(x: Double(u), y: Double(v)))
                #expect(abs(p.x - 9) <= 2 && abs(p.y - 6) <= 2, "dark pixel (\(u),\(v)) maps to \(p)")
            }
        }
        #expect(dark >= 4)
        let centre = back.apply(Point(x: Double(rot.width) / 2, y: Double(rot.height) / 2))
        #expect(abs(centre.x - 20) < 1e-9 && abs(centre.y - 15) < 1e-9)
        let (same, identity) = img.rotated(degrees: 0)
        #expect(same == img)
        #expect(identity.apply(Point(x: 3, y: 4)) == Point(x: 3, y: 4))
    }

    // MARK: AffineTransform

    @Test func affineConcatenationAppliesRightOperandFirst() {
        let scale = AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0)
        let shift = AffineTransform.translation(10, 20)
        let p = Point(x: 1, y: 1)
        #expect(shift.concatenating(scale).apply(p) == Point(x: 12, y: 22))
        #expect(scale.concatenating(shift).apply(p) == Point(x: 22, y: 42))
        #expect(AffineTransform.identity.concatenating(shift) == shift)
    }

    @Test func unscaleMapsPixelEdgeCoordinates() {
        // Pixel j of a half-size image covers source pixels 2j and 2j+1, i.e. [2j, 2j+2):
        // its edges map to edges and its centre (j + 0.5) to the centre of the pair.
        let back = AffineTransform.unscale(0.5)
        #expect(back.apply(Point(x: 0, y: 0)) == Point(x: 0, y: 0))
        #expect(back.apply(Point(x: 3, y: 1)) == Point(x: 6, y: 2))
        #expect(back.apply(Point(x: 0.5, y: 0.5)) == Point(x: 1, y: 1))
        let up = AffineTransform.unscale(2)
        #expect(up.apply(Point(x: 4, y: 6)) == Point(x: 2, y: 3))
        #expect(up.concatenating(AffineTransform.unscale(0.5)) == .identity)
    }

    // MARK: Quad ordering

    @Test func qrCornersBecomeClockwiseFromTheCodesTopLeft() {
        // ZBar order: top-left, bottom-left, bottom-right, top-right (counter-clockwise).
        let raw = RawSymbol(
            symbology: .qr, bytes: [65],
            points: [Point(x: 10, y: 10), Point(x: 10, y: 50), Point(x: 50, y: 50), Point(x: 50, y: 10)],
            quality: 1, orientation: 0)
        #expect(raw.corners.points == [Point(x: 10, y: 10), Point(x: 50, y: 10), Point(x: 50, y: 50), Point(x: 10, y: 50)])
        // A QR turned upside down: its own top-left is the image's bottom-right.
        let flipped = RawSymbol(
            symbology: .qr, bytes: [65],
            points: [Point(x: 50, y: 50), Point(x: 50, y: 10), Point(x: 10, y: 10), Point(x: 10, y: 50)],
            quality: 1, orientation: 2)
        #expect(flipped.corners.points[0] == Point(x: 50, y: 50))
        #expect(flipped.corners.points[1] == Point(x: 10, y: 50))
    }

    @Test(arguments: [
        (0, Point(x: 1, y: 2)),  // upright: top-left of the box
        (1, Point(x: 9, y: 2)),  // code turned right: its top-left is the box's top-right
        (2, Point(x: 9, y: 7)),
        (3, Point(x: 1, y: 7)),
    ])
    func linearCodesAreBoxedFromTheirOwnTopLeft(orientation: Int, first: Point) {
        let hits = [Point(x: 1, y: 4), Point(x: 9, y: 4), Point(x: 2, y: 2), Point(x: 8, y: 7)]
        let q = Quad.bounding(hits, orientation: orientation)
        #expect(q.points[0] == first)
        // Clockwise in y-down coordinates: the signed area (shoelace) is positive.
        var area = 0.0
        for i in 0..<4 { let a = q.points[i], b = q.points[(i + 1) % 4]; area += a.x * b.y - b.x * a.y }
        #expect(area > 0)
        #expect(q.boundingBox.minX == 1 && q.boundingBox.maxX == 9 && q.boundingBox.minY == 2 && q.boundingBox.maxY == 7)
        let raw = RawSymbol(symbology: .code128, bytes: [], points: hits, quality: 5, orientation: orientation)
        #expect(raw.corners == q)
    }

    @Test func quadOverlapAndCentre() {
        let a = Quad([Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)])
        let b = a.transformed(by: .translation(11, 0))
        let c = a.transformed(by: .translation(30, 30))
        #expect(a.overlaps(b))
        #expect(!a.overlaps(c))
        #expect(c.center == Point(x: 35, y: 35))
    }

    // MARK: ImageFormat.sniff

    static let ftyp: [UInt8] = [0, 0, 0, 0x18] + Array("ftyp".utf8)
    static let magic: [([UInt8], ImageFormat)] = {
        var m: [([UInt8], ImageFormat)] = []
        m.append(([0xFF, 0xD8, 0xFF, 0xE0], .jpeg))
        m.append(([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], .png))
        m.append((Array("GIF89a".utf8) + [1, 0, 1, 0], .gif))
        m.append((Array("GIF87a".utf8), .gif))
        m.append((Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp))
        m.append(([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], .tiff))
        m.append(([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], .tiff))
        m.append((Array("BM".utf8) + [UInt8](repeating: 0, count: 30), .bmp))
        m.append((ftyp + Array("heic".utf8) + [0, 0, 0, 0], .heic))
        m.append((ftyp + Array("mif1".utf8) + [0, 0, 0, 0], .heic))
        m.append((ftyp + Array("avif".utf8) + [0, 0, 0, 0], .avif))
        return m
    }()

    @Test(arguments: magic)
    func sniffsRasterFormatsByMagic(head: [UInt8], format: ImageFormat) {
        #expect(ImageFormat.sniff(head) == format)
    }

    static let notRaster: [[UInt8]] = {
        var m: [[UInt8]] = [[]]
        m.append(Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8))
        m.append(Array("%!PS-Adobe-3.0".utf8))
        m.append(Array("%PDF-1.7".utf8))
        m.append(Array("BM".utf8))  // too short to be a bitmap header
        m.append(ftyp + Array("mp42".utf8) + [0, 0, 0, 0])  // a video, not an image
        m.append(Array("RIFF\0\0\0\0WAVEfmt ".utf8))
        m.append([0xFF, 0xD8])
        return m
    }()

    @Test(arguments: notRaster)
    func refusesEverythingElse(head: [UInt8]) {
        #expect(ImageFormat.sniff(head) == nil)
    }

    // MARK: The record's JSON

    @Test func recordJSONHasTheDocumentedFieldsInOrder() throws {
        var r = FileRecord(path: "a/b.png")
        r.format = .png; r.width = 10; r.height = 20; r.orientation = 1; r.frames = 1; r.size = 5; r.mtime = 1.5
        r.codes = [
            DetectedCode(
                symbology: .qr, bytes: Array("hi\u{0}".utf8),
                corners: Quad([Point(x: 1.04, y: 2), Point(x: 3, y: 2), Point(x: 3, y: 4), Point(x: 1, y: 4)]),
                quality: 1, orientation: 0, frame: 0, pass: "fit3")
        ]
        let line = r.json().serialized()
        let keys = ["\"path\"", "\"status\"", "\"format\"", "\"width\"", "\"height\"", "\"orientation\"", "\"frames\"", "\"codes\"", "\"size\"", "\"mtime\""]
        let positions = keys.map { line.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil }, "\(line)")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
        _ = try JSONSerialization.jsonObject(with: Data(line.utf8))
        #expect(line.contains("\"status\":\"ok\""))
        #expect(line.contains("\"bytes_b64\":\"aGkA\""))
        #expect(line.contains("\"corners\":[[1,2],[3,2],[3,4],[1,4]]"), "corners are rounded to 0.1 px: \(line)")
        let failed = FileRecord.failure(path: "x", RecordError(.corrupt, "bad")).json().serialized()
        #expect(failed.contains("\"status\":\"error\"") && failed.contains("\"error\":{\"kind\":\"corrupt\",\"message\":\"bad\"}"))
    }

    @Test func fractionalRectParsing() {
        let r = FractionalRect(parsing: "0.5, 0, 0.5,0.5")
        #expect(r == FractionalRect(x: 0.5, y: 0, width: 0.5, height: 0.5))
        #expect(r?.pixels(width: 101, height: 10) == PixelRect(x: 50, y: 0, width: 51, height: 5))
        for bad in ["", "0,0,1", "0.6,0,0.5,0.5", "0,0,0,1", "-0.1,0,0.5,0.5", "a,b,c,d"] {
            #expect(FractionalRect(parsing: bad) == nil, "\(bad)")
        }
    }
}
