import SweepCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public struct WalkOptions: Sendable {
    /// Globs a file must match to be scanned (any of them); empty = all files.
    public var include: [String] = []
    /// Globs that exclude files and prune folders.
    public var exclude: [String] = []
    /// Descend into hidden folders and scan hidden files (names starting with ".").
    public var hidden = false
    /// Follow symbolic links found while walking (loops are detected and skipped).
    public var followSymlinks = false
    public init() {}
}

/// A regular file to scan.
public struct FileEntry: Sendable, Equatable {
    /// As the user would write it: the argument given, then the path below it.
    public var path: String
    /// The exact bytes of `path` (file names need not be UTF-8).
    public var pathBytes: [UInt8]
    /// Named on the command line (not found by walking).
    public var explicit: Bool
    public var size: Int
    public var mtime: Double
    public var device: UInt64
    public var inode: UInt64

    public init(path: String, pathBytes: [UInt8], explicit: Bool, size: Int, mtime: Double, device: UInt64 = 0, inode: UInt64 = 0) {
        self.path = path; self.pathBytes = pathBytes; self.explicit = explicit
        self.size = size; self.mtime = mtime; self.device = device; self.inode = inode
    }
}

public enum WalkItem: Sendable, Equatable {
    case file(FileEntry)
    /// Something that could not be walked or is not a file: reported as an error record.
    case failure(path: String, pathBytes: [UInt8], RecordError)

    public var pathBytes: [UInt8] {
        switch self {
        case .file(let f): f.pathBytes
        case .failure(_, let b, _): b
        }
    }
}

/// Walks files and folders with POSIX calls, in a deterministic order: roots as given, and
/// below each folder its entries sorted by the bytes of their names, depth first. Never opens
/// anything that is not a regular file or a folder (a FIFO would block forever).
public struct Walker {
    public let options: WalkOptions
    public init(options: WalkOptions = WalkOptions()) { self.options = options }

    public func walk(_ roots: [String]) -> [WalkItem] {
        var items: [WalkItem] = []
        for root in roots {
            walk(root: ArgumentBytes.bytes(root), into: &items)
        }
        return items
    }

    /// Roots given as exact bytes (from `--files-from`, where names need not be UTF-8).
    public func walk(byteRoots roots: [[UInt8]]) -> [WalkItem] {
        var items: [WalkItem] = []
        for root in roots { walk(root: root, into: &items) }
        return items
    }

