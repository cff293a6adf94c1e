import CodeSweep
import Foundation
import Imaging
import MagickBridge
import QREncodeBridge
import QRSymbol
import Records
import SweepCore
import TestSupport
import Testing

@testable import AssetCheck
@testable import CodeGenerate
@testable import SweepCore

/// `codesweep generate`: codes made by libqrencode, drawn and written through the real
/// MagickWand, read back by the real engine and graded by check's Scannability. The 200 × 4
/// round trip decodes in process, without files.
@Suite("Generate")
struct GenerateTests {
    /// 200 payloads: 50 each of text (ASCII and other scripts, UTF-8), URLs, binary bytes and
    /// Chinese text for GB18030 (with its ECI designator).
    static func payloads() -> [(kind: String, bytes: [UInt8], charset: String?)] {
        var rng = SplitMix(seed: 17)
        var out: [(String, [UInt8], String?)] = []
        let words = ["hello", "Grüße", "café", "naïve", "привет", "γειά", "שלום", "مرحبا", "こんにちは", "東京", "😀", "a\tb", "line\nbreak", "100%", "\"q\""]
        for _ in 0..<50 {
            let text = (0..<(1 + rng.int(8))).map { _ in rng.pick(words) }.joined(separator: " ")
            out.append(("text", Array(text.utf8), nil))
        }
        let hosts = ["example.com", "shop.example.co.uk", "xn--bcher-kva.example", "127.0.0.1:8080"]
        for i in 0..<50 {
            var url = "https://\(rng.pick(hosts))/p/\(rng.next() % 100_000)?utm_source=s\(i)&utm_campaign=c\(rng.int(9))"
            if rng.int(2) == 0 { url += "&q=%E4%B8%AD+\(rng.next())#frag" }
            out.append(("url", Array(url.utf8), nil))
        }
        for _ in 0..<50 {
            out.append(("binary", (0..<(1 + rng.int(120))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }, nil))
        }
        let hanzi = Array("中文测试二维码扫描营销活动北京上海广州深圳价格优惠欢迎光临龘𠀀€，。")
        for _ in 0..<50 {
            let text = String((0..<(1 + rng.int(30))).map { _ in rng.pick(hanzi) })
            out.append(("gb18030", Array(text.utf8), "gb18030"))
        }
        return out
    }

