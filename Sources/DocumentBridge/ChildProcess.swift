import Records

#if canImport(Glibc)
import Glibc
#endif

/// A renderer run as a separate program (Poppler's `pdftoppm` and `pdfinfo`, librsvg's
/// `rsvg-convert`): the document's bytes on its standard input (an unlinked temporary file,
/// so a program that seeks can), its standard output read as it comes, its standard error kept (the
/// first 16 KiB) for the reason of a failure. Killed with SIGKILL when `deadline` passes or
/// when dropped unfinished, so no renderer outlives its file. It inherits the worker's address
/// space limit (RLIMIT_AS), its process group (the coordinator's timeout kills the group) and
/// nothing else: the environment is empty but for `PATH`, and every other descriptor is
/// close-on-exec.
final class ChildProcess {
    private(set) var pid: pid_t = 0
    private var out: Int32 = -1
    private var err: Int32 = -1
    private var buffer: [UInt8] = []
    private var start = 0
    private(set) var stderrText: [UInt8] = []
    private var exitStatus: Int32? = nil
    let deadline: Double
    let program: String

    /// Directories a renderer is looked for in (never the current directory or a user's PATH).
    static let searchPath = ["/usr/bin", "/bin", "/usr/local/bin"]

    static func locate(_ program: String) -> String? {
        searchPath.map { $0 + "/" + program }.first { access($0, X_OK) == 0 }
    }

