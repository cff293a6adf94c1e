import ArgumentParser
import AssetCheck
import CodeGenerate
import CodeSweep
import Foundation
import Reporting
import SweepCore

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

    @Option(help: "png, svg or jpeg (default: from -o's extension, else png).")
    var format: String?

    @Option(help: "Encode the payload text in this charset (gb18030, shift_jis, iso-8859-1, ... any iconv name), with an ECI designator.")
    var charset: String?

    @Flag(help: "Leave out the ECI designator (--charset's, or the UTF-8 one non-ASCII text gets).")
    var noEci = false

    @Option(help: "Error correction: L, M, Q or H (default M; H with --logo).")
    var ec: String?

    @Option(help: "Smallest QR version, 1...40 (`--version` is the program's version).")
    var minVersion: Int?

    @Option(name: .customLong("module"), help: "Pixels a module (default 8).")
    var modulePx: Int?

    @Option(name: .customLong("size"), help: "Picture width in pixels (whole pixels a module; the rest goes to the margin).")
    var sizePx: Int?

    @Option(help: "Quiet zone in modules (default 4).")
    var margin: Int?

    @Option(help: "Module colour: #rrggbb, #rgb or a CSS name (default black).")
    var fg: String?

    @Option(help: "Background colour (default white).")
    var bg: String?

    @Option(help: "Logo picture (PNG, JPEG, ...), centred on a plate of the background colour.")
    var logo: String?

    @Option(help: "The logo's share of the code's area, 0 < f < 1 (default 0.1).")
    var logoSize: Double?

    @Option(help: "Logo plate: rounded or square (default rounded).")
    var plate: String?

    @Option(help: "JPEG quality, 1...100 (default 95).")
    var quality: Int?

    @Flag(help: "Do not verify (no read-back, no grade, no rules).")
    var noVerify = false

    @Option(help: "Lowest grade accepted: \(Grade.minimumChoices) (default B).")
    var minGrade: String?

    @Option(help: "Rules file (.codesweep.yml) applied to every code made.")
    var rules: String?

    @Option(help: "With --rules: the day campaign expiry is checked against, YYYY-MM-DD (default: today, UTC); try a code as a later or earlier day's check will see it.")
    var today: String?

    @Option(name: [.short, .long], help: "Codes made in parallel (default: number of cores).")
    var jobs: Int?

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

    /// The flags as a spec (batch options are applied on top of it).
    func baseSpec() throws(GenerateError) -> CodeSpec {
        var s = CodeSpec()
        let pairs: [(String, String?)] = [
            ("ec", ec), ("min-version", minVersion.map(String.init)), ("module", modulePx.map(String.init)), ("size", sizePx.map(String.init)),
            ("margin", margin.map(String.init)), ("fg", fg), ("bg", bg), ("logo", logo), ("logo-size", logoSize.map { String($0) }),
            ("plate", plate), ("format", format), ("quality", quality.map(String.init)), ("charset", charset),
        ]
        if modulePx != nil && sizePx != nil { throw .usage("--module and --size exclude each other") }
        for case let (k, v?) in pairs { try s.apply(option: k, value: v) }
        if noEci { s.eci = false }
        return s
    }

    func generate() async throws {
        let cwd = FileManager.default.currentDirectoryPath
        if let jobs, jobs < 1 { throw GenerateError.usage("--jobs must be at least 1") }
        var grade = Grade.B
        if let minGrade {
            guard let g = Grade(minimum: minGrade) else { throw GenerateError.usage("--min-grade takes \(Grade.minimumChoices), not '\(minGrade)'") }
            grade = g
        }
        if let today {
            guard rules != nil else { throw GenerateError.usage("--today sets the date --rules checks campaign expiry against; it needs --rules") }
            guard Evaluator.isDate(today) else { throw GenerateError.usage("--today takes a date like 2025-06-30 (a real day, YYYY-MM-DD), not '\(today)'") }
        }
        var verifier: Verifier? = nil
        if !noVerify {
            var v = Verifier(minGrade: grade, context: PathContext(currentDirectory: cwd), today: today ?? Check.todayUTC())
            if let rules {
                do {
                    let loaded = try RulesFile.load(path: rules, cwd: cwd) { try FileIO.readInput($0, limit: RulesFile.sizeLimit, what: "file") }
                    v.rules = loaded.rules
                    v.context = PathContext(currentDirectory: cwd, rulesDirectory: loaded.directory)
                    _ = try Evaluator(rules: loaded.rules, context: v.context, today: v.today)
                } catch { throw GenerateError.usage("\(error)") }
            }
            verifier = v
        } else if rules != nil || minGrade != nil || today != nil {
            throw GenerateError.usage("--rules, --min-grade and --today verify; they do not go with --no-verify")
        }
        let base = try baseSpec()
        let jobList: [GenerateJob]
        // For the output plan: where each job came from, and every file this run reads.
        var origins: [String] = []
        var inputs: [(path: String, what: String)] = rules.map { [($0, "the rules file")] } ?? []
        var manifestPath: String? = nil
        var outDir: String? = nil
        if let batch {
            guard payload == nil, payloadFile == nil else { throw GenerateError.usage("--batch takes the payloads from the list, not from an argument or --file") }
            guard let output, output != "-" else { throw GenerateError.usage("--batch needs -o FOLDER") }
            let data = try Self.read(batch, limit: Self.listLimit, what: "the batch list")
            guard let text = String(validating: data, as: UTF8.self) else { throw GenerateError.usage("\(batch): not UTF-8 text") }
            let entries = try BatchList.parse(text, source: batch)
            if entries.isEmpty { throw GenerateError.usage("\(batch): no codes listed") }
            let listDir = URL(fileURLWithPath: batch, relativeTo: URL(fileURLWithPath: cwd + "/")).deletingLastPathComponent().path
            var logos: [String: [UInt8]] = [:]
            var made: [GenerateJob] = []
            for e in entries {
                var spec = base
                var logoGiven = false
                for o in e.options {
                    do { try spec.apply(option: o.key, value: o.value) } catch { throw GenerateError.usage("\(e.origin): \(error.description)") }
                    if o.key == "logo" { logoGiven = true }
                }
                let kind = OutputKind(fileName: e.name) ?? spec.format
                spec.format = kind
                let fileName = OutputKind(fileName: e.name) == nil ? e.name + "." + kind.fileExtension : e.name
                var logoBytes: [UInt8]? = nil
                if let p = spec.logoPath {
                    let full = p.hasPrefix("/") ? p : (logoGiven ? listDir + "/" + p : p)
                    if logos[full] == nil {
                        let b: [UInt8]
                        do { b = try FileIO.readInput(full, limit: Self.logoLimit, what: "the logo") } catch { throw GenerateError.usage("\(e.origin): \(error)") }
                        logos[full] = b
                        inputs.append((full, "the logo"))
                    }
                    logoBytes = logos[full]
                }
                origins.append("\(e.origin) ('\(e.name)')")
                made.append(GenerateJob(label: e.name, outputPath: Self.inFolder(output, fileName), payload: Array(e.payload.utf8), spec: spec, logo: logoBytes))
            }
            jobList = made
            inputs.append((batch, "the batch list"))
            outDir = output
            manifestPath = manifest ?? Self.inFolder(output, Manifest.defaultName)
        } else {
            if manifest != nil { throw GenerateError.usage("--manifest goes with --batch") }
            let bytes: [UInt8]
            switch (payload, payloadFile) {
            case (let p?, nil): bytes = ArgumentBytes.bytes(p)
            case (nil, "-"?):
                do { bytes = try FileIO.readInput(fd: 0, limit: Self.payloadLimit, what: "the payload on standard input") } catch { throw GenerateError.usage("\(error) (a QR code holds at most 7,089 characters)") }
            case (nil, let f?):
                bytes = try Self.read(f, limit: Self.payloadLimit, what: "the payload file")
            case (nil, nil): throw GenerateError.usage("give the payload as an argument, with --file FILE, or --file - (stdin); or --batch LIST")
            default: throw GenerateError.usage("give the payload either as an argument or with --file, not both")
            }
            guard let output else { throw GenerateError.usage("-o FILE (or a folder, or '-' for stdout) is required") }
            var spec = base
            var path = output
            var isDir: ObjCBool = false
            if output != "-" && (output.hasSuffix("/") || (FileManager.default.fileExists(atPath: output, isDirectory: &isDir) && isDir.boolValue)) {
                let folder = output.hasSuffix("/") ? String(output.dropLast()) : output
                path = folder + "/" + Self.defaultName(bytes) + "." + spec.format.fileExtension
                outDir = folder
            } else if let kind = OutputKind(fileName: output) {
                if let format, kind != spec.format { throw GenerateError.usage("-o \(output) is \(kind.rawValue), --format says \(format)") }
                spec.format = kind
            }
            var logoBytes: [UInt8]? = nil
            if let p = spec.logoPath {
                let b = try Self.read(p, limit: Self.logoLimit, what: "the logo")
                logoBytes = b
                inputs.append((p, "the logo"))
            }
            if let f = payloadFile, f != "-" { inputs.append((f, "the payload file")) }
            origins = ["-o"]
            jobList = [GenerateJob(label: path == "-" ? "(stdout)" : path, outputPath: path, payload: bytes, spec: spec, logo: logoBytes)]
        }

        // Before anything is made: no two outputs on one file, none on an input, none through a link.
        var outputs = zip(jobList, origins).filter { $0.0.outputPath != "-" }.map { (path: $0.0.outputPath, origin: $0.1) }
        if let manifestPath { outputs.append((manifestPath, "the manifest")) }
        try OutputPlan.check(outputs: outputs, inputs: inputs, cwd: cwd)
        if let outDir {
            do { try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true) } catch {
                throw GenerateError.usage("cannot create the folder \(outDir): \(error.localizedDescription)")
            }
        }
        let clock = ContinuousClock.now
        var failed = 0, total = 0
        var written: [(file: String, payload: String)] = []
        var grades: [String: Int] = [:]
        // Each outcome as it is due, in list order: written (or reported) and let go.
        try await GenerateRun.run(jobList, verifier: verifier, jobs: jobs ?? Sweep.coreCount) { o in
            total += 1
            let name = o.job.label
            guard let code = o.code, o.ok else {
                failed += 1
                let reasons = o.error.map { [$0.description] } ?? o.verification?.problems ?? []
                var line = "FAIL \(name): \(reasons.joined(separator: "; "))"
                if o.failedVersions.count > 1 {
                    line += "; with the logo at larger versions: \(Self.attempts(o.failedVersions.dropFirst())), none verified"
                }
                Self.say(line)
                return
            }
            if o.job.outputPath == "-" {
                OutputFile.standardOutput.write(bytes: code.file)
            } else {
                do {
                    try SafeFile.write(code.file, to: o.job.outputPath)
                } catch {
                    Self.say("codesweep generate: \(error)")
                    throw ExitCode(2)
                }
            }
            if let s = o.verification?.scannability { grades[s.grade.description, default: 0] += 1 }
            if batch != nil, code.format != .svg, let text = String(validating: o.job.payload, as: UTF8.self) {
                written.append((String(o.job.outputPath.dropFirst(outDir!.count + 1)), text))
            }
            for w in code.warnings { Self.say("warning: \(name): \(w)") }
            if !o.failedVersions.isEmpty {
                Self.say("warning: \(name): made at version \(code.matrix.version); with the logo, smaller versions did not verify: \(Self.attempts(o.failedVersions[...]))")
            }
            if !quiet { Self.say(Self.describe(o)) }
        }
        if let manifestPath, !written.isEmpty {
            do {
                try SafeFile.write(Manifest.yaml(written), to: manifestPath)
            } catch {
                Self.say("codesweep generate: \(error)")
                throw ExitCode(2)
            }
        }
        if !quiet && total > 1 {
            let g = grades.keys.sorted().map { "\($0) \(grades[$0]!)" }.joined(separator: ", ")
            let secs = clock.duration(to: .now)
            let t = Double(secs.components.seconds) + Double(secs.components.attoseconds) / 1e18
            Self.say("\(total - failed) of \(total) codes made\(verifier == nil ? " (not verified)" : " and verified")\(g.isEmpty ? "" : " (grades: \(g))"), \(failed) failed, \(NumberText.fixed(t, decimals: 1)) s\(manifestPath.map { written.isEmpty ? "" : "; manifest \($0)" } ?? "")")
        }
        if failed > 0 { throw ExitCode(1) }
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
        var s = "made \(o.job.label): version \(c.matrix.version)-\(c.matrix.ec.rawValue), \(c.matrix.size)×\(c.matrix.size) modules, \(c.layout.modulePx) px a module, \(c.layout.side)×\(c.layout.side) px, contrast \(NumberText.fixed(c.contrast.value, decimals: 2))"
        if let e = c.eci { s += ", ECI \(e)\(Charset.eciCharsetName(Int(e)).map { " (\($0))" } ?? "")" }
        if let l = c.logo { s += ", logo covers \(l.coveredCodewords) of \(l.totalCodewords) codewords, \(l.damagedCodewords) damaged (at most \(l.worstBlock) in a block, \(l.allowedPerBlock) allowed)" }
        if let v = o.verification, let g = v.scannability { s += ", reads back, grade \(g.grade)" } else if o.verification == nil { s += ", not verified" }
        return s
    }

    /// A file name from the payload: its letters and digits (at most 40), else "code".
    /// `codes/` + `expected.yml` is `codes/expected.yml`, not `codes//expected.yml`.
    static func inFolder(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    static func defaultName(_ bytes: [UInt8]) -> String {
        var s = ""
        for b in bytes {
            let c = Character(Unicode.Scalar(b))
            if b < 0x80 && (c.isLetter || c.isNumber) { s.append(c) } else if !s.isEmpty && s.last != "-" { s.append("-") }
            if s.count >= 40 { break }
        }
        while s.last == "-" { s.removeLast() }
        return s.isEmpty ? "code" : s
    }

    /// Size caps on the files generate reads itself (outside any worker): a payload (a QR code
    /// holds at most 7,089 characters), a batch list (100,000 entries of about 150 bytes), a logo.
    static let payloadLimit = 64 << 10, listLimit = 16 << 20, logoLimit = 32 << 20

    static func read(_ path: String, limit: Int, what: String) throws(GenerateError) -> [UInt8] {
        do { return try FileIO.readInput(path, limit: limit, what: what) } catch { throw .usage(error.description) }
    }
}
