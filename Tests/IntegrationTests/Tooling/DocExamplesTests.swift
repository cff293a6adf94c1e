import Foundation
import TestSupport
import Testing

/// Docs that cannot drift (issue 63): `scripts/doc-examples.py` runs every shell example of
/// README.md and docs/*.md with the built binary, so a changed flag fails the suite, not the
/// reader. These tests run it over the documents, and over small hand-made documents for its
/// rules: a renamed flag fails and is named by file and line, a malformed document exits 2, the
/// transcript's `...` and `[exit N]` match as documented, and a document with nothing runnable
/// does not pass.
@Suite("Doc examples: scripts/doc-examples.py")
struct DocExamplesTests {
    let script = PackageRoot.file("scripts/doc-examples.py")

    /// The checker over `files`, with the binary under test and the package as the root.
    func check(_ files: [String], jobs: Int = 1) throws -> ProcessResult {
        try run(
            "python3", [script, "--bin", codesweepBinary, "--root", PackageRoot.path, "--jobs", "\(jobs)", "--timeout", "300"] + files,
            check: false)
    }

    /// A Markdown file of `text` in `dir`; returns its path.
    func markdown(_ dir: TempDir, _ name: String, _ text: String) throws -> String {
        try dir.write(name, Array(text.utf8))
        return dir.file(name)
    }

    /// The checker's last line, `N passed, N failed, N not run`, as numbers.
    func tally(_ r: ProcessResult) -> (passed: Int, failed: Int, notRun: Int)? {
        guard let last = r.stdout.split(separator: "\n").last else { return nil }
        let words = last.split(separator: " ")
        guard words.count == 7, words[1] == "passed,", words[3] == "failed,", words[5...] == ["not", "run"],
            let p = Int(words[0]), let f = Int(words[2]), let n = Int(words[4])
        else { return nil }
        return (p, f, n)
    }

    @Test("every runnable example of README.md and docs/*.md runs as shown")
    func documentsRun() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: PackageRoot.file("docs"))
            .filter { $0.hasSuffix(".md") }.sorted().map { PackageRoot.file("docs/" + $0) }
        #expect(docs.count >= 3)
        let r = try check([PackageRoot.file("README.md")] + docs, jobs: 2)
        let t = tally(r)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(t?.failed == 0, "\(r.stdout)")
        #expect((t?.passed ?? 0) >= 1, "\(r.stdout)")
    }

    /// An example as the docs give it: a real flag (--format, --symbologies) on a bundled sample.
    static let example = """
        Read the QR code of a photo as text:

        ```console
        $ codesweep scan --format text --symbologies qr Samples/qr-photo.jpg
        Samples/qr-photo.jpg: ...https://example.com/codesweep/photo...
        ```

        The same as a script:

        ```sh
        codesweep scan --format text --symbologies qr Samples/qr-photo.jpg | grep -q codesweep/photo
        ```

        """

    @Test("an example with a renamed flag fails, named by file and line; as written it passes")
    func renamedFlagFails() throws {
        let dir = try TempDir("doc-examples")
        let good = try markdown(dir, "good.md", Self.example)
        var r = try check([good])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasSuffix("2 passed, 0 failed, 0 not run\n"), "\(r.stdout)")

        let renamed = try markdown(dir, "renamed.md", Self.example.replacingOccurrences(of: "--format ", with: "--formatt "))
        r = try check([renamed])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("\(renamed):4: the command"), "\(r.stdout)")
        #expect(r.stdout.contains("--formatt"), "\(r.stdout)")
        #expect(r.stdout.contains("\(renamed):10: the script block exited"), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("0 passed, 2 failed, 0 not run\n"), "\(r.stdout)")
    }

    @Test(
        "a malformed document exits 2",
        arguments: [
            ("an unclosed fence", "```console\n$ codesweep --version\n"),
            ("an empty no-run reason", "<!-- no-run: -->\n```sh\ncodesweep --version\n```\n"),
            ("an exit status that is not a number", "```console\n$ codesweep --version\n...\n[exit x]\n```\n"),
        ])
    func malformedBlocks(what: String, text: String) throws {
        let dir = try TempDir("doc-examples")
        let file = try markdown(dir, "bad.md", "# Bad\n\n" + text)
        let r = try check([file])
        #expect(r.status == 2, "\(what): \(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("\(file):"), "\(what): \(r.stderr)")
    }

    @Test("transcripts: '...' lines, '...' in a line, [exit N]; only no-run blocks is nothing checked")
    func transcriptRules() throws {
        let dir = try TempDir("doc-examples")
        let rules = try markdown(
            dir, "rules.md",
            """
            ```console
            $ codesweep --version
            ...
            $ printf 'a\\nb\\nc\\n'; codesweep scan --format text \\
                --symbologies qr Samples/qr-photo.jpg
            a
            ...
            Samples/qr-photo.jpg: ...codesweep/photo...
            $ X=from-the-first; cd Samples
            $ echo "$X" && ls qr-photo.jpg
            from-...
            qr-photo.jpg
            $ codesweep scan --no-such-flag qr-photo.jpg
            ...
            [exit 2]
            $ sh -c 'exit 3'
            [exit 3]
            ```

            """)
        var r = try check([rules])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasSuffix("1 passed, 0 failed, 0 not run\n"), "\(r.stdout)")

        // Each rule broken once: a wrong exit status, an in-line '...' that does not match, a
        // missing line that no '...' stands for.
        let broken = try markdown(
            dir, "broken.md",
            """
            ```console
            $ sh -c 'exit 3'
            [exit 4]
            ```

            ```console
            $ echo abc
            x...c
            ```

            ```console
            $ printf 'a\\nb\\n'
            a
            ```

            """)
        r = try check([broken], jobs: 3)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("\(broken):2: the command"), "\(r.stdout)")
        #expect(r.stdout.contains("exit status 3, expected 4"), "\(r.stdout)")
        #expect(r.stdout.contains("\(broken):7: the command"), "\(r.stdout)")
        #expect(r.stdout.contains("\(broken):12: the command"), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("0 passed, 3 failed, 0 not run\n"), "\(r.stdout)")

        let onlyNoRun = try markdown(
            dir, "no-run.md",
            """
            <!-- no-run: needs a Slurm cluster -->

            ```sh
            sbatch sweep.sbatch
            ```

            ```json
            {"not": "a shell example"}
            ```

            """)
        r = try check([onlyNoRun])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("nothing runnable"), "\(r.stderr)")
        #expect(r.stdout.hasSuffix("0 passed, 0 failed, 1 not run\n"), "\(r.stdout)")
    }
}
