import CodeDiff
import Records
import Reporting
import UserInput

/// `check --baseline FILE`: the codes of a scan of the same assets at the base revision, to
/// say what a change did to them (docs/check.md, "Changes against a base"). A `check --json`
/// report carries grades and print sizes; a `scan` report (JSON Lines or `--format json`)
/// carries payloads, symbologies and, for documents, print sizes, but no grades.
package struct Baseline: Sendable {
    /// The file as the user named it, for messages.
    package var source: String
    package var images: [DiffImage]
    /// Whether the baseline holds grades (a `check --json` report).
    package var graded: Bool
    package var failOn: BaselineDiff.FailOn

    /// A baseline larger than this is refused: 256 MiB (a check report of about 100,000 images;
    /// a scan report of about 250,000 files).
    package static let sizeLimit = 256 << 20

    package struct Unreadable: Error, CustomStringConvertible { package var description: String }

    package init(source: String, images: [DiffImage], graded: Bool, failOn: BaselineDiff.FailOn = .default) {
        self.source = source; self.images = images; self.graded = graded; self.failOn = failOn
    }

    /// The baseline in `bytes`: a `check --json` report, else a scan report.
    package init(reading bytes: [UInt8], source: String, failOn: BaselineDiff.FailOn = .default) throws(Unreadable) {
        self.source = source; self.failOn = failOn
        if let report = try? JSONReading.decode(CheckDocument.self, from: bytes) {
            images = report.images.map(\.diffImage)
            graded = true
            return
        }
        graded = false
        if let document = try? JSONReading.decode(ScanDocument.self, from: bytes) {
            images = document.files.map { DiffImage(record: $0, scans: []) }
            return
        }
        images = []
        var number = 0
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            guard let record = try? FileRecord.read(json: line) else {
                throw Unreadable(
                    description:
                        "the baseline \(source) is neither a `codesweep check --json` report nor a scan report (line \(number) is no file record)")
            }
            images.append(DiffImage(record: record, scans: []))
        }
        // An empty report is no baseline: every code would be new, and a wrong file would pass.
        if images.isEmpty { throw Unreadable(description: "the baseline \(source) holds no file record: it is empty, not a report of a scan of the assets") }
    }

    /// The changes of the checked records against the baseline, as violations on the images'
    /// results for the kinds that fail (and results of their own for files only in the baseline)
    /// and as the comparison the outputs list. `spot`: only the files checked are compared.
    package func apply(to results: inout [ImageResult], records: [FileRecord], scans: [[Scannability?]], spot: Bool) -> BaselineComparison {
        let head = records.enumerated().map { DiffImage(record: $0.element, scans: scans[$0.offset]) }
        let files = BaselineDiff.compare(base: images, head: head, onlyCheckedPaths: spot)
        var index: [String: Int] = [:]
        for (i, r) in results.enumerated() where index[r.path] == nil { index[r.path] = i }
        for file in files {
            let failing = file.changes.filter(failOn.fails).map(Self.violation)
            guard !failing.isEmpty else { continue }
            if let i = index[file.path] {
                results[i].violations += failing
            } else {
                results.append(ImageResult(path: file.path, violations: failing))
            }
        }
        return BaselineComparison(source: source, failOn: failOn, graded: graded, files: files)
    }

    static func violation(_ change: BaselineDiff.Change) -> Violation {
        let fix: String
        switch change.rule {
        case "baseline.added": fix = "if the code is meant to be there, nothing is wrong (--fail-on without 'added'); else take it out of the artwork"
        case "baseline.removed":
            fix = "put the code back, or, if it was taken out on purpose, accept the change (docs/check.md, \"Changes against a base\")"
        case "baseline.grade-drop":
            fix = "make the code as large, sharp and dark on light as it was in the base revision (the base's grade is the one to keep)"
        default:
            fix =
                "if the change is meant (a new link, a new size), accept it (docs/check.md, \"Changes against a base\"); else restore the code from the base revision"
        }
        return Violation(rule: change.rule, message: change.message, fix: fix, code: change.code)
    }

    /// A `check --json` report, as far as the baseline needs it.
    struct CheckDocument: Decodable {
        var images: [Image]
        struct Image: Decodable {
            var path: String
            var status: String
            var codes: [Code]
            var diffImage: DiffImage { DiffImage(path: path, codes: codes.map(\.diffCode), readable: status != "error") }
        }
        struct Code: Decodable {
            var code: DetectedCode
            var index: Int
            var scannability: Scan?
            var print: Print?
            struct Scan: Decodable {
                var grade: String
                var grade_value: Int
                var module_px: Double?
            }
            struct Print: Decodable { var module_mm: Double? }
            enum Key: String, CodingKey { case index, scannability, print }
            init(from decoder: any Decoder) throws {
                code = try DetectedCode(from: decoder)
                let c = try decoder.container(keyedBy: Key.self)
                index = try c.decode(Int.self, forKey: .index)
                scannability = try c.decodeIfPresent(Scan.self, forKey: .scannability)
                print = try c.decodeIfPresent(Print.self, forKey: .print)
            }
            var diffCode: DiffCode {
                DiffCode(
                    index: index, symbology: code.symbology, bytes: code.bytes, text: CodeResult(index: index, code: code, scan: nil).text,
                    frame: code.frame, corners: code.corners, grade: scannability.map { DiffGrade(letter: $0.grade, value: $0.grade_value) },
                    moduleMM: print?.module_mm, modulePx: scannability?.module_px)
            }
        }
    }

    /// A scan's `--format json` document.
    struct ScanDocument: Decodable { var files: [FileRecord] }
}

/// What `check --baseline` found, for the outputs.
package struct BaselineComparison: Sendable, Equatable {
    package var source: String
    package var failOn: BaselineDiff.FailOn
    package var graded: Bool
    package var files: [BaselineDiff.FileChanges]

    /// How many changes of each kind (a changed code whose grade fell counts in both).
    package func count(_ kind: BaselineDiff.Kind) -> Int { files.reduce(0) { $0 + $1.changes.count { $0.kinds.contains(kind) } } }
}

extension DiffImage {
    /// A record's codes as the diff compares them: with each code's grade and module where the
    /// check measured them (`scans`), and its printed module on a page of known size.
    init(record: FileRecord, scans: [Scannability?]) {
        let codes = record.codes.enumerated().map { k, code in
            let result = CodeResult(index: k + 1, code: code, scan: k < scans.count ? scans[k] : nil)
            let page = record.pages.first { $0.page == code.frame }
            let printed = page.flatMap { Evaluator.printRuled.contains(code.symbology) ? Evaluator.printedSize(result, on: $0) : nil }
            return DiffCode(
                index: k + 1, symbology: code.symbology, bytes: code.bytes, text: result.text, frame: code.frame, corners: code.corners,
                grade: result.scan.map { DiffGrade(letter: $0.grade.description, value: $0.grade.rawValue) },
                moduleMM: printed?.module, modulePx: result.scan?.modulePx)
        }
        self.init(path: record.path, codes: codes, readable: record.error == nil)
    }
}
