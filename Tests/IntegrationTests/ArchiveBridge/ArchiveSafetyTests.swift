import ArchiveBridge
import Foundation
import TestSupport
import Testing

/// What an examiner's archives throw at the reader: encrypted members (ZipCrypto by `zip -P`,
/// AES by 7z) beside plain ones, with and without their password; each limit's breach; a
/// truncated archive and a damaged member; duplicate names; names that climb out of a folder,
/// kept as bytes and never written anywhere; a name that is not UTF-8.
@Suite("Archive safety with libarchive")
struct ArchiveSafetyTests {
    typealias F = ArchiveFixtures

    static let secret = F.noise(5_000, seed: 11), plain = F.noise(3_000, seed: 12)

    /// secret.bin encrypted with `password` by `tool` (7z: AES-256), then plain.bin added in the clear by zip.
    static func encrypted(_ dir: TempDir, _ tool: String, password: String = "secret") throws -> String {
        let src = try dir.mkdir("src")
        try dir.write("src/secret.bin", Self.secret)
        try dir.write("src/plain.bin", Self.plain)
        let out = dir.file("enc-\(tool).zip")
        if tool == "zip" {
            try run("zip", ["-q", "-P", password, out, "secret.bin"], currentDirectory: src)
            try run("zip", ["-q", out, "plain.bin"], currentDirectory: src)
        } else {
            try run("7z", ["a", "-tzip", "-bd", "-p" + password, "-mem=AES256", out, "secret.bin"], currentDirectory: src)
            try run("zip", ["-q", out, "plain.bin"], currentDirectory: src)
        }
        return out
    }

