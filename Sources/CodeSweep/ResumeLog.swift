import SweepCore
import FileWalker
import Reporting
#if canImport(Glibc)
import Glibc
#endif

/// What an interrupted jsonl sweep already recorded, for --resume.
public struct ResumeLog {
    struct Key: Hashable { var path: [UInt8]; var size: Int?; var mtimeMillis: Int64? }
    var done: Set<Key> = []
    public private(set) var recordCount = 0

    static func key(_ path: [UInt8], _ size: Int?, _ mtime: Double?) -> Key {
        Key(path: path, size: size, mtimeMillis: mtime.map { Int64(($0 * 1000).rounded()) })
    }

    /// Reads FILE (a missing file is an empty log) and cuts off a last line left incomplete by
    /// a kill, so appended records start on a line of their own.
    public static func load(_ path: String) throws(OutputError) -> ResumeLog {
        var log = ResumeLog()
        let fd = open(path, O_RDWR | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return log }
            throw OutputError(message: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var reader = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            reader.append(contentsOf: chunk[0..<n])
        }
        var goodEnd = 0
        var start = 0
        while let nl = reader[start...].firstIndex(of: 0x0A) {
            let line = Array(reader[start..<nl])
            start = nl + 1
            guard let v = try? JSONParser.parse(line), let r = FileRecord(json: v) else {
                throw OutputError(message: "\(path) is not a codesweep jsonl report (bad line at byte \(goodEnd))")
            }
            log.done.insert(key(r.pathBytes, r.size, r.mtime))
            log.recordCount += 1
            goodEnd = start
        }
        if goodEnd < reader.count { _ = ftruncate(fd, off_t(goodEnd)) }
        return log
    }

    /// The walked items not recorded yet.
    public func remaining(_ items: [WalkItem]) -> [WalkItem] {
        items.filter { item in
            switch item {
            case .file(let f): !done.contains(ResumeLog.key(f.pathBytes, f.size, f.mtime))
            case .failure(_, let bytes, _): !done.contains(ResumeLog.key(bytes, nil, nil))
            }
        }
    }
}
