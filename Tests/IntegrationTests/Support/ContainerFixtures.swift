import Foundation
import TestSupport
import Testing

/// Containers made in the tests with Python's zipfile, tarfile and email (the standard
/// library), from pictures qrencode draws: members named as given (traversal names too), in the
/// order given, nothing of them written anywhere but into the container.
enum Containers {
    /// One member: its name in the container, and the file whose bytes it holds (or the bytes).
    struct Member {
        var name: String
        var source: String?
        var text: String?
        init(_ name: String, from source: String) { self.name = name; self.source = source }
        init(_ name: String, text: String) { self.name = name; self.text = text }
    }

    static func json(_ members: [Member]) throws -> String {
        let list = members.map { ["name": $0.name, "source": $0.source ?? "", "text": $0.text ?? ""] }
        return String(decoding: try JSONSerialization.data(withJSONObject: list), as: UTF8.self)
    }

    /// A ZIP (deflated; `stored` for no compression) at `path` holding `members` in order.
    static func zip(_ path: String, _ members: [Member], stored: Bool = false) throws {
        let script = """
            import json, sys, zipfile
            members = json.loads(sys.argv[2])
            mode = zipfile.ZIP_STORED if sys.argv[3] == "stored" else zipfile.ZIP_DEFLATED
            with zipfile.ZipFile(sys.argv[1], "w", mode) as z:
                for m in members:
                    data = open(m["source"], "rb").read() if m["source"] else m["text"].encode()
                    z.writestr(zipfile.ZipInfo(m["name"], (2024, 1, 2, 3, 4, 6)), data, mode)
            """
        try run("/usr/bin/python3", ["-c", script, path, try json(members), stored ? "stored" : "deflated"])
    }

    /// A tarball (`mode`: "w:gz", "w:bz2", "w:xz", "w") at `path` holding `members` in order.
    static func tar(_ path: String, _ members: [Member], mode: String = "w:gz") throws {
        let script = """
            import io, json, sys, tarfile
            members = json.loads(sys.argv[2])
            with tarfile.open(sys.argv[1], sys.argv[3]) as t:
                for m in members:
                    data = open(m["source"], "rb").read() if m["source"] else m["text"].encode()
                    info = tarfile.TarInfo(m["name"]); info.size = len(data); info.mtime = 1700000000
                    t.addfile(info, io.BytesIO(data))
            """
        try run("/usr/bin/python3", ["-c", script, path, try json(members), mode])
    }

    /// A qrencode PNG of `text` in `dir`, named `name`.
    @discardableResult
    static func qr(_ text: String, _ dir: TempDir, _ name: String) throws -> String {
        let path = dir.file(name)
        try run(Tools.qrencode, ["-s", "4", "-o", path, text])
        return path
    }
}
