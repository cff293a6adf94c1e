import Foundation
import Testing
import SweepCore

/// Shared by the Forensic* suites: the real binary, temp folders, subprocesses, image makers.
enum Forensic {
    static var binary: String { codesweepBinary }

    static func tempDir(_ name: String) throws -> URL { try makeTempFolder("forensic", name) }

    struct Run { var status: Int32; var out: Data; var err: String; var text: String { String(decoding: out, as: UTF8.self) } }

    /// Runs a program (looked up on PATH unless absolute), optionally feeding stdin, in `cwd`.
    @discardableResult
    static func run(_ args: [String], stdin: Data? = nil, cwd: URL? = nil) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        p.environment = childEnvironment()
        if let cwd { p.currentDirectoryURL = cwd }
        let outPipe = Pipe(), inPipe = Pipe()
        // stderr goes to a file, so neither pipe can fill up and block the child.
        let errFile = FileManager.default.temporaryDirectory.appendingPathComponent("codesweep-forensic-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errFile) }
        let errHandle = try FileHandle(forWritingTo: errFile)
        p.standardOutput = outPipe
        p.standardError = errHandle
        p.standardInput = stdin == nil ? FileHandle.nullDevice : inPipe
        try p.run()
        if let stdin {
            inPipe.fileHandleForWriting.write(stdin)
            try inPipe.fileHandleForWriting.close()
        }
        let out = outPipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        try errHandle.close()
        let err = (try? String(contentsOf: errFile, encoding: .utf8)) ?? ""
        return Run(status: p.terminationStatus, out: out, err: err)
    }

    /// A QR code image: PNG from qrencode, or JPEG through the real ImageMagick (/usr/bin/convert).
    static func makeQR(_ text: String, at url: URL, scale: Int = 3) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if url.pathExtension == "png" {
            let r = try run(["qrencode", "-s", String(scale), "-o", url.path, text])
            #expect(r.status == 0, "qrencode: \(r.err)")
        } else {
            let png = url.deletingPathExtension().appendingPathExtension("tmp.png")
            try run(["qrencode", "-s", String(scale), "-o", png.path, text])
            let r = try run(["/usr/bin/convert", png.path, "-quality", "92", url.path])
            #expect(r.status == 0, "convert: \(r.err)")
            try FileManager.default.removeItem(at: png)
        }
    }

    static func records(_ data: Data) throws -> [JSONValue] {
        try String(decoding: data, as: UTF8.self).split(separator: "\n").map { try JSONReading.value(String($0)) }
    }

    static func lines(_ data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }
}
