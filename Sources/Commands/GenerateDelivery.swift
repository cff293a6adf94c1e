import ArgumentParser
import CodeGenerate
import Records
import Reporting

/// What `generate` does with each outcome as it is due, in list order: the code written (or put
/// on stdout) and let go, its line on stderr; and the tally for the summary and the manifest.
final class GenerateDelivery {
    private let quiet: Bool
    /// With --batch, the folder the manifest's names are relative to.
    private let batchFolder: String?
    private(set) var failed = 0, total = 0
    /// The codes written with a batch (not SVG, UTF-8 payloads), for the manifest.
    private(set) var written: [(file: String, payload: String)] = []
    private var grades: [String: Int] = [:]

    init(quiet: Bool, batchFolder: String?) {
        self.quiet = quiet
        self.batchFolder = batchFolder
    }

    func deliver(_ o: GenerateOutcome) throws {
        total += 1
        let name = o.job.label
        guard let code = o.code, o.ok else {
            failed += 1
            let reasons = o.error.map { [$0.description] } ?? o.verification?.problems ?? []
            var line = "FAIL \(name): \(reasons.joined(separator: "; "))"
            if o.failedVersions.count > 1 {
                line += "; with the logo at larger versions: \(Generate.attempts(o.failedVersions.dropFirst())), none verified"
            }
            Generate.say(line)
            return
        }
        if o.job.outputPath == "-" {
            OutputFile.standardOutput.write(bytes: code.file)
        } else {
            do {
                try SafeFile.write(code.file, to: o.job.outputPath)
            } catch {
                Generate.say("codesweep generate: \(error)")
                throw ExitCode(2)
            }
        }
        if let s = o.verification?.scannability { grades[s.grade.description, default: 0] += 1 }
        if let batchFolder, code.format != .svg, let text = String(validating: o.job.payload, as: UTF8.self) {
            written.append((Manifest.name(o.job.outputPath, in: batchFolder), text))
        }
        for w in code.warnings { Generate.say("warning: \(name): \(w)") }
        if !o.failedVersions.isEmpty {
            Generate.say(
                "warning: \(name): made at version \(code.matrix.version); with the logo, smaller versions did not verify: \(Generate.attempts(o.failedVersions[...]))"
            )
        }
        if !quiet { Generate.say(Generate.describe(o)) }
    }

    /// "3 of 4 codes made and verified (grades: A 2, B 1), 1 failed, 0.8 s; manifest M".
    func summary(verified: Bool, seconds: Double, manifestPath: String?) -> String {
        let g = grades.keys.sorted().map { "\($0) \(grades[$0]!)" }.joined(separator: ", ")
        return
            "\(total - failed) of \(total) codes made\(verified ? " and verified" : " (not verified)")\(g.isEmpty ? "" : " (grades: \(g))"), \(failed) failed, \(NumberText.fixed(seconds, decimals: 1)) s\(manifestPath.map { written.isEmpty ? "" : "; manifest \($0)" } ?? "")"
    }
}
