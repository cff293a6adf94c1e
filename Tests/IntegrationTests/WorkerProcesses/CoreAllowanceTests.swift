import Foundation
import Testing

@testable import WorkerProcesses

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
        #expect(CoreAllowance.count >= 1 && CoreAllowance.count <= online)
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

    @Test("a quota that is no whole number is no quota: inf, 1e400, nan, a fraction, past Int's range")
    func nonFiniteQuota() {
        // Each of these trapped (a Double of inf made into an Int) before.
        #expect(CoreAllowance.quota("inf 100000") == nil)
        #expect(CoreAllowance.quota("1e400 100000") == nil)
        #expect(CoreAllowance.quota("200000 inf") == nil && CoreAllowance.quota("nan 100000") == nil)
        #expect(CoreAllowance.quota("1.5e5 100000") == nil && CoreAllowance.quota("-200000 100000") == nil)
        #expect(CoreAllowance.quota("99999999999999999999999 100000") == nil)
        #expect(CoreAllowance.quota("9223372036854775807 1") == Int.max)
    }

    @Test("a cgroup v1 quota: cpu.cfs_quota_us over cpu.cfs_period_us, -1 none; the cpu controller's path")
    func v1Quota() {
        #expect(CoreAllowance.quota(v1Quota: "300000\n", period: "100000\n") == 3)
        #expect(CoreAllowance.quota(v1Quota: "50000\n", period: "100000\n") == 1)
        #expect(CoreAllowance.quota(v1Quota: "-1\n", period: "100000\n") == nil)
        #expect(CoreAllowance.quota(v1Quota: "inf\n", period: "100000\n") == nil)
        #expect(CoreAllowance.quota(v1Quota: "300000\n", period: nil) == nil)
        let cgroup = "12:memory:/slurm/uid_1/job_7\n3:cpu,cpuacct:/slurm/uid_1/job_7/step_0\n0::/\n"
        #expect(CoreAllowance.v1CPUPath(cgroup) == "/slurm/uid_1/job_7/step_0")
        #expect(CoreAllowance.v1CPUPath("2:cpuacct:/\n1:cpu:/docker/abc\n") == "/docker/abc")
        #expect(CoreAllowance.v1CPUPath("0::/user.slice\n") == nil && CoreAllowance.v1CPUPath("2:cpuset:/\n") == nil)
    }
}
