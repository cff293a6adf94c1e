import FileWalker
import Foundation
import MagickBridge
import Records
import Reporting
import TestSupport
import Testing
import UserInput

@testable import AssetCheck

/// CSV output is opened in spreadsheets: a cell that a spreadsheet would take for a formula,
/// however it is disguised, is neutralised or quoted.
@Suite("A CSV cell never becomes a spreadsheet formula", .serialized)
struct CSVFormulaTests {
    @Test("CSV neutralises a formula behind white space, NBSP, U+3000, LF or in full-width forms, and breaks workflow commands")
    func csvFormulas() throws {
        for cell in [" =1+1", "\u{A0}=1", "\u{3000}+1", "\n=1", "\r\n-1", "\t@x", "＝1+1", "＋1", "－1", "＠SUM(A1)", "  \u{3000}＝1"] {
            #expect(CSVSink.neutralised(cell) == "'" + cell, "\(cell.debugDescription)")
        }
        for cell in ["a=1", "1-2", "x ＝ 1", ""] { #expect(CSVSink.neutralised(cell) == cell, "\(cell.debugDescription)") }
        #expect(CSVSink.neutralised("::error::x") == "'::error::x")
        #expect(CSVSink.neutralised("a\n  ::warning::x") == "a\n  '::warning::x")
        #expect(CSVSink.neutralised("see ##[add-mask]x") == "see #'#[add-mask]x")
        // Through a real scan.
        let dir = try TempDir("csv")
        try Make.qr("\u{3000}=HYPERLINK(\"http://evil.example\")", to: dir.file("a.png"))
        let csv = try run(codesweepBinary, ["scan", "--format", "csv", "a.png"], currentDirectory: dir.path)
        #expect(csv.stdout.contains(",\"'\u{3000}=HYPERLINK(\"\"http://evil.example\"\")\","), "\(csv.stdout)")
    }

    @Test("A CSV cell like x;=1+1 is quoted, so a spreadsheet splitting on ';' cannot make a formula of it")
    func csvSemicolonIsQuoted() throws {
        let dir = try TempDir()
        try run(Tools.qrencode, ["-s", "4", "-o", dir.file("semi.png"), "x;=1+1"])
        let r = try sh("exec \"$CS\" scan -q --format csv \"$1\"", [dir.file("semi.png")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains(",\"x;=1+1\","), "\(r.stdout)")
        #expect(!r.stdout.contains(",x;=1+1,"))
    }
}
