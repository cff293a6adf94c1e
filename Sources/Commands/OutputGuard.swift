import ArgumentParser
import CodeSweep
import FileWalker
import UserInput

#if canImport(Glibc)
import Glibc
#endif

/// No output replaces one of the command's inputs: before anything is opened for writing, each
/// output path (`scan -o`/`--resume`, `merge -o`, `check --junit`/`--json`) is compared with
/// the files the command reads (the paths named, the --files-from list and its entries, the
/// reports, the rules and expectations files) by path as given and by device and inode (a hard
/// link, `./b.png` for `b.png`, a link to it), and with the images inside the folders it walks.
/// A clash is said on stderr and ends the command with status 2, the input untouched.
enum OutputGuard {
    struct Input {
        /// "the image", "the rules file", ...
        var what: String
        var path: [UInt8]
        init(_ what: String, _ path: [UInt8]) { self.what = what; self.path = path }
        init(_ what: String, _ path: String) { self.init(what, ArgumentBytes.bytes(path)) }
    }

    struct FileID: Equatable { var dev: UInt64; var ino: UInt64 }

    /// A regular file's device and inode (nil for anything else: `/dev/null` may be named twice).
    static func identity(_ path: [UInt8]) -> FileID? {
        guard let st = UserPath.status(bytes: path), (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileID(dev: UInt64(st.st_dev), ino: UInt64(st.st_ino))
    }

    /// The input `output` would write over, if any.
    static func clash(_ output: String, _ inputs: [Input]) -> Input? {
        let out = ArgumentBytes.bytes(output)
        let id = identity(out)
        let device = UserPath.status(bytes: out).map { ($0.st_mode & S_IFMT) == S_IFCHR } ?? false
        return inputs.first { i in (i.path == out && !device) || (id != nil && identity(i.path) == id) }
    }

    /// The folder among `roots` whose walk would scan the existing file at `output` (an image
    /// inside a folder being scanned), if any.
    static func walkedImage(_ output: String, roots: [[UInt8]]) -> [UInt8]? {
        let out = ArgumentBytes.bytes(output)
        guard let st = UserPath.status(bytes: out), (st.st_mode & S_IFMT) == S_IFREG, let real = UserPath.realPath(bytes: out) else { return nil }
        for root in roots {
            guard let rs = UserPath.status(bytes: root), (rs.st_mode & S_IFMT) == S_IFDIR, let r = UserPath.realPath(bytes: root) else { continue }
            guard real.starts(with: r.last == 47 ? r : r + [47]) else { continue }
            let entry = FileEntry(path: Walker.display(out), pathBytes: out, explicit: false, size: Int(st.st_size), mtime: 0)
            if FileScanner.willRecord(.file(entry)) { return root }
        }
        return nil
    }

    /// Ends the command (status 2) when `output` (`flag`'s value) is one of `inputs` or an
    /// image in one of the folders `roots` walked. '-' (stdout) and nil pass.
    static func refuse(_ command: String, flag: String, output: String?, inputs: [Input], roots: [[UInt8]] = []) throws {
        guard let output, output != "-" else { return }
        if let hit = clash(output, inputs) {
            let same = hit.path == ArgumentBytes.bytes(output) ? "" : " (the same file)"
            Stderr.say(
                "\(escaped: command): \(escaped: flag) \(ArgumentBytes.display(output)) would write over \(escaped: hit.what) \(Walker.display(hit.path))\(escaped: same); nothing was written: choose another output file"
            )
            throw ExitCode(2)
        }
        if let root = walkedImage(output, roots: roots) {
            Stderr.say(
                "\(escaped: command): \(escaped: flag) \(ArgumentBytes.display(output)) would write over an image inside the folder being scanned (\(Walker.display(root))); nothing was written: choose another output file"
            )
            throw ExitCode(2)
        }
    }

}
