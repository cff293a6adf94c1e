import Foundation
import TestSupport
import Testing

@testable import AssetCheck

/// `check` as a pre-commit hook runs it: spot checks of single files against an expectations
/// file naming others, require_code globs that match nothing, `--junit -`, and what is said about
/// a rules file with a typo or none at all.
@Suite("check: spot checks, require_code globs, --junit -, rules files")
struct CheckCommandLineTests {
    static let good = "https://www.example.com/a?utm_source=poster"
    static let other = "https://www.example.com/b?utm_source=poster"

    /// A repository as a pre-commit hook sees it: rules with an expectations file naming two
    /// posters, and a hook that passes only the changed one.
    func repository() throws -> TempDir {
        let dir = try TempDir("check-spot")
        try dir.mkdir("posters")
        try Make.qr(Self.good, to: dir.file("posters/a.png"), scale: 6, margin: 4)
        try Make.qr(Self.other, to: dir.file("posters/b.png"), scale: 6, margin: 4)
        try Data("require_code: [\"posters/*\"]\nexpectations: expected.yml\n".utf8).write(to: URL(fileURLWithPath: dir.file(".codesweep.yml")))
        try Data("posters/a.png: \"\(Self.good)\"\nposters/b.png: \"\(Self.other)\"\n".utf8).write(to: URL(fileURLWithPath: dir.file("expected.yml")))
        return dir
    }

    @Test("check FILE with an expectations file naming other files checks that file alone, and still fails it when it is wrong")
    func spotCheckOneFile() throws {
        let dir = try repository()
        let spot = try run(codesweepBinary, ["check", "-j", "1", "posters/a.png"], currentDirectory: dir.path, check: false)
        #expect(spot.status == 0, "\(spot.stdout)\(spot.stderr)")
        #expect(!spot.stdout.contains("no such image was checked"), "\(spot.stdout)")
        #expect(spot.stdout.contains("1 image"), "only the file given is checked: \(spot.stdout)")

        // The same spot check of a file whose code is not the expected one fails.
        try Make.qr("https://www.example.com/wrong?utm_source=poster", to: dir.file("posters/a.png"), scale: 6, margin: 4)
        let wrong = try run(codesweepBinary, ["check", "-j", "1", "posters/a.png"], currentDirectory: dir.path, check: false)
        #expect(wrong.status == 1 && wrong.stdout.contains("expected the code to read"), "\(wrong.stdout)")

        // A full check still wants every entry: b.png gone is a failure there.
        try Make.qr(Self.good, to: dir.file("posters/a.png"), scale: 6, margin: 4)
        try FileManager.default.removeItem(atPath: dir.file("posters/b.png"))
        let full = try run(codesweepBinary, ["check", "-j", "1"], currentDirectory: dir.path, check: false)
        #expect(full.status == 1 && full.stdout.contains("no such image was checked"), "\(full.stdout)")
        let folder = try run(codesweepBinary, ["check", "-j", "1", "posters"], currentDirectory: dir.path, check: false)
        #expect(folder.status == 1 && folder.stdout.contains("no such image was checked"), "a folder argument is a full check: \(folder.stdout)")
    }

    @Test("a require_code glob matching no checked image is an error with a fix; in a spot check it must match an image of the full check")
    func requireCodeMatchingNothing() throws {
        let dir = try repository()
        // Full check: a glob for a folder that is not there.
        let full = try run(codesweepBinary, ["check", "-j", "1", "--require-code", "banners/*"], currentDirectory: dir.path, check: false)
        #expect(full.status == 2, "\(full.stdout)\(full.stderr)")
        #expect(full.stderr.contains("require_code 'banners/*': no image checked matches it"), "\(full.stderr)")
        #expect(full.stderr.contains("Fix: correct the glob"), "\(full.stderr)")
        // Spot check of a file the glob does not match: the glob matches images of the full
        // check (posters/b.png), so the spot check passes.
        try dir.mkdir("other")
        try Make.qr(Self.good, to: dir.file("other/c.png"), scale: 6, margin: 4)
        let spot = try run(codesweepBinary, ["check", "-j", "1", "other/c.png"], currentDirectory: dir.path, check: false)
        #expect(spot.status == 0, "\(spot.stdout)\(spot.stderr)")
        // A typo stays loud in a spot check too.
        let typo = try run(codesweepBinary, ["check", "-j", "1", "--require-code", "postres/*", "other/c.png"], currentDirectory: dir.path, check: false)
        #expect(typo.status == 2, "\(typo.stdout)\(typo.stderr)")
        #expect(typo.stderr.contains("require_code 'postres/*': no image given matches it, nor any image in the full check's paths ('.')"), "\(typo.stderr)")
        // Matching only a document is matching no image.
        try Data("text".utf8).write(to: URL(fileURLWithPath: dir.file("other/notes.txt")))
        let doc = try run(codesweepBinary, ["check", "-j", "1", "--require-code", "*.txt", "posters/a.png"], currentDirectory: dir.path, check: false)
        #expect(doc.status == 2 && doc.stderr.contains("require_code '*.txt'"), "\(doc.stderr)")
    }

