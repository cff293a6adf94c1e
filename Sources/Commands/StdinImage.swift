import Records
import Reporting
import UserInput

#if canImport(Glibc)
import Glibc
#endif

/// `codesweep scan -`: the image on standard input, saved to a private temporary file (mode
/// 0600, in $TMPDIR or /tmp) so the sweep, its workers and its budgets treat it like any file;
/// its record says `-`. Removed when the scan ends. Its name carries the owner's pid
/// (`codesweep-stdin-PID-XXXXXX`): a run killed mid-stream (SIGKILL, a crash) leaves it behind,
/// and the next `scan -` removes every such file of this user whose process is gone.
struct StdinImage {
    let path: [UInt8]

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Reads all of stdin (at most `limit` bytes) into a new temporary file.
    static func save(limit: Int) throws -> StdinImage {
        if isatty(0) == 1 { throw Failure(description: "'-' reads an input from standard input, which is a terminal; pipe or redirect a file into it") }
        let dir = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        removeStale(in: dir)
        var template = Array((dir + "/codesweep-stdin-\(getpid())-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure(description: "cannot create a temporary file for standard input in \(dir): \(String(cString: strerror(errno)))") }
        let path = template.dropLast().map { UInt8(bitPattern: $0) }
        let image = StdinImage(path: path)
        defer { close(fd) }
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n: Int
            do { n = try FileIO.read(0, into: &buffer) } catch {
                image.remove()
                throw Failure(description: "cannot read standard input: \(error)")
            }
            if n == 0 { break }
            total += n
            if total > limit {
                image.remove()
                throw Failure(description: "standard input holds more than \(limit) bytes, the most one file may have")
            }
            do { try FileIO.writeAll(fd, buffer[0..<n]) } catch {
                image.remove()
                throw Failure(description: "cannot save standard input: \(error)")
            }
        }
        return image
    }

    /// Removes `codesweep-stdin-PID-*` regular files in `dir` owned by this user whose process
    /// no longer exists (a live pid, even reused by another program, keeps its file).
    static func removeStale(in dir: String) {
        guard let d = opendir(dir) else { return }
        var stale: [String] = []
        while let e = readdir(d) {
            let at = UnsafeRawPointer(e) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
            let name = String(cString: at.assumingMemoryBound(to: CChar.self))
            let parts = name.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 4, parts[0] == "codesweep", parts[1] == "stdin", let pid = Int32(parts[2]), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { stale.append(dir + "/" + name) }
        }
        closedir(d)
        var st = stat()
        for path in stale where lstat(path, &st) == 0 && st.st_uid == getuid() && (st.st_mode & S_IFMT) == S_IFREG { unlink(path) }
    }

    var argument: String { ArgumentBytes.escape(path) }

    func remove() {
        _ = UserPath.withCPath(path) { unlink($0) }
    }

    /// The record as the user named the file: `-`, without `mtime` (the temporary file's time is
    /// only when it was read, not a time of the image; the schema makes `mtime` optional).
    func relabel(_ record: FileRecord) -> FileRecord {
        guard record.pathBytes == path else { return record }
        var r = record
        r.path = "-"
        r.pathBytes = Array("-".utf8)
        r.mtime = nil
        return r
    }
}
