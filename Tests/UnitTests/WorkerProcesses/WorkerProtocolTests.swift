import Records
import Reporting
import Testing

@testable import WorkerProcesses

/// The line protocol between a sweep and its workers: what crosses the pipe reads back as it was.
@Suite("Worker protocol")
struct WorkerProtocolTests {
    @Test("a worker replies with the engine's own values: payload bytes, corners, orientation and times as they were")
    func workerRepliesCarryTheEnginesValues() throws {
        var code = DetectedCode(
            symbology: .qr, bytes: [0xC4, 0xE3, 0xBA, 0xC3, 0x00, 0xFF],
            corners: Quad([Point(x: 10.123456789, y: 20.05), Point(x: 90.25, y: 20), Point(x: 90, y: 99.95), Point(x: 10, y: 100)]),
            quality: 1, orientation: 1, frame: 2, pass: "p", gs1: false)
        code.qr = QRDetails(version: 2, ecLevel: "Q", mask: 5, mirrored: true, eci: 26)
        var record = FileRecord(path: "dir/a.jpg")
        record.format = .jpeg
        record.width = 100; record.height = 120; record.orientation = 6; record.frames = 3
        record.codes = [
            code,
            DetectedCode(
                symbology: .ean13, bytes: Array("4006381333931".utf8), corners: code.corners,
                quality: 37, orientation: -1, frame: 0, pass: "q"),
        ]
        record.warnings = ["w"]
        record.failedDecoder = "zxing-cpp"
        record.size = 1234
        record.mtime = 1_700_000_000.123456
        record.timings = RecordTimings()
        record.timings?.read = 0.0123; record.timings?.scan = 12.345678
        record.hashes = ["sha256": "ab"]
        record.metadata = ImageMetadata(captureTime: "2023-07-14T10:32:05", cameraMake: "M", gps: GPSPosition(latitude: 1.5, longitude: -2.25))
        guard case .record(let back) = WorkerProtocol.parseReply(Array(WorkerProtocol.reply(record).utf8)) else {
            Issue.record("the reply did not read back"); return
        }
        #expect(back == record)
        #expect(back.codes.map(\.orientation) == [1, -1] && back.codes[0].corners == code.corners && back.mtime == record.mtime)
        #expect(back.timings?.read == 0.0123 && back.timings?.scan == 12.345678 && back.timings?.decode == nil)
        guard case .partial(let partial) = WorkerProtocol.parseReply(Array(WorkerProtocol.partial(record).utf8)) else {
            Issue.record("the partial reply did not read back"); return
        }
        #expect(partial == record)
        let failed = FileRecord.failure(path: "b.png", RecordError(.corrupt, "broken"))
        guard case .record(let f) = WorkerProtocol.parseReply(Array(WorkerProtocol.reply(failed).utf8)) else {
            Issue.record("the failure did not read back"); return
        }
        #expect(f == failed)
        #expect(WorkerProtocol.parseReply(Array(WorkerProtocol.reply(nil).utf8)) == .skipped)
        let size = WorkerProtocol.IdleSize(virtual: 5 << 20, peakResident: 3 << 20)
        #expect(WorkerProtocol.parseReply(Array(WorkerProtocol.ready(size).utf8)) == .ready(size))
        #expect(WorkerProtocol.parseReply(Array("{\"record\": {\"path\": 1}}".utf8)) == .invalid)
        #expect(WorkerProtocol.reply(record).filter { $0 == "\n" }.count == 1, "one line")
    }
}