    @Test("check --junit - writes the JUnit XML to stdout (no file named '-'); --junit - with --json - is refused")
    func junitToStdout() throws {
        let dir = try repository()
        let r = try run(codesweepBinary, ["check", "-j", "1", "--junit", "-", "posters/a.png"], currentDirectory: dir.path, check: false)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("<?xml") && r.stdout.contains("<testcase name=\"posters/a.png\""), "\(r.stdout)")
        #expect(!r.stdout.contains("codesweep check PASSED"), "the XML replaces the summary, as --json - does")
        #expect(!FileManager.default.fileExists(atPath: dir.file("-")))
        let both = try run(codesweepBinary, ["check", "--junit", "-", "--json", "-", "posters/a.png"], currentDirectory: dir.path, check: false)
        #expect(both.status == 2 && both.stderr.contains("--junit - and --json - both write to stdout"), "\(both.stderr)")
    }

    @Test("an unknown rules key gets a did-you-mean; a rules file that cannot be read says why")
    func rulesFileMessages() throws {
        let dir = try TempDir("check-rules-words")
        try Data("requre_code: [\"*.png\"]\n".utf8).write(to: URL(fileURLWithPath: dir.file("typo.yml")))
        let typo = try run(codesweepBinary, ["check", "--rules", "typo.yml", "."], currentDirectory: dir.path, check: false)
        #expect(typo.status == 2 && typo.stderr.contains("typo.yml: requre_code: unknown key; did you mean 'require_code'?"), "\(typo.stderr)")
        try Data("url:\n  alow_hosts: [example.com]\n".utf8).write(to: URL(fileURLWithPath: dir.file("typo2.yml")))
        let nested = try run(codesweepBinary, ["check", "--rules", "typo2.yml", "."], currentDirectory: dir.path, check: false)
        #expect(nested.stderr.contains("url.alow_hosts: unknown key; did you mean 'allow_hosts'?"), "\(nested.stderr)")
        try Data("colour: red\n".utf8).write(to: URL(fileURLWithPath: dir.file("far.yml")))
        let far = try run(codesweepBinary, ["check", "--rules", "far.yml", "."], currentDirectory: dir.path, check: false)
        #expect(far.stderr.contains("colour: unknown key (known:") && !far.stderr.contains("did you mean"), "\(far.stderr)")

        let missing = try run(codesweepBinary, ["check", "--rules", "missing.yml", "."], currentDirectory: dir.path, check: false)
        #expect(missing.status == 2 && missing.stderr.contains("cannot read the rules file missing.yml: No such file or directory"), "\(missing.stderr)")
        try Data("expectations: gone.yml\n".utf8).write(to: URL(fileURLWithPath: dir.file("exp.yml")))
        let gone = try run(codesweepBinary, ["check", "--rules", "exp.yml", "."], currentDirectory: dir.path, check: false)
        #expect(
            gone.status == 2 && gone.stderr.contains("exp.yml: expectations: cannot read the expectations file /")
                && gone.stderr.contains("/gone.yml: No such file or directory"), "\(gone.stderr)")
    }

    @Test("Samples/check/too-small.png: the margin fix is 4 modules of the 4 px the code must grow to (16 px), not of today's module")
    func tooSmallMarginFix() throws {
        let r = try run(
            codesweepBinary, ["check", "-j", "1", "--rules", "Samples/check/.codesweep.yml", "Samples/check/too-small.png"],
            currentDirectory: PackageRoot.path, check: false)
        #expect(r.status == 1)
        #expect(r.stdout.contains("at least 4 px per module"), "\(r.stdout)")
        #expect(r.stdout.contains("leave a blank margin of at least 16 px (4 modules of 4 px) around the code"), "\(r.stdout)")
        #expect(!r.stdout.contains("at least 4 px (4 modules)"))
    }

    @Test("a .codesweep.yml that is a link to nothing is an error naming it, not a run with no rules")
    func danglingRulesFile() throws {
        let dir = try repository()
        try FileManager.default.removeItem(atPath: dir.file(".codesweep.yml"))
        try FileManager.default.createSymbolicLink(atPath: dir.file(".codesweep.yml"), withDestinationPath: "rules/gone.yml")
        let r = try run(codesweepBinary, ["check", "-j", "1", "posters"], currentDirectory: dir.path, check: false)
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains(".codesweep.yml") && r.stderr.contains("No such file"), "\(r.stderr)")
        // Told not to look for it, the flags are the rules.
        let flags = try run(codesweepBinary, ["check", "-j", "1", "--no-rules-file", "posters"], currentDirectory: dir.path, check: false)
        #expect(flags.status == 0, "\(flags.stdout)\(flags.stderr)")
    }
}
