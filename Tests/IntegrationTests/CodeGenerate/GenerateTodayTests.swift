import Foundation
import TestSupport
import Testing

/// `generate --rules --today`: the day campaign expiry is checked against, and its usage errors.
@Suite("generate --today sets the day campaign expiry is checked against")
struct GenerateTodayTests {
    @Test("--today sets the day --rules checks campaign expiry against; a malformed date or a --today without --rules is a usage error")
    func today() throws {
        let dir = try TempDir()
        try Data(
            """
            url:
              campaigns:
                expires:
                  spring-2025: 2025-06-30

            """.utf8
        ).write(to: URL(fileURLWithPath: dir.file("rules.yml")))
        let link = "https://www.example.com/spring?utm_campaign=spring-2025"
        let last = try GenerateECITests.generate(["--rules", "rules.yml", "--today", "2025-06-30", link, "-o", "last.png"], in: dir)
        #expect(last.status == 0, "the campaign's last day: \(last.stderr)")
        let after = try GenerateECITests.generate(["--rules", "rules.yml", "--today", "2025-07-01", link, "-o", "after.png"], in: dir)
        #expect(after.status == 1, "\(after.stderr)")
        #expect(after.stderr.contains("url.campaign_expired") || after.stderr.contains("ended on 2025-06-30"), "\(after.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("after.png")), "nothing written for a code that fails")

        for (args, words) in [
            (["--rules", "rules.yml", "--today", "2025-02-30"], "--today takes a date like 2025-06-30"),
            (["--rules", "rules.yml", "--today", "tomorrow"], "not 'tomorrow'"),
            (["--today", "2025-07-01"], "it needs --rules"),
            (["--rules", "rules.yml", "--today", "2025-07-01", "--no-verify"], "do not go with --no-verify"),
        ] {
            let r = try GenerateECITests.generate(args + [link, "-o", "x.png"], in: dir)
            #expect(r.status == 2 && r.stderr.contains(words), "\(args): \(r.status) \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("x.png")))
        let help = try run(codesweepBinary, ["generate", "--help"], check: false).stdout
        #expect(help.contains("--today") && help.contains("--no-eci"))
    }
}