    @Test("an encrypted member without a password: error kind encrypted, the member after it read", arguments: ["zip", "7z"])
    func encryptedBesidePlain(tool: String) throws {
        let dir = try TempDir("archive-encrypted")
        let path = try Self.encrypted(dir, tool)
        for passwords in [[], ["wrong"]] {
            let (entries, reader) = try F.entries(path, passwords: passwords)
            try #require(entries.count == 2, "\(tool) \(passwords): \(entries)")
            let failure = try #require(entries[0].failure, "\(tool) \(passwords)")
            #expect(failure.kind == .encrypted && failure.index == 0 && failure.nameBytes == Array("secret.bin".utf8))
            #expect(failure.message.contains("member 0 ('secret.bin') is encrypted"), "\(failure.message)")
            if !passwords.isEmpty { #expect(failure.message.contains("no password given opens it: "), "\(failure.message)") }
            #expect(entries[1].member?.bytes == Self.plain && entries[1].member?.index == 1, "\(tool) \(passwords)")
            #expect(reader.counts.failures == 1 && reader.counts.members == 1)
        }
    }

    @Test("the right password among wrong ones opens the member (ZipCrypto and AES-256)", arguments: ["zip", "7z"])
    func rightPassword(tool: String) throws {
        let dir = try TempDir("archive-password")
        let path = try Self.encrypted(dir, tool, password: "infected")
        let (entries, _) = try F.entries(path, passwords: ["wrong", "", "infected"])
        #expect(entries.map(\.member?.bytes) == [Self.secret, Self.plain], "\(tool): \(entries.compactMap(\.failure))")
    }

    @Test("7z's AES, which libarchive does not decrypt: its members fail encrypted even with the right password; encrypted headers: no archive")
    func sevenZipEncrypted() throws {
        let dir = try TempDir("archive-7z-aes")
        let src = try dir.mkdir("src")
        try dir.write("src/secret.bin", Self.secret)
        try dir.write("src/plain.bin", Self.plain)
        try run("7z", ["a", "-t7z", "-bd", "-psecret", dir.file("data.7z"), "secret.bin", "plain.bin"], currentDirectory: src)
        for passwords in [[], ["secret"]] {
            let (entries, _) = try F.entries(dir.file("data.7z"), passwords: passwords)
            #expect(entries.count == 2 && entries.allSatisfy { $0.failure?.kind == .encrypted }, "\(passwords): \(entries)")
            #expect(Set(entries.compactMap(\.failure?.nameBytes)) == [Array("secret.bin".utf8), Array("plain.bin".utf8)])
            let reason = passwords.isEmpty ? "no password was given" : "libarchive does not decrypt 7-Zip's encryption"
            #expect(entries.allSatisfy { $0.failure?.message.hasSuffix(reason) == true }, "\(entries)")
        }
        try run("7z", ["a", "-t7z", "-bd", "-psecret", "-mhe=on", dir.file("headers.7z"), "secret.bin"], currentDirectory: src)
        let (entries, _) = try F.entries(dir.file("headers.7z"), passwords: ["secret"])
        let broken = try #require(entries.count == 1 ? entries[0].broken : nil, "\(entries)")
        #expect(broken.afterIndex == nil && broken.encrypted)
        #expect(broken.message == "truncated or damaged before its first member: The archive header is encrypted, but currently not supported")
    }

    @Test("a member over the member size limit fails tooLarge and is skipped; the rest are read", arguments: ["zip", "tar.gz"])
    func memberLimit(kind: String) throws {
        let dir = try TempDir("archive-member-limit")
        let items: [F.Item] = [.file("a", F.noise(1_000, seed: 1)), .file("big", F.noise(60_000, seed: 2)), .file("c", F.noise(1_000, seed: 3))]
        let path = try F.make(kind, items, in: dir, name: "l." + kind)
        let (entries, reader) = try F.entries(path, limits: ArchiveLimits(maxMemberBytes: 50_000))
        #expect(entries.compactMap(\.member).map(\.nameBytes.utf8Text) == ["a", "c"])
        let failure = try #require(entries.count == 3 ? entries[1].failure : nil, "\(entries)")
        #expect(failure.kind == .tooLarge && failure.index == 1)
        #expect(failure.message == "member 1 ('big') declares 60000 bytes, over the member size limit of 50000 bytes")
        #expect(reader.unpackedBytes == 2_000, "the skipped member's data is not unpacked into memory")
    }

    @Test("a header that declares less than the member holds: libarchive's own check fails the member damaged")
    func lyingSize() throws {
        let dir = try TempDir("archive-lying-size")
        var bytes = try F.bytes(F.make("zip", [.file("bomb", Array(repeating: 0, count: 200_000))], in: dir, name: "l.zip"))
        // The uncompressed size in the local header (offset 22) and the central directory's (24): 100.
        let central = try #require(bytes.indices.dropLast(3).first { bytes[$0...$0 + 3].elementsEqual([0x50, 0x4B, 1, 2]) })
        for offset in [22, central + 24] { bytes.replaceSubrange(offset..<offset + 4, with: [100, 0, 0, 0]) }
        let (entries, reader) = try F.entries(bytes: bytes, limits: ArchiveLimits(maxMemberBytes: 50_000))
        #expect(entries.count == 1 && entries[0].failure?.kind == .damaged, "\(entries)")
        let message = entries.first?.failure?.message ?? ""
        #expect(message.hasPrefix("member 0 ('bomb') does not unpack: ZIP uncompressed data is wrong size (read 200000, expected 100)"), "\(message)")
        #expect(reader.unpackedBytes <= 100)
    }

    /// Python's zipfile writing to a stream it cannot seek: sizes only after the data (bit 3).
    @Test("a ZIP streamed through a pipe, sizes unknown until the data ends: counted as it unpacks, 200,000 zeros past a 50,000 limit")
    func streamedUnknownSize() throws {
        let dir = try TempDir("archive-pipe")
        let items: [F.Item] = [.file("zeros", Array(repeating: 0, count: 200_000)), .file("after", [1, 2, 3])]
        let bytes = try F.bytes(F.make("zip-unseekable", items, in: dir, name: "s.zip"))
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0 && bytes.count < 60_000, "the pipe holds the whole archive")
        #expect(bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == bytes.count)
        close(ends[1])
        defer { close(ends[0]) }
        let reader = try ArchiveReader(fileDescriptor: ends[0], limits: ArchiveLimits(maxMemberBytes: 50_000))
        let entries = F.all(reader)
        try #require(entries.count == 2, "\(entries)")
        #expect(entries[0].failure?.kind == .tooLarge && entries[1].member?.bytes == [1, 2, 3], "\(entries)")
        #expect(entries[0].failure?.message == "member 0 ('zeros') unpacks to more than 50000 bytes, the member size limit")
        #expect(entries[1].member?.size == nil, "the streamed header declares no size")
        // Zeros: the bytes unpacked are hundreds of times the archive's bytes consumed.
        #expect(reader.unpackedBytes > 50_000 && reader.consumedBytes <= bytes.count && reader.unpackedBytes > 100 * reader.consumedBytes)
    }

