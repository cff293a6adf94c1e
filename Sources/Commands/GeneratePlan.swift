import AssetCheck
import CodeGenerate
import UserInput

/// What one `generate` makes, built from its flags in one place: the jobs (the one code, or one
/// a line of a --batch list), and for the output plan where each job came from, every file the
/// run reads, the manifest and the folder to create. Problems are usage errors (status 2).
struct GeneratePlan {
    private(set) var jobs: [GenerateJob] = []
    /// Where each job came from ("list.csv:3 ('name')", or "-o"), for the output plan's messages.
    private(set) var origins: [String] = []
    /// Every file this run reads, with what it is.
    private(set) var inputs: [(path: String, what: String)] = []
    private(set) var manifestPath: String? = nil
    /// The folder the codes go into, made before any is written (a --batch folder, or a folder -o names).
    private(set) var outDir: String? = nil
    /// With --batch: the manifest lists the codes written, by their names in `outDir`.
    private(set) var isBatch = false

    init(_ g: Generate, base: CodeSpec, cwd: String) throws {
        inputs = g.verification.rules.map { [($0, "the rules file")] } ?? []
        if let batch = g.batch {
            try addBatch(batch, g, base: base, cwd: cwd)
        } else {
            try addOne(g, base: base)
        }
    }

    /// One code a line of the list, into the folder -o; a logo is read once however many lines name it.
    mutating func addBatch(_ batch: String, _ g: Generate, base: CodeSpec, cwd: String) throws {
        guard g.payload == nil, g.payloadFile == nil else {
            throw GenerateError.usage("--batch takes the payloads from the list, not from an argument or --file")
        }
        guard let output = g.output, output != "-" else { throw GenerateError.usage("--batch needs -o FOLDER") }
        let data = try Self.read(batch, limit: Self.listLimit, what: "the batch list")
        let shown = ArgumentBytes.display(batch)
        guard let text = String(validating: data, as: UTF8.self) else { throw GenerateError.usage("\(shown): not UTF-8 text") }
        let entries = try BatchList.parse(text, source: shown)
        if entries.isEmpty { throw GenerateError.usage("\(shown): no codes listed") }
        let listDir = PathContext.normalize((batch.hasPrefix("/") ? batch : cwd + "/" + batch) + "/..")
        var logos: [String: [UInt8]] = [:]
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
            jobs.append(GenerateJob(label: e.name, outputPath: Self.inFolder(output, fileName), payload: Array(e.payload.utf8), spec: spec, logo: logoBytes))
        }
        inputs.append((batch, "the batch list"))
        outDir = output
        manifestPath = g.manifest ?? Self.inFolder(output, Manifest.defaultName)
        isBatch = true
    }

    /// The one code: its payload from the argument, --file or stdin, into -o (a file, a folder or '-').
    mutating func addOne(_ g: Generate, base: CodeSpec) throws {
        if g.manifest != nil { throw GenerateError.usage("--manifest goes with --batch") }
        let bytes = try Self.payload(g)
        guard let output = g.output else { throw GenerateError.usage("-o FILE (or a folder, or '-' for stdout) is required") }
        var spec = base
        var path = output
        if output != "-" && (output.hasSuffix("/") || UserPath.isFolder(output)) {
            let folder = output.hasSuffix("/") ? String(output.dropLast()) : output
            path = folder + "/" + Self.defaultName(bytes) + "." + spec.format.fileExtension
            outDir = folder
        } else if let kind = OutputKind(fileName: output) {
            if let format = g.spec.format, kind != spec.format {
                throw GenerateError.usage("-o \(ArgumentBytes.display(output)) is \(kind.rawValue), --format says \(format)")
            }
            spec.format = kind
        }
        var logoBytes: [UInt8]? = nil
        if let p = spec.logoPath {
            let b = try Self.read(p, limit: Self.logoLimit, what: "the logo")
            logoBytes = b
            inputs.append((p, "the logo"))
        }
        if let f = g.payloadFile, f != "-" { inputs.append((f, "the payload file")) }
        origins = ["-o"]
        jobs = [GenerateJob(label: path == "-" ? "(stdout)" : path, outputPath: path, payload: bytes, spec: spec, logo: logoBytes)]
    }

    /// The payload's bytes: the argument as given, or --file's (or stdin's) bytes.
    static func payload(_ g: Generate) throws -> [UInt8] {
        switch (g.payload, g.payloadFile) {
        case (let p?, nil): return ArgumentBytes.bytes(p)
        case (nil, "-"?):
            do { return try FileIO.readInput(fd: 0, limit: payloadLimit, what: "the payload on standard input") } catch {
                throw GenerateError.usage("\(error) (a QR code holds at most 7,089 characters)")
            }
        case (nil, let f?):
            return try read(f, limit: payloadLimit, what: "the payload file")
        case (nil, nil): throw GenerateError.usage("give the payload as an argument, with --file FILE, or --file - (stdin); or --batch LIST")
        default: throw GenerateError.usage("give the payload either as an argument or with --file, not both")
        }
    }

    /// Before anything is made: no two outputs on one file, none on an input, none through a
    /// link; then the output folder is made.
    func prepareOutputs(cwd: String) throws {
        var outputs = zip(jobs, origins).filter { $0.0.outputPath != "-" }.map { (path: $0.0.outputPath, origin: $0.1) }
        if let manifestPath { outputs.append((manifestPath, "the manifest")) }
        try OutputPlan.check(outputs: outputs, inputs: inputs, cwd: cwd)
        if let outDir {
            do { try UserPath.makeFolders(outDir) } catch { throw GenerateError.usage(error.description) }
        }
    }

    /// `codes/` + `expected.yml` is `codes/expected.yml`, not `codes//expected.yml`.
    static func inFolder(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// A file name from the payload: its letters and digits (at most 40), else "code".
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
