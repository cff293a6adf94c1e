#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a report goes: stdout or a file, written with write(2) so each record reaches the
/// kernel as soon as it is written (a killed sweep leaves every finished record intact).
public final class OutputFile: @unchecked Sendable {
    public let fd: Int32
    let ownsDescriptor: Bool
    public let path: String?

    public static let standardOutput = OutputFile(fd: 1, owns: false, path: nil)
    public static let standardError = OutputFile(fd: 2, owns: false, path: nil)

    init(fd: Int32, owns: Bool, path: String?) {
        self.fd = fd; self.ownsDescriptor = owns; self.path = path
    }

    /// Opens (creating or truncating, or appending) a file for writing.
    public static func open(_ path: String, append: Bool = false) throws(OutputError) -> OutputFile {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC)
        let fd = Glibc.open(path, flags, 0o644)
        guard fd >= 0 else { throw OutputError(message: "cannot open \(path) for writing: \(String(cString: strerror(errno)))") }
        return OutputFile(fd: fd, owns: true, path: path)
    }

    /// Creates a file that must not exist yet (O_EXCL), for a temporary file to be renamed later.
    public static func createNew(_ path: String) throws(OutputError) -> OutputFile {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError(message: "cannot create \(path): \(String(cString: strerror(errno)))") }
        return OutputFile(fd: fd, owns: true, path: path)
    }

    /// Writes all bytes, retrying on short writes and EINTR.
    public func write(_ text: String) {
        var bytes = Array(text.utf8)
        if bytes.isEmpty { return }
        bytes.withUnsafeMutableBytes { raw in
            var off = 0
            while off < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + off, raw.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EPIPE && !ownsDescriptor { exit(0) } // `codesweep ... | head`: stop quietly
                    return
                }
                off += n
            }
        }
    }

    public var isTerminal: Bool { isatty(fd) == 1 }

    public func close() {
        if ownsDescriptor { fsync(fd); Glibc.close(fd) }
    }
}

public struct OutputError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
