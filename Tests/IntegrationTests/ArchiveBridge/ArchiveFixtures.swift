import ArchiveBridge
import Foundation
import TestSupport

/// Archives made here for ArchiveBridge's tests: by Python's zipfile and tarfile (ZIP, ZIP64,
/// tar with gzip, bzip2 and xz), a newc cpio written by the same script (no cpio tool here), and
/// by the zip, 7z and zstd programs; members of noise (incompressible, so a cut lands where it is
/// aimed), and every archive read back through `ArchiveReader` to its entries.
enum ArchiveFixtures {
    /// One entry to write: a file of `bytes`, a directory, or a symbolic link to `target`.
    enum Item {
        case file(String, [UInt8])
        case directory(String)
        case symlink(String, target: String)
    }

    /// `count` bytes no compressor shrinks, the same for the same seed (SplitMix64).
    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        var out = [UInt8]()
        out.reserveCapacity(count + 8)
        while out.count < count {
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            withUnsafeBytes(of: z) { out.append(contentsOf: $0) }
        }
        return Array(out.prefix(count))
    }

    /// Writes `items` as an archive of `kind` ("zip", "zip64", "zip-stored", "tar", "tar.gz",
    /// "tar.bz2", "tar.xz", "tar-latin1", "cpio"; "zip-many:N", N members of Python's own) at `dir/name`; its path.
    @discardableResult
    static func make(_ kind: String, _ items: [Item], in dir: TempDir, name: String) throws -> String {
        var args = [writer, dir.file(name), kind]
        for (i, item) in items.enumerated() {
            switch item {
            case .file(let name, let bytes):
                try dir.write("item-\(i)", bytes)
                args += ["f", name, dir.file("item-\(i)")]
            case .directory(let name): args += ["d", name, ""]
            case .symlink(let name, let target): args += ["l", name, target]
            }
        }
        try run("python3", ["-c"] + args)
        return dir.file(name)
    }

    /// Every entry of the archive at `path` (read from memory), and the reader after them.
    static func entries(_ path: String, passwords: [String] = [], limits: ArchiveLimits = ArchiveLimits()) throws -> ([ArchiveEntry], ArchiveReader) {
        try entries(bytes: bytes(path), passwords: passwords, limits: limits)
    }

    static func entries(bytes: [UInt8], passwords: [String] = [], limits: ArchiveLimits = ArchiveLimits()) throws -> ([ArchiveEntry], ArchiveReader) {
        let reader = try ArchiveReader(bytes: bytes, passwords: passwords, limits: limits)
        return (all(reader), reader)
    }

    /// `next()` until nil; a reader that gave more than 100,000 entries' worth is stuck.
    static func all(_ reader: ArchiveReader, atMost: Int = 300_000) -> [ArchiveEntry] {
        var out: [ArchiveEntry] = []
        while out.count < atMost, let entry = reader.next() { out.append(entry) }
        return out
    }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// sha256sum's digest of `bytes` (through its stdin) or of the file at `path`.
    static func sha256sum(_ bytes: [UInt8]) throws -> String { String(try run("sha256sum", ["-"], stdin: Data(bytes)).stdout.prefix(64)) }
    static func sha256sum(file path: String) throws -> String { String(try run("sha256sum", [path]).stdout.prefix(64)) }

    /// The script: argv is out, kind, then (type, name, path-or-target) triples.
    static let writer = #"""
        import io, sys, tarfile, zipfile
        out, kind, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
        items = [(rest[i], rest[i + 1], rest[i + 2]) for i in range(0, len(rest), 3)]
        def data(p): return open(p, "rb").read()
        when = (2024, 5, 6, 7, 8, 10)
        if kind.startswith("zip-many:"):
            with zipfile.ZipFile(out, "w") as z:
                for i in range(int(kind.split(":")[1])): z.writestr("m/%d.bin" % i, i.to_bytes(8, "little"))
        elif kind.startswith("zip"):
            method = zipfile.ZIP_STORED if kind == "zip-stored" else zipfile.ZIP_DEFLATED
            with zipfile.ZipFile(out, "w", compression=method, allowZip64=True) as z:
                for t, name, p in items:
                    info = zipfile.ZipInfo(name + ("/" if t == "d" else ""), date_time=when)
                    info.compress_type = method
                    if t == "f":
                        with z.open(info, "w", force_zip64=(kind == "zip64")) as f: f.write(data(p))
                    else:
                        z.writestr(info, b"")
        elif kind.startswith("tar"):
            mode = {"tar": "w", "tar-latin1": "w", "tar.gz": "w:gz", "tar.bz2": "w:bz2", "tar.xz": "w:xz"}[kind]
            extra = {"encoding": "latin-1", "format": tarfile.GNU_FORMAT} if kind == "tar-latin1" else {}
            with tarfile.open(out, mode, **extra) as t:
                for ty, name, p in items:
                    info = tarfile.TarInfo(name)
                    info.mtime = 1715000000
                    if ty == "f":
                        b = data(p); info.size = len(b); t.addfile(info, io.BytesIO(b))
                    elif ty == "d":
                        info.type = tarfile.DIRTYPE; info.mode = 0o755; t.addfile(info)
                    else:
                        info.type = tarfile.SYMTYPE; info.linkname = p; t.addfile(info)
        elif kind == "cpio":
            # SVR4 "newc" (070701): 13 hex fields, name and data padded to 4 bytes, TRAILER!!! last.
            def entry(ino, mode, name, body):
                n = name.encode() + b"\0"
                fields = [ino, mode, 0, 0, 1, 1715000000, len(body), 0, 0, 0, 0, len(n), 0]
                head = b"070701" + b"".join(b"%08X" % v for v in fields) + n
                return head + b"\0" * (-len(head) % 4) + body + b"\0" * (-len(body) % 4)
            blob = b""
            for i, (ty, name, p) in enumerate(items):
                blob += entry(i + 1, 0o100644 if ty == "f" else 0o040755, name, data(p) if ty == "f" else b"")
            blob += entry(0, 0, "TRAILER!!!", b"")
            open(out, "wb").write(blob)
        else:
            sys.exit("unknown kind " + kind)
        """#
}

extension ArchiveEntry {
    var member: ArchiveMember? { if case .member(let m) = self { m } else { nil } }
    var failure: ArchiveMemberFailure? { if case .failure(let f) = self { f } else { nil } }
    var broken: ArchiveBreak? { if case .broken(let b) = self { b } else { nil } }
}

extension [UInt8] {
    var utf8Text: String { String(decoding: self, as: UTF8.self) }
}
