import AssetCheck
import CodeSweep
import Imaging
import MagickBridge
import Payloads
import Records
import SweepCore

/// What verifying one code found.
package struct Verification: Sendable {
    /// Payloads the engine read from the picture.
    package var decoded: [[UInt8]]
    package var readsBack: Bool
    package var scannability: Scannability?
    /// Reasons the code fails (empty: it passes).
    package var problems: [String]
    /// The code has a logo, and what failed is the read-back or the margins (what the logo's
    /// place among the modules decides), nothing a larger version cannot change: not the
    /// module size, quiet zone or contrast, a second code, or a rule.
    package var aLargerVersionMayHelp = false
    package var passed: Bool { problems.isEmpty }
}

/// Decodes a code made by `CodeGenerator` with the engine (`BarcodeReader`, the scan plan at
/// `normal` effort, as `check` scans), grades it with `check`'s `ScannabilityProbe` (own size,
/// shrunk, blurred, faded) and applies `check`'s rules to it.
package struct Verifier: Sendable {
    package var minGrade: Grade
    /// The rules file's rules (nil: none), with the context its paths are anchored in.
    package var rules: CheckRules?
    package var context: PathContext
    package var today: String

    package init(minGrade: Grade = .B, rules: CheckRules? = nil, context: PathContext = PathContext(currentDirectory: "/"), today: String = "1970-01-01") {
        self.minGrade = minGrade; self.rules = rules; self.context = context; self.today = today
    }

    /// The grey picture a scanner gets from the file: PNG and JPEG are decoded from the bytes to
    /// be written, exactly as `check` will load them; an SVG is verified on its raster (the
    /// same modules at the same size).
    package static func luma(of code: GeneratedCode) -> LumaImage? {
        switch code.format {
        case .svg: return code.raster.luma()
        case .png, .jpeg:
            guard let loaded = try? ImageLoader.load(code.file, format: code.format == .png ? .png : .jpeg) else { return nil }
            return loaded.frames.first
        }
    }

    /// `path` is where the code will be written (rules with paths and expectations match it).
    package func verify(_ code: GeneratedCode, path: String) -> Verification {
        guard let image = Self.luma(of: code) else {
            return Verification(decoded: [], readsBack: false, scannability: nil, problems: ["the picture could not be decoded again"])
        }
        var options = ReaderOptions(symbologies: SymbologySet([.qr]), effort: .normal)
        // The photo passes: the grading decodes the same pixels ZBar's first pass did (the decode
        // log), and grades a code as a phone reads a print of it, not as a drawing.
        options.plan.digital = []
        options.keepsDecodeLog = true
        let read = BarcodeReader.read(ReadFrame(image), options)
        let found = read.codes
        var problems: [String] = []
        let match = found.first { $0.bytes == code.payload }
        if match == nil {
            if found.isEmpty {
                problems.append("the code does not read back: the engine finds no QR code in the picture")
            } else {
                let got = found.map { "\"\(PayloadText.decode($0.bytes).text.map { $0 } ?? "<\($0.bytes.count) bytes>")\"" }
                problems.append(
                    "the code does not read back exactly: read \(got.joined(separator: ", ")) (\(found.map { "\($0.bytes.count)" }.joined(separator: ", ")) bytes), made from \(code.payload.count) bytes"
                )
            }
        } else if found.count > 1 {
            problems.append("the picture holds \(found.count) codes, not one")
        }
        var scan: Scannability? = nil
        // The margins only as far as the grade and the gates need (the grade is check's).
        let gate = max(minGrade, rules?.minGrade ?? minGrade)
        if let match {
            let s = ScannabilityProbe.plainLook(reusing: read.log).measure(match, in: image, gate: gate)
            scan = s
            if s.grade < minGrade {
                let weak = s.weakest(below: minGrade).map { "\($0.parameter) \($0.grade)" }.joined(separator: ", ")
                problems.append("grade \(s.grade), below --min-grade \(minGrade) (\(weak))")
            }
        }
        var otherRuleFailed = false
        if let rules {
            do {
                // Invalid rules fail the code (the CLI refuses them before any code is made).
                let evaluator = try Evaluator(rules: rules, context: context, today: today)
                var record = FileRecord(path: path)
                record.width = image.width; record.height = image.height
                record.codes = match.map { [$0] } ?? found
                let result = evaluator.evaluate(record, scans: match == nil ? [] : [scan])
                for v in result.violations where !(v.rule == "min_grade" && scan.map { $0.grade < minGrade } == true) {
                    problems.append("rule \(v.rule): \(v.message)")
                    if v.rule != "min_grade" { otherRuleFailed = true }
                }
            } catch {
                problems.append("the rules cannot be applied: \(error.description)")
                otherRuleFailed = true
            }
        }
        // What a logo's place among the modules decides: the read-back and the margins.
        let versionMayHelp =
            !problems.isEmpty && code.logo != nil && found.count <= 1 && !otherRuleFailed
            && (scan.map { $0.weakParameters(below: gate).allSatisfy { $0 == .readsAsIs || $0.isMargin } } ?? true)
        return Verification(
            decoded: found.map(\.bytes), readsBack: match != nil, scannability: scan, problems: problems,
            aLargerVersionMayHelp: versionMayHelp)
    }
}