    /// Starts `program` with `arguments`, `input` on its standard input.
    init(_ program: String, _ arguments: [String], input: DocumentInput, deadline: Double) throws(RecordError) {
        self.program = program
        self.deadline = deadline
        guard let path = Self.locate(program) else {
            throw RecordError(.internalError, "\(program) is not installed (\(Self.package(of: program))): documents cannot be rendered")
        }
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0 else { throw RecordError(.internalError, "pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&errPipe) == 0 else {
            close(outPipe[0]); close(outPipe[1])
            throw RecordError(.internalError, "pipe: \(String(cString: strerror(errno)))")
        }
        // Close-on-exec (under the lock: no other renderer spawned meanwhile inherits them).
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.fd, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        let args = [path] + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var envp: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), strdup("LC_ALL=C"), nil]
        defer { for a in envp { free(a) } }
        let rc = posix_spawn(&pid, path, &actions, nil, &argv, &envp)
        close(outPipe[1]); close(errPipe[1])
        guard rc == 0 else {
            close(outPipe[0]); close(errPipe[0])
            pid = 0
            throw RecordError(.internalError, "cannot start \(program): \(String(cString: strerror(rc)))")
        }
        out = outPipe[0]
        err = errPipe[0]
    }

    deinit { kill() }

    /// Serialises making descriptors and spawning: between pipe() and FD_CLOEXEC another
    /// spawn could inherit them (with --isolation none, files are scanned side by side).
    static let spawnLock = SpawnLock()

    static func package(of program: String) -> String {
        program == "rsvg-convert" ? "Debian package librsvg2-bin" : program == "qpdf" ? "Debian package qpdf" : "Debian package poppler-utils"
    }

    /// Ends the program at once (SIGKILL) and reaps it.
    func kill() {
        guard pid != 0 else { return }
        if exitStatus == nil {
            Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            exitStatus = status
        }
        pid = 0
        for fd in [out, err] where fd >= 0 { close(fd) }
        out = -1; err = -1
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    enum ReadFailure: Error { case endOfOutput, timedOut }

    /// Waits for output (keeping standard error) until at least `count` bytes are buffered.
    private func fill(_ count: Int) throws(ReadFailure) {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while buffer.count - start < count {
            guard out >= 0 else { throw .endOfOutput }
            let left = deadline - Self.now()
            guard left > 0 else { throw .timedOut }
            var fds = [pollfd(fd: out, events: Int16(POLLIN), revents: 0), pollfd(fd: err, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, err >= 0 ? 2 : 1, Int32(min(left, 1) * 1000) + 1)
            if n < 0 && errno != EINTR { throw .endOfOutput }
            if n <= 0 { continue }
            if err >= 0 && fds[1].revents != 0 {
                let got = chunk.withUnsafeMutableBytes { Glibc.read(err, $0.baseAddress, $0.count) }
                if got > 0 {
                    if stderrText.count < 16_384 { stderrText += chunk[0..<min(got, 16_384 - stderrText.count)] }
                } else if got == 0 || errno != EINTR {
                    close(err); err = -1
                }
            }
            if fds[0].revents != 0 {
                if start > 0 && start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
                let got = chunk.withUnsafeMutableBytes { Glibc.read(out, $0.baseAddress, $0.count) }
                if got > 0 {
                    buffer += chunk[0..<got]
                } else if got == 0 {
                    close(out); out = -1
                } else if errno != EINTR {
                    close(out); out = -1
                }
            }
        }
    }

    /// The next `count` bytes of standard output.
    func read(_ count: Int) throws(ReadFailure) -> ArraySlice<UInt8> {
        try fill(count)
        defer {
            start += count
            if start > 1 << 20 { buffer.removeFirst(start); start = 0 }
        }
        return buffer[start..<(start + count)]
    }

    /// Whether standard output has ended (with nothing left unread).
    func atEnd() throws(ReadFailure) -> Bool {
        do { try fill(1) } catch .endOfOutput { return true }
        return false
    }

    /// The rest of standard output (at most `limit` bytes; more is a failure) and the exit status.
    func readAll(limit: Int) throws(ReadFailure) -> [UInt8] {
        while out >= 0 && buffer.count - start <= limit {
            do { try fill(buffer.count - start + 1) } catch .endOfOutput { break }
        }
        return Array(buffer[start...].prefix(limit))
    }

    /// Waits for the program to exit (standard error read to its end) and returns its status:
    /// the exit code, or 128 + the signal that ended it.
    func wait() throws(ReadFailure) -> Int32 {
        while err >= 0 {
            // Standard output may still hold data: keep reading it, so the program can exit.
            do { try fill(buffer.count - start + 1) } catch .endOfOutput { break }
        }
        while err >= 0 {
            guard deadline > Self.now() else { throw .timedOut }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let got = chunk.withUnsafeMutableBytes { Glibc.read(err, $0.baseAddress, $0.count) }
            if got > 0 {
                if stderrText.count < 16_384 { stderrText += chunk[0..<min(got, 16_384 - stderrText.count)] }
            } else if got == 0 || errno != EINTR {
                close(err); err = -1
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        exitStatus = status
        pid = 0
        if out >= 0 { close(out); out = -1 }
        let sig = status & 0x7F
        return sig != 0 ? 128 + sig : (status >> 8) & 0xFF
    }

    /// Standard error's lines, each once, in order (Poppler repeats its syntax errors).
    var reason: String {
        var seen: [String] = []
        for line in String(decoding: stderrText, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let l = String(line).trimmingWhitespace()
            if !l.isEmpty && !seen.contains(l) { seen.append(l) }
        }
        return seen.prefix(4).joined(separator: "; ")
    }
}

/// A lock over a pthread mutex (no Foundation here).
final class SpawnLock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    func lock() { pthread_mutex_lock(&mutex) }
    func unlock() { pthread_mutex_unlock(&mutex) }
}

/// A document's bytes in an unnamed temporary file (made in TMPDIR and unlinked at once),
/// given to each renderer as its standard input, which it opens as `/dev/stdin`.
final class DocumentInput {
    let fd: Int32

    init(_ bytes: [UInt8]) throws(RecordError) {
        let dir = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((dir + "/codesweep-document-XXXXXX").utf8CString)
        ChildProcess.spawnLock.lock()
        let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if made >= 0 { _ = fcntl(made, F_SETFD, FD_CLOEXEC) }
        ChildProcess.spawnLock.unlock()
        guard made >= 0 else {
            throw RecordError(.internalError, "cannot make a temporary file in \(dir): \(String(cString: strerror(errno)))")
        }
        fd = made
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let e = errno
                close(fd)
                throw RecordError(.tooLarge, "cannot hold the document in memory: \(String(cString: strerror(e)))")
            }
            done += n
        }
    }

    deinit { close(fd) }
}
