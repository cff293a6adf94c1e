import Records
import UserInput

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
    /// As `include` and `exclude`, matched without regard to ASCII case (`--iinclude`, `--iexclude`).
    public var includeIgnoringCase: [String] = []
    public var excludeIgnoringCase: [String] = []
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
public struct Walker: Sendable {
    public let options: WalkOptions
    let includes: [WalkPattern]
    let excludes: [WalkPattern]
    public init(options: WalkOptions = WalkOptions()) {
        self.options = options
        includes = options.include.map { WalkPattern($0) } + options.includeIgnoringCase.map { WalkPattern($0, caseInsensitive: true) }
        excludes = options.exclude.map { WalkPattern($0) } + options.excludeIgnoringCase.map { WalkPattern($0, caseInsensitive: true) }
    }

    public func walk(_ roots: [String]) -> [WalkItem] { Array(items(roots.map(ArgumentBytes.bytes))) }

    /// Roots given as exact bytes (from `--files-from`, where names need not be UTF-8).
    public func walk(byteRoots roots: [[UInt8]]) -> [WalkItem] { Array(items(roots)) }

    /// The walk as a stream: each item is found when it is asked for, so memory holds the open
    /// folders' sorted names, not the whole tree (ripgrep's walker streams the same way).
    public func items(_ roots: [[UInt8]]) -> Walk { Walk(walker: self, roots: roots) }

