import Foundation
import Testing
import UserInput

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

    /// A pipe holds 64 KiB: the first write(2) of 1 MiB to a non-blocking pipe is short, and
    /// the next ones fail with EAGAIN until the reader drains it. Every byte must arrive, in
    /// order: a write loop that returned after a short write would deliver only the first piece.
    @Test func aFullNonBlockingPipeIsWaitedFor() throws {
        let p = try Self.pipePair()
        _ = fcntl(p.write, F_SETFL, fcntl(p.write, F_GETFL) | O_NONBLOCK)
        let payload = (0..<(1 << 20)).map { UInt8($0 % 251) }  // far more than a pipe holds
        final class Received: @unchecked Sendable { var bytes: [UInt8] = []; var failure: (any Error)? }
        let received = Received(), done = DispatchSemaphore(value: 0)
        let reader = Thread {
            do { received.bytes = try FileIO.readAll(p.read) } catch { received.failure = error }
            close(p.read)
            done.signal()
        }
        reader.start()
        try FileIO.writeAll(p.write, payload)
        close(p.write)
        done.wait()
        #expect(received.failure == nil)
        #expect(received.bytes.count == payload.count)
        // Not `#expect(received.bytes == payload)`: on a failure the testing library would diff
        // two arrays of a mebibyte, which takes minutes; the first differing offset says enough.
        let firstDifference = zip(received.bytes, payload).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "the bytes read differ from those written from offset \(firstDifference ?? -1)")
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