    /// Bytes of a path shown as text: invalid UTF-8 sequences become U+FFFD.
    public static func display(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    struct DirID: Hashable { var dev: UInt64; var ino: UInt64 }

    /// One open folder on the walk's stack: its sorted entry names and the next one to visit.
    struct Frame { var path: [UInt8]; var relative: [UInt8]; var names: [[UInt8]]; var next: Int }

    func walk(root: [UInt8], into items: inout [WalkItem]) {
        var st = stat()
        // Explicit roots are followed even when they are links (like ripgrep).
        guard cStat(root, &st, follow: true) == 0 else {
            let err = errno
            let kind: ErrorKind = (err == ENOENT || err == ENOTDIR) ? .notFound : .unreadable
            items.append(.failure(path: Walker.display(root), pathBytes: root, RecordError(kind, "cannot access: \(describe(err))")))
            return
        }
        let mode = st.st_mode & S_IFMT
        if mode == S_IFREG {
            items.append(.file(entry(root, st, explicit: true)))
            return
        }
        guard mode == S_IFDIR else {
            items.append(.failure(path: Walker.display(root), pathBytes: root,
                                  RecordError(.notRegularFile, "not a regular file (\(typeName(mode))); not opened")))
            return
        }
        // Every folder is walked once: symlink loops and links back into the tree end here.
        var visited: Set<DirID> = [DirID(dev: UInt64(st.st_dev), ino: UInt64(st.st_ino))]
        var stack: [Frame] = []
        guard let rootNames = listDirectory(root) else {
            items.append(.failure(path: Walker.display(root), pathBytes: root,
                                  RecordError(.unreadable, "cannot read folder: \(describe(errno))")))
            return
        }
        stack.append(Frame(path: root, relative: [], names: rootNames, next: 0))
        // An explicit stack, not recursion: very deep trees cannot overflow the call stack.
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].next < stack[top].names.count else { stack.removeLast(); continue }
            let name = stack[top].names[stack[top].next]
            stack[top].next += 1
            let dir = stack[top].path, rel = stack[top].relative
            if !options.hidden && name.first == UInt8(ascii: ".") { continue }
            let path = join(dir, name)
            let relPath = rel.isEmpty ? name : rel + [UInt8(ascii: "/")] + name
            if excluded(name: name, relative: relPath) { continue }
            var info = stat()
            guard cStat(path, &info, follow: false) == 0 else {
                items.append(.failure(path: Walker.display(path), pathBytes: path,
                                      RecordError(.unreadable, "cannot access: \(describe(errno))")))
                continue
            }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                guard options.followSymlinks else { continue }
                guard cStat(path, &info, follow: true) == 0 else { continue } // dangling link: skip quietly
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                guard visited.insert(DirID(dev: UInt64(info.st_dev), ino: UInt64(info.st_ino))).inserted else { continue }
                guard let names = listDirectory(path) else {
                    items.append(.failure(path: Walker.display(path), pathBytes: path,
                                          RecordError(.unreadable, "cannot read folder: \(describe(errno))")))
                    continue
                }
                stack.append(Frame(path: path, relative: relPath, names: names, next: 0))
            case S_IFREG:
                if included(name: name, relative: relPath) { items.append(.file(entry(path, info, explicit: false))) }
            default:
                continue // FIFOs, sockets, devices found by walking are skipped, never opened.
            }
        }
    }

    func entry(_ path: [UInt8], _ st: stat, explicit: Bool) -> FileEntry {
        FileEntry(path: Walker.display(path), pathBytes: path, explicit: explicit, size: Int(st.st_size),
                  mtime: Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9,
                  device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    func join(_ dir: [UInt8], _ name: [UInt8]) -> [UInt8] {
        dir.last == UInt8(ascii: "/") ? dir + name : dir + [UInt8(ascii: "/")] + name
    }

    func excluded(name: [UInt8], relative: [UInt8]) -> Bool {
        options.exclude.contains { Glob.matches($0, name: name, relative: relative) }
    }

    func included(name: [UInt8], relative: [UInt8]) -> Bool {
        options.include.isEmpty || options.include.contains { Glob.matches($0, name: name, relative: relative) }
    }

    /// Entry names of a folder, sorted by bytes, without "." and "..".
    func listDirectory(_ dir: [UInt8]) -> [[UInt8]]? {
        guard let d = (dir + [0]).withUnsafeBufferPointer({ $0.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) } }) else {
            return nil
        }
        defer { closedir(d) }
        var names: [[UInt8]] = []
        while let e = readdir(d) {
            // Read in place: a dirent may be shorter than `struct dirent` (d_reclen), so copying
            // the whole 256-byte d_name can read past the end of readdir's buffer.
            let at = UnsafeRawPointer(e) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
            let name = Array(UnsafeRawBufferPointer(start: at, count: strlen(at.assumingMemoryBound(to: CChar.self))))
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    func cStat(_ path: [UInt8], _ st: inout stat, follow: Bool) -> Int32 {
        (path + [0]).withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: CChar.self) { follow ? stat($0.baseAddress!, &st) : lstat($0.baseAddress!, &st) }
        }
    }

    func typeName(_ mode: mode_t) -> String {
        switch mode {
        case S_IFIFO: "FIFO"
        case S_IFCHR: "character device"
        case S_IFBLK: "block device"
        case S_IFSOCK: "socket"
        case S_IFLNK: "symbolic link"
        default: "special file"
        }
    }
}

func describe(_ err: Int32) -> String {
    String(cString: strerror(err))
}

/// Shell-style globs (fnmatch): a pattern with a "/" matches the path below the argument,
/// one without matches the file or folder name alone. Patterns are byte strings, like names
/// (an argument that is not UTF-8 arrives escaped: see `ArgumentBytes`).
public enum Glob {
    public static func matches(_ pattern: String, name: [UInt8], relative: [UInt8]) -> Bool {
        let patternBytes = ArgumentBytes.bytes(pattern)
        let subject = patternBytes.contains(UInt8(ascii: "/")) ? relative : name
        return (patternBytes + [0]).withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { pc in
                (subject + [0]).withUnsafeBufferPointer { s in
                    s.withMemoryRebound(to: CChar.self) { fnmatch(pc.baseAddress!, $0.baseAddress!, 0) == 0 }
                }
            }
        }
    }
}
