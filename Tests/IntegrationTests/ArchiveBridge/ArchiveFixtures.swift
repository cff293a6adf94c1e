import ArchiveBridge
import Foundation
import TestSupport

/// Archives made here for ArchiveBridge's tests: by Python's zipfile and tarfile (ZIP, ZIP64,
/// tar with gzip, bzip2 and xz), a newc cpio and an ISO 9660 image written by the same script (no
/// cpio, genisoimage or xorriso here), and
/// by the zip, 7z and zstd programs; members of noise (incompressible, so a cut lands where it is
/// aimed), and every archive read back through `ArchiveReader` to its entries.
enum ArchiveFixtures {
    /// One entry to write: a file of `bytes`, a directory, or a symbolic or hard link (tar only) to `target`.
    enum Item {
        case file(String, [UInt8])
        case directory(String)
        case symlink(String, target: String)
        case hardlink(String, target: String)
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
    /// "tar.bz2", "tar.xz", "tar-latin1", "cpio", "iso", "zip-unseekable"; "zip-many:N", N members of Python's own) at `dir/name`; its path.
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
            case .hardlink(let name, let target): args += ["h", name, target]
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
        elif kind == "zip-unseekable":
            class Unseekable:
                def __init__(self, f): self.f = f
                def write(self, b): return self.f.write(b)
                def flush(self): self.f.flush()
            with open(out, "wb") as f, zipfile.ZipFile(Unseekable(f), "w", compression=zipfile.ZIP_DEFLATED) as z:
                for t, name, p in items: z.writestr(name, data(p))
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
                        info.type = tarfile.SYMTYPE if ty == "l" else tarfile.LNKTYPE; info.linkname = p; t.addfile(info)
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
        elif kind == "iso":
            # ECMA-119 by hand: system area, primary volume descriptor (16), terminator (17), the
            # path tables (19, 20), the root (21) and its folders' directories, then the files'
            # data; level 1 names ("A.PNG;1"), folders one deep, times 1715000000 (UTC).
            S, stamp = 2048, bytes([124, 5, 6, 12, 53, 20, 0])
            def both16(v): return v.to_bytes(2, "little") + v.to_bytes(2, "big")
            def both32(v): return v.to_bytes(4, "little") + v.to_bytes(4, "big")
            def record(ident, where, size, folder):
                r = bytes([0, 0]) + both32(where) + both32(size) + stamp + bytes([2 if folder else 0, 0, 0]) + both16(1)
                r += bytes([len(ident)]) + ident + (b"\0" if len(ident) % 2 == 0 else b"")
                return bytes([len(r)]) + r[1:]
            folders = [n for t, n, p in items if t == "d"]
            files = [(n, data(p)) for t, n, p in items if t == "f"]
            dir_sector = {"": 21}
            for i, d in enumerate(folders): dir_sector[d] = 22 + i
            sector, where = 22 + len(folders), {}
            for n, b in files:
                where[n] = sector
                sector += max(1, -(-len(b) // S))
            def directory(d):
                parent = 21
                out = record(b"\0", dir_sector[d], S, True) + record(b"\1", parent, S, True)
                for f in folders if d == "" else []:
                    out += record(f.encode(), dir_sector[f], S, True)
                for n, b in files:
                    head, _, leaf = n.rpartition("/")
                    if head == d: out += record(leaf.encode() + b";1", where[n], len(b), False)
                return out.ljust(S, b"\0")
            def path_table(order):
                t = bytes([1, 0]) + (21).to_bytes(4, order) + (1).to_bytes(2, order) + b"\0\0"
                for f in folders:
                    t += bytes([len(f), 0]) + dir_sector[f].to_bytes(4, order) + (1).to_bytes(2, order) + f.encode()
                    t += b"\0" if len(f) % 2 else b""
                return t
            date = b"2024050612532000\0"
            pvd = bytes([1]) + b"CD001" + bytes([1, 0]) + b"CODESWEEP".ljust(32) + b"FIXTURE".ljust(32) + bytes(8)
            pvd += both32(sector) + bytes(32) + both16(1) + both16(1) + both16(S) + both32(len(path_table("little")))
            pvd += (19).to_bytes(4, "little") + bytes(4) + (20).to_bytes(4, "big") + bytes(4)
            pvd += record(b"\0", 21, S, True) + b" " * (128 * 4 + 37 * 3) + date * 2 + b"0" * 16 + b"\0" + date + bytes([1, 0])
            image = bytes(16 * S) + pvd.ljust(S, b"\0") + (bytes([255]) + b"CD001" + bytes([1])).ljust(S, b"\0") + bytes(S)
            image += path_table("little").ljust(S, b"\0") + path_table("big").ljust(S, b"\0")
            image += directory("") + b"".join(directory(d) for d in folders)
            for n, b in files: image += b.ljust(max(1, -(-len(b) // S)) * S, b"\0")
            open(out, "wb").write(image)
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
