import AssetCheck
import Foundation
import Records
import Reporting
import SweepCore
import TestSupport
import Testing
import ZXingBridge

@testable import CodeSweep

/// Issue 19: Data Matrix, PDF417 and Aztec read by the isolated reader (zxing-cpp) beside ZBar,
/// from zint drawings, upright and rotated, corners in the upright frame; GS1 flagged; and a
/// failure inside the isolated reader never costs ZBar's codes.
@Suite("Isolated reader")
struct SecondDecoderTests {
    /// zint's barcode numbers.
    static let zintType: [Symbology: Int] = [.datamatrix: 71, .pdf417: 55, .aztec: 92]
    static let payload: [Symbology: String] = [
        .datamatrix: "LOT 4711 EXP 2027-03",
        .pdf417: "M1DOE/JANE            EABC123 LHRJFKBA 0117 123Y014C0042 100",
        .aztec: "TICKET 00042 ZONE A-B VALID 2026-11-24",
    ]

    /// A zint drawing of `symbology` pasted on a white canvas at (60, 50); returns the path
    /// and the symbol's box (its dark pixels' bounding box) clockwise from the top-left.
    static func drawn(
        _ symbology: Symbology, in dir: TempDir, name: String, data: String? = nil,
        extra: [String] = []
    ) throws -> (path: String, box: [Point], size: (Double, Double)) {
        let code = dir.file("code-" + name)
        // Data Matrix square (zint would pick a rectangle for some payloads; zxing-cpp 1.4 reads a
        // rectangular one only near the middle of what it is given).
        let square = symbology == .datamatrix ? ["--square"] : []
        try run(Tools.zint, ["-b", String(zintType[symbology]!), "--scale=3", "-d", data ?? payload[symbology]!] + square + extra + ["-o", code])
        // A white border first: zint's drawings start with a dark module in the corner, which
        // -trim would take for the background.
        let bbox = try run(Tools.convert, [code, "-bordercolor", "white", "-border", "1", "-trim", "-format", "%w %h %X %Y", "info:"]).stdout
        let v = bbox.split(separator: " ").map { Int($0.filter { $0 != "+" && $0 != "\n" }) ?? 0 }
        let (w, h, ox, oy) = (Double(v[0]), Double(v[1]), Double(v[2] - 1), Double(v[3] - 1))
        let path = dir.file(name)
        // Off-centre, as in a screenshot: 60 px from the left, 50 from the top, 240 px of white
        // to the right and 200 below.
        let cw = Int(Make.pngWidthOf(code)) + 300, ch = Int(Make.pngHeightOf(code)) + 250
        try Make.convert(["-size", "\(cw)x\(ch)", "xc:white", code, "-geometry", "+60+50", "-composite", path])
        let x = 60 + ox, y = 50 + oy
        return (path, [Point(x: x, y: y), Point(x: x + w, y: y), Point(x: x + w, y: y + h), Point(x: x, y: y + h)], (Double(cw), Double(ch)))
    }

    /// Where a point of a W x H image lands after ImageMagick's `-rotate deg` (clockwise,
    /// about the centre, on the rotated image's bounding canvas).
    static func rotated(_ p: Point, deg: Double, size: (Double, Double)) -> Point {
        let (w, h) = size
        let t = deg * .pi / 180
        let nw = abs(w * cos(t)) + abs(h * sin(t)), nh = abs(w * sin(t)) + abs(h * cos(t))
        let dx = p.x - w / 2, dy = p.y - h / 2
        return Point(x: cos(t) * dx - sin(t) * dy + nw / 2, y: sin(t) * dx + cos(t) * dy + nh / 2)
    }

    static func scan(_ path: String) throws -> FileRecord {
        // (Library.file: the same FileScanner a worker runs, in this process.)
        try Library.file(path)
    }

