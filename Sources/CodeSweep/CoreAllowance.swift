#if canImport(Glibc)
import Glibc
#endif

/// The cores this process may use, which `--jobs` defaults to: the CPUs of its affinity mask
/// (`taskset`, a Slurm or systemd cpuset), fewer when a cgroup v2 CPU quota (`cpu.max`: docker
/// `--cpus`, systemd `CPUQuota=`) allows less, at least 1. A sweep given the machine's core
/// count inside a 2-CPU allocation of a 64-core node would start 64 workers on 2 CPUs.
public enum CoreAllowance {
    public static var count: Int {
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        var cores = affinity() ?? online
        if let quota = quota(cgroupFile("cpu.max")) { cores = min(cores, quota) }
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
    /// rounded up; nil for no quota or a line that does not parse.
    static func quota(_ line: String?) -> Int? {
        guard let parts = line?.split(whereSeparator: \.isWhitespace), parts.count == 2,
            let quota = Double(parts[0]), let period = Double(parts[1]), quota > 0, period > 0
        else { return nil }
        return max(1, Int((quota / period).rounded(.up)))
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
