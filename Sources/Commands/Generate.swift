import ArgumentParser
import AssetCheck
import CodeGenerate
import CodeSweep
import Foundation
import Payloads
import Records
import Reporting
import UserInput

/// `codesweep generate`: QR codes in brand colours with a logo, verified with check's engine,
/// grades and rules before they are written. See docs/generate.md.
struct Generate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make QR codes (PNG, SVG, JPEG), in colours with a logo, and verify they scan.",
        discussion: """
            Encodes the payload (argument, --file FILE, or --file - for stdin; bytes kept exact) with \
            libqrencode, draws it with whole pixels a module, and verifies it before writing: decoded \
            by the scanning engine (it must read back byte for byte), graded like `codesweep check` \
            (at least --min-grade), and checked against --rules. --batch LIST makes one code per line \
            of a CSV or YAML list into the folder -o and writes a manifest `check --expectations` reads.

            Exit status: 0 every code was made and verified, 1 some code was refused or failed \
            verification (nothing is written for it), 2 usage error.
            Reference: docs/generate.md.
            """
    )

    @Argument(help: "The payload (bytes as given; UTF-8 text that is not all ASCII gets an ECI saying so; see --charset). Or use --file.")
    var payload: String?

    @Option(name: .customLong("file"), help: "Read the payload's bytes from FILE ('-': standard input).")
    var payloadFile: String?

    @Option(name: [.short, .long], help: "Output file (.png, .svg, .jpg), a folder, or '-' for stdout; with --batch, the folder.")
    var output: String?

    @Option(help: "Batch list: CSV (name,payload[,options]) or YAML (.yml/.yaml).")
    var batch: String?

    @Option(help: "With --batch: where the manifest goes (default: expected.yml in the output folder).")
    var manifest: String?

    @OptionGroup var spec: CodeSpecOptions

    @OptionGroup var verification: VerifyOptions

    @OptionGroup var jobs: JobsOptions<Help>

    @Flag(name: [.short, .long], help: "Print only failures.")
    var quiet = false

    func run() async throws {
        do {
            try await generate()
        } catch let e as GenerateError {
            Self.say("codesweep generate: \(e.description)")
            throw ExitCode(e.kind == .usage ? 2 : 1)
        }
    }

    /// Builds the plan from the flags (`GeneratePlan`), makes and verifies every code, writes
    /// each as it is due and the manifest at the end; the exit status says whether all were made.
    func generate() async throws {
        let cwd = UserPath.currentFolder()
        if let problem = jobs.problem { throw GenerateError.usage(problem) }
        let verifier = try verification.verifier(cwd: cwd)
        let plan = try GeneratePlan(self, base: try spec.baseSpec(), cwd: cwd)
        try plan.prepareOutputs(cwd: cwd)
        let clock = ContinuousClock.now
        let delivery = GenerateDelivery(quiet: quiet, batchFolder: plan.isBatch ? plan.outDir : nil)
        // Each outcome as it is due, in list order: written (or reported) and let go.
        try await GenerateRun.run(plan.jobs, verifier: verifier, jobs: jobs.count, deliver: delivery.deliver)
        if let manifestPath = plan.manifestPath, !delivery.written.isEmpty {
            do {
                try SafeFile.write(Manifest.yaml(delivery.written), to: manifestPath)
            } catch {
                Self.say("codesweep generate: \(error)")
                throw ExitCode(2)
            }
        }
        if !quiet && delivery.total > 1 {
            Self.say(delivery.summary(verified: verifier != nil, seconds: clock.duration(to: .now).seconds, manifestPath: plan.manifestPath))
        }
        if delivery.failed > 0 { throw ExitCode(1) }
    }

    /// One line on stderr. Batch names, paths and payloads in it come from the list and are
    /// untrusted: a newline, ESC or U+202E in them is shown as an escape, never emitted (a name
    /// with a newline could forge a "made ..." line).
    static func say(_ line: String) {
        OutputFile.standardError.write(TerminalText.escape(line) + "\n")
    }

    /// "15 (grade F, ...), 16 (...)": versions tried and why each failed.
    static func attempts(_ tried: ArraySlice<(version: Int, problem: String)>) -> String {
        tried.map { "\($0.version) (\($0.problem))" }.joined(separator: ", ")
    }

    static func describe(_ o: GenerateOutcome) -> String {
        guard let c = o.code else { return o.job.label }
        var s =
            "made \(o.job.label): version \(c.matrix.version)-\(c.matrix.ec.rawValue), \(c.matrix.size)×\(c.matrix.size) modules, \(c.layout.modulePx) px a module, \(c.layout.side)×\(c.layout.side) px, contrast \(NumberText.fixed(c.contrast.value, decimals: 2))"
        if let e = c.eci { s += ", ECI \(e)\(Charset.eciCharsetName(Int(e)).map { " (\($0))" } ?? "")" }
        if let l = c.logo {
            s +=
                ", logo covers \(l.coveredCodewords) of \(l.totalCodewords) codewords, \(l.damagedCodewords) damaged (at most \(l.worstBlock) in a block, \(l.allowedPerBlock) allowed)"
        }
        if let v = o.verification, let g = v.scannability { s += ", reads back, grade \(g.grade)" } else if o.verification == nil { s += ", not verified" }
        return s
    }
}

extension Generate {
    /// Generate's words for the options it shares with `scan` and `check`.
    enum Help: JobsHelp {
        static var jobs: ArgumentHelp { "Codes made in parallel (default: the cores this process may use)." }
    }
}
