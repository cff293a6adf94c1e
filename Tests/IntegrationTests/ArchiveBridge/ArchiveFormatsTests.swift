import ArchiveBridge
import Foundation
import TestSupport
import Testing

/// Every container format libarchive reads that a test can write here, read back through
/// `ArchiveReader`: each member's bytes the bytes written (sha256sum's digest of both), its name,
/// size and time; directories and links counted, not returned; the descriptor path as the
/// memory path. RAR has no writer on this machine (no free one on Debian): it is not tested.
@Suite("Archives read with libarchive")
struct ArchiveFormatsTests {
    typealias F = ArchiveFixtures

    static let members: [(String, [UInt8])] = [
        ("codes/a.png", F.noise(30_000, seed: 1)), ("b.bin", F.noise(1, seed: 2)), ("empty.txt", []),
        ("codes/c.jpg", Array(repeating: 0x41, count: 100_000)),
    ]

    /// The entries are exactly `members`, in order, indexed from 0 with `offset` entries
    /// (directories) before them.
    static func expectMembers(_ entries: [ArchiveEntry], _ what: String, sizes: Bool = true, mtime: Double? = 1_715_000_000) throws {
        let members = entries.compactMap(\.member)
        #expect(members.count == entries.count, "\(what): \(entries)")
        try #require(members.count == Self.members.count, "\(what): \(members.map(\.nameBytes.utf8Text))")
        for (m, (name, bytes)) in zip(members, Self.members) {
            #expect(m.nameBytes == Array(name.utf8), "\(what)")
            #expect(m.bytes == bytes, "\(what): \(name)")
            if sizes { #expect(m.size == bytes.count, "\(what): \(name)") }
            if let mtime { #expect(m.mtime == mtime, "\(what): \(name)") }
        }
        #expect(members.map(\.index) == Array(members.indices), "\(what)")
    }

    @Test("ZIP (deflated and stored): members, names, sizes and times, formatName", arguments: ["zip", "zip-stored"])
    func zipArchive(kind: String) throws {
        let dir = try TempDir("archive-zip")
        let path = try F.make(kind, Self.members.map { .file($0.0, $0.1) }, in: dir, name: "a.zip")
        let (entries, reader) = try F.entries(path)
        // ZIP's DOS time of 2024-05-06 07:08:10, read as local time: Python wrote it as given.
        try Self.expectMembers(entries, kind, mtime: nil)
        #expect(reader.formatName?.hasPrefix("ZIP") == true, "\(reader.formatName ?? "nil")")
        #expect(reader.unpackedBytes == Self.members.reduce(0) { $0 + $1.1.count })
        #expect(reader.counts.members == 4 && reader.counts.skippedNonRegular == 0 && reader.counts.failures == 0)
        #expect(entries.compactMap(\.member).allSatisfy { $0.mtime != nil })
    }

    @Test("ZIP64 (every entry with ZIP64 extra fields, Python's force_zip64)")
    func zip64() throws {
        let dir = try TempDir("archive-zip64")
        let path = try F.make("zip64", Self.members.map { .file($0.0, $0.1) }, in: dir, name: "a.zip")
        let raw = try F.bytes(path)
        // The ZIP64 extra field's tag (0x0001, size 16) is in the local headers.
        #expect(raw.indices.dropLast(3).contains { raw[$0] == 1 && raw[$0 + 1] == 0 && raw[$0 + 2] == 16 && raw[$0 + 3] == 0 })
        let (entries, reader) = try F.entries(path)
        try Self.expectMembers(entries, "zip64", mtime: nil)
        #expect(reader.formatName?.hasPrefix("ZIP") == true)
    }

    @Test("tar, plain and through gzip, bzip2 and xz", arguments: ["tar", "tar.gz", "tar.bz2", "tar.xz"])
    func tar(kind: String) throws {
        let dir = try TempDir("archive-tar")
        let path = try F.make(kind, Self.members.map { .file($0.0, $0.1) }, in: dir, name: "a." + kind)
        let (entries, reader) = try F.entries(path)
        try Self.expectMembers(entries, kind)
        #expect(reader.formatName?.lowercased().contains("tar") == true, "\(reader.formatName ?? "nil")")
        let filter = ["tar.gz": "gzip", "tar.bz2": "bzip2", "tar.xz": "xz"][kind]
        #expect(reader.filterNames == (filter.map { [$0] } ?? []), "\(reader.filterNames)")
    }

    @Test("tar through zstd (the zstd program compresses it)", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zstd")))
    func tarZstd() throws {
        let dir = try TempDir("archive-zstd")
        let path = try F.make("tar", Self.members.map { .file($0.0, $0.1) }, in: dir, name: "a.tar")
        try run("zstd", ["-q", "-19", path, "-o", path + ".zst"])
        let (entries, reader) = try F.entries(path + ".zst")
        try Self.expectMembers(entries, "tar.zst")
        #expect(reader.filterNames == ["zstd"], "\(reader.filterNames)")
    }

    @Test("7z (the 7z program): members by their names, the folder it adds counted")
    func sevenZip() throws {
        let dir = try TempDir("archive-7z")
        let src = try dir.mkdir("src")
        try dir.mkdir("src/codes")
        for (name, bytes) in Self.members { try dir.write("src/" + name, bytes) }
        try run("7z", ["a", "-t7z", "-bd", dir.file("a.7z"), "codes", "b.bin", "empty.txt"], currentDirectory: src)
        let (entries, reader) = try F.entries(dir.file("a.7z"))
        let members = entries.compactMap(\.member)
        #expect(members.count == entries.count, "\(entries.compactMap(\.failure))")
        #expect(reader.formatName == "7-Zip")
        #expect(reader.counts.directories == 1, "\(reader.counts)")
        #expect(Set(members.map(\.nameBytes.utf8Text)) == Set(Self.members.map(\.0)))
        for m in members { #expect(m.bytes == Self.members.first { Array($0.0.utf8) == m.nameBytes }?.1, "\(m.nameBytes.utf8Text)") }
    }

    @Test("cpio (SVR4 newc, written by the test's Python: no cpio program here)")
    func cpio() throws {
        let dir = try TempDir("archive-cpio")
        let path = try F.make("cpio", [.directory("codes")] + Self.members.map { .file($0.0, $0.1) }, in: dir, name: "a.cpio")
        #expect(try run("7z", ["t", "-bd", path]).stdout.contains("Everything is Ok"), "7-Zip reads the fixture too")
        let (entries, reader) = try F.entries(path)
        #expect(reader.formatName?.contains("cpio") == true, "\(reader.formatName ?? "nil")")
        #expect(reader.counts.directories == 1)
        let members = entries.compactMap(\.member)
        #expect(members.map(\.nameBytes) == Self.members.map { Array($0.0.utf8) })
        #expect(members.map(\.bytes) == Self.members.map(\.1))
        #expect(members.map(\.index) == [1, 2, 3, 4], "the directory is entry 0")
    }

    @Test("ISO 9660 (written by the test's Python: no genisoimage or xorriso here)")
    func iso9660() throws {
        let dir = try TempDir("archive-iso")
        let files: [(String, [UInt8])] = [("CODES/A.PNG", F.noise(5_000, seed: 1)), ("B.BIN", F.noise(2_048, seed: 2)), ("CODES/C.JPG", [])]
        let path = try F.make("iso", [.directory("CODES")] + files.map { .file($0.0, $0.1) }, in: dir, name: "a.iso")
        // 7-Zip, another reader, tests the image whole: the fixture is an ISO, not only what libarchive forgives.
        #expect(try run("7z", ["t", "-bd", path]).stdout.contains("Everything is Ok"))
        let (entries, reader) = try F.entries(path)
        #expect(reader.formatName?.contains("ISO9660") == true, "\(reader.formatName ?? "nil")")
        let members = entries.compactMap(\.member)
        #expect(members.count == entries.count, "\(entries)")
        // libarchive gives an image's entries in the order of their data on the disc, ";1" dropped.
        #expect(Set(members.map(\.nameBytes.utf8Text)) == Set(files.map(\.0)), "\(members.map(\.nameBytes.utf8Text))")
        for m in members { #expect(m.bytes == files.first { Array($0.0.utf8) == m.nameBytes }?.1 && m.mtime == 1_715_000_000) }
        #expect(reader.counts.directories >= 1, "\(reader.counts)")
    }

    @Test("directories, symbolic and hard links are counted and passed over")
    func nonRegular() throws {
        let dir = try TempDir("archive-tree")
        let items: [F.Item] = [
            .directory("codes"), .file("codes/a.png", F.noise(500, seed: 3)), .symlink("codes/link.png", target: "a.png"),
            .file("z.bin", F.noise(10, seed: 4)), .hardlink("codes/hard.png", target: "codes/a.png"),
        ]
        // ZIP has no links here (Python's zipfile writes none): its files and folder only.
        let zipItems = items.filter { if case .file = $0 { true } else if case .directory = $0 { true } else { false } }
        for kind in ["tar", "zip"] {
            let path = try F.make(kind, kind == "zip" ? zipItems : items, in: dir, name: "t." + kind)
            let (entries, reader) = try F.entries(path)
            #expect(entries.compactMap(\.member).map(\.nameBytes.utf8Text) == ["codes/a.png", "z.bin"], "\(kind)")
            #expect(entries.compactMap(\.member).map(\.index) == (kind == "tar" ? [1, 3] : [1, 2]), "\(kind)")
            #expect(reader.counts.directories == 1 && reader.counts.links == (kind == "tar" ? 2 : 0), "\(kind): \(reader.counts)")
        }
    }

    @Test("member bytes are the bytes archived: sha256sum of each member's bytes is sha256sum of its file")
    func digests() throws {
        let dir = try TempDir("archive-digests")
        for kind in ["zip", "tar.xz", "cpio"] {
            let path = try F.make(kind, Self.members.map { .file($0.0, $0.1) }, in: dir, name: "d." + kind)
            let (entries, _) = try F.entries(path)
            let members = entries.compactMap(\.member)
            try #require(members.count == Self.members.count)
            for (i, m) in members.enumerated() {
                // The fixture wrote member i from the file item-i (ArchiveFixtures.make).
                #expect(try F.sha256sum(m.bytes) == F.sha256sum(file: dir.file("item-\(i)")), "\(kind): \(m.nameBytes.utf8Text)")
            }
        }
    }

    @Test("a descriptor is read as the bytes are, streamed: 20,000 members")
    func fileDescriptor() throws {
        let dir = try TempDir("archive-fd")
        // Member i of Python's zip-many holds i as 8 little-endian bytes.
        let path = try F.make("zip-many:20000", [], in: dir, name: "many.zip")
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let reader = try ArchiveReader(fileDescriptor: fd, limits: ArchiveLimits())
        var count = 0
        while let entry = reader.next() {
            let m = try #require(entry.member, "\(entry)")
            let i = count
            #expect(m.index == i && m.nameBytes == Array("m/\(i).bin".utf8) && m.bytes == withUnsafeBytes(of: UInt64(i).littleEndian) { Array($0) })
            count += 1
        }
        #expect(count == 20_000 && reader.unpackedBytes == 160_000 && reader.formatName?.hasPrefix("ZIP") == true)
    }

    @Test("bytes that are no archive: ArchiveError with libarchive's reason; no bytes: no entry")
    func notAnArchive() throws {
        for bytes in [Array("just some text, no archive\n".utf8), F.noise(4096, seed: 9)] {
            #expect {
                _ = try ArchiveReader(bytes: bytes, limits: ArchiveLimits())
            } throws: { error in
                (error as? ArchiveError)?.message.contains("Unrecognized archive format") == true
            }
        }
        // libarchive's "empty" format: an empty file is an archive of nothing.
        let empty = try ArchiveReader(bytes: [], limits: ArchiveLimits())
        #expect(empty.next() == nil && empty.counts == ArchiveCounts())
    }
}

extension ArchiveFormatsTests {
    @Test("non-ASCII names come back as UTF-8: ZIP's UTF-8 flag, a pax tar's path, 7z's UTF-16")
    func unicodeNames() throws {
        let dir = try TempDir("archive-unicode")
        let name = "caf\u{E9}/\u{65E5}\u{672C}-\u{1F600}.png"
        for kind in ["zip", "tar"] {
            let (entries, _) = try F.entries(F.make(kind, [.file(name, [7, 7])], in: dir, name: "u." + kind))
            #expect(entries.compactMap(\.member).map(\.nameBytes) == [Array(name.utf8)], "\(kind): \(entries)")
        }
        let src = try dir.mkdir("src")
        try dir.mkdir("src/caf\u{E9}")
        try dir.write("src/" + name, [7, 7])
        try run("7z", ["a", "-t7z", "-bd", dir.file("u.7z"), "caf\u{E9}"], env: ["LC_ALL": "C.UTF-8"], currentDirectory: src)
        let (entries, _) = try F.entries(dir.file("u.7z"))
        #expect(entries.compactMap(\.member).map(\.nameBytes) == [Array(name.utf8)], "7z: \(entries)")
    }
}

extension ArchiveFormatsTests {
    /// Each package's skeleton as its application writes it (a ZIP; ODF and EPUB with their
    /// `mimetype` first) and where it keeps pictures.
    static let packages: [String: [(String, [UInt8])]] = [
        "docx": [
            ("[Content_Types].xml", Array("<Types/>".utf8)), ("word/document.xml", Array("<w:document/>".utf8)),
            ("word/media/image1.png", F.noise(900, seed: 21)),
        ],
        "xlsx": [
            ("[Content_Types].xml", Array("<Types/>".utf8)), ("xl/workbook.xml", Array("<workbook/>".utf8)), ("xl/media/image1.png", F.noise(900, seed: 22)),
        ],
        "pptx": [
            ("[Content_Types].xml", Array("<Types/>".utf8)), ("ppt/presentation.xml", Array("<p/>".utf8)), ("ppt/media/image1.png", F.noise(900, seed: 23)),
        ],
        "odt": [
            ("mimetype", Array("application/vnd.oasis.opendocument.text".utf8)), ("content.xml", Array("<office/>".utf8)),
            ("Pictures/1000.png", F.noise(900, seed: 24)),
        ],
        "epub": [
            ("mimetype", Array("application/epub+zip".utf8)), ("OEBPS/content.opf", Array("<package/>".utf8)),
            ("OEBPS/images/cover.png", F.noise(900, seed: 25)),
        ],
    ]

    @Test("office and e-book packages are ZIPs: their pictures are members", arguments: ["docx", "xlsx", "pptx", "odt", "epub"])
    func packages(kind: String) throws {
        let dir = try TempDir("archive-package")
        let items = try #require(Self.packages[kind])
        let (entries, reader) = try F.entries(F.make("zip", items.map { .file($0.0, $0.1) }, in: dir, name: "p." + kind))
        #expect(reader.formatName?.hasPrefix("ZIP") == true)
        #expect(entries.compactMap(\.member).map(\.nameBytes) == items.map { Array($0.0.utf8) })
        #expect(entries.last?.member?.bytes == items.last?.1, "the picture")
    }

    @Test("a ZIP inside a tar.gz: the member's bytes open as an archive again, with what is left of the budget")
    func nested() throws {
        let dir = try TempDir("archive-nested")
        let picture = F.noise(4_000, seed: 31)
        let inner = try F.bytes(F.make("zip", [.file("deep/code.png", picture)], in: dir, name: "inner.zip"))
        let outerPath = try F.make("tar.gz", [.file("inner.zip", inner), .file("x.bin", [1])], in: dir, name: "outer.tar.gz")
        let budget = ArchiveLimits(maxTotalBytes: 10_000)
        let (outer, outerReader) = try F.entries(outerPath, limits: budget)
        let zip = try #require(outer.first?.member)
        #expect(zip.nameBytes == Array("inner.zip".utf8) && zip.bytes == inner)
        var left = budget
        left.maxTotalBytes -= outerReader.unpackedBytes
        let (entries, innerReader) = try F.entries(bytes: zip.bytes, limits: left)
        #expect(entries.compactMap(\.member).map(\.bytes) == [picture] && innerReader.unpackedBytes == picture.count)
        // The same inner archive with less budget left than its picture: the total limit.
        left.maxTotalBytes = picture.count - 1
        let (short, _) = try F.entries(bytes: zip.bytes, limits: left)
        #expect(short.count == 1 && short[0].failure?.kind == .totalLimit, "\(short)")
    }
}