    /// Bytes of a path shown as text: invalid UTF-8 sequences become U+FFFD.
    public static func display(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The record's error kind for a path that could not be stat'ed or listed: gone (deleted or
    /// renamed since it was named or listed) is `not_found`, anything else `unreadable`.
    static func kind(_ err: Int32) -> ErrorKind { err == ENOENT || err == ENOTDIR ? .notFound : .unreadable }

    struct DirID: Hashable, Sendable { var dev: UInt64; var ino: UInt64 }

    /// One open folder on the walk's stack: its sorted entry names and the next one to visit.
    struct Frame: Sendable { var path: [UInt8]; var relative: [UInt8]; var names: [[UInt8]]; var next: Int }

    /// The items of `roots`, in walk order, one at a time.
    public struct Walk: Sequence, IteratorProtocol, Sendable {
        let walker: Walker
        let roots: [[UInt8]]
        var nextRoot = 0
        // An explicit stack, not recursion: very deep trees cannot overflow the call stack.
        var stack: [Frame] = []
        // Every folder of a root is walked once: symlink loops and links back into the tree end here.
        var visited: Set<DirID> = []

        public mutating func next() -> WalkItem? {
            while true {
                if stack.isEmpty {
                    guard nextRoot < roots.count else { return nil }
                    nextRoot += 1
                    if let item = start(roots[nextRoot - 1]) { return item }
                    continue
                }
                if let item = step() { return item }
            }
        }

        /// Opens a root: a file or failure is its item; a folder goes on the stack.
        mutating func start(_ root: [UInt8]) -> WalkItem? {
            var st = stat()
            // Explicit roots are followed even when they are links (like ripgrep).
            guard walker.cStat(root, &st, follow: true) == 0 else {
                let err = errno
                return .failure(path: Walker.display(root), pathBytes: root, RecordError(Walker.kind(err), "cannot access: \(describe(err))"))
            }
            let mode = st.st_mode & S_IFMT
            if mode == S_IFREG { return .file(walker.entry(root, st, explicit: true)) }
            guard mode == S_IFDIR else {
                return .failure(
                    path: Walker.display(root), pathBytes: root,
                    RecordError(.notRegularFile, "not a regular file (\(walker.typeName(mode))); not opened"))
            }
            visited = [DirID(dev: UInt64(st.st_dev), ino: UInt64(st.st_ino))]
            guard let rootNames = walker.listDirectory(root) else {
                return .failure(
                    path: Walker.display(root), pathBytes: root,
                    RecordError(.unreadable, "cannot read folder: \(describe(errno))"))
            }
            stack.append(Frame(path: root, relative: [], names: rootNames, next: 0))
            return nil
        }

        /// Visits the next entry of the innermost open folder; its item, if it makes one.
        mutating func step() -> WalkItem? {
            let top = stack.count - 1
            guard stack[top].next < stack[top].names.count else { stack.removeLast(); return nil }
            let name = stack[top].names[stack[top].next]
            stack[top].next += 1
            let dir = stack[top].path, rel = stack[top].relative
            if !walker.options.hidden && name.first == UInt8(ascii: ".") { return nil }
            let path = walker.join(dir, name)
            let relPath = rel.isEmpty ? name : rel + [UInt8(ascii: "/")] + name
            if walker.excluded(name: name, relative: relPath, folderOnly: false) { return nil }
            var info = stat()
            guard walker.cStat(path, &info, follow: false) == 0 else {
                // Listed, then gone (deleted or renamed since the folder was read): not_found.
                let err = errno
                return .failure(
                    path: Walker.display(path), pathBytes: path,
                    RecordError(Walker.kind(err), "cannot access: \(describe(err))"))
            }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                guard walker.options.followSymlinks else { return nil }
                guard walker.cStat(path, &info, follow: true) == 0 else { return nil }  // dangling link: skip quietly
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                // `--exclude Photos/`: a pattern ending in '/' names folders only (as in .gitignore).
                if walker.excluded(name: name, relative: relPath, folderOnly: true) { return nil }
                guard visited.insert(DirID(dev: UInt64(info.st_dev), ino: UInt64(info.st_ino))).inserted else { return nil }
                guard let names = walker.listDirectory(path) else {
                    let err = errno
                    return .failure(
                        path: Walker.display(path), pathBytes: path,
                        RecordError(Walker.kind(err), "cannot read folder: \(describe(err))"))
                }
                stack.append(Frame(path: path, relative: relPath, names: names, next: 0))
                return nil
            case S_IFREG:
                return walker.included(name: name, relative: relPath) ? .file(walker.entry(path, info, explicit: false)) : nil
            default:
                return nil  // FIFOs, sockets, devices found by walking are skipped, never opened.
            }
        }
    }

    func entry(_ path: [UInt8], _ st: stat, explicit: Bool) -> FileEntry {
        FileEntry(
            path: Walker.display(path), pathBytes: path, explicit: explicit, size: Int(st.st_size),
            mtime: Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9,
            device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    func join(_ dir: [UInt8], _ name: [UInt8]) -> [UInt8] {
        dir.last == UInt8(ascii: "/") ? dir + name : dir + [UInt8(ascii: "/")] + name
    }

    /// Whether an entry is excluded: a file by the patterns that name files (no trailing '/'),
    /// a folder by the patterns ending in '/' (the others are asked before its type is known).
    func excluded(name: [UInt8], relative: [UInt8], folderOnly: Bool) -> Bool {
        excludes.contains { $0.folderOnly == folderOnly && $0.matches(name: name, relative: relative) }
    }

    /// Whether a file is included: a pattern naming files matches it, or a pattern ending in '/'
    /// matches one of the folders it lies in (`--include 'Photos/'`: the files below Photos).
    func included(name: [UInt8], relative: [UInt8]) -> Bool {
        guard !includes.isEmpty else { return true }
        if includes.contains(where: { !$0.folderOnly && $0.matches(name: name, relative: relative) }) { return true }
        let folderPatterns = includes.filter(\.folderOnly)
        guard !folderPatterns.isEmpty else { return false }
        var end = 0
        while let slash = relative[end...].firstIndex(of: UInt8(ascii: "/")) {
            let folder = Array(relative[..<slash])
            let folderName = Array(folder[(folder.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0)...])
            if folderPatterns.contains(where: { $0.matches(name: folderName, relative: folder) }) { return true }
            end = slash + 1
        }
        return false
    }

    /// Entry names of a folder, sorted by bytes, without "." and "..".
    func listDirectory(_ dir: [UInt8]) -> [[UInt8]]? {
        guard let d = UserPath.withCPath(dir, { opendir($0) }) else {
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
        UserPath.withCPath(path) { follow ? stat($0, &st) : lstat($0, &st) }
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

/// One --include/--exclude pattern, compiled once: the walker's rule is that a pattern with a
/// '/' matches the path below the root, one without the name; a trailing '/' (`Photos/`) makes it
/// name folders only, as in .gitignore, and is not part of what is matched.
struct WalkPattern: Sendable {
    let glob: Glob
    let hasSlash: Bool
    let folderOnly: Bool

    init(_ pattern: String, caseInsensitive: Bool = false) {
        var p = ArgumentBytes.bytes(pattern)
        folderOnly = p.count > 1 && p.last == UInt8(ascii: "/")
        while p.count > 1 && p.last == UInt8(ascii: "/") { p.removeLast() }
        hasSlash = p.contains(UInt8(ascii: "/"))
        glob = Glob(p, caseInsensitive: caseInsensitive)
    }

    func matches(name: [UInt8], relative: [UInt8]) -> Bool { glob.matches(hasSlash ? relative : name) }
}

func describe(_ err: Int32) -> String {
    String(cString: strerror(err))
}
