import Foundation
import Reporting
import TestSupport
import Testing

@testable import AssetCheck

/// No line any command prints, on any stream, can be read by the GitHub Actions runner as a
/// workflow command: none starts with `::` (after white space) unless it is one of `check`'s own
/// annotations, and none holds the legacy `##[`. Hostile file names (a newline then `::error`) and
/// payloads (`##[set-output ...]`, `see ##[add-mask]...`) go through every command and every output
/// format; check's own annotations carry no control character in their properties.
@Suite("No output forges a GitHub Actions workflow command", .serialized)
struct WorkflowCommandEscapingTests {
    static let forgedName = "x\n::error title=forged::pwned\n.png"
    static let hashName = "h ##[add-mask]name.png"
    static let setOutput = "##[set-output name=approved;]yes"
    static let addMask = "see ##[add-mask]codesweep"
    static let lineCommand = "https://www.example.com/\n::warning::from-a-payload"

    /// The lines of `text` the runner would take for a command, other than `check`'s own
    /// `::error file=...,title=codesweep ...::` annotations.
    static func forged(_ text: String) -> [String] {
        text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).map(String.init).filter {
            TerminalText.isWorkflowCommand(Substring($0)) && !($0.hasPrefix("::error file=") && $0.contains(",title=codesweep ") && !$0.contains("##["))
        }
    }

    static func expectClean(_ r: ProcessResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(forged(r.stdout).isEmpty, "\(what) stdout: \(forged(r.stdout))", sourceLocation: sourceLocation)
        #expect(forged(r.stderr).isEmpty, "\(what) stderr: \(forged(r.stderr))", sourceLocation: sourceLocation)
    }

    /// assets/: a code under a name with a newline and `::error`, one under a name with `##[`,
    /// codes holding `##[` commands and a newline before `::warning`, and a file too long to
    /// annotate (its picture's name would pass 255 bytes) whose name starts a line with `::`.
    static func assets(_ dir: TempDir) throws -> String {
        let assets = try dir.mkdir("assets")
        try Make.qr("https://example.com/", to: assets + "/" + forgedName)
        try Make.qr("https://example.com/h", to: assets + "/" + hashName)
        try Make.qr(setOutput, to: assets + "/a.png")
        try Make.qr(addMask, to: assets + "/b.png")
        try Make.qr(lineCommand, to: assets + "/c.png")
        let long = "y\n::error::long" + String(repeating: "a", count: 236) + ".png"
        #expect(long.utf8.count == 255)
        try Make.qr("https://example.com/long", to: assets + "/" + long)
        return assets
    }

    @Test("scan, summarize, merge, report and generate print no workflow command from names or payloads")
    func sweepCommands() throws {
        let dir = try TempDir("workflow")
        _ = try Self.assets(dir)
        let env = ["GITHUB_ACTIONS": "true"]
        for format in ["jsonl", "json", "csv", "text"] {
            let r = try run(codesweepBinary, ["scan", "--format", format, "assets"], env: env, currentDirectory: dir.path, check: false)
            #expect(r.status == 0, "\(r.stderr)")
            Self.expectClean(r, "scan --format \(format)")
        }
        // The JSON keeps every payload exactly (`\u0023` is `#`).
        let json = try run(codesweepBinary, ["scan", "-q", "--format", "json", "assets"], currentDirectory: dir.path)
        let files = try #require(try TestJSON.parse(json.stdoutBytes)["files"]?.array)
        let texts = files.flatMap { ($0["codes"]?.array ?? []).compactMap { $0["text"]?.string } }
        #expect(Set(texts).isSuperset(of: [Self.setOutput, Self.addMask, Self.lineCommand]), "\(texts)")
        #expect(json.stdout.contains("\\u0023#[set-output"))

        // A name that starts a line itself when given as it is.
        try Make.qr(Self.addMask, to: dir.file("::warning::direct.png"))
        for format in ["text", "csv", "jsonl"] {
            let r = try run(codesweepBinary, ["scan", "--format", format, "::warning::direct.png"], env: env, currentDirectory: dir.path, check: false)
            #expect(r.status == 0 && r.stdout.contains("direct.png"), "\(r.stderr)")
            Self.expectClean(r, "scan --format \(format) ::warning::direct.png")
        }

        let annotated = try run(
            codesweepBinary, ["scan", "-o", "r.jsonl", "--annotate", "pictures", "assets"], env: env, currentDirectory: dir.path, check: false)
        #expect(annotated.status == 1 && annotated.stderr.contains("too long"), "\(annotated.stderr)")
        Self.expectClean(annotated, "scan --annotate")
        for args in [
            ["summarize", "r.jsonl", "r.jsonl"], ["summarize", "--json", "r.jsonl", "r.jsonl"], ["merge", "r.jsonl", "r.jsonl"], ["merge", "r.jsonl"],
        ] {
            let r = try run(codesweepBinary, args, env: env, currentDirectory: dir.path, check: false)
            #expect(!r.stderr.isEmpty, "\(args)")
            Self.expectClean(r, args.joined(separator: " "))
        }
        let summarize = try run(codesweepBinary, ["summarize", "r.jsonl", "r.jsonl"], currentDirectory: dir.path)
        #expect(summarize.stdout.contains("first: assets/x\\n::error title=forged::pwned\\n.png"), "the name is shown, escaped once: \(summarize.stdout)")

        // report: the pictures cannot be opened from elsewhere, and its list names them.
        let elsewhere = try dir.mkdir("elsewhere")
        try FileManager.default.copyItem(atPath: dir.file("r.jsonl"), toPath: elsewhere + "/r.jsonl")
        let report = try run(codesweepBinary, ["report", "r.jsonl", "--html", "page.html"], env: env, currentDirectory: elsewhere, check: false)
        #expect(report.status == 0 && report.stderr.contains("could not be opened"), "\(report.stderr)")
        Self.expectClean(report, "report")

        for payload in [Self.setOutput, Self.addMask, Self.lineCommand] {
            let g = try run(codesweepBinary, ["generate", "-o", dir.file("g.png"), payload], env: env, check: false)
            Self.expectClean(g, "generate \(payload)")
        }
    }

    @Test("check's summary, annotations, --json - and --junit - under GITHUB_ACTIONS=true forge nothing")
    func checkOutputs() throws {
        let dir = try TempDir("workflow-check")
        _ = try Self.assets(dir)
        // A rules file whose unknown key holds a newline and a command: its message quotes it.
        try dir.write("bad.yml", Array("\"k\\n::error::yaml ##[add-mask]y\": 1\n".utf8))
        let env = ["GITHUB_ACTIONS": "true"]
        for extra in [[], ["--verbose"], ["--json", "-"], ["--junit", "-"], ["--json", "out.json", "--junit", "out.xml"]] {
            let r = try run(
                codesweepBinary, ["check", "--no-rules-file", "--scheme", "https", "assets"] + extra, env: env, currentDirectory: dir.path, check: false)
            #expect(r.status == 1, "\(extra): \(r.stderr)")
            Self.expectClean(r, "check \(extra)")
            #expect(r.stdout.contains("::error file=") || r.stderr.contains("::error file="), "the real annotations are still there")
        }
        for file in ["out.json", "out.xml"] {
            let text = try String(contentsOfFile: dir.file(file), encoding: .utf8)
            #expect(Self.forged(text).isEmpty, "\(file): \(Self.forged(text))")
        }
        // --json - reads back with the payloads exact.
        let json = try run(codesweepBinary, ["check", "--no-rules-file", "assets", "--json", "-"], currentDirectory: dir.path, check: false)
        let images = try #require(try TestJSON.parse(json.stdoutBytes)["images"]?.array)
        let texts = images.flatMap { ($0["codes"]?.array ?? []).compactMap { $0["text"]?.string } }
        #expect(Set(texts).isSuperset(of: [Self.setOutput, Self.addMask, Self.lineCommand]), "\(texts)")
        let bad = try run(codesweepBinary, ["check", "--rules", "bad.yml", "assets"], env: env, currentDirectory: dir.path, check: false)
        #expect(bad.status == 2 && bad.stderr.contains("::error::yaml"), "\(bad.stderr)")
        Self.expectClean(bad, "check --rules bad.yml")
    }

    @Test("the escapes: a leading :: and every ##[ are broken, text is escaped once")
    func escapes() {
        #expect(TerminalText.escape("::error::x") == "\\x3a:error::x")
        #expect(TerminalText.escape("  ::error::x") == "  \\x3a:error::x")
        #expect(TerminalText.escape("a ::b") == "a ::b", "only a line's start matters")
        #expect(TerminalText.escape("see ##[add-mask]x ###[y") == "see \\x23#[add-mask]x #\\x23#[y")
        #expect(TerminalText.guardLine("esc\\x1b.png") == "esc\\x1b.png", "an escaped piece is not escaped again")
        #expect(TerminalText.guardLine("\u{3000}\u{2003}::x") == "\u{3000}\u{2003}\\x3a:x", "Unicode white space before :: too")
        #expect(WorkflowSafeJSON.text(###"{"t":"a##[b","u":"\\##["}"###) == ###"{"t":"a\u0023#[b","u":"\\\u0023#["}"###)
    }

    @Test("GitHub ::error file= and title= carry no ESC, control bytes, DEL or U+202E")
    func githubProperties() {
        let evil = "ads/\u{1B}[31mred\u{7}\u{7F}\u{202E}gnp.exe\u{9B}.png"
        let report = CheckReport(
            images: [ImageResult(path: evil, violations: [Violation(rule: "url.scheme", message: "m", fix: "f")])],
            rulesSource: "flags", seconds: 0)
        let text = CheckOutput.github(report)
        #expect(!text.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" }, "\(text.debugDescription)")
        #expect(text.hasPrefix("::error file=ads/\\x1b[31mred\\x07\\x7f\\u{202E}gnp.exe\\u{009B}.png,title=codesweep url.scheme::"), "\(text.debugDescription)")
        #expect(text.filter { $0 == "\n" }.count == 1)
    }
}
