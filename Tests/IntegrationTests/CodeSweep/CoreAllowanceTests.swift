import Foundation
import Testing

@testable import CodeSweep

/// `--jobs` defaults to the cores the process may use, not the machine's: a sweep in a Slurm
/// allocation or under `taskset` starts one worker per allowed CPU.
@Suite("Core allowance")
struct CoreAllowanceTests {
    /// /proc/self/status as a process started under `taskset -c CPUS` sees it.
    static func status(under cpus: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
        p.arguments = ["-c", cpus, "/bin/cat", "/proc/self/status"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    @Test("a process bound to one CPU by taskset has one core; the default is within the machine's")
    func affinity() throws {
        #expect(CoreAllowance.allowedCPUs(try Self.status(under: "0")) == 1)
        let online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #expect(CoreAllowance.allowedCPUs(try Self.status(under: "0-\(online - 1)")) == online)
        #expect(CoreAllowance.affinity() != nil)
        #expect(Sweep.coreCount >= 1 && Sweep.coreCount <= online)
        // The mask's words: 36 CPUs of 64 and more, a mask that is not hex.
        #expect(CoreAllowance.allowedCPUs("Name:\tx\nCpus_allowed:\t0000000f,ffffffff\n") == 36)
        #expect(CoreAllowance.allowedCPUs("Cpus_allowed:\t0\n") == nil && CoreAllowance.allowedCPUs("Cpus_allowed:\tzz\n") == nil)
    }

    @Test("a cgroup v2 CPU quota: whole CPUs, rounded up; none for max or a line that does not parse")
    func quota() {
        #expect(CoreAllowance.quota("200000 100000") == 2)
        #expect(CoreAllowance.quota("150000 100000\n") == 2)
        #expect(CoreAllowance.quota("50000 100000") == 1)
        #expect(CoreAllowance.quota("max 100000") == nil)
        #expect(CoreAllowance.quota("") == nil && CoreAllowance.quota(nil) == nil && CoreAllowance.quota("0 100000") == nil)
    }
}