    @Test(
        "each symbology, upright, at 90° and at 20°: payload and corners in the upright frame",
        arguments: [Symbology.datamatrix, .pdf417, .aztec])
    func readsRotated(_ symbology: Symbology) throws {
        let dir = try TempDir()
        let upright = try Self.drawn(symbology, in: dir, name: "\(symbology.rawValue).png")
        for deg in [0.0, 90, 20] {
            var path = upright.path
            if deg != 0 {
                path = dir.file("\(symbology.rawValue)-\(Int(deg)).png")
                try Make.convert([upright.path, "-background", "white", "-rotate", String(deg), path])
            }
            let record = try Self.scan(path)
            let codes = record.codes.filter { $0.symbology == symbology }
            #expect(codes.count == 1, "\(symbology) at \(deg)°: \(record.codes.map { "\($0.symbology) \($0.text)" }) \(record.warnings)")
            guard let code = codes.first else { continue }
            #expect(code.text == Self.payload[symbology]!)
            #expect(code.pass.hasPrefix("zxing-"))
            #expect(record.failedDecoder == nil)
            let want = upright.box.map { Self.rotated($0, deg: deg, size: upright.size) }
            // Corners within 2-3 modules (the zint module is 3 px; PDF417's corners are where the
            // detector puts the start and stop patterns' outer edges).
            expectCorners(code.corners, near: want, tolerance: deg == 20 ? 12 : 8, "\(symbology) at \(deg)°")
        }
    }

    @Test("a GS1 DataMatrix is flagged GS1 (]d2), a plain one is not")
    func gs1DataMatrix() throws {
        let dir = try TempDir()
        let gs1 = try Self.drawn(.datamatrix, in: dir, name: "gs1.png", data: "[01]09501101530003[17]251231[10]AB12", extra: ["--gs1"])
        let record = try Self.scan(gs1.path)
        let code = try #require(record.codes.first { $0.symbology == .datamatrix })
        #expect(code.isGS1 == true)
        #expect(code.symbologyID == "]d2")
        #expect(code.text == "010950110153000317251231" + "10AB12")
        let details = code.json()["details"] ?? .null
        #expect(details["gs1"]?.boolValue == true)
        #expect(details["decoder"]?.stringValue == "zxing-cpp")
        // Read back from JSON (resume, merge, report) the flag stays.
        let back = try FileRecord.read(json: Array(record.json().serialized().utf8))
        #expect(back.codes.first { $0.symbology == .datamatrix }?.isGS1 == true)

        let plain = try Self.scan(try Self.drawn(.datamatrix, in: dir, name: "plain.png").path)
        let p = try #require(plain.codes.first { $0.symbology == .datamatrix })
        #expect(p.isGS1 == false)
        #expect(p.symbologyID == "]d1")
    }

    @Test("names, groups and the plan: the isolated reader is plan data, after ZBar's first view on a photo")
    func namesAndPlan() throws {
        #expect(try SymbologySet.parse("datamatrix,pdf417,aztec").members == [.datamatrix, .pdf417, .aztec])
        #expect(try SymbologySet.parse("zxing").members.isSuperset(of: [.datamatrix, .pdf417, .aztec, .microqr, .rmqr, .telepen]))
        #expect(try SymbologySet.parse("2d").members.isSuperset(of: [.qr, .datamatrix, .pdf417, .aztec]))
        #expect(try SymbologySet.parse("1d").members.allSatisfy { !$0.isTwoDimensional })
        #expect(SymbologySet.standard.members.isSuperset(of: [.datamatrix, .pdf417, .aztec]))
        #expect(Symbology.datamatrix.reader == .zxing && Symbology.qr.reader == .zbar)
        let normal = ScanPlan.forEffort(.normal)
        let second = normal.passes.filter { $0.reader == .zxing }
        #expect(!second.isEmpty)
        // ZBar's 3 MP view comes first, zxing-cpp on the same view right after it (a worker sends
        // the codes found so far before each zxing-cpp pass, and reads a file again without
        // zxing-cpp when it died there: `faultKeepsZBarCodes` below); zxing-cpp's retries come last.
        let names = normal.passes.map(\.name)
        let firstSecond = try #require(normal.passes.firstIndex { $0.reader == .zxing })
        #expect(names[firstSecond] == "zxing-fit3" && names.firstIndex(of: "fit3")! < firstSecond)
        let retries = try #require(names.firstIndex(of: "zxing-places"))
        #expect(normal.passes[retries...].allSatisfy { $0.reader == .zxing })
        #expect(normal.listing.contains("zxing-cpp[2d]"))
        #expect(ScanPlan.forEffort(.fast).passes.last?.reader == .zxing)
        #expect(ScanPlan.forEffort(.thorough).passes.contains { $0.reader == .zxing })
    }

