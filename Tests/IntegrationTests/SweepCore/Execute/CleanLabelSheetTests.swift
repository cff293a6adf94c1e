import CodeSweep
import Foundation
import Records
import SweepCore
import TestSupport
import Testing

/// A clean label sheet of more codes than zxing-cpp returns a read (issue 58): 10 x 30 labels,
/// each a QR code of version 1 (4 px modules), a Code 128 and an EAN-13 (2 px bars), on a
/// 7,400 x 4,500 PNG, drawn by zint. zxing-cpp 3.1 stops at 255 symbols a read (its
/// `maxNumberOfSymbols` is a `uint8_t`); the digital path's first read of the frame is capped,
/// and the frame is read again in tiles until no read is.
@Suite("A clean label sheet of 900 codes", .serialized)
struct CleanLabelSheetTests {
    /// The sheet and its 900 codes ("symbology:text").
    static func sheet(_ s: TempDir) throws -> (String, [String]) {
        var qr: [String] = [], c128: [String] = [], ean: [String] = []
        var rng = SplitMix(seed: 58)
        for i in 0..<300 {
            qr.append(String(format: "HTTPS://EX.AM/L%03d", i))
            c128.append(String(format: "L%03d-%02d", i, rng.int(100)))
            let d12 = String(1 + rng.int(6)) + String(format: "%011llu", rng.next() % 100_000_000_000)
            ean.append(d12 + String(Self.eanCheck(d12)))
        }
        for (name, list) in [("q", qr), ("c", c128), ("e", ean)] {
            try list.joined(separator: "\n").appending("\n").write(toFile: s.file("\(name).txt"), atomically: true, encoding: .utf8)
        }
        // zint --batch: one PNG a line, numbered from 001 (scale 2: 4 px a module for the QR
        // codes; scale 1: 2 px for the bars).
        try run(Tools.zint, ["--batch", "-b", "58", "--vers=1", "--scale=2", "-i", s.file("q.txt"), "-o", s.file("q~~~.png")])
        try run(Tools.zint, ["--batch", "-b", "20", "--scale=1", "--height=50", "-i", s.file("c.txt"), "-o", s.file("c~~~.png")])
        try run(Tools.zint, ["--batch", "-b", "13", "--scale=1", "--height=50", "-i", s.file("e.txt"), "-o", s.file("e~~~.png")])
        var args = ["-size", "7400x4500", "xc:white"]
        for i in 0..<300 {
            let x = (i % 10) * 740, y = (i / 10) * 150, n = String(format: "%03d", i + 1)
            args += [s.file("q\(n).png"), "-geometry", "+\(x + 24)+\(y + 33)", "-composite"]
            args += [s.file("c\(n).png"), "-geometry", "+\(x + 150)+\(y + 17)", "-composite"]
            args += [s.file("e\(n).png"), "-geometry", "+\(x + 420)+\(y + 17)", "-composite"]
        }
        let out = s.file("labels.png")
        try Make.convert(args + ["-colorspace", "Gray", "-depth", "8", out])
        let expected = qr.map { "qr:" + $0 } + c128.map { "code128:" + $0 } + ean.map { "ean13:" + $0 }
        return (out, expected.sorted())
    }

    static func eanCheck(_ d12: String) -> Int {
        let sum = d12.enumerated().reduce(0) { $0 + Int(String($1.element))! * ($1.offset % 2 == 1 ? 3 : 1) }
        return (10 - sum % 10) % 10
    }

    @Test("fast and normal read all 900 codes of the clean PNG, nothing else, and no warning")
    func nineHundredLabels() throws {
        let s = try TempDir("labels")
        let (path, expected) = try Self.sheet(s)
        for effort in [Effort.fast, .normal] {
            let record = try SheetTests.record(path, effort)
            let reads = SheetTests.reads(record)
            #expect(reads.count == 900 && reads == expected, "\(effort): \(reads.count) read, \(Set(expected).subtracting(reads).count) missed")
            #expect(record.warnings.isEmpty, "\(effort): \(record.warnings)")
        }
    }
}
