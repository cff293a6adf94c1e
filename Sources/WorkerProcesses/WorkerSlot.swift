import Dispatch
import FileWalker
import Records
import UserInput

#if canImport(Glibc)
import Glibc
#endif

/// One worker process and the pipes to it. Driven only from its own serial queue, so its
/// blocking reads never occupy the Swift concurrency pool and its state is never shared.
final class WorkerSlot: @unchecked Sendable {
    let launch: WorkerLaunch
    let queue: DispatchQueue
    /// Polled while a file is in flight: once true, the worker gets `stopGrace` seconds to
    /// answer, then is killed and the file left unrecorded (SIGINT/SIGTERM, a write error).
    let shouldStop: @Sendable () -> Bool
    /// The read end of the pool's lifeline pipe, given to each worker as descriptor 3.
    let lifeline: Int32
    /// Smallest and largest virtual size seen of the current worker (the first: its size
    /// between files; the second: while the current file is in flight).
    private var idleVirtual = Int.max
    /// Peak resident bytes: as the worker started its file (VmHWM), and when it was reaped (ru_maxrss).
    private var idlePeakResident = 0, diedPeakResident = 0
    private var busyVirtual = 0
    private var pid: pid_t = 0
    private var toWorker: Int32 = -1
    private var fromWorker: Int32 = -1
    private var pending: [UInt8] = []

    static let stopGrace = 0.3
    /// How often a worker in flight is looked at (the stop request, the memory limit).
    static let pollInterval = 0.1

    init(index: Int, launch: WorkerLaunch, lifeline: Int32, shouldStop: @escaping @Sendable () -> Bool) {
        self.launch = launch
        self.lifeline = lifeline
        self.shouldStop = shouldStop
        queue = DispatchQueue(label: "codesweep.worker.\(index)")
    }

    func scan(_ entry: FileEntry, part: [Int]?, items: @escaping @Sendable (FileRecord) -> Void) async -> FileRecord? {
        await withCheckedContinuation { (c: CheckedContinuation<FileRecord?, Never>) in
            queue.async { c.resume(returning: self.blockingScan(entry, part: part, items: items)) }
        }
    }

