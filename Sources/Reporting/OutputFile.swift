import UserInput

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a report goes: stdout or a file, written with write(2) so each record reaches the
/// kernel as soon as it is written (a killed sweep leaves every finished record intact).
///
/// Nothing fails silently: the first write error (ENOSPC, EIO, EDQUOT, EBADF, a write that
/// makes no progress) is kept in `failure`, with a message naming the output, and every later
/// write is dropped. On a regular file, the bytes of the write that failed are cut off again
/// (ftruncate back to where that write started), so the file ends with the last complete
/// write: a jsonl report never holds half a line that `--resume` could take for a record.
/// `close()` fsyncs a regular file and reports a failed fsync or close the same way.
package final class OutputFile: @unchecked Sendable {
    package let fd: Int32
    let ownsDescriptor: Bool
    package let path: String?
    /// Opened with O_APPEND: a write starts at the end of the file.
    let appending: Bool
    /// A regular file (fsync and truncation apply; for pipes and terminals they do not).
    let isRegularFile: Bool
    /// The first error, with a message naming the output; nil while all is well.
    package private(set) var failure: OutputError?
    private var closed = false
    /// How messages name this output when it stands in for another (a temporary file).
    package var label: String?

    package static let standardOutput = OutputFile(fd: 1, owns: false, path: nil)
    package static let standardError = OutputFile(fd: 2, owns: false, path: nil)

    init(fd: Int32, owns: Bool, path: String?, appending: Bool = false) {
        self.fd = fd; self.ownsDescriptor = owns; self.path = path
        var st = stat()
        isRegularFile = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        self.appending = appending || (fcntl(fd, F_GETFL) & O_APPEND) != 0
    }

    /// The output as a message names it: the path given, or "standard output".
    package var name: String {
        if let label { return label }
        if let path { return "'" + ArgumentBytes.display(path) + "'" }
        return fd == 1 ? "standard output" : fd == 2 ? "standard error" : "descriptor \(fd)"
    }

    /// Opens (creating or truncating, or appending) a file for writing: a streamed report
    /// (`scan -o` jsonl, csv, text), whose records reach the disk as they are written. A symbolic
    /// link at the path is refused (O_NOFOLLOW), not followed. Whole files go through `SafeFile`.
    package static func open(_ path: String, append: Bool = false) throws(OutputError) -> OutputFile {
        let flags = O_WRONLY | O_CREAT | O_NOFOLLOW | (append ? O_APPEND : O_TRUNC)
        let fd = UserPath.open(bytes: ArgumentBytes.bytes(path), flags, mode: 0o644)
        guard fd >= 0 else {
            if errno == ELOOP {
                throw OutputError(
                    message:
                        "cannot open \(ArgumentBytes.display(path)) for writing: it is a symbolic link (links are not followed: remove it, or write elsewhere)")
            }
            throw OutputError(message: "cannot open \(ArgumentBytes.display(path)) for writing: \(String(cString: strerror(errno)))")
        }
        return OutputFile(fd: fd, owns: true, path: path, appending: append)
    }

    /// Wraps a descriptor already open for writing (taken over: closed by `close()`).
    package static func adopt(fd: Int32, path: String, appending: Bool) -> OutputFile {
        OutputFile(fd: fd, owns: true, path: path, appending: appending)
    }

    /// Creates a file that must not exist yet (O_EXCL), for a temporary file to be renamed later.
    package static func createNew(_ path: String) throws(OutputError) -> OutputFile {
        let fd = UserPath.open(bytes: ArgumentBytes.bytes(path), O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
        guard fd >= 0 else { throw OutputError(message: "cannot create \(ArgumentBytes.display(path)): \(String(cString: strerror(errno)))") }
        return OutputFile(fd: fd, owns: true, path: path)
    }

    /// Writes all bytes, retrying on short writes and EINTR. After a failure (see `failure`)
    /// nothing more is written.
    package func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }

    /// The same for bytes that need not be UTF-8 (`--raw` payloads).
    package func write(bytes: [UInt8]) {
        guard failure == nil, !closed else { return }
        if bytes.isEmpty { return }
        // Where this write starts, to cut a partly written one off again.
        let start: off_t = isRegularFile ? lseek(fd, 0, appending ? SEEK_END : SEEK_CUR) : -1
        var code: Int32 = 0
        do { try FileIO.writeAll(fd, bytes) } catch {
            if error.code == EPIPE && !ownsDescriptor { exit(0) }  // `codesweep ... | head`: stop quietly
            code = error.code
        }
        guard code != 0 else { return }
        var message = "cannot write to \(name): \(String(cString: strerror(code)))"
        if isRegularFile && start >= 0 && label == nil {
            if ftruncate(fd, start) == 0 {
                if !appending { _ = lseek(fd, start, SEEK_SET) }
                message += " (the output ends with the last complete record)"
            } else {
                message += " (the last record may be incomplete)"
            }
        }
        failure = OutputError(message: message)
    }

    package var isTerminal: Bool { isatty(fd) == 1 }

    /// Makes what was written durable: fsync for a regular file (pipes and terminals have
    /// nothing to sync). A failure is kept in `failure` and returned.
    @discardableResult
    package func sync() -> OutputError? {
        guard failure == nil, !closed, isRegularFile else { return failure }
        while fsync(fd) != 0 {
            if errno == EINTR { continue }
            failure = OutputError(message: "cannot write to \(name): fsync failed: \(String(cString: strerror(errno)))")
            break
        }
        return failure
    }

    /// Syncs, then closes a file this object opened. Returns the first failure of the output's
    /// life (a write, the fsync or the close), if any.
    @discardableResult
    package func close() -> OutputError? {
        guard !closed else { return failure }
        sync()
        closed = true
        if ownsDescriptor && Glibc.close(fd) != 0 && errno != EINTR && failure == nil {
            failure = OutputError(message: "cannot write to \(name): close failed: \(String(cString: strerror(errno)))")
        }
        return failure
    }
}

package struct OutputError: Error, CustomStringConvertible {
    package let message: String
    package init(message: String) { self.message = message }
    package var description: String { message }
}
