import Foundation
import Records
import Reporting
import TestSupport
import Testing

/// `scan` on containers made here (issue 60): office packages and a tarball, mail with inline
/// pictures, attachments and a forward, nesting at and past the depth limit, each limit's breach,
/// an encrypted member and its password, a truncated archive, traversal names with --annotate,
/// members' digests, and --containers none. Every case reads real codes from real members.
@Suite("Containers: the members of archives, packages and mail", .serialized)
struct ContainerScanTests: SweepRuns {
    static func scan(_ args: [String], cwd: String? = nil) throws -> (status: Int32, records: [JSONValue], stderr: String) {
        let r = try run(codesweepBinary, ["scan", "-q"] + args, currentDirectory: cwd, check: false)
        return (r.status, try Self.records(r.stdout), r.stderr)
    }

    static func texts(_ r: JSONValue) -> [String] { (r["codes"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue } }
    static func names(_ r: JSONValue) -> [String] { (r["member"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue } }
    static func member(_ records: [JSONValue], _ chain: [String]) -> JSONValue? { records.first { names($0) == chain } }
    static func own(_ records: [JSONValue]) -> JSONValue? { records.last { $0["member"] == nil } }

    @Test("DOCX, PPTX and ODT pictures and a tar.gz's members are read, each with its chain; other members are counted as skipped")
    func packagesAndTarball() throws {
        let dir = try TempDir("containers-packages")
        let root = try dir.mkdir("case")
        let xml = Containers.Member("[Content_Types].xml", text: "<?xml version=\"1.0\"?><Types/>")
        try Containers.zip(
            root + "/report.docx",
            [xml, .init("word/document.xml", text: "<w:document/>"), .init("word/media/image1.png", from: try Containers.qr("docx-code", dir, "d.png"))])
        try Containers.zip(root + "/deck.pptx", [xml, .init("ppt/media/image7.png", from: try Containers.qr("pptx-code", dir, "p.png"))])
        try Containers.zip(
            root + "/notes.odt",
            [
                .init("mimetype", text: "application/vnd.oasis.opendocument.text"),
                .init("Pictures/1000.png", from: try Containers.qr("odt-code", dir, "o.png")),
            ],
            stored: true)
        try Containers.tar(root + "/assets.tar.gz", [.init("img/a.png", from: try Containers.qr("tar-code", dir, "t.png")), .init("README", text: "hi")])
        let s = try Self.scan([root])
        #expect(s.status == 0, "\(s.stderr)")
        #expect(Self.texts(Self.member(s.records, ["word/media/image1.png"]) ?? .null) == ["docx-code"])
        #expect(Self.texts(Self.member(s.records, ["ppt/media/image7.png"]) ?? .null) == ["pptx-code"])
        #expect(Self.texts(Self.member(s.records, ["Pictures/1000.png"]) ?? .null) == ["odt-code"])
        #expect(Self.texts(Self.member(s.records, ["img/a.png"]) ?? .null) == ["tar-code"])
        let docx = s.records.first { $0["path"]?.stringValue?.hasSuffix("report.docx") == true && $0["member"] == nil }
        #expect(docx?["container"]?["format"]?.stringValue == "zip")
        #expect(docx?["container"]?["members"]?.intValue == 3)
        #expect(docx?["container"]?["skipped"]?.intValue == 2)
        let tar = s.records.first { $0["path"]?.stringValue?.hasSuffix("assets.tar.gz") == true && $0["member"] == nil }
        #expect(tar?["container"]?["format"]?.stringValue == "tar", "libarchive's format found inside the gzip stream")
        #expect(tar?["container"]?["detail"]?.stringValue != nil)
    }

    @Test("Mail: an inline cid: picture, an attachment, a forwarded message's picture (nested), and an MBOX's messages")
    func mail() throws {
        let dir = try TempDir("containers-mail")
        let root = try dir.mkdir("case")
        let inline = try Containers.qr("inline-code", dir, "i.png"), attached = try Containers.qr("attached-code", dir, "a.png")
        let forwarded = try Containers.qr("forwarded-code", dir, "f.png")
        let script = """
            import sys, email.message, email.policy, mailbox
            from email.message import EmailMessage
            root, inline, attached, forwarded = sys.argv[1:5]
            def png(p): return open(p, "rb").read()
            inner = EmailMessage(); inner["From"] = "c@example.com"; inner["To"] = "a@example.com"; inner["Subject"] = "original"
            inner.set_content("the original"); inner.add_attachment(png(forwarded), maintype="image", subtype="png", filename="fwd.png")
            m = EmailMessage(); m["From"] = "a@example.com"; m["To"] = "b@example.com"; m["Subject"] = "codes"; m["Date"] = "Mon, 1 Jan 2024 00:00:00 +0000"
            m.set_content("plain text, quoted-printable: caf\\u00e9 " * 20, cte="quoted-printable")
            m.add_alternative('<p>see <img src="cid:pic1"></p>', subtype="html")
            m.get_payload()[1].add_related(png(inline), maintype="image", subtype="png", cid="<pic1>")
            m.add_attachment(png(attached), maintype="image", subtype="png", filename="label.png")
            m.add_attachment(inner)
            open(root + "/message.eml", "wb").write(m.as_bytes(policy=email.policy.SMTP))
            box = mailbox.mbox(root + "/box.mbox")
            for k in range(3):
                e = EmailMessage(); e["From"] = "x@example.com"; e["To"] = "y@example.com"; e["Subject"] = "n%d" % k; e.set_content("x")
                e.add_attachment(png(attached), maintype="image", subtype="png", filename="m%d.png" % k)
                box.add(e)
            box.flush(); box.close()
            """
        try run("/usr/bin/python3", ["-c", script, root, inline, attached, forwarded])
        let s = try Self.scan([root])
        #expect(s.status == 0, "\(s.stderr)")
        let eml = s.records.filter { $0["path"]?.stringValue?.hasSuffix("message.eml") == true }
        let all = eml.flatMap(Self.texts).sorted()
        #expect(all == ["attached-code", "forwarded-code", "inline-code"], "\(eml)")
        let fwd = eml.first { Self.texts($0) == ["forwarded-code"] }
        #expect((fwd?["member"]?.arrayValue?.count ?? 0) == 2, "a forward's picture is a member of the forwarded message, itself a member")
        #expect(Self.names(fwd ?? .null).last == "fwd.png")
        #expect(Self.names(eml.first { Self.texts($0) == ["attached-code"] } ?? .null) == ["label.png"])
        #expect(Self.own(eml)?["container"]?["format"]?.stringValue == "eml")
        let box = s.records.filter { $0["path"]?.stringValue?.hasSuffix("box.mbox") == true }
        #expect(box.flatMap(Self.texts) == ["attached-code", "attached-code", "attached-code"])
        #expect(Self.own(box)?["container"]?["members"]?.intValue == 3)
        #expect(Self.own(box)?["container"]?["format"]?.stringValue == "mbox")
    }

    @Test("Nesting: containers are opened to --max-container-depth; the one past it is an error record, the rest read")
    func depthLimit() throws {
        let dir = try TempDir("containers-depth")
        let root = try dir.mkdir("case")
        // l3.zip holds a code; l2.zip holds l3.zip and a code; l1.zip holds l2.zip; case/top.zip holds l1.zip.
        try Containers.zip(dir.file("l3.zip"), [.init("c3.png", from: try Containers.qr("depth-3", dir, "c3.png"))])
        try Containers.zip(dir.file("l2.zip"), [.init("l3.zip", from: dir.file("l3.zip")), .init("c2.png", from: try Containers.qr("depth-2", dir, "c2.png"))])
        try Containers.zip(dir.file("l1.zip"), [.init("l2.zip", from: dir.file("l2.zip"))])
        try Containers.zip(root + "/top.zip", [.init("l1.zip", from: dir.file("l1.zip"))])
        let deep = try Self.scan([root])
        #expect(deep.records.flatMap(Self.texts).sorted() == ["depth-2", "depth-3"], "the default depth, 4, reaches every code")
        let limited = try Self.scan(["--max-container-depth", "3", root])
        #expect(limited.status == 1)
        #expect(limited.records.flatMap(Self.texts) == ["depth-2"])
        let cut = try #require(Self.member(limited.records, ["l1.zip", "l2.zip", "l3.zip"]))
        #expect(Self.kind(cut) == "too_large")
        #expect(cut["error"]?["message"]?.stringValue?.contains("--max-container-depth 3") == true)
    }

    @Test("Each limit's breach is a per-member error and the sweep goes on: member size, member count, unpacked bytes, expansion")
    func limits() throws {
        let dir = try TempDir("containers-limits")
        let root = try dir.mkdir("case")
        let code = try Containers.qr("small-code", dir, "s.png")
        // 3 MiB of noise (does not compress) and 150 MiB of zeros (a bomb: ~150 KiB deflated).
        try run(
            "/usr/bin/python3",
            [
                "-c", "import os,sys; open(sys.argv[1],'wb').write(os.urandom(3<<20)); open(sys.argv[2],'wb').write(bytes(150<<20))", dir.file("noise.bin"),
                dir.file("zeros.bin"),
            ])
        try Containers.zip(root + "/big.zip", [.init("a.png", from: code), .init("noise.bin", from: dir.file("noise.bin")), .init("z.png", from: code)])
        let size = try Self.scan(["--max-member-size", "1", root + "/big.zip"])
        #expect(size.status == 1)
        #expect(size.records.flatMap(Self.texts) == ["small-code", "small-code"], "the members beside the large one are read")
        #expect(Self.kind(Self.member(size.records, ["noise.bin"]) ?? .null) == "too_large")
        #expect(Self.member(size.records, ["noise.bin"])?["error"]?["message"]?.stringValue?.contains("--max-member-size") == true)
        let count = try Self.scan(["--max-members", "2", root + "/big.zip"])
        #expect(
            count.records.contains { Self.kind($0) == "too_large" && $0["error"]?["message"]?.stringValue?.contains("--max-members") == true },
            "\(count.records)")
        #expect(!count.records.flatMap(Self.texts).isEmpty)
        try Containers.zip(root + "/bomb.zip", [.init("a.png", from: code), .init("zeros.bin", from: dir.file("zeros.bin")), .init("z.png", from: code)])
        let bomb = try Self.scan([root + "/bomb.zip"])
        #expect(bomb.status == 1)
        #expect(bomb.records.flatMap(Self.texts) == ["small-code"], "the members before the bomb are kept")
        let stopped = bomb.records.first { Self.kind($0) == "too_large" }
        #expect(stopped?["error"]?["message"]?.stringValue?.contains("--max-expansion") == true, "\(bomb.records)")
        let unpacked = try Self.scan(["--max-unpacked", "2", "--max-member-size", "8", root + "/big.zip"])
        #expect(unpacked.records.contains { $0["error"]?["message"]?.stringValue?.contains("--max-unpacked") == true }, "\(unpacked.records)")
    }

    @Test("An encrypted member is error kind encrypted and the one beside it is read; --archive-passwords opens it")
    func encrypted() throws {
        let dir = try TempDir("containers-encrypted")
        let root = try dir.mkdir("case")
        let secret = try Containers.qr("secret-code", dir, "secret.png"), open = try Containers.qr("open-code", dir, "open.png")
        try run("/usr/bin/zip", ["-q", "-j", "-P", "infected", root + "/mixed.zip", secret])
        try run("/usr/bin/zip", ["-q", "-j", root + "/mixed.zip", open])
        let without = try Self.scan([root])
        #expect(without.status == 1)
        #expect(Self.kind(Self.member(without.records, ["secret.png"]) ?? .null) == "encrypted")
        #expect(without.records.flatMap(Self.texts) == ["open-code"])
        #expect(Self.own(without.records)?["container"]?["failed"]?.intValue == 1)
        try "wrong\ninfected\n".write(toFile: dir.file("passwords.txt"), atomically: true, encoding: .utf8)
        let with = try Self.scan(["--archive-passwords", dir.file("passwords.txt"), root])
        #expect(with.status == 0, "\(with.records)")
        #expect(with.records.flatMap(Self.texts).sorted() == ["open-code", "secret-code"])
    }

    @Test("A truncated archive keeps the members read before the damage; its own record says where it broke")
    func truncated() throws {
        let dir = try TempDir("containers-truncated")
        let root = try dir.mkdir("case")
        let noise = dir.file("noise.bin")
        try run("/usr/bin/python3", ["-c", "import os,sys; open(sys.argv[1],'wb').write(os.urandom(400000))", noise])
        try Containers.tar(
            dir.file("whole.tar.gz"),
            [
                .init("a.png", from: try Containers.qr("before-1", dir, "a.png")), .init("b.png", from: try Containers.qr("before-2", dir, "b.png")),
                .init("n.bin", from: noise),
            ])
        let whole = try Data(contentsOf: dir.url.appendingPathComponent("whole.tar.gz"))
        try whole.prefix(whole.count * 3 / 4).write(to: URL(fileURLWithPath: root + "/cut.tar.gz"))
        let s = try Self.scan([root])
        #expect(s.status == 1)
        #expect(s.records.flatMap(Self.texts) == ["before-1", "before-2"])
        let own = try #require(Self.own(s.records))
        #expect(Self.kind(own) == "truncated")
        #expect(own["error"]?["message"]?.stringValue?.contains("after member") == true, "\(own)")
    }

    @Test("Traversal names write nothing anywhere; --annotate names a member's picture from its index and digest; --hash digests a member's own bytes")
    func namesAnnotateAndHashes() throws {
        let dir = try TempDir("containers-names")
        let root = try dir.mkdir("case")
        let code = try Containers.qr("traversal-code", dir, "t.png")
        let evil = "../../../../../../tmp/codesweep-evil-\(getpid()).png"
        try Containers.zip(root + "/names.zip", [.init(evil, from: code), .init("/etc/codesweep-abs-\(getpid()).png", from: code)])
        let out = dir.file("annotated")
        let s = try Self.scan(["--annotate", out, "--hash", "sha256", root])
        #expect(s.status == 0, "\(s.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/codesweep-evil-\(getpid()).png"))
        #expect(!FileManager.default.fileExists(atPath: "/etc/codesweep-abs-\(getpid()).png"))
        let member = try #require(Self.member(s.records, [evil]))
        let digest = try run("/usr/bin/sha256sum", [code]).stdout.split(separator: " ").first.map(String.init)
        #expect(member["hashes"]?["sha256"]?.stringValue == digest)
        #expect(member["location"]?.stringValue == root + "/names.zip!/" + evil)
        let pictures = try FileManager.default.subpathsOfDirectory(atPath: out).filter { $0.hasSuffix(".annotated.png") }.sorted()
        #expect(pictures.count == 2, "\(pictures)")
        #expect(pictures.allSatisfy { $0.hasPrefix("names.zip/") && !$0.contains("..") && !$0.contains("evil") && !$0.contains("etc") }, "\(pictures)")
        #expect(pictures.first?.hasPrefix("names.zip/0-" + String(digest!.prefix(12))) == true, "\(pictures)")
    }

    @Test(
        "A compressed stream that holds no archive: a gzip'd picture is read as its one member, a gzip'd log is a container with nothing to read, not an error")
    func bareStreams() throws {
        let dir = try TempDir("containers-streams")
        let root = try dir.mkdir("case")
        _ = try Containers.qr("gzipped-code", dir, "case/photo.png")
        try "12:00 started\n12:01 stopped\n".write(toFile: root + "/app.log", atomically: true, encoding: .utf8)
        try run("/usr/bin/gzip", ["-n", root + "/photo.png", root + "/app.log"])
        try run(
            "/usr/bin/python3",
            [
                "-c", "import bz2,sys; open(sys.argv[2],'wb').write(bz2.compress(open(sys.argv[1],'rb').read()))", try Containers.qr("bz2-code", dir, "b.png"),
                root + "/b.png.bz2",
            ])
        let s = try Self.scan([root])
        #expect(s.status == 0, "\(s.records)")
        #expect(s.records.flatMap(Self.texts).sorted() == ["bz2-code", "gzipped-code"])
        let log = s.records.first { $0["path"]?.stringValue?.hasSuffix("app.log.gz") == true }
        #expect(log?["status"]?.stringValue == "ok")
        #expect(log?["container"]?["skipped"]?.intValue == 1)
        #expect(log?["container"]?["format"]?.stringValue == "gzip")
        let out = dir.file("annotated")
        #expect(try Self.scan(["--annotate", out, root + "/photo.png.gz"]).status == 0)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: out).contains { $0.hasSuffix(".annotated.png") }, "a stream's member is found again")
    }

    @Test("--containers none: a walked container is not read (not recorded); one named is an error saying why")
    func containersNone() throws {
        let dir = try TempDir("containers-none")
        let root = try dir.mkdir("case")
        try Containers.zip(root + "/a.zip", [.init("q.png", from: try Containers.qr("zipped", dir, "q.png"))])
        let walked = try run(codesweepBinary, ["scan", "--containers", "none", root], check: false)
        #expect(walked.stdout.isEmpty)
        #expect(walked.stderr.contains("no images found"))
        let named = try Self.scan(["--containers", "none", root + "/a.zip"])
        #expect(named.status == 1)
        #expect(named.records.count == 1)
        #expect(named.records.first?["error"]?["message"]?.stringValue?.contains("--containers none") == true)
        let read = try Self.scan([root])
        #expect(read.records.flatMap(Self.texts) == ["zipped"])
    }
}

/// `check` on a ZIP of assets: each member is an image of its own, failing as a file would.
@Suite("Containers in check: a ZIP of assets fails per member")
struct ContainerCheckTests {
    @Test("A member without its required code fails by its location; the member with one passes; the ZIP itself is no image")
    func zipOfAssets() throws {
        let dir = try TempDir("containers-check")
        let assets = try dir.mkdir("assets")
        let good = try Containers.qr("https://www.example.com/spring", dir, "good.png")
        try run(Tools.convert, ["-size", "200x200", "xc:white", dir.file("blank.png")])
        try Containers.zip(assets + "/agency.zip", [.init("poster-a.png", from: good), .init("poster-b.png", from: dir.file("blank.png"))])
        let r = try run(
            codesweepBinary, ["check", "--no-rules-file", "-j", "1", "--require-code", "assets/*", "assets"], currentDirectory: dir.path, check: false)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("FAIL   assets/agency.zip!/poster-b.png"), "\(r.stdout)")
        #expect(!r.stdout.contains("poster-a.png"), "the member with its code passes (passes are not listed): \(r.stdout)")
        #expect(r.stdout.contains("1 failed"), "\(r.stdout)")
        #expect(!r.stdout.contains("FAIL   assets/agency.zip\n") && !r.stdout.contains("FAIL   assets/agency.zip "), "\(r.stdout)")
    }
}

/// `codesweep formats`: what is read, and by which library, from the catalogue beside the sniff.
@Suite("codesweep formats")
struct FormatsCommandTests {
    @Test("Lists images, documents, containers, mail and videos, each with the library that reads it")
    func listsEveryKind() throws {
        let r = try run(codesweepBinary, ["formats"], check: false)
        #expect(r.status == 0)
        for needle in ["libjpeg-turbo", "Poppler", "libarchive", "GMime 3", "FFmpeg", "DOCX", "MBOX", "Matroska", "AV1", "ISO 9660"] {
            #expect(r.stdout.contains(needle), "\(needle) missing from:\n\(r.stdout)")
        }
        for kind in ["image ", "document ", "container ", "mail ", "video "] { #expect(r.stdout.contains("\n" + kind), "\(kind)") }
    }
}
