import Foundation
import Records
import TestSupport
import Testing

/// What the suites that run the codesweep binary (or the fault-injecting one) over made images
/// share: records read back, images and hanging pictures made, a report waited for, a run measured.
/// A suite takes them by conforming (`struct ResumeTests: SweepRuns`) and calls them as
/// `Self.makeImages(...)`.
protocol SweepRuns {}

extension SweepRuns {
    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    static func records(_ text: String) throws -> [JSONValue] { try JSONL.values(text) }

    /// `count` QR code PNGs with longish payloads (records of ~400 bytes each).
    static func makeImages(_ dir: TempDir, _ folder: String, count: Int) throws -> String {
        let d = try dir.mkdir(folder)
        for i in 0..<count {
            try run(
                Tools.qrencode,
                [
                    "-s", "3", "-o", d + String(format: "/q%03d.png", i),
                    "payload \(i): some text that makes each record a little longer",
                ])
        }
        return d
    }

    /// Waits (polling, up to `limit` seconds) until FILE holds at least `lines` lines.
    static func waitForLines(_ file: String, _ lines: Int, limit: Double = 60) -> Int {
        let end = Date().addingTimeInterval(limit)
        var n = 0
        while Date() < end {
            n = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").count
            if n >= lines { break }
            usleep(20_000)
        }
        return n
    }

    static func makeTree(_ dir: URL, count: Int) throws {
        for i in 0..<count {
            try makeQR("resume-\(i)", at: dir.appendingPathComponent(String(format: "img%03d.png", i)), scale: 3)
        }
    }

    /// Waits until `file` holds `count` lines while `process` runs (the sweep holds there, in a
    /// file that hangs its worker); fails if the process ends first or after two minutes.
    static func waitForLines(_ file: URL, _ count: Int, while process: Process) throws {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            if ((try? String(contentsOf: file, encoding: .utf8))?.split(separator: "\n").count ?? 0) >= count { return }
            try #require(process.isRunning, "the sweep ended before its record \(count)")
            usleep(5_000)
        }
        Issue.record("no \(count) records after two minutes")
    }

    /// Pictures that hang their worker in the fault-injecting binary (named to sort after the images).
    static func addHangingFiles(_ folder: String, _ names: String...) throws {
        for name in names { try Make.faultFrame(.hang, to: folder + "/" + name) }
    }

    /// Runs codesweep under python3 and returns its result with the peak RSS (KiB) over the
    /// sweep and its workers (RUSAGE_CHILDREN of the python process, which waits for it).
    static var peakRSS: String {
        """
        import resource, subprocess, sys
        r = subprocess.run(sys.argv[1:])
        sys.stderr.write('peak_rss_kib=%d\\n' % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        sys.exit(r.returncode)
        """
    }

    static func kind(_ r: JSONValue) -> String? { r["error"]?["kind"]?.stringValue }

    static func makeQR(_ text: String, at url: URL, scale: Int = 4) throws {
        let r = try run(Tools.qrencode, ["-s", String(scale), "-o", url.path, text], check: false)
        #expect(r.status == 0)
    }

    /// Runs codesweep under /usr/bin/time: exit status, stderr, peak RSS (KiB) and seconds.
    static func measured(_ args: [String], cwd: String) throws -> (status: Int32, stderr: String, kib: Int, seconds: Double) {
        let clock = ContinuousClock.now
        let r = try run("/usr/bin/time", ["-f", "RSS %M"] + [codesweepBinary] + args, currentDirectory: cwd, check: false)
        let d = clock.duration(to: .now)
        let kib = r.stderr.split(separator: "\n").last { $0.hasPrefix("RSS ") }.flatMap { Int($0.dropFirst(4)) } ?? -1
        return (r.status, r.stderr, kib, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
    }
}
