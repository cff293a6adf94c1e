import Records
import UserInput

#if canImport(Glibc)
import Glibc
#endif

/// Reading a walked file's bytes with POSIX calls: by its exact path bytes, never blocking on a
/// FIFO, checked to be a regular file on the open descriptor, within a size limit. The scanner,
/// the annotator and the HTML report read files through it.
public enum FileBytes {
    /// What one read gives: the bytes, and the size and modification time fstat gives for the
    /// descriptor after reading; `changed` when the size or time moved while it was read.
    public struct Read: Sendable {
        public var bytes: [UInt8]
        public var size: Int
        public var mtime: Double
        public var changed: Bool
    }

    /// The one open of a file to scan or sniff: by its bytes, with O_NONBLOCK so that a file
    /// swapped for a FIFO after the walk cannot block. -1 (errno set) when it fails.
    public static func open(_ path: [UInt8]) -> Int32 { UserPath.open(bytes: path, O_RDONLY | O_NONBLOCK) }

    /// Reads a whole regular file.
    public static func read(_ path: [UInt8], limit: Int) throws(RecordError) -> [UInt8] {
        try readAndStat(path, limit: limit).bytes
    }

    /// The first `count` bytes of a file (fewer when it is shorter); nil when it cannot be read.
    public static func head(_ path: [UInt8], count: Int) -> [UInt8]? {
        let fd = open(path)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: count)
        guard let n = try? FileIO.readFully(fd, into: &head) else { return nil }
        return Array(head.prefix(n))
    }

    /// A regular file opened to be streamed (an archive libarchive reads in pieces): its
    /// descriptor, which the caller closes, and its size and modification time.
    public static func openRegular(_ path: [UInt8]) throws(RecordError) -> (fd: Int32, size: Int, mtime: Double) {
        let fd = open(path)
        guard fd >= 0 else {
            let err = errno
            throw RecordError(err == ENOENT ? .notFound : .unreadable, "cannot open: \(String(cString: strerror(err)))")
        }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw RecordError(.notRegularFile, "not a regular file; not read")
        }
        // Blocking reads from here on (O_NONBLOCK was against a FIFO swapped in; this is a file).
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return (fd, Int(st.st_size), mtime(st))
    }

    public static func readAndStat(_ path: [UInt8], limit: Int) throws(RecordError) -> Read {
        let fd = open(path)
        guard fd >= 0 else {
            let err = errno
            throw RecordError(err == ENOENT ? .notFound : .unreadable, "cannot open: \(String(cString: strerror(err)))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw RecordError(.unreadable, "cannot stat: \(String(cString: strerror(errno)))") }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw RecordError(.notRegularFile, "not a regular file; not read") }
        let size = Int(st.st_size)
        guard size <= limit else { throw RecordError(.tooLarge, "file is \(size) bytes; the limit is \(limit) bytes") }
        var buf = [UInt8](repeating: 0, count: size)
        let off: Int  // less than size when the file shrank while reading
        do { off = try FileIO.readFully(fd, into: &buf) } catch {
            throw RecordError(.unreadable, "read failed: \(error)")
        }
        if off < size { buf.removeSubrange(off...) }
        var after = stat()
        guard fstat(fd, &after) == 0 else { return Read(bytes: buf, size: buf.count, mtime: mtime(st), changed: true) }
        let changed = Int(after.st_size) != buf.count || mtime(after) != mtime(st)
        return Read(bytes: buf, size: Int(after.st_size), mtime: mtime(after), changed: changed)
    }

    static func mtime(_ st: stat) -> Double {
        Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
    }
}
