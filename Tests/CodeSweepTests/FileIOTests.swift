import Foundation
import SweepCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `FileIO`, the one reader and writer of descriptors: short reads and writes, a full
/// non-blocking pipe, limits and failures.
@Suite("FileIO")
struct FileIOTests {
    static func pipePair() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    @Test func readAllGathersShortReadsUntilEndOfFile() throws {
        let p = try Self.pipePair()
        let payload = (0..<300_000).map { UInt8($0 % 251) }
        // The writer hands the pipe its bytes in uneven pieces from another thread.
        let writer = Thread {
            var off = 0, step = 1
            while off < payload.count {
                let end = min(payload.count, off + step)
                try? FileIO.writeAll(p.write, payload[off..<end])
                off = end; step = step * 3 + 7
            }
            close(p.write)
        }
        writer.start()
        let got = try FileIO.readAll(p.read)
        close(p.read)
        #expect(got == payload)
    }

    @Test func aFullNonBlockingPipeIsWaitedFor() throws {
        let p = try Self.pipePair()
        _ = fcntl(p.write, F_SETFL, fcntl(p.write, F_GETFL) | O_NONBLOCK)
        let payload = [UInt8](repeating: 0x5A, count: 1 << 20) // far more than a pipe holds
        let reader = Thread { _ = try? FileIO.readAll(p.read); close(p.read) }
        reader.start()
        try FileIO.writeAll(p.write, payload)
        close(p.write)
    }

    @Test func limitsAndFailuresAreErrorsNotShortData() throws {
        let p = try Self.pipePair()
        try FileIO.writeAll(p.write, [UInt8](repeating: 1, count: 1000))
        close(p.write)
        #expect(throws: FileIO.Failure(code: EFBIG)) { try FileIO.readAll(p.read, limit: 999) }
        close(p.read)
        // errno comes through: a folder read as a file, a write to a descriptor opened for
        // reading (valid descriptors: a closed one's number may be reused by a test running
        // beside this one).
        let folder = open("/", O_RDONLY | O_DIRECTORY)
        try #require(folder >= 0)
        #expect(throws: FileIO.Failure(code: EISDIR)) { try FileIO.readAll(folder) }
        #expect(throws: FileIO.Failure(code: EBADF)) { try FileIO.writeAll(folder, [1]) }
        close(folder)
        // readFully stops at the end of the file with the count it got.
        let q = try Self.pipePair()
        try FileIO.writeAll(q.write, [1, 2, 3])
        close(q.write)
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(try FileIO.readFully(q.read, into: &buffer) == 3)
        #expect(buffer.prefix(3) == [1, 2, 3])
        close(q.read)
    }
}