    func shutdown() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            queue.async {
                self.stop(graceful: true); c.resume()
            }
        }
    }

    private func failure(_ e: FileEntry, _ kind: ErrorKind, _ message: String) -> FileRecord {
        var r = FileRecord.failure(path: e.path, pathBytes: e.pathBytes, RecordError(kind, message))
        r.size = e.size
        r.mtime = e.mtime
        return r
    }

    private func blockingScan(_ entry: FileEntry, without: [ReaderName] = [], part: [Int]?, items: @Sendable (FileRecord) -> Void) -> FileRecord? {
        let request = Array(WorkerProtocol.request(entry, without: without, part: part).utf8)
        var sent = false
        for _ in 0..<2 where !sent {
            if pid == 0 && !spawn() { return failure(entry, .internalError, "cannot start a worker process (\(launch.executable))") }
            sent = (try? FileIO.writeAll(toWorker, request)) != nil
            if !sent { stop(graceful: false) }  // died between files: replace it and send again
        }
        guard sent else { return failure(entry, .internalError, "cannot talk to a worker process") }
        // --timeout is per item: a container's deadline moves on with each member it finishes, a
        // video's with each second of frames read (reading stops at --max-video-seconds).
        var deadline = now() + launch.timeout
        var stopSeen: Double? = nil
        busyVirtual = 0
        // The record so far, sent before the isolated reader ran: what is kept if it then fails.
        var partial: FileRecord? = nil
        // Members' records passed on already (a container's): a file read again would send them twice.
        var membersSent = 0
        // The worker died inside zxing-cpp: the file is read again without it (the other
        // readers' codes, all of them), else what was sent before it ran is kept.
        func salvage(_ what: String) -> FileRecord? {
            guard partial != nil else { return nil }
            if without.isEmpty, membersSent == 0, let again = blockingScan(entry, without: launch.isolatedReaders, part: part, items: items), again.error == nil
            {
                return withoutIsolatedReaders(again, what, "the file was read again without it")
            }
            return partial.map { withoutIsolatedReaders($0, what, "the codes read before it ran are kept") }
        }
        while true {
            if let nl = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[..<nl])
                pending.removeSubrange(...nl)
                switch WorkerProtocol.parseReply(line) {
                case .record(var r):
                    r.pathBytes = entry.pathBytes  // exact bytes from our side of the pipe
                    noteIdleSize()
                    return r
                case .partial(var r):
                    r.pathBytes = entry.pathBytes
                    partial = r
                    continue
                case .member(var r):
                    r.pathBytes = entry.pathBytes
                    membersSent += 1
                    deadline = now() + launch.timeout
                    items(r)
                    continue
                case .progress:
                    deadline = now() + launch.timeout
                    continue
                case .skipped:
                    noteIdleSize()
                    return nil
                case .ready(let size):
                    noteReady(size)
                    continue
                case .invalid:
                    stop(graceful: false)
                    return failure(entry, .internalError, "worker sent an unreadable reply")
                }
            }
            let t = now()
            let left = deadline - t
            if left <= 0 {
                stop(graceful: false)
                if let kept = salvage("did not finish within \(NumberText.trimmed(launch.timeout)) s (see --timeout)") { return kept }
                let limit = NumberText.trimmed(launch.timeout)
                return failure(entry, .timeout, "decoding took longer than \(limit) s; the worker was stopped\(launch.timeoutHint)")
            }
            if stopSeen == nil && shouldStop() { stopSeen = t }
            if let seen = stopSeen, t - seen >= Self.stopGrace {
                // Interrupted: the file in flight is not finished and is not recorded
                // (--resume scans it again).
                stop(graceful: false)
                return nil
            }
            if launch.memoryLimitMiB > 0, let v = ProcessMemory.virtualBytes(pid) { busyVirtual = max(busyVirtual, v) }
            if !receive(within: left) { return workerDied(entry, salvage) }
        }
    }

    /// Waits up to `seconds` (at most `pollInterval`) for more of the worker's reply and adds it
    /// to `pending`; false at end of file on its pipe (the worker died).
    private func receive(within seconds: Double) -> Bool {
        var p = pollfd(fd: fromWorker, events: Int16(POLLIN), revents: 0)
        let ready = poll(&p, 1, Int32(min(seconds, Self.pollInterval) * 1000) + 1)
        if ready <= 0 { return true }  // nothing yet (or EINTR)
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n: Int
        do { n = try FileIO.read(fromWorker, into: &chunk) } catch {
            if error.code == EAGAIN { return true }
            n = 0
        }
        if n == 0 { return false }
        pending.append(contentsOf: chunk[0..<n])
        return true
    }

    /// End of file on the worker's pipe: the worker died on this file. The record so far if the
    /// worker sent one, else `too_large` when it had grown by most of its memory limit, else `crash`.
    private func workerDied(_ entry: FileEntry, _ salvage: (String) -> FileRecord?) -> FileRecord? {
        let status = stop(graceful: false)
        if let kept = salvage("crashed (the worker died: \(status))") { return kept }
        let limit = launch.memoryLimitMiB << 20
        // Sampled address space, or (died between samples) peak resident size at death over that at the file's start.
        let grown = max(idleVirtual == Int.max ? 0 : busyVirtual - idleVirtual, diedPeakResident - idlePeakResident)
        if limit > 0, grown >= limit * 3 / 4 {
            return failure(
                entry, .tooLarge,
                "decoding this file needed more than the \(launch.memoryLimitMiB) MiB of memory a worker may use for one file (--max-memory; it grew by \(grown >> 20) MiB over its size between files); the worker died at the limit (\(status)) and was replaced"
            )
        }
        return failure(entry, .crash, "the worker decoding this file died (\(status)); it was replaced and the sweep went on")
    }

    /// A fresh worker's size as it measured it before reading its first request.
    private func noteReady(_ size: WorkerProtocol.IdleSize) {
        if size.virtual > 0 { idleVirtual = size.virtual }
        idlePeakResident = size.peakResident
    }

    /// The worker's size between files (after it answered): what the next file's growth is measured from.
    private func noteIdleSize() {
        if launch.memoryLimitMiB > 0, let v = ProcessMemory.virtualBytes(pid), v > 0 { idleVirtual = min(idleVirtual, v) }
        if launch.memoryLimitMiB > 0, let r = ProcessMemory.peakResidentBytes(pid) { idlePeakResident = r }
    }

    private func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Spawns are serialised: between pipe() and FD_CLOEXEC another spawn could inherit the
    /// new pipe ends, and a worker's crash would then never show as end of file.
    static let spawnLock = DispatchQueue(label: "codesweep.worker.spawn")

    private func spawn() -> Bool {
        WorkerSlot.spawnLock.sync { spawnLocked() }
    }

    private func spawnLocked() -> Bool {
        var inPipe: [Int32] = [0, 0], outPipe: [Int32] = [0, 0]
        guard pipe(&inPipe) == 0 else { return false }
        guard pipe(&outPipe) == 0 else { close(inPipe[0]); close(inPipe[1]); return false }
        // Close-on-exec, so other workers spawned later do not inherit these ends.
        for fd in inPipe + outPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        // The lifeline: the worker watches descriptor 3 and exits when it reads end of file,
        // that is when this process is gone (even by SIGKILL), hung in a decoder or not.
        if lifeline >= 0 { posix_spawn_file_actions_adddup2(&actions, lifeline, 3) }
        // ZBar prints assertion noise on stderr; a worker's stderr is not the user's business.
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        // Own process group: a Ctrl-C at the terminal reaches the sweep, which stops cleanly,
        // not the workers in the middle of a file.
        posix_spawnattr_setpgroup(&attr, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let args = [launch.executable, "__worker", launch.settingsArgument]
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var envStrings: [String] = []
        var e = environ
        while let p = e.pointee {
            let s = String(cString: p)
            if !s.hasPrefix("TMPDIR=") && !s.hasPrefix("CODESWEEP_LIFELINE_FD=") && !s.hasPrefix("SWIFT_BACKTRACE=") { envStrings.append(s) }
            e += 1
        }
        // A worker that crashes is replaced and its file recorded as a crash; the Swift
        // runtime's backtracer would first spend a second or more (more on a loaded machine)
        // symbolicating, which a short --timeout then reports as a hang.
        envStrings.append("SWIFT_BACKTRACE=enable=no")
        if let tmpdir = launch.tmpdir { envStrings.append("TMPDIR=\(tmpdir)") }
        if lifeline >= 0 { envStrings.append("CODESWEEP_LIFELINE_FD=3") }
        var envp: [UnsafeMutablePointer<CChar>?] = envStrings.map { strdup($0) } + [nil]
        defer { for a in envp { free(a) } }

        var child: pid_t = 0
        let rc = posix_spawn(&child, launch.executable, &actions, &attr, &argv, &envp)
        close(inPipe[0])
        close(outPipe[1])
        guard rc == 0 else { close(inPipe[1]); close(outPipe[0]); return false }
        pid = child
        idleVirtual = Int.max
        idlePeakResident = 0
        toWorker = inPipe[1]
        fromWorker = outPipe[0]
        pending.removeAll()
        return true
    }

    /// Ends the worker: gracefully (close its input, wait) or at once (SIGKILL). Returns how it ended.
    @discardableResult
    private func stop(graceful: Bool) -> String {
        guard pid != 0 else { return "not running" }
        if toWorker >= 0 { close(toWorker); toWorker = -1 }
        // The worker's whole process group: a renderer it runs (pdftoppm) dies with it.
        if !graceful { kill(-pid, SIGKILL); kill(pid, SIGKILL) }
        var status: Int32 = 0
        if graceful {
            // Give it a moment to exit on end of input, then make sure.
            var exited = false
            for _ in 0..<200 {
                if waitpid(pid, &status, WNOHANG) == pid { exited = true; break }
                usleep(10_000)
            }
            if !exited { kill(-pid, SIGKILL); kill(pid, SIGKILL); waitpid(pid, &status, 0) }
        } else {
            var usage = rusage()
            if wait4(pid, &status, 0, &usage) == pid { diedPeakResident = Int(usage.ru_maxrss) * 1024 }
        }
        if fromWorker >= 0 { close(fromWorker); fromWorker = -1 }
        pid = 0
        pending.removeAll()
        let sig = status & 0x7F
        if sig != 0 && sig != 0x7F {
            let name = strsignal(sig).map { String(cString: $0) } ?? "signal"
            return "killed by signal \(sig), \(name)"
        }
        return "exited with status \((status >> 8) & 0xFF)"
    }
}
