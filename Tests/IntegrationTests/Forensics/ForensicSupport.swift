import Foundation
import Records
import TestSupport
import Testing

/// Shared by the Forensic* suites: image makers and the jsonl read back.
enum Forensic {
    /// A QR code image: PNG from qrencode, or JPEG through the real ImageMagick (/usr/bin/convert).
    static func makeQR(_ text: String, at url: URL, scale: Int = 3) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if url.pathExtension == "png" {
            let r = try run("qrencode", ["-s", String(scale), "-o", url.path, text], check: false)
            #expect(r.status == 0, "qrencode: \(r.stderr)")
        } else {
            let png = url.deletingPathExtension().appendingPathExtension("tmp.png")
            try run("qrencode", ["-s", String(scale), "-o", png.path, text])
            let r = try run(Tools.convert, [png.path, "-quality", "92", url.path], check: false)
            #expect(r.status == 0, "convert: \(r.stderr)")
            try FileManager.default.removeItem(at: png)
        }
    }

    static func records(_ data: Data) throws -> [JSONValue] { try JSONL.values(data) }

    static func lines(_ data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }
}
