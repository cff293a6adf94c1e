import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `report --html` shows the provenance the records hold (digests, capture time, camera, GPS,
/// software, size) and URL hosts in Unicode, look-alikes marked. Real images (qrencode, EXIF written
/// by exiftool), scanned by the real binary; the page parsed as strict XML.
@Suite("report --html shows provenance and Unicode hosts")
struct HTMLReportProvenanceTests {
    typealias P = PictureReportTests

    /// A scan with --hash of: a JPEG with EXIF (a hostile camera model among it), an IDN link, a
    /// look-alike link; and the page made from it.
    static func makePage() throws -> (dir: TempDir, doc: XMLDocument, html: String) {
        let dir = try TempDir("report")
        try dir.mkdir("in")
        try Make.qr("https://example.com/photo", to: dir.file("in/qr.png"), scale: 6, margin: 4)
        try Make.convert([dir.file("in/qr.png"), "-quality", "95", dir.file("in/photo.jpg")])
        try FileManager.default.removeItem(atPath: dir.file("in/qr.png"))
        let set = try run(
            Tools.exiftool,
            [
                "-q", "-overwrite_original", "-DateTimeOriginal=2023:07:14 10:32:05", "-OffsetTimeOriginal=+02:00",
                "-Make=Canon", "-Model=Canon <b>EOS</b> R5 \u{202E}x", "-Software=Shop & Co",
                "-GPSLatitude=48.8582", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=W",
                "-GPSAltitude=35.5", "-n", "-GPSAltitudeRef=1", dir.file("in/photo.jpg"),
            ], check: false)
        try #require(set.status == 0, "exiftool: \(set.stderr)")
        try Make.qr("https://例え.jp/x", to: dir.file("in/idn.png"), scale: 4, margin: 4)
        try Make.qr("https://g\u{043E}ogle.com/login", to: dir.file("in/phish.png"), scale: 4, margin: 4)
        let scan = try run(codesweepBinary, ["scan", "-q", "--hash", "sha256,md5", "-o", "r.jsonl", "in"], currentDirectory: dir.path, check: false)
        #expect(scan.status == 0, "\(scan.stderr)")
        let rep = try run(codesweepBinary, ["report", "r.jsonl", "--html", "r.html"], currentDirectory: dir.path, check: false)
        #expect(rep.status == 0, "\(rep.stderr)")
        let html = try String(contentsOfFile: dir.file("r.html"), encoding: .utf8)
        return (dir, try P.parse(html), html)
    }

    /// dt → dd of the provenance list in the card whose path ends with `name`.
    static func provenance(_ doc: XMLDocument, _ name: String) throws -> [String: String] {
        let card = "//section[h2[substring(., string-length(.) - \(name.count - 1)) = '\(name)']]"
        let terms = try P.nodes(doc, card + "/dl[@class='prov']/dt").compactMap(\.stringValue)
        let values = try P.nodes(doc, card + "/dl[@class='prov']/dd").compactMap(\.stringValue)
        return Dictionary(zip(terms, values), uniquingKeysWith: { a, _ in a })
    }

    @Test("each card shows the record's sha256 (and md5), capture time, camera, GPS, software and size, escaped")
    func provenanceIsShown() throws {
        let (dir, doc, html) = try Self.makePage()
        let p = try Self.provenance(doc, "photo.jpg")
        let sha = try run("sha256sum", [dir.file("in/photo.jpg")]).stdout.prefix(64)
        #expect(p["sha256"] == String(sha), "\(p)")
        #expect(p["md5"]?.count == 32)
        #expect(p["captured"] == "2023-07-14T10:32:05+02:00")
        // The model names the make; its markup is inert text (the bidi override is already
        // gone from the record: the metadata reader keeps EXIF's ASCII).
        #expect(p["camera"]?.hasPrefix("Canon <b>EOS</b> R5 ") == true && p["camera"]?.contains("\u{202E}") == false, "\(p)")
        #expect(p["GPS"] == "48.8582, -2.2945 (altitude -35.5 m)")
        #expect(p["software"] == "Shop & Co")
        let size = try FileManager.default.attributesOfItem(atPath: dir.file("in/photo.jpg"))[.size] as? Int
        #expect(p["size"]?.hasPrefix("\(size ?? -1) bytes") == true, "\(p)")
        // sha256 first, then the rest by name.
        let card = "//section[h2[contains(., 'photo.jpg')]]/dl[@class='prov']/dt"
        #expect(try P.nodes(doc, card).compactMap(\.stringValue).prefix(2) == ["sha256", "md5"])
        // Hostile EXIF text is text: no element from it, no raw bidi override.
        #expect(try P.nodes(doc, "//b").isEmpty && !html.unicodeScalars.contains("\u{202E}"))
        #expect(html.contains("Canon &lt;b&gt;EOS&lt;/b&gt; R5") && html.contains("Shop &amp; Co"))
        // A record without metadata still shows its digests and size, nothing made up.
        let idn = try Self.provenance(doc, "idn.png")
        #expect(idn["sha256"]?.count == 64 && idn["size"] != nil && idn["captured"] == nil && idn["GPS"] == nil, "\(idn)")
    }

    @Test("a report written by hand with markup and a bidi override in its hashes and metadata: all of it inert text")
    func hostileProvenance() throws {
        let dir = try TempDir("report-hostile")
        let record =
            #"{"path":"x.png","status":"ok","format":"png","width":10,"height":10,"codes":[],"size":12,"#
            + #""hashes":{"sha256":"<script>alert(1)</script>\u202e"},"#
            + #""metadata":{"capture_time":"<i>t</i>","camera_make":"A&B","camera_model":"\u202eledom","gps":{"lat":1.5,"lon":-2.25}}}"#
        try Data((record + "\n").utf8).write(to: URL(fileURLWithPath: dir.file("r.jsonl")))
        let rep = try run(codesweepBinary, ["report", "r.jsonl", "--html", "r.html", "--thumbnail-size", "0"], currentDirectory: dir.path, check: false)
        #expect(rep.status == 0, "\(rep.stderr)")
        let html = try String(contentsOfFile: dir.file("r.html"), encoding: .utf8)
        let doc = try P.parse(html)
        #expect(try P.nodes(doc, "//script").count == 1 && P.nodes(doc, "//i").isEmpty)
        #expect(!html.unicodeScalars.contains("\u{202E}"))
        let p = try Self.provenance(doc, "x.png")
        #expect(p["sha256"] == "<script>alert(1)</script>\\u{202E}", "\(p)")
        #expect(p["captured"] == "<i>t</i>" && p["camera"] == "A&B \\u{202E}ledom" && p["GPS"] == "1.5, -2.25" && p["size"] == "12 bytes", "\(p)")
    }

    @Test("the host filter shows 例え.jp (not only xn--r8jz45g.jp); a look-alike host is marked in the filter and under its code")
    func unicodeHosts() throws {
        let (_, doc, _) = try Self.makePage()
        let options = try P.nodes(doc, "//select[@id='f-host']/option")
        let byValue = Dictionary(
            uniqueKeysWithValues: try options.map { o in
                (try o.nodes(forXPath: "@value").first?.stringValue ?? "", o.stringValue ?? "")
            })
        #expect(byValue["xn--r8jz45g.jp"] == "例え.jp (xn--r8jz45g.jp) (1)", "\(byValue)")
        #expect(byValue["example.com"] == "example.com (1)")
        #expect(byValue["xn--gogle-jye.com"] == "xn--gogle-jye.com (g\u{043E}ogle.com) LOOK-ALIKE (1)", "\(byValue)")
        // Under the codes: the Unicode and punycode forms, and the look-alike warning.
        let notes = try P.nodes(doc, "//li[@data-host='xn--r8jz45g.jp']/span[@class='note']").compactMap(\.stringValue)
        #expect(notes.contains("host 例え.jp = xn--r8jz45g.jp"), "\(notes)")
        let warn = try P.nodes(doc, "//li[@data-host='xn--gogle-jye.com']/span[@class='warn']").compactMap(\.stringValue)
        #expect(
            warn.first?.contains(
                "look-alike host xn--gogle-jye.com (g\u{043E}ogle.com): its label 'g\u{043E}ogle' mixes Latin and Cyrillic letters (it reads as google.com)")
                == true, "\(warn)")
    }
}