    @Test("check: an image the isolated reader failed on breaks decoder_failed; Data Matrix is an allowed symbology by name")
    func checkRules() throws {
        var record = FileRecord(path: "assets/label.png")
        record.width = 100; record.height = 100
        record.codes = [
            DetectedCode(
                symbology: .datamatrix, bytes: Array("0109501101530003".utf8),
                corners: Quad([Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)]),
                quality: 1, orientation: 0, frame: 0, pass: "zxing-fit3", gs1: true)
        ]
        let rules = CheckFixtures.rules {
            $0.symbologies = try? SymbologySet.parse("qr,datamatrix").members; $0.url.required = false
        }
        let evaluator = try Evaluator(rules: rules, context: PathContext(currentDirectory: "/"), today: "2026-01-01")
        #expect(evaluator.evaluate(record, scans: []).violations.map(\.rule).isEmpty)
        record.failedDecoder = "zxing-cpp"
        record.warnings = ["the isolated reader (zxing-cpp) crashed (the worker died: signal 9)"]
        let failed = evaluator.evaluate(record, scans: [])
        #expect(failed.violations.map(\.rule) == ["decoder_failed"])
        #expect(failed.violations.first?.message.contains("zxing-cpp") == true)
    }

    /// A QR code (ZBar's) beside a Data Matrix (the isolated reader's) on one canvas, 640 x 360
    /// or the size of `fault` (`FaultFrame`: zxing-cpp fails on it in the fault-injecting binary).
    static func mixed(_ dir: TempDir, fault: FaultFrame? = nil) throws -> String {
        let folder = try dir.mkdir("in")
        let dm = dir.file("dm.png")
        try run(Tools.zint, ["-b", "71", "--square", "--scale=4", "-d", "PART 99-1234", "-o", dm])
        let qr = dir.file("qr.png")
        try Make.qr("https://example.com/ticket/42", to: qr, scale: 5, margin: 2)
        try Make.convert([
            "-size", fault.map { "\($0.size.width)x\($0.size.height)" } ?? "640x360", "xc:white", qr, "-geometry", "+40+40", "-composite",
            dm, "-geometry", "+380+80", "-composite", folder + "/mixed.png",
        ])
        return folder
    }

    /// The record of `folder`'s one file, scanned by `binary` with `--isolation process`.
    static func scanCLI(_ folder: String, binary: String = codesweepBinary) throws -> JSONValue {
        let r = try run(binary, ["scan", "-q", "--isolation", "process", "--timeout", "5", folder], check: false)
        let line = try #require(r.stdoutLines.first, "no record: \(r.stderr)")
        return try JSONReading.value(line)
    }

    @Test("without a fault both decoders' codes arrive")
    func bothDecoders() throws {
        let dir = try TempDir()
        let folder = try Self.mixed(dir)
        let rec = try Self.scanCLI(folder)
        let syms = (rec["codes"]?.arrayValue ?? []).compactMap { $0["symbology"]?.stringValue }
        #expect(Set(syms) == ["qr", "datamatrix"])
        #expect(rec["failed_decoder"] == nil)
    }

    @Test(
        "an abort, crash or hang inside the isolated reader: the file is read again without it, with a warning naming it",
        arguments: [FaultFrame.isolatedAbort, .isolatedCrash, .isolatedHang])
    func faultKeepsZBarCodes(_ fault: FaultFrame) throws {
        let dir = try TempDir()
        let folder = try Self.mixed(dir, fault: fault)
        let rec = try Self.scanCLI(folder, binary: faultInjectingBinary)
        let codes = rec["codes"]?.arrayValue ?? []
        #expect(codes.compactMap { $0["symbology"]?.stringValue } == ["qr"], "\(fault): \(rec.serialized())")
        #expect(codes.first?["text"]?.stringValue == "https://example.com/ticket/42")
        #expect(rec["status"]?.stringValue == "ok")
        #expect(rec["failed_decoder"]?.stringValue == "zxing-cpp")
        let warnings = (rec["warnings"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(warnings.contains { $0.contains("zxing-cpp") }, "\(warnings)")
    }
}

extension Make {
    static func pngWidthOf(_ path: String) -> Double { (try? Double(pngWidth(path))) ?? 0 }
    static func pngHeightOf(_ path: String) -> Double {
        guard let d = try? Data(contentsOf: URL(fileURLWithPath: path)), d.count > 24 else { return 0 }
        let b = [UInt8](d[20..<24])
        return Double(Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3]))
    }
}
