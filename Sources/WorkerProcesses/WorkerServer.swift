import FileWalker
import Records
import UserInput

#if canImport(Glibc)
import Glibc
#endif

/// What a worker process does with the files it is sent: the composition root gives it the
/// scanner (`codesweep __worker`: CodeSweep's `FileScanner` with check's grader).
package struct WorkerTask {
    /// Address space a file may add (MiB; 0: none), measured after `prepare`.
    package var memoryLimitMiB: Int
    /// Loads what reading needs (ImageMagick) before the worker's idle size is measured.
    package var prepare: () -> Void
    /// Reads one file without the readers named (a file read again after one of them died on
    /// it), calling `checkpoint` with the record so far before each isolated reader runs and
    /// `member` with each record of an item expanded from the file, and `progress` as a long item
    /// goes on (a video's frames); nil when the file is skipped.
    package var scan:
        (
            _ entry: FileEntry, _ without: Set<ReaderName>, _ part: [Int]?, _ checkpoint: @escaping (FileRecord) -> Void,
            _ member: @escaping (FileRecord) -> Void, _ progress: @escaping () -> Void
        ) -> FileRecord?

    package init(
        memoryLimitMiB: Int, prepare: @escaping () -> Void,
        scan:
            @escaping (
                FileEntry, Set<ReaderName>, [Int]?, @escaping (FileRecord) -> Void, @escaping (FileRecord) -> Void, @escaping () -> Void
            ) -> FileRecord?
    ) {
        self.memoryLimitMiB = memoryLimitMiB; self.prepare = prepare; self.scan = scan
    }
}

/// The worker side: reads requests on stdin, scans each file, answers on stdout, until stdin
/// closes. A crash or hang here costs one file; the sweep replaces the worker.
package enum WorkerServer {
    package static func run(_ task: WorkerTask) -> Int32 {
        // The coordinator decides when to stop. A scheduler stopping a job (Slurm's scancel, a
        // systemd stop) sends SIGTERM to every process of it, workers included: a worker that
        // died of it mid-file would be recorded as a crash there, and --resume would skip the file.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        watchLifeline()
        task.prepare()
        limitAddressSpace(mib: task.memoryLimitMiB)
        let me = getpid()
        write(WorkerProtocol.ready(.init(virtual: ProcessMemory.virtualBytes(me) ?? 0, peakResident: ProcessMemory.peakResidentBytes(me) ?? 0)))
        var reader = LineReader(fd: 0)
        while let line = reader.next() {
            guard let (entry, without, part) = WorkerProtocol.parseRequest(line) else {
                write(WorkerProtocol.reply(FileRecord.failure(path: "?", RecordError(.internalError, "bad worker request"))))
                continue
            }
            // Before each second-decoder call the record so far goes out (when its codes
            // changed): if zxing-cpp then crashes or hangs, the coordinator keeps ZBar's codes.
            var sentCodes: [DetectedCode]? = nil
            var lastProgress = monotonicSeconds()
            let record = task.scan(
                entry, without, part,
                { partial in
                    guard partial.codes != sentCodes else { return }
                    sentCodes = partial.codes
                    write(WorkerProtocol.partial(partial))
                },
                { member in write(WorkerProtocol.member(member)) },
                {
                    // At most one progress line a second: the coordinator's --timeout starts again.
                    let now = monotonicSeconds()
                    if now - lastProgress >= 1 {
                        lastProgress = now
                        write(WorkerProtocol.progress)
                    }
                })
            write(WorkerProtocol.reply(record))
        }
        return 0
    }

    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// No file may make this process use more than `mib` MiB of address space beyond what it
    /// holds now (the runtime and libraries, loaded): past it, allocations fail, ImageMagick
    /// reports "memory allocation failed" and anything else dies; either way the file costs
    /// no more and the sweep records it as too_large.
    static func limitAddressSpace(mib: Int) {
        guard mib > 0, let now = ProcessMemory.virtualBytes(getpid()), now > 0 else { return }
        let limit = rlim_t(now) + rlim_t(mib) << 20
        var rl = rlimit(rlim_cur: limit, rlim_max: limit)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &rl)
    }

    /// Exits as soon as the coordinator is gone, whatever the main thread is doing (a decoder
    /// may hang or spin): a thread blocks reading the lifeline pipe (CODESWEEP_LIFELINE_FD),
    /// whose only write end the coordinator holds, and sees end of file when it dies.
    static func watchLifeline() {
        guard let value = getenv("CODESWEEP_LIFELINE_FD"), let fd = Int32(String(cString: value)) else { return }
        let parent = getppid()
        DetachedThread.detach {
            var byte: [UInt8] = [0]
            while true {
                let n = (try? FileIO.read(fd, into: &byte)) ?? 0
                if n <= 0 || getppid() != parent { _exit(0) }
            }
        }
    }

    /// A reply line to the coordinator; when it cannot be written the coordinator is gone.
    static func write(_ s: String) {
        do { try FileIO.writeAll(1, Array(s.utf8)) } catch { exit(0) }
    }
}

/// A process's memory as /proc reports it (Linux).
enum ProcessMemory {
    /// Virtual size in bytes (the first field of /proc/PID/statm, in pages).
    static func virtualBytes(_ pid: pid_t) -> Int? {
        guard let text = procText(pid, "statm", max: 128) else { return nil }
        guard let pages = Int(text.prefix { $0.isNumber }) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Peak resident size in bytes so far (VmHWM in /proc/PID/status).
    static func peakResidentBytes(_ pid: pid_t) -> Int? {
        guard let text = procText(pid, "status", max: 4096) else { return nil }
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.dropFirst(6).filter(\.isNumber)).map { $0 * 1024 }
    }

    /// The first `max` bytes of /proc/PID/`name`, as text; nil when it cannot be read.
    static func procText(_ pid: pid_t, _ name: String, max: Int) -> String? { fileText("/proc/\(pid)/\(name)", max: max) }

    /// The first `max` bytes of a kernel file (/proc, /sys), as text; nil when it cannot be read.
    static func fileText(_ path: String, max: Int) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: max)
        let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        return n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : nil
    }
}

/// A plain POSIX thread for blocking work that must not occupy the Swift concurrency pool.
enum DetachedThread {
    final class Box { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }

    static func detach(_ body: @escaping () -> Void) {
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        if pthread_create(
            &thread, nil,
            { arg in
                Unmanaged<Box>.fromOpaque(arg!).takeRetainedValue().body()
                return nil
            }, box) == 0
        {
            pthread_detach(thread)
        } else {
            Unmanaged<Box>.fromOpaque(box).release()
        }
    }
}

/// Buffered reading of newline-terminated lines from a descriptor.
struct LineReader {
    let fd: Int32
    var buffer: [UInt8] = []
    var start = 0
    init(fd: Int32) { self.fd = fd }

    /// The next line without its newline; nil at end of input.
    mutating func next() -> [UInt8]? {
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0A) {
                let line = Array(buffer[start..<nl])
                start = nl + 1
                if start > 65536 { buffer.removeFirst(start); start = 0 }
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = (try? FileIO.read(fd, into: &chunk)) ?? 0
            if n == 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }
}
