import Foundation
import TestSupport
import Testing

/// The Slurm recipe (examples/slurm/sweep.sbatch, merge.sbatch) checks its environment the same
/// way in both scripts: scripts/check-slurm-inputs.sh runs them as array tasks without a cluster
/// (`make check-slurm` runs it too, before its real cluster).
@Suite("Slurm recipe inputs")
struct SlurmRecipeInputTests {
    @Test("shard counts 08 and 010 and a newline in CODESWEEP_ROOTS are refused by both scripts; 10 shards merge to the single scan")
    func inputs() throws {
        let script = PackageRoot.path + "/scripts/check-slurm-inputs.sh"
        let r = try run("/bin/bash", [script], env: ["BIN": codesweepBinary], check: false)
        #expect(r.status == 0, "\(r.stderr)\n\(r.stdout)")
        // The cases named in the issue, each said for both scripts.
        for words in [
            "sweep.sbatch CODESWEEP_SHARDS=08: exit 2", "merge.sbatch CODESWEEP_SHARDS=08: exit 2",
            "sweep.sbatch CODESWEEP_SHARDS=010: exit 2", "merge.sbatch CODESWEEP_SHARDS=010: exit 2",
            "CODESWEEP_ROOTS holds a newline", "10 shards, tasks 0-9 and the merge", "passed",
        ] {
            #expect(r.stdout.contains(words), "no '\(words)' in:\n\(r.stdout)")
        }
        #expect(r.stdout.components(separatedBy: "CODESWEEP_ROOTS holds a newline").count == 3)
    }
}