    @Test("the total bytes limit stops the reading at the member that passes it, saying so")
    func totalLimit() throws {
        let dir = try TempDir("archive-total-limit")
        let items: [F.Item] = (0..<4).map { .file("m\($0)", F.noise(40_000, seed: UInt64($0))) }
        let path = try F.make("tar.xz", items, in: dir, name: "t.tar.xz")
        let (entries, reader) = try F.entries(path, limits: ArchiveLimits(maxTotalBytes: 100_000))
        try #require(entries.count == 3, "\(entries)")
        #expect(entries[0].member?.bytes == F.noise(40_000, seed: 0) && entries[1].member?.bytes == F.noise(40_000, seed: 1))
        let failure = try #require(entries[2].failure)
        #expect(failure.kind == .totalLimit && failure.index == 2)
        #expect(failure.message.contains("member 2 ('m2') takes the archive past 100000 bytes unpacked, the total limit"), "\(failure.message)")
        #expect(reader.unpackedBytes <= 100_000 && reader.next() == nil)
    }

    @Test("the member count limit stops the reading after that many entries, saying so")
    func countLimit() throws {
        let dir = try TempDir("archive-count-limit")
        let path = try F.make("zip-many:5", [], in: dir, name: "c.zip")
        let (entries, reader) = try F.entries(path, limits: ArchiveLimits(maxMembers: 3))
        #expect(entries.prefix(3).compactMap(\.member).map(\.index) == [0, 1, 2])
        let failure = try #require(entries.count == 4 ? entries[3].failure : nil, "\(entries)")
        #expect(failure.kind == .countLimit && failure.index == 3)
        #expect(failure.message == "member 3 ('m/3.bin') is past the member count limit: the archive holds more than 3 entries")
        #expect(reader.next() == nil)
    }

    @Test("a truncated archive keeps the members before the cut and says where it broke", arguments: ["zip", "tar.gz", "7z"])
    func truncated(kind: String) throws {
        let dir = try TempDir("archive-truncated")
        let names = ["a.png", "b.png", "c.png"]
        let items: [F.Item] = names.enumerated().map { .file($0.element, F.noise(30_000, seed: UInt64($0.offset))) }
        var path: String
        if kind == "7z" {
            let src = try dir.mkdir("src")
            for (i, name) in names.enumerated() { try dir.write("src/" + name, F.noise(30_000, seed: UInt64(i))) }
            try run("7z", ["a", "-t7z", "-bd", "-mx=0", dir.file("t.7z")] + names, currentDirectory: src)
            path = dir.file("t.7z")
        } else {
            path = try F.make(kind, items, in: dir, name: "t." + kind)
        }
        let whole = try F.bytes(path)
        let cut = Array(whole.prefix(whole.count * 3 / 4))  // in c.png's data (noise does not shrink)
        let (entries, _) = try F.entries(bytes: cut)
        if kind == "7z" {
            // 7z's headers are at its end: a cut one has no member to keep, and says so.
            try #require(entries.count == 1, "\(entries)")
            #expect(entries[0].broken?.afterIndex == nil && entries[0].broken?.encrypted == false)
            #expect(entries[0].broken?.message.hasPrefix("truncated or damaged before its first member: ") == true, "\(entries)")
            return
        }
        let members = entries.compactMap(\.member)
        #expect(members.map(\.nameBytes.utf8Text) == ["a.png", "b.png"], "\(kind): \(entries)")
        #expect(members.map(\.bytes) == [F.noise(30_000, seed: 0), F.noise(30_000, seed: 1)])
        let broken = try #require(entries.last?.broken, "\(kind): \(entries)")
        #expect(broken.afterIndex == 1 && !broken.encrypted)
        #expect(broken.message.hasPrefix("truncated or damaged after member 1 ('b.png'), in member 2 ('c.png'): "), "\(broken.message)")
        #expect(broken.message.count > "truncated or damaged after member 1 ('b.png'), in member 2 ('c.png'): ".count)
    }

