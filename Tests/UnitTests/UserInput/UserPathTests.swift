import Foundation
import TestSupport
import Testing
import UserInput

#if canImport(Glibc)
import Glibc
#endif

/// `UserPath`, the one way a path the user gave is opened, stat'ed, read and made: by the
/// bytes the escaped argument stands for, named in messages as `display` shows it.
@Suite("UserPath")
struct UserPathTests {
    /// The escaped argument for `folder/name` where `name`'s `~` is byte 0xff.
    static func argument(_ folder: String, _ name: String) -> String {
        ArgumentBytes.escape(Array((folder + "/").utf8) + name.utf8.map { $0 == UInt8(ascii: "~") ? 0xFF : $0 })
    }

    @Test func opensReadsAndMakesByTheArgumentsBytes() throws {
        let dir = try TempDir("userpath")
        // Removed here (last made, first removed): Foundation's clean-up may not take such names.
        defer { _ = UserPath.withCPath(Array(dir.path.utf8) + Array("/f".utf8) + [0xFF]) { rmdir($0) } }
        defer { _ = UserPath.withCPath(Array(dir.path.utf8) + Array("/f".utf8) + [0xFF] + Array("/g".utf8)) { rmdir($0) } }
        defer { _ = UserPath.withCPath(Array(dir.path.utf8) + Array("/r".utf8) + [0xFF]) { unlink($0) } }
        let file = Self.argument(dir.path, "r~")
        #expect(file.unicodeScalars.contains { $0.value == 0xF7FF })  // escaped, as the parser holds it
        let fd = try UserPath.open(file, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        try FileIO.writeAll(fd, Array("report".utf8))
        close(fd)
        // The file has exactly the byte 0xff in its name.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(names.count == 1)
        #expect(UserPath.status(bytes: Array(dir.path.utf8) + Array("/r".utf8) + [0xFF]) != nil)
        #expect(try UserPath.readWhole(file, limit: 100, limitText: "100 bytes") == Array("report".utf8))
        #expect(UserPath.exists(file) && !UserPath.isFolder(file))
        #expect(UserPath.sameFile(file, file))
        #expect(UserPath.realPath(bytes: ArgumentBytes.bytes(file))?.last == 0xFF)

        let folder = Self.argument(dir.path, "f~/g")
        try UserPath.makeFolders(folder)
        try UserPath.makeFolders(folder)  // there already: fine
        #expect(UserPath.isFolder(folder))
        #expect(UserPath.isFolder(Self.argument(dir.path, "f~")))
    }

    /// The failure `body` throws (an issue is recorded when it throws none).
    static func failure(_ body: () throws -> Void) -> UserPath.Failure? {
        do {
            try body()
            Issue.record("no failure")
        } catch let failure as UserPath.Failure {
            return failure
        } catch {
            Issue.record("not a UserPath.Failure: \(error)")
        }
        return nil
    }

    @Test func failuresNameThePathAsShown() throws {
        let dir = try TempDir("userpath")
        let missing = Self.argument(dir.path, "no~")
        let shown = dir.path + "/no\u{FFFD}"
        let open = try #require(Self.failure { _ = try UserPath.open(missing, O_RDONLY) })
        #expect(open.code == ENOENT)
        #expect(open.description == "cannot open \(shown): No such file or directory")
        let read = try #require(Self.failure { _ = try UserPath.readWhole(missing, limit: 10, limitText: "10 bytes") })
        #expect(read.description == open.description)
        try Data(repeating: 0x41, count: 11).write(to: URL(fileURLWithPath: dir.file("big")))
        let big = try #require(Self.failure { _ = try UserPath.readWhole(dir.file("big"), limit: 10, limitText: "10 bytes for a test") })
        #expect(big.code == EFBIG)
        #expect(big.description == "cannot read \(dir.file("big")): it is larger than the limit of 10 bytes for a test")
        // A file where a folder is to be made.
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir.file("plain")))
        let made = try #require(Self.failure { try UserPath.makeFolders(dir.file("plain") + "/sub") })
        #expect(made.code == EEXIST)
        #expect(made.description == "cannot create the folder \(dir.file("plain"))/sub: File exists")
        #expect(!UserPath.exists(missing) && UserPath.status(missing) == nil)
        #expect(UserPath.shown("-") == "standard input")
    }

    @Test func theCurrentFolderIsCarriedAsAnArgument() {
        let cwd = UserPath.currentFolder()
        #expect(cwd.hasPrefix("/"))
        #expect(UserPath.isFolder(cwd))
        #expect(ArgumentBytes.bytes(cwd) == Array(FileManager.default.currentDirectoryPath.utf8) || cwd.unicodeScalars.contains { $0.value >= 0xF780 })
    }
}
