import AssetCheck
import Foundation
import Records
import Reporting
import TestSupport
import Testing

@testable import CodeSweep
@testable import WorkerProcesses

/// `check` grades each code inside the scan (`CheckGrading`, run by `FileScanner` in the worker
/// that read the file), not by reading the file a second time in the coordinator.
@Suite("Check grading in the scan")
struct CheckGradingTests {
    static let samples = PackageRoot.samples + "/check"

    /// The JSON report without the seconds (which differ run to run).
    static func report(_ isolation: String) throws -> String {
        let r = try run(codesweepBinary, ["check", "--isolation", isolation, "--json", "-", "."], currentDirectory: samples, check: false)
        #expect(r.status == 1, "the samples break rules on purpose: \(r.stderr)")
        return r.stdout.replacingOccurrences(of: #""seconds": ?[0-9.e+-]+"#, with: "", options: .regularExpression)
    }

    @Test func workersGradeAsTheCoordinatorWould() throws {
        let inWorkers = try Self.report("process"), inProcess = try Self.report("none")
        #expect(inWorkers == inProcess)
        // And they did grade: the small code's F and the good poster's A are in the report.
        #expect(inWorkers.contains(#""grade": "F""#) && inWorkers.contains(#""grade": "A""#), "\(inWorkers.prefix(600))")
    }

    @Test func aMeasurementCrossesTheWorkerProtocolIntact() throws {
        let s = Scannability(
            json: .object([
                ("module_px", .double(3.25)), ("modules_per_side", .int(25)), ("version", .int(2)), ("quiet_zone_px", .double(13)),
                ("quiet_zone_modules", .double(4)), ("quiet_zone_at_least", .bool(true)), ("contrast", .double(0.875)),
                ("reads_as_is", .bool(true)), ("scale_margin", .double(2)), ("blur_margin", .double(0.35)), ("contrast_margin", .double(0.12)),
                ("margins_complete", .bool(false)), ("inverted", .bool(true)),
                ("grades", .array([.array([.string("module size"), .int(3)]), .array([.string("contrast"), .int(4)])])),
            ]))
        let m = try #require(s)
        #expect(m.grade == .B && m.inverted && m.modulesPerSide == 25 && !m.marginsComplete)
        let code = DetectedCode(
            symbology: .qr, bytes: [1, 2], corners: Quad([Point(x: 0, y: 0), Point(x: 9, y: 0), Point(x: 9, y: 9), Point(x: 0, y: 9)]),
            quality: 1, orientation: 0, frame: 0, pass: "p")
        var record = FileRecord(path: "a.png")
        record.codes = [code, code]
        record.measurements = [m.json, nil]
        guard case .record(let back) = WorkerProtocol.parseReply(Array(WorkerProtocol.reply(record).utf8)) else {
            Issue.record("the reply did not read back"); return
        }
        #expect(back.measurements.count == 2 && back.measurements[0].flatMap(Scannability.init(json:)) == m && back.measurements[1] == nil)
        #expect(!record.json().serialized().contains("measurement"), "the record's JSON is unchanged: no measurement in it")
        #expect(Scannability(json: .object([("contrast", .double(1))])) == nil, "a partial measurement is not a measurement")
    }

    @Test func anUngradedCodeIsNotAPassUnderMinGrade() throws {
        var rules = CheckRules()
        rules.minGrade = .C
        let evaluator = try Evaluator(rules: rules, context: PathContext(currentDirectory: "/"), today: "2026-01-01")
        var record = FileRecord(path: "big.jpg")
        record.codes = [
            DetectedCode(
                symbology: .qr, bytes: Array("x".utf8), corners: Quad([Point(x: 0, y: 0), Point(x: 9, y: 0), Point(x: 9, y: 9), Point(x: 0, y: 9)]),
                quality: 1, orientation: 0, frame: 0, pass: "p")
        ]
        record.warnings = ["code 1 could not be graded: its frame did not decode at full resolution"]
        let result = evaluator.evaluate(record, scans: [nil])
        #expect(result.status == .failed)
        #expect(result.violations.map(\.rule).contains("min_grade"))
        #expect(result.violations.first { $0.rule == "min_grade" }?.message.contains("could not be graded") == true)
    }
}

/// `CheckSetup`: the rules file found and read, its folder anchoring paths, the roots.
@Suite("Check setup")
struct CheckSetupTests {
    static let files: [String: String] = [
        "/work/proj/.codesweep.yml": "paths: [assets, /abs/x]\nmin_grade: B\n",
        "/work/proj/ci/rules.yml": "paths: [../assets]\n",
    ]
    static func read(_ cwd: String) -> (String) -> [UInt8]? {
        { p in files[PathContext.normalize(p.hasPrefix("/") ? p : cwd + "/" + p)].map { Array($0.utf8) } }
    }

    @Test func theDefaultFileItsFolderAndTheRoots() throws {
        let cwd = "/work/proj"
        let s = try CheckSetup(rulesFile: nil, lookForDefault: true, currentDirectory: cwd, exists: { Self.read(cwd)($0) != nil }, read: Self.read(cwd))
        #expect(s.rulesPath == ".codesweep.yml" && s.rulesDirectory == "/work/proj" && s.rules.minGrade == .B)
        #expect(s.roots(commandLine: []) == ["assets", "/abs/x"])
        #expect(s.roots(commandLine: ["other"]) == ["other"])
        #expect(s.source(withFlags: true) == ".codesweep.yml + flags")
        // Without looking for the default: no file, the flags are the rules, "." is walked.
        let none = try CheckSetup(rulesFile: nil, lookForDefault: false, currentDirectory: cwd, exists: { _ in true }, read: Self.read(cwd))
        #expect(none.rulesPath == nil && none.roots(commandLine: []) == ["."] && none.source(withFlags: false) == "flags")
    }

    @Test func pathsAreRelativeToTheRulesFile() throws {
        let cwd = "/work/proj/ci"
        let s = try CheckSetup(rulesFile: "rules.yml", lookForDefault: true, currentDirectory: cwd, exists: { _ in true }, read: Self.read(cwd))
        #expect(s.roots(commandLine: []) == ["/work/proj/assets"], "outside the current folder: shown absolute")
        #expect(s.context.rulesDirectory == "/work/proj/ci")
    }

    @Test func aRulesFileThatExistsButCannotBeReadIsAnError() {
        #expect(throws: (any Error).self) {
            try CheckSetup(rulesFile: nil, lookForDefault: true, currentDirectory: "/nowhere", exists: { _ in true }, read: { _ in nil })
        }
        #expect(throws: (any Error).self) {
            try CheckSetup(rulesFile: "named.yml", lookForDefault: false, currentDirectory: "/nowhere", exists: { _ in false }, read: { _ in nil })
        }
    }
}
