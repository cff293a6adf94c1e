#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place that reads and writes descriptors: retries on EINTR, loops over short reads
/// and writes, waits when a non-blocking output is full (EAGAIN), and reports a failure as an
/// error with errno's text instead of ending quietly with what was read so far.
package enum FileIO {
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package let code: Int32
        package init(code: Int32) { self.code = code }
        package var description: String { String(cString: strerror(code)) }
    }

    /// One read(2) into `buffer` (at most its count): the count read, 0 at end of file. On a
    /// non-blocking descriptor with nothing to read: `EAGAIN` (the caller polls).
    package static func read(_ fd: Int32, into buffer: inout [UInt8]) throws(Failure) -> Int {
        let n = buffer.withUnsafeMutableBytes { readOnce(fd, $0) }
        if n < 0 { throw Failure(code: Int32(-n)) }
        return n
    }

    /// Fills `buffer` unless the end of the file comes first: the count read.
    package static func readFully(_ fd: Int32, into buffer: inout [UInt8]) throws(Failure) -> Int {
        let n = buffer.withUnsafeMutableBytes { raw -> Int in
            var off = 0
            while off < raw.count {
                let n = readOnce(fd, UnsafeMutableRawBufferPointer(rebasing: raw[off...]))
                if n < 0 { return n }
                if n == 0 { break }
                off += n
            }
            return off
        }
        if n < 0 { throw Failure(code: Int32(-n)) }
        return n
    }

    /// Everything up to the end of the file. More than `limit` bytes is `EFBIG`.
    ///
    /// The buffer never grows past `limit`: a regular file larger than `limit` is refused from
    /// its size, one that fits is read into a buffer of its size, and a stream grows its buffer
    /// by doubling to 64 MiB, then to `limit` at once (address space only: pages are touched as
    /// they are read), so reading to the limit costs `limit` + 64 MiB of address space, not the
    /// 1.5-3 × of growing by doubling (a coordinator under `ulimit -v` fails cleanly).
    package static func readAll(_ fd: Int32, limit: Int = .max) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG {
            let size = Int(st.st_size)
            if size > limit { throw Failure(code: EFBIG) }
            out.reserveCapacity(size + 1)
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try read(fd, into: &chunk)
            if n == 0 { return out }
            guard out.count + n <= limit else { throw Failure(code: EFBIG) }
            if out.count + n > out.capacity {
                let doubled = max(out.count + n, 2 * out.capacity, 1 << 20)
                // (No limit, or a limit beyond a few GiB: plain doubling.)
                let jump = doubled > 64 << 20 && limit <= 4 << 30
                out.reserveCapacity(min(limit, jump ? limit : doubled))
            }
            out.append(contentsOf: chunk[0..<n])
        }
    }

    /// Why an input named on the command line (a rules file, a batch list, a logo) was not read.
    package struct InputRefusal: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// Reads a whole input file named on the command line, at most `limit` bytes: a regular
    /// file larger than that is refused from its size before anything is read, and a pipe
    /// (`<(...)`, `/dev/stdin`) is read only to `limit` + 1 bytes. `what` names the input in
    /// messages ("the rules file"). This is the coordinator's guard: reads done outside the
    /// worker processes have no memory limit but this one.
    package static func readInput(_ path: String, limit: Int, what: String) throws(InputRefusal) -> [UInt8] {
        let fd: Int32
        do { fd = try UserPath.open(path, O_RDONLY) } catch {
            throw InputRefusal(description: "cannot read \(what) \(ArgumentBytes.display(path)): \(String(cString: strerror(error.code)))")
        }
        defer { close(fd) }
        return try readInput(fd: fd, limit: limit, what: "\(what) \(ArgumentBytes.display(path))")
    }

    /// The same for an open descriptor (standard input: `--file -`).
    package static func readInput(fd: Int32, limit: Int, what: String) throws(InputRefusal) -> [UInt8] {
        var st = stat()
        if fstat(fd, &st) == 0 {
            if (st.st_mode & S_IFMT) == S_IFDIR { throw InputRefusal(description: "cannot read \(what): it is a folder") }
            if (st.st_mode & S_IFMT) == S_IFREG && Int(st.st_size) > limit {
                throw InputRefusal(description: "\(what) is \(st.st_size) bytes; the limit is \(limit) bytes (not read)")
            }
        }
        do { return try readAll(fd, limit: limit) } catch {
            if error.code == EFBIG { throw InputRefusal(description: "\(what) is larger than the limit of \(limit) bytes (not read)") }
            throw InputRefusal(description: "cannot read \(what): \(error)")
        }
    }

    /// Writes every byte. A write(2) that makes no progress three times is `EIO` (it would spin).
    package static func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>) throws(Failure) {
        let code =
            bytes.withContiguousStorageIfAvailable { writeLoop(fd, UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes { writeLoop(fd, $0) }
        if code != 0 { throw Failure(code: code) }
    }

    /// read(2) retried on EINTR: the count, or minus errno.
    static func readOnce(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { return -Int(errno) }
        }
    }

    /// 0, or errno.
    static func writeLoop(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var off = 0, stalls = 0
        while off < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + off, bytes.count - off)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, 1000)
                    continue
                }
                return errno
            }
            if n == 0 {
                stalls += 1
                if stalls >= 3 { return EIO }
                continue
            }
            off += n
        }
        return 0
    }
}
