#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way a path the user gave (an argument, an option's value, a rules file's entry) is
/// opened, stat'ed or made: by the exact bytes `ArgumentBytes` carries, never by the escaped
/// text the parser holds (whose private-use characters would be spelt as other bytes, so a
/// name that is not UTF-8 could never be opened), and named in messages as `display` shows it.
/// `-` is standard input where a command reads a report or a list.
package enum UserPath {
    /// Why a path could not be opened or read: `description` names it ("cannot open NAME: ...").
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let code: Int32
        package let description: String
    }

    /// How messages name PATH: its bytes as UTF-8 (U+FFFD where they are not); `-` is standard input.
    package static func shown(_ path: String) -> String { path == "-" ? "standard input" : ArgumentBytes.display(path) }

    /// open(2) of the path's bytes with `flags` | O_CLOEXEC: the descriptor, or a failure naming
    /// the path with errno's words ("cannot open NAME: No such file or directory").
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Failure) -> Int32 {
        let fd = open(bytes: ArgumentBytes.bytes(path), flags, mode: mode)
        guard fd >= 0 else {
            let code = errno
            throw Failure(code: code, description: "cannot open \(shown(path)): \(String(cString: strerror(code)))")
        }
        return fd
    }

    /// open(2) of exact bytes (a walked path, a record's path) with `flags` | O_CLOEXEC: the
    /// descriptor, or -1 with errno set.
    package static func open(bytes path: [UInt8], _ flags: Int32, mode: mode_t = 0) -> Int32 {
        withCPath(path) { Glibc.open($0, flags | O_CLOEXEC, mode) }
    }

    /// A report or list to read: `-` is standard input (descriptor 0: `closeInput` leaves it open).
    package static func openInput(_ path: String) throws(Failure) -> Int32 {
        path == "-" ? 0 : try open(path, O_RDONLY)
    }

    package static func closeInput(_ fd: Int32) { if fd != 0 { close(fd) } }

    /// The whole of a report or list (`-`: standard input), at most `limit` bytes, through
    /// `FileIO.readAll` (a regular file sized from fstat, a stream grown to the limit). Past the
    /// limit: "cannot read NAME: it is larger than the limit of `limitText`".
    package static func readWhole(_ path: String, limit: Int, limitText: String) throws(Failure) -> [UInt8] {
        let fd = try openInput(path)
        defer { closeInput(fd) }
        do { return try FileIO.readAll(fd, limit: limit) } catch {
            if error.code == EFBIG { throw Failure(code: EFBIG, description: "cannot read \(shown(path)): it is larger than the limit of \(limitText)") }
            throw Failure(code: error.code, description: "cannot read \(shown(path)): \(error)")
        }
    }

    /// stat(2) (or lstat(2) with `follow: false`) of the path's bytes; nil when it fails.
    package static func status(_ path: String, follow: Bool = true) -> stat? { status(bytes: ArgumentBytes.bytes(path), follow: follow) }

    package static func status(bytes path: [UInt8], follow: Bool = true) -> stat? {
        var st = stat()
        let rc = withCPath(path) { follow ? stat($0, &st) : lstat($0, &st) }
        return rc == 0 ? st : nil
    }

    /// Whether something (a link too, even a broken one) is there.
    package static func exists(_ path: String) -> Bool { status(path) != nil || status(path, follow: false) != nil }

    /// Whether the path is a folder (through links).
    package static func isFolder(_ path: String) -> Bool { status(path).map { ($0.st_mode & S_IFMT) == S_IFDIR } ?? false }

    /// Whether the two paths are one file (same device and inode; both must exist).
    package static func sameFile(_ a: String, _ b: String) -> Bool {
        guard let x = status(a), let y = status(b) else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// mkdir -p of the path's bytes (mode 0755): a folder already there is fine.
    package static func makeFolders(_ path: String) throws(Failure) {
        let bytes = ArgumentBytes.bytes(path)
        var end = bytes.startIndex
        while end < bytes.endIndex {
            end = bytes[(end + 1)...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
            let prefix = Array(bytes[..<end])
            if prefix.isEmpty || status(bytes: prefix).map({ ($0.st_mode & S_IFMT) == S_IFDIR }) == true { continue }
            if withCPath(prefix, { mkdir($0, 0o755) }) != 0 {
                let code = errno  // EEXIST here: a file, not a folder, is in the way
                if code == EEXIST && status(bytes: prefix).map({ ($0.st_mode & S_IFMT) == S_IFDIR }) == true { continue }
                throw Failure(code: code, description: "cannot create the folder \(shown(path)): \(String(cString: strerror(code)))")
            }
        }
    }

    /// realpath(3) of exact bytes, as exact bytes (nil, errno set, when it fails).
    package static func realPath(bytes path: [UInt8]) -> [UInt8]? {
        guard let r = withCPath(path, { realpath($0, nil) }) else { return nil }
        defer { free(r) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(r).assumingMemoryBound(to: UInt8.self), count: strlen(r)))
    }

    /// The current folder as an argument carries it (`ArgumentBytes.escape` of getcwd's bytes),
    /// so that paths built on it open by their bytes ("." when getcwd fails).
    package static func currentFolder() -> String {
        guard let p = getcwd(nil, 0) else { return "." }
        defer { free(p) }
        return ArgumentBytes.escape(Array(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p))))
    }

    /// Runs `body` with exact bytes as a NUL-terminated C path.
    package static func withCPath<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }
}
