import Foundation
import Records
import TestSupport
import Testing

@testable import SweepCore

/// Several codes per file: pages of a TIFF, frames of an animated GIF, codes side by side.
@Suite("Frames and several codes")
struct MultiCodeTests {
    @Test func twoPageTIFFReportsEachCodeWithItsPage() throws {
        let dir = try TempDir()
        let p1 = try Make.qrOnCanvas("tiff page 1", in: dir, name: "p1.png", width: 300, height: 200, at: 20, 20)
        let p2 = try Make.qrOnCanvas("tiff page 2", in: dir, name: "p2.png", width: 300, height: 200, at: 150, 60)
        let path = dir.file("pages.tif")
        try Make.convert([dir.file("p1.png"), dir.file("p2.png"), "-compress", "zip", path])

        let r = try Library.file(path)
        #expect(r.status == .ok && r.format == .tiff)
        #expect(r.frames == 2)
        #expect(r.width == 300 && r.height == 200)
        let byText = Dictionary(uniqueKeysWithValues: r.codes.map { ($0.text, $0) })
        #expect(r.codes.count == 2)
        let c1 = try #require(byText["tiff page 1"])
        let c2 = try #require(byText["tiff page 2"])
        #expect(c1.frame == 0 && c2.frame == 1)
        expectCorners(c1.corners, near: p1.quad, tolerance: 2, "page 1")
        expectCorners(c2.corners, near: p2.quad, tolerance: 2, "page 2")
    }

    @Test func animatedGIFReportsEachCodeOnceInCanvasCoordinates() throws {
        let dir = try TempDir()
        let f0 = try Make.qrOnCanvas("gif frame 0", in: dir, name: "f0.png", width: 320, height: 240, at: 10, 10)
        let f1 = try Make.qrOnCanvas("gif frame 1", in: dir, name: "f1.png", width: 320, height: 240, at: 180, 100)
        // Frame 2 is a partial frame: only a patch at +170+20 holding a QR; the rest of the
        // canvas is frame 1 showing through, which also still holds frame 1's code.
        let patch = dir.file("patch.png")
        let side = try Make.qr("gif frame 2", to: patch, scale: 4, margin: 2)
        let path = dir.file("anim.gif")
        try Make.convert([
            "-delay", "20", dir.file("f0.png"), dir.file("f1.png"),
            "(", patch, "-repage", "+20+20", ")", "-loop", "0", path,
        ])
        let frames = try run("/usr/bin/identify", ["-format", "%W %H %w %h %X %Y\n", path]).stdoutLines
        #expect(frames.count == 3)
        #expect(frames.last?.hasPrefix("320 240 ") == true && frames.last?.hasSuffix(" +20 +20") == true, "\(frames)")

        let r = try Library.file(path)
        #expect(r.status == .ok && r.format == .gif)
        #expect(r.frames == 3)
        #expect(r.width == 320 && r.height == 240)
        // Frame 1's code, still on screen in frame 2, is one code for its span of frames (an
        // animation's frames are merged as a video's samples are), from frame 1.
        let found = r.codes.map { "\($0.frame):\($0.text)" }
        #expect(found.sorted() == ["0:gif frame 0", "1:gif frame 1", "2:gif frame 2"], "\(found)")
        for code in r.codes {
            switch (code.frame, code.text) {
            case (0, _): expectCorners(code.corners, near: f0.quad, tolerance: 2, "frame 0")
            case (_, "gif frame 1"): expectCorners(code.corners, near: f1.quad, tolerance: 2, "frame \(code.frame)")
            default: expectCorners(code.corners, near: PlacedQR(x: 28, y: 28, side: Double(side)).quad, tolerance: 2, "frame 2 patch")
            }
        }
    }

    @Test func qrAndCode128InOneImage() throws {
        let dir = try TempDir()
        let qr = dir.file("qr.png")
        let side = Double(try Make.qr("side by side", to: qr, scale: 5, margin: 2))
        let bars = dir.file("c128.png")
        try Make.zint(type: 20, "CS-128-0042", to: bars)  // 2 px per module, bars 80 px tall
        let barsWidth = Double(try Make.pngWidth(bars))
        let path = dir.file("two.png")
        try Make.convert([
            "-size", "640x300", "xc:white", qr, "-geometry", "+30+60", "-composite",
            bars, "-geometry", "+300+100", "-composite", path,
        ])

        let r = try Library.file(path)
        #expect(r.status == .ok)
        #expect(r.codes.count == 2)
        let q = try #require(r.codes.first { $0.symbology == .qr })
        let c = try #require(r.codes.first { $0.symbology == .code128 })
        #expect(q.text == "side by side")
        #expect(c.text == "CS-128-0042")
        #expect(q.frame == 0 && c.frame == 0)
        expectCorners(q.corners, near: PlacedQR(x: 40, y: 70, side: side).quad, tolerance: 2)
        // A linear code is boxed around the scan lines that read it: within the bars' extent.
        let box = [
            Point(x: 300, y: 100), Point(x: 300 + barsWidth, y: 100),
            Point(x: 300 + barsWidth, y: 180), Point(x: 300, y: 180),
        ]
        expectCorners(c.corners, near: box, tolerance: 12, "code 128")
        #expect(c.quality >= 2)
    }

    @Test func ean13IsReadWithItsCheckDigit() throws {
        let dir = try TempDir()
        let bars = dir.file("ean.png")
        try Make.zint(type: 13, "400638133393", to: bars, scale: "1.5", height: 50)
        let path = dir.file("ean.jpg")
        try Make.convert(["-size", "500x300", "xc:white", bars, "-geometry", "+80+60", "-composite", "-quality", "90", path])
        let r = try Library.file(path)
        #expect(r.codes.map(\.symbology) == [.ean13])
        #expect(r.codes.map(\.text) == ["4006381333931"])
        let b = try #require(r.codes.first).corners.boundingBox
        let barsRight = 80 + Double(try Make.pngWidth(bars))
        #expect(b.minX >= 80 && b.maxX <= barsRight && b.minY >= 55 && b.maxY <= 60 + 160)
    }
}
