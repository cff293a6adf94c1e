import UserInput

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way a command writes a whole file (generate's pictures and manifest, report's HTML,
/// check's JUnit and JSON, scan's JSON document): never through a link, never half.
///
/// - The target must not be a symbolic link (even a dangling one) and, if it exists, must be a
///   regular file (or a character device such as /dev/null, written to as it is): a link planted in an output folder (`out/code1.png -> ../victim`) is refused,
///   not followed, and nothing is created where it points.
/// - The bytes go to a new temporary file beside the target (`O_CREAT | O_EXCL | O_NOFOLLOW`, so
///   the same file system), are fsynced, and only then is the file renamed over the target
///   (and the folder fsynced). On any failure (a full disk, an I/O error) the temporary file is
///   removed and the previous file at the target is left exactly as it was.
package enum SafeFile {
    /// Refuses a target that is a symbolic link or exists and is not a regular file (or a
    /// character device); returns whether it is a character device (written to as it is).
    @discardableResult
    package static func checkTarget(_ path: String) throws(OutputError) -> Bool {
        var st = stat()
        guard ArgumentBytes.withCPath(path, { lstat($0, &st) }) == 0 else { return false }  // not there yet: fine
        let shown = ArgumentBytes.display(path)
        if (st.st_mode & S_IFMT) == S_IFLNK {
            throw OutputError(message: "'\(shown)' is a symbolic link; not written (links are not followed: remove it, or write elsewhere)")
        }
        if (st.st_mode & S_IFMT) != S_IFREG && (st.st_mode & S_IFMT) != S_IFCHR {
            throw OutputError(message: "'\(shown)' exists and is not a regular file; not written")
        }
        return (st.st_mode & S_IFMT) == S_IFCHR
    }

    /// A file being written: `out` is the temporary file; `commit()` puts it in place.
    package final class Pending {
        package let target: String
        package let out: OutputFile
        /// Written straight to the target (a character device such as /dev/null: nothing to rename).
        let direct: Bool
        var done = false
        init(target: String, out: OutputFile, direct: Bool = false) { self.target = target; self.out = out; self.direct = direct }

        /// fsync, close, check the target again, rename over it, fsync the folder. On failure the
        /// temporary file is removed and the target is untouched.
        package func commit() throws(OutputError) {
            guard !done else { return }
            done = true
            if direct {
                if let problem = out.close() { throw problem }
                return
            }
            let temp = out.path!
            func fail(_ e: OutputError) -> OutputError { _ = ArgumentBytes.withCPath(temp) { unlink($0) }; return e }
            if let problem = out.close() { throw fail(problem) }
            do { try SafeFile.checkTarget(target) } catch { throw fail(error) }
            if ArgumentBytes.withCPath(temp, { t in ArgumentBytes.withCPath(target) { rename(t, $0) } }) != 0 {
                throw fail(
                    OutputError(
                        message:
                            "cannot write to '\(ArgumentBytes.display(target))': cannot rename \(ArgumentBytes.display(temp)) over it: \(String(cString: strerror(errno)))"
                    ))
            }
            let fd = UserPath.open(bytes: ArgumentBytes.bytes(SafeFile.folder(of: target)), O_RDONLY | O_DIRECTORY)
            if fd >= 0 {
                let failed = fsync(fd) != 0 && errno != EINVAL
                let code = errno
                close(fd)
                if failed {
                    throw OutputError(
                        message: "cannot write to '\(ArgumentBytes.display(target))': fsync of its folder failed: \(String(cString: strerror(code)))")
                }
            }
        }

        /// Removes the temporary file; the target stays as it was.
        package func discard() {
            guard !done else { return }
            done = true
            out.close()
            if !direct { _ = ArgumentBytes.withCPath(out.path!) { unlink($0) } }
        }
    }

    /// Starts writing `path`: checks the target, creates the temporary file beside it.
    package static func begin(_ path: String) throws(OutputError) -> Pending {
        if try checkTarget(path) {  // `--junit /dev/null`: written to, as named (O_NOFOLLOW)
            return Pending(target: path, out: try OutputFile.open(path), direct: true)
        }
        var attempt = 0
        while true {
            let temp = temporaryPath(for: path, attempt: attempt)
            let fd = UserPath.open(bytes: ArgumentBytes.bytes(temp), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o644)
            if fd >= 0 {
                let out = OutputFile.adopt(fd: fd, path: temp, appending: false)
                out.label =
                    "'\(ArgumentBytes.display(path))' (through its temporary file '\(ArgumentBytes.display(temp))', removed; the target was left as it was)"
                return Pending(target: path, out: out)
            }
            let code = errno
            attempt += 1
            if code != EEXIST || attempt >= 20 {
                throw OutputError(
                    message: "cannot write to '\(ArgumentBytes.display(path))': cannot create a temporary file beside it: \(String(cString: strerror(code)))")
            }
        }
    }

    /// Writes the whole file (see the type's description).
    package static func write(_ bytes: [UInt8], to path: String) throws(OutputError) {
        let p = try begin(path)
        p.out.write(bytes: bytes)
        if let failure = p.out.failure { p.discard(); throw failure }
        try p.commit()
    }

    package static func write(_ text: String, to path: String) throws(OutputError) {
        try write(Array(text.utf8), to: path)
    }

    /// ".NAME.codesweep-PID.tmp" beside the target, so the rename stays in one file system.
    package static func temporaryPath(for target: String, attempt: Int = 0) -> String {
        let slash = target.lastIndex(of: "/")
        let dir = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        return "\(dir).\(name).codesweep-\(getpid())\(attempt == 0 ? "" : "-\(attempt)").tmp"
    }

    static func folder(of target: String) -> String {
        guard let slash = target.lastIndex(of: "/") else { return "." }
        return slash == target.startIndex ? "/" : String(target[..<slash])
    }
}