    @Test("200 seeded payloads (text, URLs, binary, GB18030 with ECI) × L, M, Q, H read back byte for byte")
    func roundTrip() throws {
        var failures: [String] = []
        var count = 0
        for (i, p) in Self.payloads().enumerated() {
            let (bytes, eci) = try PayloadEncoding.encode(p.bytes, charset: p.charset, eci: true)
            if p.charset != nil { #expect(eci == 32 && bytes != p.bytes) }
            for ec in QRErrorCorrection.allCases {
                let m = try QREncoder.encode(bytes, ec: ec, eci: eci)
                let image = QRLayout(modules: m.size, modulePx: 3, marginModules: 4).render(m, foreground: .black, background: .white).luma()
                let read = BarcodeReader.read(ReadFrame(image), ReaderOptions(symbologies: SymbologySet([.qr]), effort: .fast)).codes
                if read.map(\.bytes) != [bytes] { failures.append("#\(i) \(p.kind) \(ec): read \(read.map(\.bytes.count))") }
                count += 1
            }
        }
        #expect(count == 800)
        #expect(failures.isEmpty, "\(failures.prefix(10))")
    }

    @Test("the codeword map places every codeword's 8 bits and the remainder bits, versions 1...40")
    func codewordMap() {
        for v in 1...40 {
            let roles = QRStructure.roles(version: v)
            let dataModules = roles.filter { $0 == .data }.count
            #expect(dataModules == QRStructure.totalCodewords[v - 1] * 8 + QRStructure.remainderBits(version: v), "version \(v)")
            var perCodeword = [Int](repeating: 0, count: QRStructure.totalCodewords[v - 1])
            for c in QRStructure.codewordMap(version: v) where c >= 0 { perCodeword[c] += 1 }
            #expect(perCodeword.allSatisfy { $0 == 8 }, "version \(v)")
        }
        // libqrencode's matrix has its function patterns where the map says: finders dark at the corners, timing alternating.
        let m = try! QREncoder.encode(Array("https://example.com".utf8), ec: .M, minVersion: 7)
        #expect(m.version == 7 && m.size == 45)
        for i in 8..<(m.size - 8) { #expect(m[i, 6] == (i % 2 == 0) && m[6, i] == (i % 2 == 0)) }
        for (x, y) in QRStructure.alignmentPatterns(version: 7) { #expect(m[x, y] && !m[x + 1, y] && m[x + 2, y]) }
    }

    @Test("colours: CSS hex and names; contrast is the grey difference a scanner sees; low contrast is refused, light on dark warned")
    func colours() throws {
        #expect(try RGBColor(css: "#abc") == RGBColor(r: 0xAA, g: 0xBB, b: 0xCC))
        #expect(try RGBColor(css: "003366").hex == "#003366")
        #expect(try RGBColor(css: "Navy") == RGBColor(r: 0, g: 0, b: 0x80))
        #expect(RGBColor.named.count == 148)
        #expect(throws: RGBColor.ParseError.self) { try RGBColor(css: "#12345") }
        #expect(throws: RGBColor.ParseError.self) { try RGBColor(css: "brandblue") }
        // Pure red and pure green differ a lot in hue but little in grey (76 vs 150 of 255).
        let redGreen = ColorContrast(foreground: try RGBColor(css: "red"), background: try RGBColor(css: "lime"))
        #expect(abs(redGreen.value - Double(150 - 76) / 255) < 0.01 && !redGreen.isEnough)

        var spec = CodeSpec()
        try spec.apply(option: "fg", value: "#777777")
        try spec.apply(option: "bg", value: "#aaaaaa")
        #expect {
            _ = try CodeGenerator.make(Array("https://example.com".utf8), spec: spec)
        } throws: { e in
            let g = e as! GenerateError
            return g.kind == .refused && g.description.contains("contrast of 0.20") && g.description.contains("at least 0.40")
        }

        try spec.apply(option: "fg", value: "white")
        try spec.apply(option: "bg", value: "navy")
        let code = try CodeGenerator.make(Array("https://example.com/inverted".utf8), spec: spec)
        #expect(code.contrast.inverted && code.warnings == [Scannability.invertedNote])
        let v = Verifier(minGrade: .B).verify(code, path: "x.png")
        #expect(v.passed && v.scannability?.inverted == true && v.scannability?.grade == .B, "\(v.problems)")
    }

    @Test("the CLI refuses a low-contrast pair and writes nothing")
    func lowContrastCLI() throws {
        let dir = try TempDir()
        let r = try run(
            codesweepBinary, ["generate", "https://example.com", "--fg", "#808080", "--bg", "silver", "-o", "x.png"],
            currentDirectory: dir.path, check: false)
        #expect(r.status == 1 && r.stderr.contains("contrast"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("x.png")))
    }

    /// A white logo with a finder pattern's likeness in its top-left corner (dark 31 px square,
    /// light ring, dark 11 px core): shapes that can stop a decoder hunting finders.
    static func finderLogoPNG() throws -> [UInt8] {
        let n = 100
        var rgba = [UInt8](repeating: 255, count: n * n * 4)
        for y in 0...30 {
            for x in 0...30 {
                let ring = min(x, y, 30 - x, 30 - y)
                guard ring < 5 || ring >= 10 else { continue }
                let i = (y * n + x) * 4
                rgba[i] = 0; rgba[i + 1] = 0; rgba[i + 2] = 0
            }
        }
        return try CodePicture.encodePNG(LogoPixels(width: n, height: n, rgba: rgba))
    }

    @Test("a logo code that does not verify is made again at larger versions; the first that verifies is taken")
    func logoRetriedAtLargerVersions() throws {
        var spec = CodeSpec()
        spec.logoPath = "finder.png"
        spec.logoSize = 0.15
        spec.modulePx = 4
        let job = GenerateJob(
            label: "finder", outputPath: "finder.png",
            payload: Array("https://www.example.com/spring?utm_source=bag&utm_medium=print".utf8), spec: spec,
            logo: try Self.finderLogoPNG())
        // The premise: at the version the logo fits first, the code does not verify.
        let plain = try CodeGenerator.make(job.payload, spec: spec, logo: job.logo)
        let first = Verifier(minGrade: .B).verify(plain, path: "finder.png")
        #expect(!first.passed && first.aLargerVersionMayHelp, "\(first.problems)")
        let o = GenerateRun.one(job, verifier: Verifier(minGrade: .B))
        #expect(o.ok, "\(o.verification?.problems ?? []) after \(o.failedVersions.map(\.version))")
        let made = try #require(o.code)
        #expect(o.failedVersions.first?.version == plain.matrix.version)
        #expect(o.failedVersions.map(\.version) == o.failedVersions.map(\.version).sorted())
        #expect(made.matrix.version > (o.failedVersions.last?.version ?? 40) && made.matrix.version <= plain.matrix.version + GenerateRun.logoRetries * 3)
        #expect((o.verification?.scannability?.grade ?? .F) >= .B)

        // Not retried: no logo (a module size of 2 px grades D at any version), or --no-verify.
        var small = CodeSpec()
        small.modulePx = 2
        let d = GenerateRun.one(
            GenerateJob(label: "small", outputPath: "small.png", payload: job.payload, spec: small, logo: nil),
            verifier: Verifier(minGrade: .B))
        #expect(!d.ok && d.failedVersions.count == 1 && d.verification?.aLargerVersionMayHelp == false)
        let unverified = GenerateRun.one(job, verifier: nil)
        #expect(unverified.ok && unverified.failedVersions.isEmpty && unverified.code?.matrix.version == plain.matrix.version)
    }

    @Test("a logo of 20 % of the area at EC H grades at least B; 40 % is refused with the numbers, before writing")
    func logo() throws {
        let logo = try Make.logoPNG()
        var spec = CodeSpec()
        spec.logoPath = "logo.png"
        spec.logoSize = 0.20
        #expect(spec.effectiveEC == .H)
        let url = Array("https://example.com/spring?utm_source=poster&utm_campaign=spring26".utf8)
        let code = try CodeGenerator.make(url, spec: spec, logo: logo)
        let budget = try #require(code.logo)
        // The pad bits were chosen: most covered codewords show the plate and logo; what is
        // damaged stays within the allowance in every block.
        #expect(budget.fits && budget.fitted && budget.freeBits > 0)
        #expect(budget.damagedCodewords * 2 < budget.coveredCodewords && budget.worstBlock <= budget.allowedPerBlock)
        #expect(LogoDamage(code.matrix, targets: LogoBudget.plainTargets(size: code.matrix.size, plate: budget.plate)).damaged > budget.damagedCodewords)
        let v = Verifier(minGrade: .B).verify(code, path: "logo.png")
        #expect(v.passed && v.readsBack && (v.scannability?.grade ?? .F) >= .B, "\(v.problems)")
        // The logo is really there: red in its ring (a third of its side left of the centre), white in its middle.
        let ring = Int(budget.logoModules * Double(code.layout.modulePx) / 3)
        let mid = (code.raster.height / 2 * code.raster.width + code.raster.width / 2 - ring) * 3
        #expect(code.raster.pixels[mid] == 0xD6 && code.raster.pixels[mid + 1] == 0x28)
        let centre = (code.raster.height / 2 * code.raster.width + code.raster.width / 2) * 3
        #expect(code.raster.pixels[centre] == 255 && code.raster.pixels[centre + 1] == 255)

        // 40 %: the payload's own blocks cannot be helped; refused with the numbers at every version tried.
        spec.logoSize = 0.4
        #expect {
            _ = try CodeGenerator.make(url, spec: spec, logo: logo)
        } throws: { e in
            let d = (e as! GenerateError).description
            return d.contains("of the code's area") && d.contains("codewords") && d.contains("free bits") && d.contains("restores about 30 %")
                && d.contains("at most")
        }
        let dir = try TempDir()
        try Data(logo).write(to: URL(fileURLWithPath: dir.file("logo.png")))
        let r = try run(
            codesweepBinary, ["generate", "https://example.com/x", "--logo", "logo.png", "--logo-size", "0.4", "-o", "big.png"],
            currentDirectory: dir.path, check: false)
        #expect(r.status == 1 && r.stderr.contains("free bits") && r.stderr.contains("at most"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("big.png")))
    }

    @Test("logo sizes by payload (docs/generate.md's table): short URL 20 %, binary and a 162-byte URL 15 % grade at least B; the long URL's 20 % is refused")
    func logoPayloads() throws {
        let logo = try Make.logoPNG()
        let long =
            "https://www.example.com/campaign/spring-2026/landing?utm_source=poster&utm_medium=print&utm_campaign=spring26&utm_content="
            + String(repeating: "abcdefgh", count: 5)
        let cases: [([UInt8], Double)] = [
            (Array("https://example.com/x".utf8), 0.20),
            ((0..<60).map { UInt8(($0 * 37 + 11) & 255) }, 0.15),
            (Array(long.utf8), 0.15),
        ]
        for (payload, f) in cases {
            var spec = CodeSpec()
            spec.logoPath = "logo.png"
            spec.logoSize = f
            spec.modulePx = 6  // keeps the large versions' pictures smaller (at 4 px, 15-20 % logos lose the shrink margin)
            let code = try CodeGenerator.make(payload, spec: spec, logo: logo)
            let v = Verifier(minGrade: .B).verify(code, path: "logo.png")
            #expect(v.passed && (v.scannability?.grade ?? .F) >= .B && code.logo?.fitted == true, "\(payload.count) bytes at \(f): \(v.problems)")
        }
        var spec = CodeSpec()
        spec.logoPath = "logo.png"
        spec.logoSize = 0.20
        #expect(throws: GenerateError.self) { _ = try CodeGenerator.make(Array(long.utf8), spec: spec, logo: logo) }
    }

    @Test("PNG modules are whole pixels in two colours; --size gives exactly that width")
    func crispPNG() throws {
        var spec = CodeSpec()
        try spec.apply(option: "size", value: "500")
        try spec.apply(option: "fg", value: "#003366")
        let code = try CodeGenerator.make(Array("https://example.com/crisp".utf8), spec: spec)
        #expect(code.layout.side == 500 && code.layout.modulePx == 500 / (code.matrix.size + 8))
        let loaded = try ImageLoader.load(code.file, format: .png)
        let frame = try #require(loaded.frames.first)
        #expect(frame.width == 500 && frame.height == 500)
        #expect(Set(frame.pixels) == [RGBColor(r: 0, g: 0x33, b: 0x66).luma, 255])
        let m = code.layout.modulePx, o = code.layout.originPx
        for y in 0..<code.matrix.size {
            for x in 0..<code.matrix.size {
                let dark = frame[o + x * m, o + y * m] != 255 && frame[o + x * m + m - 1, o + y * m + m - 1] != 255
                #expect(dark == code.matrix[x, y])
            }
        }
    }

    @Test("SVG: one path in module units; rasterised by ImageMagick it reads back")
    func svg() throws {
        let dir = try TempDir()
        let payload = "https://example.com/vector?utm_source=print"
        let r = try run(codesweepBinary, ["generate", payload, "--fg", "darkgreen", "-o", "code.svg"], currentDirectory: dir.path, check: false)
        #expect(r.status == 0, "\(r.stderr)")
        let svg = try String(contentsOfFile: dir.file("code.svg"), encoding: .utf8)
        #expect(svg.components(separatedBy: "<path").count == 2 && svg.contains("fill=\"#006400\""))
        try run(Tools.convert, [dir.file("code.svg"), dir.file("raster.png")])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.file("raster.png"))))
        let frame = try #require(try ImageLoader.load(bytes, format: .png).frames.first)
        let read = BarcodeReader.read(ReadFrame(frame), ReaderOptions(symbologies: SymbologySet([.qr]))).codes
        #expect(read.map(\.bytes) == [Array(payload.utf8)])
    }

    @Test("payload bytes from a file are kept exact (NUL, invalid UTF-8), and JPEG is written only when asked")
    func exactBytesAndJPEG() throws {
        let dir = try TempDir()
        let bytes: [UInt8] = [0, 0xFF, 0xFE, 0x41, 0x0A, 0xC3, 0x28, 0x1B, 0x5B, 0x33, 0x31, 0x6D]
        try Data(bytes).write(to: URL(fileURLWithPath: dir.file("payload.bin")))
        let r = try run(codesweepBinary, ["generate", "--file", "payload.bin", "-o", "out/"], currentDirectory: dir.path, check: false)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("\u{1B}["), "the payload's escape sequence is not printed raw")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.file("out"))
        #expect(files.count == 1 && files[0].hasSuffix(".png"))
        let record = try Library.file(dir.file("out/" + files[0]))
        #expect(record.codes.map(\.bytes) == [bytes])

        let j = try run(codesweepBinary, ["generate", "https://example.com/j", "-o", "photo.jpg"], currentDirectory: dir.path, check: false)
        #expect(j.status == 0, "\(j.stderr)")
        let head = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.file("photo.jpg"))).prefix(3))
        #expect(head == [0xFF, 0xD8, 0xFF])
    }

    @Test("rules from a rules file are applied to each code made; --min-grade gates")
    func rules() throws {
        var rules = CheckRules()
        rules.url.schemes = ["https"]
        rules.url.forbiddenQuery = ["debug"]
        let verifier = Verifier(minGrade: .B, rules: rules)
        let bad = try CodeGenerator.make(Array("http://example.com/?debug=1".utf8), spec: CodeSpec())
        let v = verifier.verify(bad, path: "/tmp/x.png")
        #expect(v.readsBack && v.problems.contains { $0.contains("url.scheme") } && v.problems.contains { $0.contains("url.forbidden_query") }, "\(v.problems)")
        let good = try CodeGenerator.make(Array("https://example.com/".utf8), spec: CodeSpec())
        #expect(verifier.verify(good, path: "/tmp/y.png").passed)
        // A 1 px module with no margin grades low (module size, quiet zone): below A.
        var small = CodeSpec()
        small.modulePx = 1
        small.margin = 0
        let tiny = try CodeGenerator.make(Array("https://example.com/tiny".utf8), spec: small)
        #expect(!Verifier(minGrade: .A).verify(tiny, path: "t.png").passed)
    }

    @Test("batch lists: CSV quoting and options, YAML forms; bad names and unknown options refused")
    func batchLists() throws {
        let csv = "name,payload,options\r\na,https://example.com/a,\n\"b,\"\"x\"\"\",\"multi\nline\",ec=H fg=navy\n"
        let e = try BatchList.parse(csv, source: "l.csv")
        #expect(e.map(\.name) == ["a", "b,\"x\""] && e[1].payload == "multi\nline")
        #expect(e[1].options == [.init("ec", "H"), .init("fg", "navy")])
        let yaml = "- name: a\n  payload: https://example.com/a\n  ec: Q\n- {name: b, payload: 'x', options: 'margin=2'}\n"
        let y = try BatchList.parse(yaml, source: "l.yml")
        #expect(y.map(\.name) == ["a", "b"] && y[0].options == [.init("ec", "Q")] && y[1].options == [.init("margin", "2")])
        #expect(try BatchList.parse("a: one\nb: two\n", source: "m.yaml").map(\.payload) == ["one", "two"])
        for bad in ["../x,p\n", ".hidden,p\n", "a,p\na,q\n", "a,p,colour=red\n", "a\n"] {
            #expect(throws: GenerateError.self, "\(bad)") { try BatchList.parse(bad, source: "l.csv") }
        }
        // The manifest is YAML check reads back to the same text.
        let text = "quote \" backslash \\ newline \n tab \t bell \u{7} 中文"
        let parsed = try RulesFile.parseExpectations(Manifest.yaml([("a b.png", text)]), source: "m", directory: "/d")
        #expect(parsed == [Expectation(path: "/d/a b.png", payloads: [text])])
    }

    @Test("a batch of 50 codes and its manifest pass `codesweep check` unchanged")
    func batchPassesCheck() throws {
        let dir = try TempDir()
        try Data(try Make.logoPNG()).write(to: URL(fileURLWithPath: dir.file("logo.png")))
        var rows = ["name,payload,options"]
        let options = ["", "ec=Q", "fg=#003366", "fg=darkred bg=#fffbe6", "module=5 margin=5", "ec=H logo=logo.png logo-size=0.08", "size=200", "ec=L"]
        for i in 0..<50 {
            rows.append("code-\(i),https://example.com/campaign/\(i)?utm_source=flyer&utm_campaign=spring,\(options[i % options.count])")
        }
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: dir.file("list.csv")))
        let g = try run(codesweepBinary, ["generate", "--batch", "list.csv", "-o", "out", "-q", "--module", "4"], currentDirectory: dir.path, check: false)
        #expect(g.status == 0, "\(g.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.file("out")).sorted()
        #expect(files.count == 51 && files.contains("expected.yml"))
        let c = try run(
            codesweepBinary, ["check", "--isolation", "none", "--no-rules-file", "--min-grade", "B", "--expectations", "out/expected.yml", "out"],
            currentDirectory: dir.path, check: false)
        #expect(c.status == 0 && c.stdout.contains("PASSED: 50 images"), "\(c.stdout)\(c.stderr)")
    }

    @Test("a batch reports in list order as codes finish; a file that cannot be written stops it with exit 2 and no manifest")
    func batchStreamsAndStopsOnAWriteError() throws {
        let dir = try TempDir()
        var rows = ["name,payload,options"]
        // Slow and quick codes mixed (a logo at a larger version, small ones), and one that fails.
        try Data(try Make.logoPNG()).write(to: URL(fileURLWithPath: dir.file("logo.png")))
        let options = ["logo=logo.png logo-size=0.12", "", "module=2", "", "logo=logo.png logo-size=0.12", "", "", ""]
        for i in 0..<8 { rows.append("c\(i),https://example.com/s/\(i),\(options[i])") }
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: dir.file("list.csv")))
        let g = try run(codesweepBinary, ["generate", "--batch", "list.csv", "-o", "out", "-j", "2"], currentDirectory: dir.path, check: false)
        #expect(g.status == 1, "\(g.stderr)")
        let order = g.stderr.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("made ") || line.hasPrefix("FAIL ") else { return nil }
            return String(line.split(separator: " ")[1].prefix(while: { $0 != ":" }))
        }
        #expect(order == (0..<8).map { "c\($0)" }, "\(g.stderr)")
        #expect(g.stderr.contains("FAIL c2:") && g.stderr.contains("7 of 8 codes made"))

        // c3.png is a folder: the output plan refuses it before anything is made (issue 27: no
        // output is started when one of them cannot be written safely).
        let out2 = dir.file("out2")
        try FileManager.default.createDirectory(atPath: out2 + "/c3.png", withIntermediateDirectories: true)
        let w = try run(codesweepBinary, ["generate", "--batch", "list.csv", "-o", "out2", "-j", "2"], currentDirectory: dir.path, check: false)
        #expect(w.status == 2, "\(w.stderr)")
        #expect(w.stderr.contains("c3.png"), "\(w.stderr)")
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: out2))
        #expect(files == ["c3.png"], "\(files)")
        #expect(w.stderr.contains("not a regular file"), "\(w.stderr)")
    }

    @Test("the faster Gaussian blur gives exactly the plain loops' pixels (grades do not move)")
    func blurUnchanged() {
        var rng = SplitMix(seed: 5)
        for (w, h) in [(1, 1), (3, 7), (40, 33), (97, 120)] {
            let img = LumaImage(width: w, height: h, pixels: (0..<(w * h)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            for sigma in [0.3, 0.6, 1.2, 2.1, 4.2, 7.5] {
                #expect(img.gaussianBlurred(sigma: sigma) == Reference.gaussianBlur(img, sigma: sigma), "\(w)x\(h) σ \(sigma)")
            }
        }
    }
}
