import ArgumentParser
import CodeSweep
import Dispatch
import Reporting
import UserInput

#if canImport(Glibc)
import Glibc
#endif

/// The `codesweep` command: its subcommands are types (swift-argument-parser), and `main` runs
/// one as a user gave it. Entered from `CodeSweepCLI/main.swift`, and from the tests' fault-injecting
/// build of the same commands (Tests/FaultInjectingCLI).
package struct CodeSweepCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "codesweep",
        abstract: "Find every barcode and QR code in folders of images, documents, archives, mail and videos.",
        discussion: """
            Walks files and folders and reads every code in them, each input recognised by its \
            first bytes (`codesweep formats`): images (JPEG, PNG, WebP, HEIC and AVIF straight to \
            grey; GIF, TIFF, BMP and the rest through ImageMagick; upright, EXIF orientation \
            applied), every page of a PDF (Poppler) or SVG (librsvg), every member of an archive \
            (ZIP, tar.*, 7z, RAR, ISO; libarchive), office package or mail (EML, MBOX; GMime), and \
            videos sampled over time (FFmpeg). Codes are read with zxing-cpp \(BarcodeReader.zxingVersion), \
            ZBar and CodeSweep's own QR locator and grid decoder, in passes chosen for each frame \
            (`codesweep plan`), and each is reported with its payload, exact bytes and corners.

            scan is the default command; check is a CI gate for the codes in assets; generate \
            makes QR codes and verifies they scan; summarize, merge and report serve forensic \
            sweeps (shards, provenance, an HTML page to browse). Nothing goes online but \
            `check --check-links` (libcurl).

            Exit status: 0 every file was read, 1 some files failed, 2 usage or fatal error, \
            4 no code found (scan --fail-if-none).
            """,
        version: CodeSweepInfo.version,
        subcommands: [Scan.self, Check.self, Generate.self, Symbologies.self, Formats.self, Plan.self, Summarize.self, Merge.self, Report.self, Worker.self],
        defaultSubcommand: Scan.self
    )

    /// The program's entry (main.swift), synchronous: the standard descriptors are reserved
    /// before the concurrency runtime starts (it opens an eventfd, which would take a closed
    /// stdout's number and swallow the report), then the command runs on the main actor.
    package static func runFromCommandLine() -> Never {
        reserveStandardDescriptors()
        Task { @MainActor in
            await runCommand()
            Glibc.exit(0)
        }
        dispatchMain()
    }

    /// Runs the command the arguments name. ArgumentParser exits 64 (EX_USAGE) on usage errors;
    /// CodeSweep documents 2.
    static func runCommand() async {
        do {
            // Arguments are bytes: CommandLine.arguments would turn bytes that are not UTF-8
            // into U+FFFD; escaped, they reach the walker and output files exactly.
            let arguments = ArgumentBytes.escapedArguments(argc: CommandLine.argc, argv: CommandLine.unsafeArgv)
            if let word = arguments.dropFirst().first, let meant = suggestedSubcommand(for: word) {
                Stderr.say(
                    "codesweep: '\(word)' is neither a command nor a file or folder; did you mean `codesweep \(meant)`?\n(to scan a file of that name, write `codesweep scan \(word)`)"
                )
                exit(withError: ExitCode(2))
            }
            var command = try parseAsRoot(Array(arguments.dropFirst()))
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            failOnStandardOutputError()
        } catch {
            if exitCode(for: error) == .validationFailure {
                Stderr.say(lines: fullMessage(for: error))
                exit(withError: ExitCode(2))
            }
            if let code = error as? ExitCode, code.rawValue == 0 || code.rawValue == 1 { failOnStandardOutputError() }
            exit(withError: error)
        }
    }

    /// A first argument that is no file and a near miss of a command name ("summarise",
    /// "reprot"): the command meant, so it is not scanned as a missing path.
    static func suggestedSubcommand(for word: String) -> String? {
        let names = configuration.subcommands.compactMap { c -> String? in
            let conf = c.configuration
            guard conf.shouldDisplay else { return nil }
            return conf.commandName ?? c._commandName
        }
        return DidYouMean.subcommand(for: word, commands: names, exists: UserPath.exists)
    }

    /// What `check`, `summarize`, `merge` and `symbologies` print to stdout is output too: a
    /// write (or fsync) that failed there ends with exit 2 and says so. (`scan` stops at its
    /// own first write error.)
    static func failOnStandardOutputError() {
        // Text printed with print() (symbologies, plan, help) sits in stdio's buffer until here.
        if fflush(nil) != 0 {
            Stderr.say("codesweep: cannot write to standard output: \(String(cString: strerror(errno)))")
            exit(withError: ExitCode(2))
        }
        if let failure = OutputFile.standardOutput.sync() {
            Stderr.say("codesweep: \(failure.message)")
            exit(withError: ExitCode(2))
        }
    }

    /// A closed stdin, stdout or stderr would be reused by the next file or pipe opened (a
    /// report could end up in a worker's pipe). Each closed one gets /dev/null instead, stdout
    /// opened read-only so that writing the report fails with EBADF (exit 2), as it should.
    static func reserveStandardDescriptors() {
        for fd: Int32 in [0, 1, 2] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let got = open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY)
            if got >= 0 && got != fd { dup2(got, fd); close(got) }
        }
    }
}
