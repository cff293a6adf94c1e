import CodeSweep
import Digests
import FileWalker
import Imaging
import MagickBridge
import Records
import SweepSelection
import UserInput

#if canImport(Glibc)
import Glibc
#endif

/// Why --annotate refuses to start (nothing has been written).
package struct AnnotationRefusal: Error, Sendable, CustomStringConvertible {
    package let description: String
}

/// `scan --annotate DIR`: an upright copy of every image with codes, with each code's outline,
/// corners and label drawn, in a folder that mirrors the input tree.
///
/// It runs in the coordinator, after a file's record is ready: only files with codes are decoded
/// a second time (one at a time), workers stay plain file → record, and nothing about pictures
/// crosses the worker protocol. A file that crashed or hung a worker has no codes, so it is
/// never decoded here.
///
/// Names: `<name>.annotated.png` (`.jpg` for JPEG inputs), `<name>.frame<k>.annotated.png` for
/// codes on frame k > 0 of a multi-frame file; below DIR, the path below the argument given
/// (with several arguments, each folder argument's files go in a folder named after it). When
/// two inputs of the walk would get the same name (two `image001.jpg` given as files or listed
/// with --files-from), each gets its path's tag, `<name>.<tag>.annotated.jpg`: 8 hex digits of
/// the FNV-1a hash of the path as given (`tag(for:)`), so no picture replaces another and the
/// names are the same in every run and shard of the same inputs.
package final class AnnotationPlan {
    struct FileID: Hashable { var dev: UInt64; var ino: UInt64 }

    let outputDir: [UInt8]
    /// Input path bytes -> output paths without the `.annotated.ext` suffix (a file named twice,
    /// e.g. inside a folder argument and on its own, has two).
    var bases: [[UInt8]: [[UInt8]]] = [:]
    /// Files annotated already (a file named twice is decoded once).
    var done: Set<[UInt8]> = []
    let inputs: Set<FileID>
    /// Output paths written during this run (a later file never replaces an earlier one's).
    var written: Set<[UInt8]> = []
    /// Pictures asked for and not made (each also reported as a message); the sweep then exits 1.
    package private(set) var problems = 0
    /// The first picture that could not be written (no space, an I/O error, a folder that cannot
    /// be made), naming it: the sweep stops and exits 2, as for the report itself.
    package private(set) var writeFailure: String?

    /// Plans the output paths for the walked items (the whole walk, every shard of it: names do
    /// not depend on the shard) and refuses if DIR is, or is inside, a folder being scanned, or
    /// if any output path is an input file. `roots` are the arguments and --files-from entries.
    package init(outputDir: String, roots: [[UInt8]], items: [WalkItem]) throws(AnnotationRefusal) {
        guard !outputDir.isEmpty else { throw AnnotationRefusal(description: "--annotate needs a folder") }
        self.outputDir = ArgumentBytes.bytes(outputDir)
        var ids = Set<FileID>()
        for case .file(let f) in items { ids.insert(FileID(dev: f.device, ino: f.inode)) }
        inputs = ids

        let outReal = Self.resolve(self.outputDir)
        for r in roots {
            var st = stat()
            guard Self.cStat(r, &st, follow: true) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { continue }
            let rootReal = Self.resolve(r)
            if outReal == rootReal || outReal.starts(with: rootReal + (rootReal.last == 47 ? [] : [47])) {
                throw AnnotationRefusal(
                    description:
                        "--annotate folder '\(ArgumentBytes.display(outputDir))' is inside the folder being scanned ('\(String(decoding: r, as: UTF8.self))'): pictures would be written among the inputs; choose a folder outside it"
                )
            }
        }
        var st = stat()
        if Self.cStat(self.outputDir, &st, follow: true) == 0 && (st.st_mode & S_IFMT) != S_IFDIR {
            throw AnnotationRefusal(description: "--annotate '\(ArgumentBytes.display(outputDir))' exists and is not a folder")
        }

        // Each item's path below its argument. Items come in the order of their roots.
        let rootBytes = roots
        var prefixes: [[UInt8]] = []
        var used: [[UInt8]: Int] = [:]
        for (i, r) in rootBytes.enumerated() {
            var rs = stat()
            let isFolder = Self.cStat(r, &rs, follow: true) == 0 && (rs.st_mode & S_IFMT) == S_IFDIR
            if rootBytes.count == 1 || !isFolder { prefixes.append([]); continue }
            var name = r.split(separator: 47).last.map(Array.init) ?? []
            if name.isEmpty || name == [46] || name == [46, 46] { name = Array("input\(i + 1)".utf8) }
            used[name, default: 0] += 1
            if used[name]! > 1 { name += Array("-\(used[name]!)".utf8) }
            prefixes.append(name + [47])
        }
        var k = 0
        for case .file(let f) in items {
            while k < rootBytes.count, Self.below(f.pathBytes, root: rootBytes[k]) == nil { k += 1 }
            let rel: [UInt8]
            if k < rootBytes.count, let below = Self.below(f.pathBytes, root: rootBytes[k]) {
                rel = prefixes[k] + below
            } else {
                k = 0
                rel = f.pathBytes.split(separator: 47).last.map(Array.init) ?? Array("file".utf8)
            }
            let base = self.outputDir + (self.outputDir.last == 47 ? [] : [47]) + rel
            if bases[f.pathBytes]?.contains(base) != true { bases[f.pathBytes, default: []].append(base) }
        }
        bases = Self.tagCollisions(bases)
        // The frame-0 picture must not be an input (a hard link or the same path).
        for base in bases.values.joined() {
            for ext in ["png", "jpg"] {
                let target = base + Array(".annotated.\(ext)".utf8)
                if Self.cStat(target, &st, follow: true) == 0, inputs.contains(FileID(dev: UInt64(st.st_dev), ino: UInt64(st.st_ino))) {
                    throw AnnotationRefusal(
                        description: "--annotate would write over the input '\(String(decoding: target, as: UTF8.self))'; choose another folder")
                }
            }
        }
    }

    /// A path's tag in picture names: FNV-1a (64-bit) of its bytes as given, as 16 hex digits;
    /// names use the first 8 (`tag(for:)`).
    package static func fullTag(for path: [UInt8]) -> String {
        let hex = String(Shard.fnv1a64(path), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    package static func tag(for path: [UInt8]) -> String { String(fullTag(for: path).prefix(8)) }

    /// Names shared by several inputs get each input's tag before the suffix (`a.jpg` →
    /// `a.jpg.1b2c3d4e`); two of them with the same 8 digits take all 16.
    static func tagCollisions(_ bases: [[UInt8]: [[UInt8]]]) -> [[UInt8]: [[UInt8]]] {
        var owners: [[UInt8]: [[UInt8]]] = [:]
        for (input, list) in bases { for b in list { owners[b, default: []].append(input) } }
        var out = bases
        for (input, list) in bases {
            out[input] = list.map { base in
                guard let sharing = owners[base], sharing.count > 1 else { return base }
                let clash = sharing.contains { $0 != input && tag(for: $0) == tag(for: input) }
                return base + Array(".\(clash ? fullTag(for: input) : tag(for: input))".utf8)
            }
        }
        return out
    }

    /// The path of `path` below `root` ("a/b.png" below "a" is "b.png"; a file root gives its name).
    static func below(_ path: [UInt8], root: [UInt8]) -> [UInt8]? {
        if path == root { return root.split(separator: 47).last.map(Array.init) }
        let prefix = root.last == 47 ? root : root + [47]
        guard path.count > prefix.count, path.starts(with: prefix) else { return nil }
        return Array(path[prefix.count...])
    }

    /// Annotates one record's file if it has codes. Returns messages for stderr (empty when
    /// all went well).
    package func annotate(_ record: FileRecord) -> [String] {
        let messages = makePictures(record)
        problems += messages.filter { !$0.hasSuffix(Self.noFontNote) }.count
        return messages
    }

    static let noFontNote = "no usable font; outlines drawn without labels"

    /// What tells one item from another: the path, and a member's chain of indexes.
    static func itemKey(_ record: FileRecord) -> [UInt8] {
        record.pathBytes + record.member.flatMap { [0] + Array(String($0.index).utf8) }
    }

    /// A member's picture goes in a folder named as its container's mirrored path, named from its
    /// indexes (outermost first) and the digest of its bytes, never from its name (which is the
    /// container's, untrusted): `bundle.zip/0.3-1a2b3c4d5e6f`.
    static func memberName(_ record: FileRecord, _ bytes: [UInt8]) -> [UInt8] {
        let digest = DigestAlgorithm.hex(DigestAlgorithm.sha256.digest(bytes).prefix(6))
        return Array(("/" + record.member.map { String($0.index) }.joined(separator: ".") + "-" + digest).utf8)
    }

    func makePictures(_ record: FileRecord) -> [String] {
        let key = Self.itemKey(record)
        guard record.error == nil, !record.codes.isEmpty, record.format != nil || record.video != nil,
            let containerBases = bases[record.pathBytes], !done.contains(key)
        else { return [] }
        done.insert(key)
        let show = record.location
        let bytes: [UInt8]
        do {
            bytes = try FramePictures.bytes(of: record)
        } catch {
            let why = error.message == FramePictures.changed ? "file changed since it was scanned; not annotated" : error.message
            return ["annotate \(show): \(why)"]
        }
        let targets = record.isMember ? containerBases.map { $0 + Self.memberName(record, bytes) } : containerBases
        let output: PictureFormat = record.format == .jpeg ? .jpeg : .png
        var messages: [String] = []
        let frames = Set(record.codes.map(\.frame)).sorted()
        for frame in frames {
            let marks = record.codes.filter { $0.frame == frame }.map {
                AnnotationMark(corners: $0.corners.points, label: DisplayText.label(for: $0))
            }
            let suffix = ((record.frames ?? 1) > 1 && frame > 0 ? ".frame\(frame)" : "") + ".annotated." + output.fileExtension
            var expected = frame == 0 ? record.width.flatMap { w in record.height.map { (width: w, height: $0) } } : nil
            do {
                // A document's page: rendered again at its record's resolution, then drawn on as a PNG.
                let source = try FramePictures.picture(of: record, bytes: bytes, frame: frame)
                if let size = source.size { expected = size }
                let picture = try Annotator.annotate(
                    source.bytes, format: source.format, frame: source.frame, marks: marks, as: output, expectedSize: expected)
                if !picture.labelsDrawn { messages.append("annotate \(show): " + Self.noFontNote) }
                for base in targets {
                    if let problem = write(picture.bytes, to: base + Array(suffix.utf8)) { messages.append("annotate \(show): \(problem)") }
                }
            } catch {
                messages.append("annotate \(show): \(error.message)")
            }
        }
        return messages
    }

    /// Writes through a temporary file and rename(2): an existing file at the target is replaced
    /// as a directory entry, its contents are never written to (a hard link to an input stays
    /// intact), and a link at the target is replaced, not followed. Refuses targets that are
    /// inputs, neither regular files nor links (folders, devices), or already written in this run.
    func write(_ data: [UInt8], to target: [UInt8]) -> String? {
        let shown = String(decoding: target, as: UTF8.self)
        if written.contains(target) { return "'\(shown)' was already written in this run; not replaced" }
        guard let slash = target.lastIndex(of: 47) else { return "bad output path" }
        let dir = Array(target[..<slash])
        if let problem = makeFolders(dir) { return problem }
        var st = stat()
        if Self.cStat(target, &st, follow: false) == 0 {
            if inputs.contains(FileID(dev: UInt64(st.st_dev), ino: UInt64(st.st_ino))) {
                return "'\(shown)' is an input file; not written"
            }
            // A symbolic link there is replaced (rename(2) replaces the link itself, never
            // writes where it points), as docs/report.md says.
            let kind = st.st_mode & S_IFMT
            if kind != S_IFREG && kind != S_IFLNK { return "'\(shown)' exists and is not a regular file; not written" }
        }
        let temp = dir + Array("/.codesweep-\(getpid())-\(written.count).tmp".utf8)
        let fd = UserPath.open(bytes: temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o644)
        guard fd >= 0 else {
            let code = errno
            let problem = "cannot create a file in '\(String(decoding: dir, as: UTF8.self))': \(String(cString: strerror(code)))"
            if writeFailure == nil, Self.stopsTheSweep(code) { writeFailure = "--annotate: " + problem }
            return problem
        }
        var failure: Int32? = nil
        do { try FileIO.writeAll(fd, data) } catch { failure = error.code }
        if Glibc.close(fd) != 0 && failure == nil && errno != EINTR { failure = errno }
        if failure == nil, Self.withC(temp, { t in Self.withC(target) { rename(t, $0) } }) != 0 {
            failure = errno
        }
        if let failure {
            _ = Self.withC(temp) { unlink($0) }
            let problem = "cannot write '\(shown)': \(String(cString: strerror(failure)))"
            if writeFailure == nil, Self.stopsTheSweep(failure) { writeFailure = "--annotate: " + problem }
            return problem
        }
        written.insert(target)
        return nil
    }

    /// mkdir -p below (and including) the output folder; existing parts must be real folders
    /// (a link inside the output tree is not followed).
    func makeFolders(_ dir: [UInt8]) -> String? {
        var st = stat()
        if Self.cStat(dir, &st, follow: false) == 0 {
            return (st.st_mode & S_IFMT) == S_IFDIR || dir == outputDir
                ? nil
                : "'\(String(decoding: dir, as: UTF8.self))' is not a folder (links inside the output folder are not followed)"
        }
        if let slash = dir.lastIndex(of: 47), slash > 0 {
            if let p = makeFolders(Array(dir[..<slash])) { return p }
        }
        if Self.withC(dir, { mkdir($0, 0o755) }) != 0 && errno != EEXIST {
            let code = errno
            let problem = "cannot create folder '\(String(decoding: dir, as: UTF8.self))': \(String(cString: strerror(code)))"
            if writeFailure == nil, Self.stopsTheSweep(code) { writeFailure = "--annotate: " + problem }
            return problem
        }
        return nil
    }

    /// A write error that every later picture would meet too (no space, no quota, an I/O error,
    /// a read-only file system): the sweep stops. Any other (a name too long, a permission) is
    /// that file's problem: a warning on its record, and the sweep goes on.
    static func stopsTheSweep(_ code: Int32) -> Bool {
        [ENOSPC, EDQUOT, EIO, EROFS, EFBIG].contains(code)
    }

    // MARK: - Paths

    static func withC<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        UserPath.withCPath(path, body)
    }

    static func cStat(_ path: [UInt8], _ st: inout stat, follow: Bool) -> Int32 {
        withC(path) { follow ? stat($0, &st) : lstat($0, &st) }
    }

    /// The canonical absolute path of a path that may not exist yet: its longest existing
    /// ancestor resolved with realpath(3), the rest appended ("." and ".." folded).
    static func resolve(_ path: [UInt8]) -> [UInt8] {
        var parts = path.split(separator: 47, omittingEmptySubsequences: true).map(Array.init)
        var rest: [[UInt8]] = []
        let absolute = path.first == 47
        while true {
            let candidate: [UInt8] = (absolute ? [47] : []) + Array(parts.joined(separator: [47]))
            let probe = candidate.isEmpty ? [46] : candidate
            if var out = UserPath.realPath(bytes: probe) {
                for part in rest.reversed() {
                    if part == [46] { continue }
                    if part == [46, 46] {
                        if let s = out.lastIndex(of: 47) { out = s == 0 ? [47] : Array(out[..<s]) }
                        continue
                    }
                    out += (out.last == 47 ? [] : [47]) + part
                }
                return out
            }
            guard let last = parts.popLast() else { return path }
            rest.append(last)
        }
    }
}
