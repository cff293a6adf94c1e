import CodeSweep
import FileWalker
import Foundation
import Records
import Reporting
import SweepCore
import TestSupport
import Testing

/// Sheets of codes (issue 39): big images full of small codes, made as a new user makes them
/// (qrencode and zint symbols pasted on a white page with ImageMagick), read through
/// `FileScanner` as a sweep reads them.
@Suite("Sheets of codes", .serialized)
struct SheetTests {
    /// A `width` x `height` PNG page with one symbol file pasted at each place.
    static func page(_ s: TempDir, _ name: String, width: Int, height: Int, _ pasted: [(String, Int, Int)]) throws -> String {
        let out = s.file(name)
        var args = ["-size", "\(width)x\(height)", "xc:white"]
        for (path, x, y) in pasted { args += [path, "-geometry", "+\(x)+\(y)", "-composite"] }
        try Make.convert(args + ["-colorspace", "Gray", out])
        return out
    }

    /// The file's record, read with the plan of `effort` (its settings changed by `change`).
    static func record(
        _ path: String, _ effort: Effort, photo: Bool = false, change: (inout PlanSettings) -> Void = { _ in }
    ) throws -> FileRecord {
        var settings = ScanSettings()
        var plan = ScanPlan.forEffort(effort)
        if photo { plan.digital = [] }
        change(&plan.settings)
        settings.reader.plan = plan
        guard case .file(let entry)? = Walker().walk([path]).first, let record = FileScanner.scan(entry, settings: settings) else {
            throw ToolFailure("no record for \(path)")
        }
        #expect(record.error == nil, "\(path): \(String(describing: record.error))")
        return record
    }

    static func reads(_ record: FileRecord) -> [String] {
        record.codes.map { "\($0.symbology.rawValue):" + String(decoding: $0.bytes, as: UTF8.self) }.sorted()
    }

    @Test("a 4,000 x 3,000 sheet of 48 QR codes (3 px modules) and 48 Code 128s (2 px bars): fast and normal read every code, nothing else")
    func labelSheet() throws {
        let s = try TempDir("sheet")
        var pasted: [(String, Int, Int)] = []
        var expected: [String] = []
        for i in 0..<48 {
            let x = (i % 6) * 660 + 30, y = (i / 6) * 370 + 30
            let qr = s.file("q\(i).png"), bar = s.file("b\(i).png")
            let text = "LABEL \(i) https://ex.am/l/\(i * 7919 % 10007)"
            try Make.qr(text, to: qr, scale: 3, margin: 4)
            // zint at scale 1: 2 px a module.
            try Make.zint(type: 20, "TAG-\(1000 + i * 37)", to: bar, height: 40)
            pasted += [(qr, x, y), (bar, x + 230, y + 60)]
            expected += ["qr:" + text, "code128:TAG-\(1000 + i * 37)"]
        }
        let sheet = try Self.page(s, "sheet.png", width: 4000, height: 3000, pasted)
        for effort in [Effort.fast, .normal] {
            let record = try Self.record(sheet, effort)
            #expect(Self.reads(record) == expected.sorted(), "\(effort): \(Self.reads(record).count) of \(expected.count)")
            #expect(record.warnings.isEmpty, "\(record.warnings)")
        }
        // On a photo's path the full-resolution pass is what reads the bars: without the sheet's
        // tiles, fast reads none of the Code 128s (2 px bars are half a pixel at 1 MP). (The
        // sheet drawn here is a digital frame: zxing-cpp reads them at full resolution first.)
        let reduced = try Self.record(sheet, .fast, photo: true) { $0.sheetBusyArea = 2 }
        #expect(Self.reads(reduced).filter { $0.hasPrefix("code128:") }.isEmpty)
        let photo = try Self.record(sheet, .fast, photo: true)
        #expect(Self.reads(photo) == expected.sorted(), "photo path: \(Self.reads(photo).count) of \(expected.count)")
    }

    /// A sheet of 150 version 1 QR codes at 3 px a module, 3,000 x 2,400.
    static func manyCodes(_ s: TempDir) throws -> (String, [String]) {
        var pasted: [(String, Int, Int)] = []
        var expected: [String] = []
        for i in 0..<150 {
            let path = s.file("m\(i).png"), text = "M\(i)"
            try Make.qr(text, to: path, scale: 3, margin: 4)
            pasted.append((path, (i % 15) * 200 + 40, (i / 15) * 240 + 40))
            expected.append("qr:" + text)
        }
        return (try Self.page(s, "many.png", width: 3000, height: 2400, pasted), expected.sorted())
    }

    @Test("more than 128 codes on one sheet are all read; the plan's limit of located codes, when reached, is a warning on the record")
    func locatedLimit() throws {
        let s = try TempDir("sheet")
        let (sheet, expected) = try Self.manyCodes(s)
        let fast = try Self.record(sheet, .fast)
        #expect(Self.reads(fast) == expected, "\(Self.reads(fast).count) of \(expected.count)")
        #expect(fast.warnings.isEmpty, "\(fast.warnings)")
        // A limit of 20: the record says so.
        let limited = try Self.record(sheet, .fast) { $0.maxLocatedCodes = 20 }
        #expect(limited.warnings.contains { $0.contains("only the 20 best were read (the plan's limit)") }, "\(limited.warnings)")
        #expect(ScanPlan.forEffort(.normal).settings.listing.contains { $0.contains("at most 4096 codes kept") && $0.contains("a warning when reached") })
    }
}
