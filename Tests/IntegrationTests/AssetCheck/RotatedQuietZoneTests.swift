import AssetCheck
import CodeContent
import Foundation
import Payloads
import Records
import Reporting
import TestSupport
import Testing

/// A code turned on a wide white margin keeps its quiet zone and its grade.
@Suite("The grade of turned codes")
struct RotatedQuietZoneTests {
    @Test("a code turned 3, 10, 30 or 45 degrees on a wide white margin keeps its quiet zone (and grade A at 5 px modules)")
    func rotatedQuietZone() throws {
        let dir = try TempDir("rotated")
        var paths: [String] = []
        for module in [4, 5] {
            try run(Tools.qrencode, ["-s", "\(module)", "-m", "8", "-o", dir.file("m\(module).png"), "https://www.example.com/spring?utm_source=poster"])
            for angle in [3, 10, 30, 45] {
                let p = dir.file("m\(module)-r\(angle).png")
                try run(
                    Tools.convert,
                    [dir.file("m\(module).png"), "-bordercolor", "white", "-border", "100", "-background", "white", "-rotate", "\(angle)", "-flatten", p])
                paths.append(p)
            }
        }
        let r = try run(codesweepBinary, ["check", "--no-rules-file", "--isolation", "none", "--json", "-"] + paths, check: false)
        let json = try TestJSON.parse(r.stdout)
        let images = try #require(json["images"]?.array)
        #expect(images.count == paths.count)
        for image in images {
            let path = image["path"]?.string ?? "?"
            let s = image["codes"]?.array?.first?["scannability"]
            let quiet = s?["quiet_zone_modules"]?.double ?? -1
            #expect(quiet >= 7.5, "\(path): quiet zone \(quiet) modules")
            if path.contains("/m5-") { #expect(s?["grade"]?.string == "A", "\(path): \(String(describing: s?["grades"]))") }
        }
        // A mark one module beside the code still ends its quiet zone, upright and turned.
        try run(Tools.qrencode, ["-s", "5", "-m", "8", "-o", dir.file("near.png"), "https://www.example.com/spring?utm_source=poster"])
        try run(Tools.convert, [dir.file("near.png"), "-fill", "black", "-draw", "rectangle 25,50 34,120", dir.file("near-r0.png")])
        try run(
            Tools.convert,
            [dir.file("near-r0.png"), "-bordercolor", "white", "-border", "100", "-background", "white", "-rotate", "10", "-flatten", dir.file("near-r10.png")])
        let near = try TestJSON.parse(
            try run(
                codesweepBinary, ["check", "--no-rules-file", "--isolation", "none", "--json", "-", dir.file("near-r0.png"), dir.file("near-r10.png")],
                check: false
            ).stdout)
        for image in near["images"]?.array ?? [] {
            let quiet = image["codes"]?.array?.first?["scannability"]?["quiet_zone_modules"]?.double ?? -1
            #expect(quiet > 0.7 && quiet < 1.5, "\(image["path"]?.string ?? "?"): quiet zone \(quiet) modules (the mark is 1.2 modules away)")
        }
    }
}
