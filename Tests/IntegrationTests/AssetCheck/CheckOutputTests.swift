import Foundation
import Records
import Reporting
import TestSupport
import Testing

@testable import AssetCheck

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The outputs CI reads: GitHub annotations (exact format), JUnit XML (structure, validated by
/// parsing), JSON; and the `codesweep check` command end to end (exit status, files written).
@Suite("Check outputs")
struct CheckOutputTests {
    static func sampleReport() -> CheckReport {
        let code = DetectedCode(
            symbology: .qr, bytes: Array("http://x.example/?a=1&b=<2>".utf8),
            corners: Quad([Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)]),
            quality: 1, orientation: 0, frame: 0, pass: "full")
        var failed = ImageResult(
            path: "ads/a,b:c%.png", codes: [CodeResult(index: 1, code: code, scan: nil)],
            violations: [
                Violation(rule: "url.scheme", message: "100% wrong:\nline two\r", fix: "use https, please", code: 1),
                Violation(rule: "min_grade", message: "grade F", fix: "bigger"),
            ])
        failed.seconds = 0.25
        let passed = ImageResult(path: "ads/ok.png")
        let broken = ImageResult(
            path: "ads/broken.png", violations: [Violation(rule: "unreadable", message: "corrupt & <bad>", fix: "re-export")],
            error: "corrupt: bad")
        return CheckReport(images: [failed, passed, broken], rulesSource: ".codesweep.yml", seconds: 1.5)
    }

    @Test("GitHub annotations: exact ::error lines with % \\r \\n escaped, and : , in properties")
    func githubFormat() {
        let text = CheckOutput.github(Self.sampleReport())
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines == [
                // Messages are escaped once by TerminalText (a line break shows as \n), then % as %25.
                "::error file=ads/a%2Cb%3Ac%25.png,title=codesweep url.scheme (code 1)::100%25 wrong:\\nline two\\r. Fix: use https, please",
                "::error file=ads/a%2Cb%3Ac%25.png,title=codesweep min_grade::grade F. Fix: bigger",
                "::error file=ads/broken.png,title=codesweep unreadable::corrupt & <bad>. Fix: re-export",
                "",
            ])
        #expect(CheckOutput.githubProperty("a:b,c%d\ne") == "a%3Ab%2Cc%25d%0Ae")
        #expect(CheckOutput.githubData("a:b,c%d\r\n") == "a:b,c%25d%0D%0A")
    }

    @Test("JUnit XML parses and has testsuites/testsuite/testcase/failure with the schema's attributes")
    func junitStructure() throws {
        let xml = CheckOutput.junit(Self.sampleReport(), timestamp: "2026-01-01T00:00:00")
        try Self.validateJUnit(xml, tests: 3, failures: 1, errors: 1)
        let doc = try XMLDocument(xmlString: xml, options: [])
        let cases = try doc.nodes(forXPath: "/testsuites/testsuite/testcase") as! [XMLElement]
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == ["ads/a,b:c%.png", "ads/ok.png", "ads/broken.png"])
        let failure = try #require(cases[0].elements(forName: "failure").first)
        #expect(failure.attribute(forName: "message")?.stringValue == "2 problems: url.scheme, min_grade")
        #expect(failure.attribute(forName: "type")?.stringValue == "min_grade,url.scheme")
        #expect(failure.stringValue?.contains("fix: use https, please") == true)
        #expect(failure.stringValue?.contains("<2>") == true, "payload text survives escaping")
        #expect(cases[2].elements(forName: "error").first?.attribute(forName: "message")?.stringValue == "corrupt & <bad>")
        #expect(cases[0].attribute(forName: "time")?.stringValue == "0.250")
    }

    /// Structure of a JUnit report as the Ant/Jenkins schema has it, and counts that add up.
    static func validateJUnit(_ xml: String, tests: Int, failures: Int, errors: Int) throws {
        let doc = try XMLDocument(xmlString: xml, options: [])
        let root = try #require(doc.rootElement())
        #expect(root.name == "testsuites")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.count == 1)
        let suite = try #require(suites.first)
        for name in ["name", "tests", "failures", "errors", "skipped", "time", "timestamp"] {
            #expect(suite.attribute(forName: name) != nil, "testsuite needs attribute \(name)")
        }
        let cases = suite.elements(forName: "testcase")
        for c in cases {
            for name in ["name", "classname", "time"] { #expect(c.attribute(forName: name) != nil, "testcase needs \(name)") }
            #expect(Double(c.attribute(forName: "time")?.stringValue ?? "") != nil)
            let outcomes = c.elements(forName: "failure") + c.elements(forName: "error")
            #expect(outcomes.count <= 1, "at most one failure or error per testcase")
            for o in outcomes { #expect(o.attribute(forName: "message") != nil && o.attribute(forName: "type") != nil) }
        }
        let failed = cases.filter { !$0.elements(forName: "failure").isEmpty }.count
        let errored = cases.filter { !$0.elements(forName: "error").isEmpty }.count
        #expect(cases.count == tests && failed == failures && errored == errors)
        for el in [root, suite] {
            #expect(el.attribute(forName: "tests")?.stringValue == String(tests))
            #expect(el.attribute(forName: "failures")?.stringValue == String(failures))
            #expect(el.attribute(forName: "errors")?.stringValue == String(errors))
        }
    }

    @Test("XML escaping keeps attributes and text well-formed for hostile payloads")
    func xmlEscaping() throws {
        #expect(CheckOutput.xml("a&b<c>\"d'\u{1}\n") == "a&amp;b&lt;c&gt;&quot;d&apos;\u{FFFD}&#10;")
    }

    @Test("codesweep check end to end: summary, exit 1, JUnit, JSON and annotations; exit 0 when clean, 2 on usage errors")
    func cli() async throws {
        let s = try await CheckFixtures.scanned.value
        let rules = """
            require_code: ["*.png"]
            max_codes: 1
            min_grade: C
            url:
              allow_hosts: [example.com, "*.example.com"]
              deny_hosts: ["staging.*"]
            expectations: expected.yml
            """
        try rules.write(to: s.dir.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
        try "assets/good.png: \"\(CheckFixtures.good)\"\nassets/mismatch.png: \"\(CheckFixtures.good)\"\n"
            .write(to: s.dir.appendingPathComponent("expected.yml"), atomically: true, encoding: .utf8)
        let junit = s.dir.appendingPathComponent("junit.xml"), json = s.dir.appendingPathComponent("report.json")
        let r = try run(
            codesweepBinary,
            [
                "check", "--rules", "rules.yml", "--junit", junit.path, "--json", json.path,
                "--github", "--isolation", "none", "-j", "2", "assets",
            ], currentDirectory: s.dir.path, check: false)
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("FAIL   assets/http.png"))
        #expect(r.stdout.contains("✗ url.scheme"))
        #expect(r.stdout.contains("codesweep check FAILED: 8 images, 1 passed, 7 failed"))
        #expect(!r.stdout.contains("PASS"), "passing images are listed only with --verbose")
        let annotations = r.stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        #expect(annotations.contains { $0.hasPrefix("::error file=assets/missing.png,title=codesweep require_code::no QR code") })
        #expect(annotations.contains { $0.hasPrefix("::error file=assets/too-small.png,title=codesweep min_grade (code 1)::") })
        #expect(annotations.contains { $0.hasPrefix("::error file=assets/mismatch.png,title=codesweep expectations::") })
        try Self.validateJUnit(String(contentsOf: junit, encoding: .utf8), tests: 8, failures: 7, errors: 0)
        let report = try JSONReading.value(String(contentsOf: json, encoding: .utf8))
        #expect(report["passed"]?.boolValue == false)
        #expect(report["summary"]?["failed"]?.intValue == 7)
        let good = report["images"]?.arrayValue?.first { $0["path"]?.stringValue == "assets/good.png" }
        #expect(good?["status"]?.stringValue == "passed")
        #expect(good?["codes"]?[0]?["scannability"]?["grade"]?.stringValue != nil)

        let clean = try run(
            codesweepBinary, ["check", "--no-rules-file", "--isolation", "none", "--require-code", "*.png", "assets/good.png"], currentDirectory: s.dir.path,
            check: false)
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("codesweep check PASSED: 1 image, 1 passed"))
        let usage = try run(codesweepBinary, ["check", "--min-grade", "Z", "assets"], currentDirectory: s.dir.path, check: false)
        #expect(usage.status == 2)
        let badRules = try run(codesweepBinary, ["check", "--rules", "expected.yml", "assets"], currentDirectory: s.dir.path, check: false)
        #expect(badRules.status == 2 && badRules.stderr.contains("unknown key"))
    }

    @Test("in GitHub Actions, a report on stdout (--json - or --junit -) is the whole of stdout: the annotations go to stderr")
    func machineReadableStdoutInGitHubActions() async throws {
        let s = try await CheckFixtures.scanned.value
        let args = ["check", "--no-rules-file", "--require-code", "*.png", "--isolation", "none", "assets"]
        let env = ["GITHUB_ACTIONS": "true"]
        let json = try run(codesweepBinary, args + ["--json", "-"], env: env, currentDirectory: s.dir.path, check: false)
        #expect(json.status == 1, "stderr: \(json.stderr)")
        let report = try JSONReading.value(json.stdout)
        #expect(report["summary"]?["failed"]?.intValue ?? 0 > 0)
        #expect(!json.stdout.contains("::error"))
        #expect(json.stderr.contains("::error file=assets/missing.png,title=codesweep require_code::no QR code"))
        let junit = try run(codesweepBinary, args + ["--junit", "-"], env: env, currentDirectory: s.dir.path, check: false)
        #expect(junit.status == 1)
        #expect(junit.stdout.hasPrefix("<?xml"), "\(junit.stdout.prefix(200))")
        #expect(!junit.stdout.contains("::error"))
        #expect(junit.stderr.contains("::error file=assets/missing.png"))
        // The summary for people keeps its annotations beside it on stdout, as before.
        let text = try run(codesweepBinary, args, env: env, currentDirectory: s.dir.path, check: false)
        #expect(text.stdout.contains("::error file=assets/missing.png"))
        #expect(!text.stderr.contains("::error"))
    }
}

extension JSONValue {
    subscript(index: Int) -> JSONValue? {
        guard let a = arrayValue, index < a.count else { return nil }
        return a[index]
    }
}
