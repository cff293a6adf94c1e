import AssetCheck

/// One code of a run: what to make and where it goes.
package struct GenerateJob: Sendable {
    package var label: String
    package var outputPath: String
    package var payload: [UInt8]
    package var spec: CodeSpec
    package var logo: [UInt8]?
    package init(label: String, outputPath: String, payload: [UInt8], spec: CodeSpec, logo: [UInt8]?) {
        self.label = label; self.outputPath = outputPath; self.payload = payload; self.spec = spec; self.logo = logo
    }
}

package struct GenerateOutcome: Sendable {
    package var job: GenerateJob
    package var code: GeneratedCode?
    package var error: GenerateError?
    package var verification: Verification?
    /// The versions made that did not verify, in order, each with its first problem (a code
    /// with a logo is tried at larger versions: `GenerateRun.one`). When the outcome failed,
    /// its code and verification are the first of these.
    package var failedVersions: [(version: Int, problem: String)] = []
    /// Made, and verified (or verification skipped) without a problem.
    package var ok: Bool { code != nil && error == nil && (verification?.passed ?? true) }

    package init(
        job: GenerateJob, code: GeneratedCode?, error: GenerateError?, verification: Verification?,
        failedVersions: [(version: Int, problem: String)] = []
    ) {
        self.job = job; self.code = code; self.error = error; self.verification = verification; self.failedVersions = failedVersions
    }
}

package enum GenerateRun {
    /// Makes and verifies every job, `jobs` at a time, and hands each outcome to `deliver` in
    /// list order as soon as it and those before it are done, so a run holds at most a few
    /// pictures however long the list (an outcome that finished early waits for the ones
    /// before it). Every C handle (libqrencode input, wands, ZBar scanners) lives inside one
    /// task's call. An error `deliver` throws ends the run: no job is started after it, the
    /// jobs under way finish and are dropped.
    package static func run(
        _ list: [GenerateJob], verifier: Verifier?, jobs: Int,
        deliver: (GenerateOutcome) throws -> Void
    ) async throws {
        let jobs = max(1, jobs), window = 4 * jobs
        try await withThrowingTaskGroup(of: (Int, GenerateOutcome).self) { group in
            var next = 0, due = 0, running = 0
            var done: [Int: GenerateOutcome] = [:]
            // At most `jobs` under way, and none more than `window` ahead of the next one due.
            func startMore() {
                while running < jobs, next < list.count, next - due < window {
                    let i = next, job = list[i]
                    next += 1; running += 1
                    group.addTask { (i, one(job, verifier: verifier)) }
                }
            }
            startMore()
            while let (i, o) = try await group.next() {
                running -= 1
                done[i] = o
                while let o = done.removeValue(forKey: due) {
                    try deliver(o)
                    due += 1
                }
                startMore()
            }
        }
    }

    /// Larger versions tried, at most, when a code with a logo does not verify.
    package static let logoRetries = 8

    /// Makes and verifies one code. A code with a logo that does not read back, or whose
    /// margins grade too low, is made again at the next version up (the logo then covers other
    /// modules, at another size against them; a logo with finder-like shapes can stop a decoder
    /// at one version and not at another), up to `logoRetries` more versions; the first that
    /// verifies is taken. None does: the first failure is reported, with the versions tried.
    package static func one(_ job: GenerateJob, verifier: Verifier?) -> GenerateOutcome {
        var spec = job.spec
        var first: GenerateOutcome? = nil
        var failed: [(version: Int, problem: String)] = []
        while true {
            let code: GeneratedCode
            do { code = try CodeGenerator.make(job.payload, spec: spec, logo: job.logo) } catch {
                // A larger version that cannot be made (none fits the logo): the first failure stands.
                if var first { first.failedVersions = failed; return first }
                return GenerateOutcome(job: job, code: nil, error: error, verification: nil)
            }
            guard let verifier else { return GenerateOutcome(job: job, code: code, error: nil, verification: nil) }
            let v = verifier.verify(code, path: job.outputPath)
            if v.passed { return GenerateOutcome(job: job, code: code, error: nil, verification: v, failedVersions: failed) }
            failed.append((code.matrix.version, v.problems.first ?? "did not verify"))
            if first == nil { first = GenerateOutcome(job: job, code: code, error: nil, verification: v) }
            guard v.aLargerVersionMayHelp, code.matrix.version < 40, failed.count <= logoRetries else {
                first!.failedVersions = failed
                return first!
            }
            spec.minVersion = code.matrix.version + 1
        }
    }
}
