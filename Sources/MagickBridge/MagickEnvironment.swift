import CMagickWand

#if canImport(Glibc)
import Glibc
#endif

/// Process-wide ImageMagick set-up, done once before the first wand is made:
/// - a policy of our own (MAGICK_CONFIGURE_PATH, set before MagickWandGenesis) that allows
///   only the raster coders CodeSweep reads (and writes only PNG and JPEG, for pictures), no
///   delegates, no indirect reads, explicit limits;
/// - a private temporary folder (MAGICK_TEMPORARY_PATH), removed at exit, so that failed large
///   reads leave no /tmp/magick-* files behind;
/// - one ImageMagick thread per image: the sweep's task group gives the parallelism.
package enum MagickEnvironment {
    /// ImageMagick's own resource limits, per process (a system policy.xml may lower them:
    /// Debian's allows 256 MiB of memory and 512 MiB of map). Pixels that do not fit in memory
    /// go to a memory-mapped file in the private temporary folder, capped by `mapMiB` and
    /// `diskMiB`: a bomb that got past the header checks fails with "cache resources
    /// exhausted" instead of filling /tmp. No more than `listLength` frames in a list.
    package struct Limits: Sendable {
        package var memoryMiB: Int = 512
        package var mapMiB: Int = 512
        package var diskMiB: Int = 1024
        package var maxSide: Int = 32768
        package var areaMegapixels: Int = 256
        package var listLength: Int = 4096
        package init() {}
    }

    /// The private folder holding policy.xml and ImageMagick's temporary files.
    package nonisolated(unsafe) private(set) static var privateDirectory: String?
    private static let once: Void = setUp(Limits())

    /// Idempotent; safe to call from any thread (Swift runs a static's initialiser once).
    package static func start() { _ = once }

    static let allowedCoders = "{JPEG,JPG,JPE,PNG,PNG8,PNG24,PNG32,PNG48,PNG64,GIF,GIF87,WEBP,HEIC,HEIF,AVIF,TIFF,TIF,TIFF64,BMP,BMP2,BMP3}"

    /// Annotated images and report thumbnails are encoded as PNG or JPEG (to memory; CodeSweep
    /// writes the files itself). No other coder may write.
    static let writableCoders = "{PNG,JPEG}"

    /// ImageMagick's resource limits as policy.xml names them.
    static func resources(_ l: Limits) -> [(name: String, value: String)] {
        [
            ("memory", "\(l.memoryMiB)MiB"), ("map", "\(l.mapMiB)MiB"), ("disk", "\(l.diskMiB)MiB"), ("width", "\(l.maxSide)"),
            ("height", "\(l.maxSide)"), ("area", "\(l.areaMegapixels)MP"), ("list-length", "\(l.listLength)"), ("thread", "1"),
        ]
    }

    static func policy(_ l: Limits) -> String {
        let limits = resources(l).map { "<policy domain=\"resource\" name=\"\($0.name)\" value=\"\($0.value)\"/>" }
        let rights = [
            #"<policy domain="delegate" rights="none" pattern="*"/>"#,
            #"<policy domain="path" rights="none" pattern="@*"/>"#,
            #"<policy domain="coder" rights="none" pattern="*"/>"#,
            #"<policy domain="coder" rights="read" pattern="\#(allowedCoders)"/>"#,
            #"<policy domain="coder" rights="read|write" pattern="\#(writableCoders)"/>"#,
        ]
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<policymap>\n" + (limits + rights).map { "  \($0)\n" }.joined() + "</policymap>\n"
    }

    static func setUp(_ limits: Limits) {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        removeStale(in: base)
        // The owner's pid is in the name, so a later run can remove what a killed run left.
        var template = Array("\(base)/codesweep-\(getpid())-XXXXXX".utf8CString)
        if let dir = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) }) {
            privateDirectory = dir
            let path = dir + "/policy.xml"
            if let f = fopen(path, "w") {
                _ = policy(limits).withCString { fputs($0, f) }
                fclose(f)
            }
            setenv("MAGICK_CONFIGURE_PATH", dir, 1)
            setenv("MAGICK_TEMPORARY_PATH", dir, 1)
            atexit { MagickEnvironment.cleanUp() }
        }
        setenv("MAGICK_THREAD_LIMIT", "1", 1)
        setenv("OMP_NUM_THREADS", "1", 1)
        MagickWandGenesis()
        _ = SetMagickResourceLimit(ThreadResource, 1)
    }

    /// Removes the private folder and anything ImageMagick (or a worker process) left in it.
    package static func cleanUp() {
        guard let dir = privateDirectory else { return }
        removeTree(dir)
    }

    /// Removes codesweep-PID-* folders whose process no longer exists (left by a SIGKILL).
    /// A directory entry's name, read in place: a `dirent` from readdir may be shorter than
    /// `struct dirent` (its d_reclen), so copying the whole 256-byte `d_name` can read past the
    /// end of readdir's buffer and fault (it did, on a /tmp of 1,300 entries).
    static func entryName(_ e: UnsafeMutablePointer<dirent>) -> String {
        let name = UnsafeRawPointer(e) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(cString: name.assumingMemoryBound(to: CChar.self))
    }

    static func removeStale(in base: String) {
        guard let d = opendir(base) else { return }
        var stale: [String] = []
        while let e = readdir(d) {
            let name = entryName(e)
            let parts = name.split(separator: "-")
            guard parts.count == 3, parts[0] == "codesweep", let pid = Int32(parts[1]) else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { stale.append(base + "/" + name) }
        }
        closedir(d)
        var st = stat()
        for path in stale where lstat(path, &st) == 0 && st.st_uid == getuid() { removeTree(path) }
    }

    static func removeTree(_ path: String) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            if let d = opendir(path) {
                var names: [String] = []
                while let e = readdir(d) {
                    let name = entryName(e)
                    if name != "." && name != ".." { names.append(name) }
                }
                closedir(d)
                for n in names { removeTree(path + "/" + n) }
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// ImageMagick's version string.
    package static var version: String {
        var n: Int = 0
        guard let s = MagickGetVersion(&n) else { return "unknown" }
        return String(cString: s)
    }
}
