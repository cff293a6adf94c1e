#if canImport(Glibc)
import Glibc
#endif

/// The cores this process may use, which `--jobs` defaults to: the CPUs of its affinity mask
/// (`taskset`, a Slurm or systemd cpuset), fewer when a cgroup CPU quota (v2's `cpu.max`, v1's
/// `cpu.cfs_quota_us` over `cpu.cfs_period_us`: docker `--cpus`, systemd `CPUQuota=`) allows
/// less, at least 1. A sweep given the machine's core
/// count inside a 2-CPU allocation of a 64-core node would start 64 workers on 2 CPUs.
public enum CoreAllowance {
    public static var count: Int {
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        var cores = affinity() ?? online
        if let quota = quota(cgroupFile("cpu.max")) ?? v1Quota() { cores = min(cores, quota) }
        return max(1, cores)
    }

    /// CPUs in the calling thread's affinity mask (a process's threads inherit it), from
    /// /proc/thread-self/status; nil when it cannot be read.
    static func affinity() -> Int? { allowedCPUs(ProcessMemory.fileText("/proc/thread-self/status", max: 8192)) }

    /// The CPUs a /proc status text's `Cpus_allowed:` mask (hex words, comma-separated) has.
    static func allowedCPUs(_ status: String?) -> Int? {
        guard let line = status?.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return nil }
        var n = 0
        for c in line.dropFirst("Cpus_allowed:".count) where c != "," && !c.isWhitespace {
            guard let nibble = c.hexDigitValue else { return nil }
            n += nibble.nonzeroBitCount
        }
        return n > 0 ? n : nil
    }

    /// Whole CPUs a cgroup v2 `cpu.max` line ("QUOTA PERIOD", or "max PERIOD": none) allows,
    /// rounded up; nil for no quota or a line that does not parse. The kernel writes both as
    /// whole microseconds: anything else (`inf`, `1e400`, `nan`, a fraction) is no quota, not a
    /// number to convert (a Double of `inf` made into an Int traps).
    static func quota(_ line: String?) -> Int? {
        guard let parts = line?.split(whereSeparator: \.isWhitespace), parts.count == 2 else { return nil }
        return cpus(quota: parts[0], period: parts[1])
    }

    /// Whole CPUs a cgroup v1 quota allows: `cpu.cfs_quota_us` (-1: none) over
    /// `cpu.cfs_period_us`, each a file holding one whole number; nil for none or either not one.
    static func quota(v1Quota quota: String?, period: String?) -> Int? {
        guard let quota, let period else { return nil }
        return cpus(quota: quota.trimmingWhitespace, period: period.trimmingWhitespace)
    }

    static func cpus(quota: Substring, period: Substring) -> Int? {
        guard let q = wholeMicroseconds(quota), let p = wholeMicroseconds(period), q > 0, p > 0 else { return nil }
        return max(1, q / p + (q % p == 0 ? 0 : 1))
    }

    /// Digits only (no sign, exponent or point), as the kernel writes them; nil past Int's range.
    static func wholeMicroseconds(_ s: Substring) -> Int? {
        guard !s.isEmpty, s.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(s)
    }

    /// The cgroup v1 CPU quota of this process: the `cpu` controller's folder (its line
    /// `N:cpu,cpuacct:/path` in /proc/self/cgroup) under the usual mounts, the path first, then
    /// the mount itself (a container sees its own cgroup at the mount's root).
    static func v1Quota() -> Int? {
        guard let path = v1CPUPath(ProcessMemory.fileText("/proc/self/cgroup", max: 4096)) else { return nil }
        for mount in ["/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu"] {
            for folder in [mount + (path == "/" ? "" : path), mount] {
                let q = ProcessMemory.fileText(folder + "/cpu.cfs_quota_us", max: 64)
                guard q != nil else { continue }
                return quota(v1Quota: q, period: ProcessMemory.fileText(folder + "/cpu.cfs_period_us", max: 64))
            }
        }
        return nil
    }

    /// The path of the v1 `cpu` controller's line of a /proc/self/cgroup text.
    static func v1CPUPath(_ text: String?) -> String? {
        guard let text else { return nil }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[1].split(separator: ",").contains("cpu") else { continue }
            return String(fields[2])
        }
        return nil
    }

    /// A file of this process's cgroup v2 (`0::/path` in /proc/self/cgroup), nil when there is none.
    static func cgroupFile(_ name: String) -> String? {
        guard let lines = ProcessMemory.fileText("/proc/self/cgroup", max: 4096),
            let line = lines.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
        else { return nil }
        let path = String(line.dropFirst(3))
        return ProcessMemory.fileText("/sys/fs/cgroup" + (path == "/" ? "" : path) + "/" + name, max: 256)
    }
}

extension String {
    fileprivate var trimmingWhitespace: Substring {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? endIndex
        return start < end ? self[start..<end] : ""
    }
}
