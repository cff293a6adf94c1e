import Foundation
import TestSupport

/// The loopback web server of the link check's tests (Tests/LinkServer/link_server.py): started
/// on 127.0.0.1 on a free port, every request it answers logged, stopped when the test ends.
final class LinkServer: @unchecked Sendable {
    let process: Process
    let port: Int
    let log: String
    let dir: TempDir
    let scheme: String

    /// `tls`: serve https with a self-signed certificate made here (which no client trusts).
    init(tls: Bool = false) throws {
        dir = try TempDir("link-server")
        var extra: [String] = []
        if tls {
            try run(
                "openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir.file("key.pem"), "-out", dir.file("cert.pem"), "-subj", "/CN=127.0.0.1",
                    "-days", "1",
                ])
            extra = [dir.file("cert.pem"), dir.file("key.pem")]
        }
        scheme = tls ? "https" : "http"
        log = dir.file("requests.jsonl")
        guard FileManager.default.createFile(atPath: log, contents: nil) else { throw ToolFailure("cannot create \(log)") }
        let portFile = dir.file("port")
        process = try start("python3", ["-u", PackageRoot.file("Tests/LinkServer/link_server.py"), log] + extra, stdout: portFile)
        var read: Int?
        for _ in 0..<200 {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let p = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                read = p
                break
            }
            usleep(25_000)
        }
        guard let read else {
            kill(process.processIdentifier, SIGKILL)
            throw ToolFailure("the link server did not start")
        }
        port = read
    }

    /// SIGKILL: the test runner's children may inherit SIGTERM ignored, and the server keeps nothing.
    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// `http://127.0.0.1:PORT` (or https) + path.
    func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)\(path)" }

    /// Every request seen so far: method, path, and the headers the server records.
    var requests: [[String: Any]] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func paths() -> [String] { requests.compactMap { $0["path"] as? String } }
}