    @Test("a member whose data is damaged (CRC) fails damaged; the members beside it are read")
    func damagedMember() throws {
        let dir = try TempDir("archive-damaged")
        let items: [F.Item] = (0..<3).map { .file("m\($0)", F.noise(2_000, seed: UInt64($0))) }
        var bytes = try F.bytes(F.make("zip-stored", items, in: dir, name: "d.zip"))
        // The second member's data starts after its 30-byte local header and 2-byte name.
        let second = 30 + 2 + 2_000 + 30 + 2
        bytes[second + 1_000] ^= 0xFF
        let (entries, _) = try F.entries(bytes: bytes)
        try #require(entries.count == 3, "\(entries)")
        #expect(entries[0].member?.bytes == F.noise(2_000, seed: 0) && entries[2].member?.bytes == F.noise(2_000, seed: 2))
        let failure = try #require(entries[1].failure)
        #expect(failure.kind == .damaged && failure.message.hasPrefix("member 1 ('m1') does not unpack: "), "\(failure.message)")
        #expect(failure.message.lowercased().contains("crc"), "\(failure.message)")
    }

    @Test("duplicate names are separate members, told apart by their index")
    func duplicateNames() throws {
        let dir = try TempDir("archive-duplicates")
        let items: [F.Item] = [.file("a.png", F.noise(100, seed: 1)), .file("a.png", F.noise(200, seed: 2)), .file("a.png", [])]
        for kind in ["zip", "tar"] {
            let (entries, _) = try F.entries(F.make(kind, items, in: dir, name: "dup." + kind))
            let members = entries.compactMap(\.member)
            #expect(members.map(\.index) == [0, 1, 2] && Set(members.map(\.nameBytes)) == [Array("a.png".utf8)], "\(kind)")
            #expect(members.map(\.bytes) == [F.noise(100, seed: 1), F.noise(200, seed: 2), []], "\(kind)")
        }
    }

    @Test("names that climb out of a folder, or are absolute, come back as bytes; nothing is written")
    func traversalNames() throws {
        let dir = try TempDir("archive-traversal")
        let unique = "codesweep-traversal-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).png"
        let names = ["../../../tmp/" + unique, "/tmp/abs-" + unique, "a/../../" + unique]
        let items: [F.Item] = names.map { .file($0, F.noise(64, seed: 5)) }
        for kind in ["zip", "tar.gz"] {
            let path = try F.make(kind, items, in: dir, name: "trav." + kind)
            let before = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            let (entries, _) = try F.entries(path)
            // libarchive's reader does not rewrite names (bsdtar's extraction does, not reading).
            #expect(entries.compactMap(\.member).map(\.nameBytes) == names.map { Array($0.utf8) }, "\(kind): \(entries)")
            #expect(entries.compactMap(\.member).allSatisfy { $0.bytes == F.noise(64, seed: 5) })
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == before)
            for written in ["/tmp/" + unique, "/tmp/abs-" + unique, dir.path + "/../" + unique] {
                #expect(!FileManager.default.fileExists(atPath: written), "\(written)")
            }
        }
    }

    @Test("a name that is not UTF-8 (a Latin-1 tar) keeps its bytes")
    func latin1Name() throws {
        let dir = try TempDir("archive-latin1")
        let (entries, _) = try F.entries(F.make("tar-latin1", [.file("caf\u{E9}.png", [1, 2, 3])], in: dir, name: "l.tar"))
        #expect(entries.compactMap(\.member).map(\.nameBytes) == [[0x63, 0x61, 0x66, 0xE9, 0x2E, 0x70, 0x6E, 0x67]], "\(entries)")
    }
}
