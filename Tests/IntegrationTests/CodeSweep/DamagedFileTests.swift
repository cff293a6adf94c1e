import Foundation
import Records
import Reporting
import TestSupport
import Testing

@testable import SweepCore

/// Files that are empty, cut short or not images at all: each gives an honest record.
@Suite("Damaged files")
struct DamagedFileTests {
    /// A QR in a white band at the top, a high-entropy (plasma) area below it: cutting the
    /// file in half loses the bottom of the picture but keeps the code.
    static func tallJPEG(_ dir: TempDir) throws -> (path: String, placed: PlacedQR) {
        let qr = dir.file("qr.png")
        let side = try Make.qr("kept despite truncation", to: qr, scale: 5, margin: 2)
        let path = dir.file("tall.jpg")
        try Make.convert([
            "(", "-size", "300x200", "xc:white", qr, "-geometry", "+20+20", "-composite", ")",
            "(", "-size", "300x500", "-seed", "3", "plasma:", ")", "-append", "-quality", "90", path,
        ])
        return (path, PlacedQR(x: 30, y: 30, side: Double(side)))
    }

    @Test func truncatedJPEGIsScannedAndWarnedAbout() throws {
        let dir = try TempDir()
        let (full, placed) = try Self.tallJPEG(dir)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: full)))
        try dir.write("cut.jpg", Array(bytes.prefix(bytes.count / 2)))

        let whole = try Library.file(full)
        #expect(whole.status == .ok && whole.warnings.isEmpty, "\(whole.warnings)")

        let cut = try Library.file(dir.file("cut.jpg"))
        #expect(cut.status == .ok)
        #expect(cut.width == 300 && cut.height == 700)
        // The decoder's complaint must reach the record: a silent grey lower half would pass for a clean file.
        #expect(cut.warnings.contains { $0.lowercased().contains("premature end") }, "warnings: \(cut.warnings)")
        #expect(cut.json().serialized().contains("\"warnings\":["))
        let code = try #require(cut.codes.first)
        #expect(code.text == "kept despite truncation")
        expectCorners(code.corners, near: placed.quad, tolerance: 2)
    }

    @Test func signatureFollowedByGarbageIsAnErrorRecord() throws {
        let dir = try TempDir()
        // A GIF's logical screen size is the 4 bytes after the signature, so garbage there
        // declares a huge canvas ("no" = 28526 wide) and is refused as too large before decoding;
        // the other formats' sizes sit in structures the garbage does not have.
        let garbage = Array("no pixels here; only words. ".utf8) + [UInt8](repeating: 0x5A, count: 200)
        try dir.write("fake.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0] + garbage)
        try dir.write("fake.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + garbage)
        try dir.write("fake.gif", Array("GIF89a".utf8) + garbage)
        try dir.write("fake.tif", [0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0x00] + garbage)
        for (name, format) in [("fake.jpg", ImageFormat.jpeg), ("fake.png", .png), ("fake.gif", .gif), ("fake.tif", .tiff)] {
            let r = try Library.file(dir.file(name))
            #expect(r.status == .error, "\(name) read as ok")
            #expect(r.format == format, "\(name)")
            let kinds: [ErrorKind] = format == .gif ? [.tooLarge] : [.corrupt, .truncated]
            #expect(kinds.contains(r.error?.kind ?? .crash), "\(name): \(String(describing: r.error))")
            #expect(r.error?.message.isEmpty == false, "\(name) has no message")
            #expect(r.codes.isEmpty)
        }
    }

    @Test func emptyAndUnknownFiles() throws {
        let dir = try TempDir()
        try dir.write("empty.jpg", [])
        try dir.write("random.png", (0..<64).map { UInt8(($0 * 37 + 11) & 0xFF) })
        let empty = try Library.file(dir.file("empty.jpg"))
        #expect(empty.status == .error && empty.error?.kind == .empty && empty.size == 0)
        let random = try Library.file(dir.file("random.png"))
        #expect(random.status == .error && random.error?.kind == .notImage && random.format == nil)
        #expect(random.error?.message.contains("0b 30 55") == true, "\(random.error?.message ?? "")")
    }

    @Test func theBundledCorruptSampleIsAnError() throws {
        let r = try Library.file(PackageRoot.samples + "/corrupt.jpg")
        #expect(r.status == .error && r.error?.kind == .corrupt && r.format == .jpeg)
    }
}
