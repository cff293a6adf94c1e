import Foundation
import Records
import Reporting
import Testing

/// Records read back through Foundation's JSONDecoder (worker replies, resume files, reports):
/// what `FileRecord.json()` writes reads back equal, and what RFC 8259 forbids does not read.
@Suite("Reading records back")
struct RecordReadingTests {
    static func fullRecord() -> FileRecord {
        var r = FileRecord(path: "caf\u{FFFD}/a.png", pathBytes: Array("caf".utf8) + [0xE9] + Array("/a.png".utf8))
        r.format = .png; r.width = 640; r.height = 480; r.orientation = 6; r.frames = 2; r.size = 1234; r.mtime = 1700000000.125
        r.warnings = ["frame 2: unreadable"]; r.failedDecoder = "zxing-cpp"
        r.hashes = ["sha256": "ab", "md5": "cd"]
        r.metadata = ImageMetadata(
            captureTime: "2023-07-14T10:32:05+02:00", cameraMake: "Make", gps: GPSPosition(latitude: -1.5, longitude: 2.25, altitude: -3))
        var t = RecordTimings()
        t.read = 1.5; t.hash = 0.5; t.decode = 2; t.fullDecode = 3; t.scan = 10.5; t.grade = 0.5
        r.timings = t
        let quad = Quad([Point(x: 1, y: 2), Point(x: 10.5, y: 2), Point(x: 10.5, y: 9), Point(x: 1, y: 9)])
        r.codes = [
            DetectedCode(symbology: .qr, bytes: [0x00, 0x1B, 0xFF, 0x41], corners: quad, quality: 1, orientation: 2, frame: 1, pass: "gray-full"),
            DetectedCode(symbology: .datamatrix, bytes: Array("(01)123".utf8), corners: quad, quality: 0, orientation: -1, frame: 0, pass: "zxing", gs1: true),
        ]
        return r
    }

    @Test func aRecordReadsBackAsWritten() throws {
        let r = Self.fullRecord()
        let back = try FileRecord.read(json: Array(r.json().serialized().utf8))
        #expect(back == r)
        // Timings are listed in the order the stages run, whatever order a report has them in.
        let listed = r.json()["timings_ms"]
        #expect(
            listed
                == .object([
                    ("read", .double(1.5)), ("hash", .double(0.5)), ("decode", .double(2)), ("full_decode", .double(3)), ("scan", .double(10.5)),
                    ("grade", .double(0.5)),
                ]))
        let shuffled = #"{"path":"a.png","status":"ok","codes":[],"timings_ms":{"scan":10.5,"full_decode":3,"read":1.5}}"#
        #expect(
            try FileRecord.read(json: Array(shuffled.utf8)).json()["timings_ms"]
                == .object([("read", .double(1.5)), ("full_decode", .double(3)), ("scan", .double(10.5))]))
        #expect(back.json().serialized() == r.json().serialized())
        var failed = FileRecord.failure(path: "x.png", RecordError(.truncated, "cut short"))
        failed.size = 0
        #expect(try FileRecord.read(json: Array(failed.json().serialized().utf8)) == failed)
    }

    @Test func whatJSONForbidsDoesNotRead() {
        let good = #"{"path":"a.png","status":"ok","codes":[],"size":1}"#
        #expect((try? FileRecord.read(json: Array(good.utf8))) != nil)
        for bad in [
            #"{"path":"a.png","codes":[],"size":01}"#, #"{"path":"a.png","codes":[],"size":+1}"#,
            #"{"path":"a.png","codes":[],"mtime":.5}"#, #"{"path":"a.png","codes":[],"mtime":1.}"#,
            #"{"path":"a.png","codes":[]} x"#, #"{"path":"a.png","codes":[]"#, #"{"path":"\ud800"}"#,
        ] {
            #expect(throws: JSONReading.Failure.self, "\(bad)") { try FileRecord.read(json: Array(bad.utf8)) }
        }
        let invalidUTF8 = Array(#"{"path":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: JSONReading.Failure.self) { try FileRecord.read(json: invalidUTF8) }
    }

    @Test func aBrokenCodeOrPathIsAnErrorNotADefault() {
        let code = #"{"symbology":"qr","bytes_b64":"QUJD","corners":[[0,0],[1,0],[1,1],[0,1]]}"#
        #expect((try? FileRecord.read(json: Array(#"{"path":"a","status":"ok","codes":[\#(code)]}"#.utf8)))?.codes.first?.bytes == Array("ABC".utf8))
        for bad in [
            #"{"path":"a","codes":[{"symbology":"qr","bytes_b64":"QUJD","corners":[[0,0],[1,0],[1,1]]}]}"#,
            #"{"path":"a","codes":[{"symbology":"nope","bytes_b64":"QUJD","corners":[[0,0],[1,0],[1,1],[0,1]]}]}"#,
            #"{"path":"a","codes":[{"symbology":"qr","bytes_b64":"!!","corners":[[0,0],[1,0],[1,1],[0,1]]}]}"#,
            #"{"path":"a","path_b64":"not base64!","codes":[]}"#, #"{"codes":[]}"#,
        ] {
            #expect(throws: JSONReading.Failure.self, "\(bad)") { try FileRecord.read(json: Array(bad.utf8)) }
        }
    }

    @Test func anyJSONReadsAsAValue() throws {
        let v = try JSONReading.value(#"{"b":[1,2.5,"\u00e9\ud83d\ude00",null,true],"a":{}}"#)
        #expect(v["b"]?.arrayValue?.count == 5)
        #expect(v["b"]?.arrayValue?[0] == .int(1))
        #expect(v["b"]?.arrayValue?[1] == .double(2.5))
        #expect(v["b"]?.arrayValue?[2].stringValue == "é😀")
        #expect(v["b"]?.arrayValue?[4].boolValue == true)
        #expect(v["a"] == .object([]))
        #expect(Base64.decode(Base64.encode([0, 1, 254, 255])) == [0, 1, 254, 255])
        #expect(Base64.decode("!!") == nil)
    }
}
