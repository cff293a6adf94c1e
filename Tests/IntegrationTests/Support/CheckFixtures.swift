import Foundation
import Records
import Reporting
import TestSupport
import Testing

@testable import AssetCheck

/// Assets made at test time with qrencode, zint and the real ImageMagick (/usr/bin/convert),
/// scanned once with the real engine and shared by the Check* suites.
enum CheckFixtures {
    static let good = "https://www.example.com/spring?utm_source=poster&utm_medium=print&utm_campaign=spring-2026"
    static let http = "http://www.example.com/spring?utm_source=poster&utm_medium=print&utm_campaign=spring-2026"
    static let typo = "https://www.exmaple.com/spring?utm_source=poster&utm_medium=print&utm_campaign=spring-2026"
    static let staging = "https://staging.example.com/spring?utm_source=poster&utm_campaign=winter-2025&debug=1"

    struct Scanned: Sendable {
        /// Kept for the whole test process, like the task that made it.
        let temp: TempDir
        var dir: URL { temp.url }
        var records: [String: FileRecord]  // by file name
        var scans: [String: [Scannability?]]
    }

    /// Made and scanned once per test process.
    static let scanned = Task<Scanned, Error> { try await make() }

    /// A 480x320 poster with the QR code of `payload` (module px, 4-module quiet zone) on the right.
    static func poster(_ url: URL, payload: String?, module: Int = 4, width: Int = 480, extra: [String] = []) throws {
        var args = ["-size", "\(width)x320", "xc:#f4efe6", "-fill", "#1d3557", "-draw", "rectangle 0,0 \(width - 1),56"]
        if let payload {
            let qr = url.deletingPathExtension().appendingPathExtension("qr.png")
            try run(Tools.qrencode, ["-l", "M", "-m", "4", "-s", String(module), "-o", qr.path, payload])
            args += [qr.path, "-gravity", "East", "-geometry", "+24+28", "-composite"]
        }
        try run(Tools.convert, args + extra + [url.path])
    }

    static func make() async throws -> Scanned {
        let temp = try TempDir("check")
        let dir = temp.url
        let assets = dir.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        try poster(assets.appendingPathComponent("good.png"), payload: good)
        try poster(assets.appendingPathComponent("http.png"), payload: http)
        try poster(assets.appendingPathComponent("wrong-host.png"), payload: typo)
        try poster(assets.appendingPathComponent("missing.png"), payload: nil)
        try poster(assets.appendingPathComponent("too-small.png"), payload: good, module: 1)
        try poster(assets.appendingPathComponent("mismatch.png"), payload: good.replacingOccurrences(of: "spring", with: "summer"))
        try poster(assets.appendingPathComponent("staging.png"), payload: staging)
        // Two codes: the QR code and a Code 128 barcode on the left.
        let bar = dir.appendingPathComponent("bar.png")
        try run(Tools.zint, ["-b", "20", "--scale=2", "-d", "ACME-0042", "-o", bar.path])
        try poster(
            assets.appendingPathComponent("two-codes.png"), payload: good, width: 800,
            extra: [bar.path, "-gravity", "West", "-geometry", "+24+20", "-composite"])
        for f in try FileManager.default.contentsOfDirectory(atPath: assets.path) where f.hasSuffix(".qr.png") {
            try FileManager.default.removeItem(at: assets.appendingPathComponent(f))
        }
        let runner = CheckRunner(
            rules: CheckRules(), context: PathContext(currentDirectory: dir.path), today: "2026-01-01",
            jobs: 2, isolation: .none)
        let (records, scans) = await runner.scan(paths: [assets.path])
        var byName: [String: FileRecord] = [:], scansByName: [String: [Scannability?]] = [:]
        for (r, s) in zip(records, scans) {
            let name = URL(fileURLWithPath: r.path).lastPathComponent
            byName[name] = r
            scansByName[name] = s
        }
        return Scanned(temp: temp, records: byName, scans: scansByName)
    }

    /// Evaluates one scanned asset against `rules` (paths anchored at the fixture folder).
    static func evaluate(_ name: String, _ rules: CheckRules, today: String = "2026-01-01") async throws -> ImageResult {
        let s = try await scanned.value
        let record = try #require(s.records[name], "asset \(name) was not scanned")
        let evaluator = try Evaluator(rules: rules, context: PathContext(currentDirectory: s.dir.path, rulesDirectory: s.dir.path + "/assets"), today: today)
        return evaluator.evaluate(record, scans: s.scans[name] ?? [])
    }

    static func rules(_ edit: (inout CheckRules) -> Void) -> CheckRules {
        var r = CheckRules()
        edit(&r)
        return r
    }
}

extension ImageResult {
    var rules: [String] { violations.map(\.rule) }
}
