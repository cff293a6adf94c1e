import Foundation
import TestSupport
import Testing

/// --hash and EXIF/XMP metadata, checked against independent tools on files made here.
@Suite("Forensic provenance", .serialized)
struct ForensicProvenanceTests {
    @Test("--hash sha256,md5 equals sha256sum and md5sum, for images and for a named non-image")
    func hashesMatchCoreutils() throws {
        let dir = try TempDir("forensic-hash")
        let png = dir.url.appendingPathComponent("a.png"), jpg = dir.url.appendingPathComponent("b.jpg")
        let txt = dir.url.appendingPathComponent("c.txt")
        try Forensic.makeQR("hash me", at: png)
        try Forensic.makeQR("hash me too", at: jpg)
        try Data("not an image, but named: still hashed\n".utf8).write(to: txt)
        // Repeated and comma-separated forms, in both isolation modes (the worker's reply round-trips).
        for isolation in ["process", "none"] {
            let r = try run(
                codesweepBinary,
                [
                    "scan", "-q", "--isolation", isolation, "--hash", "sha256,md5", "--hash", "SHA256",
                    png.path, jpg.path, txt.path,
                ], check: false)
            #expect(r.status == 1, "the .txt is not an image: exit 1")
            let recs = try Forensic.records(r.stdoutBytes)
            try #require(recs.count == 3)
            for (rec, file) in zip(recs, [png, jpg, txt]) {
                let sha = try run("sha256sum", [file.path], check: false).stdout.split(separator: " ").first.map(String.init)
                let md5 = try run("md5sum", [file.path], check: false).stdout.split(separator: " ").first.map(String.init)
                #expect(rec["hashes"]?["sha256"]?.stringValue == sha)
                #expect(rec["hashes"]?["md5"]?.stringValue == md5)
                #expect(rec["hashes"]?["sha256"]?.stringValue?.count == 64)
                if case .object(let h)? = rec["hashes"] { #expect(h.map(\.0) == ["md5", "sha256"]) }
            }
            #expect(recs[0]["codes"]?.arrayValue?.first?["text"]?.stringValue == "hash me")
        }
        // Without --hash there is no "hashes" field; an unknown algorithm is a usage error.
        let plain = try run(codesweepBinary, ["scan", "-q", png.path], check: false)
        #expect(try Forensic.records(plain.stdoutBytes)[0]["hashes"] == nil)
        let bad = try run(codesweepBinary, ["scan", "-q", "--hash", "crc32", png.path], check: false)
        #expect(bad.status != 0 && bad.stderr.contains("unknown hash 'crc32'"))
    }

    @Test("EXIF written by exiftool comes back exactly: capture time with offset, make, model, signed GPS, software")
    func exifMetadata() throws {
        let dir = try TempDir("forensic-exif")
        let jpg = dir.url.appendingPathComponent("photo.jpg")
        try Forensic.makeQR("metadata", at: jpg)
        let set = try run(
            "exiftool",
            [
                "-q", "-overwrite_original",
                "-DateTimeOriginal=2023:07:14 10:32:05", "-OffsetTimeOriginal=+02:00",
                "-Make=Canon", "-Model=Canon EOS R5", "-Software=CodeSweep Test 1.0",
                "-GPSLatitude=48.8582", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=W",
                "-GPSAltitude=35.5", "-n", "-GPSAltitudeRef=1", jpg.path,
            ], check: false)
        try #require(set.status == 0, "exiftool: \(set.stderr)")
        // An XMP-only file (no EXIF block): the XMP fallbacks.
        let xmp = dir.url.appendingPathComponent("xmp.jpg")
        try Forensic.makeQR("xmp", at: xmp)
        let setX = try run(
            "exiftool",
            [
                "-q", "-overwrite_original",
                "-XMP-exif:DateTimeOriginal=2022:01:02 03:04:05+01:00", "-XMP-xmp:CreatorTool=Darktable 4.2",
                "-XMP-exif:GPSLatitude=33.5 S", "-XMP-exif:GPSLongitude=151.25 E", xmp.path,
            ], check: false)
        try #require(setX.status == 0, "exiftool: \(setX.stderr)")
        let none = dir.url.appendingPathComponent("none.png")
        try Forensic.makeQR("none", at: none)

        var lines: [[String]] = []
        for isolation in ["process", "none"] {
            let r = try run(codesweepBinary, ["scan", "-q", "--isolation", isolation, dir.path], check: false)
            #expect(r.status == 0, "\(r.stderr)")
            let recs = try Forensic.records(r.stdoutBytes)
            try #require(recs.count == 3)
            #expect(recs[1]["path"]?.stringValue?.hasSuffix("photo.jpg") == true)
            // The fields in their documented order, as written (the parsed value has no order).
            let written = Forensic.lines(r.stdoutBytes)
            #expect(
                written[1].contains(
                    #""metadata":{"capture_time":"2023-07-14T10:32:05+02:00","camera_make":"Canon","camera_model":"Canon EOS R5","gps":{"lat":48.8582,"lon":-2.2945,"alt":-35.5},"software":"CodeSweep Test 1.0"}"#
                ), "\(written[1])")
            #expect(recs[1]["codes"]?.arrayValue?.first?["text"]?.stringValue == "metadata")
            #expect(
                written[2].contains(
                    #""metadata":{"capture_time":"2022-01-02T03:04:05+01:00","gps":{"lat":-33.5,"lon":151.25},"software":"Darktable 4.2"}"#), "\(written[2])")
            #expect(recs[0]["metadata"] == nil, "a PNG without metadata has no field")
            lines.append(Forensic.lines(r.stdoutBytes))
        }
        // Worker → coordinator round trip: the same lines whether decoded in a worker or in-process.
        #expect(lines[0] == lines[1])

        // Every optional field at once (metadata, hashes, timings) is valid against the record schema.
        let full = try run(codesweepBinary, ["scan", "-q", "--hash", "sha256,md5,sha1,sha512", "--timings", dir.path], check: false)
        let fullLines = Forensic.lines(full.stdoutBytes)
        #expect(fullLines.count == 3)
        #expect(try SchemaCheck.problems(full.stdoutBytes, schema: "record.schema.json", lines: true) == [], "\(full.stdout)")
        for line in fullLines {
            let record = try TestJSON.parse(line)
            #expect(record["timings_ms"]?["scan"] != nil && record["hashes"]?["sha512"] != nil)
        }
    }
}
