import Foundation
import Records
import Reporting
import TestSupport
import Testing

/// Many records per walked file (issue 59's record contract), on ZIPs made here: each member a
/// record of its own, its address the walked path plus its chain of members, before its
/// container's own record, which ends the file. The same records in this process and through
/// worker processes; `--resume` after a kill inside a container reads it again whole (the
/// members written before the kill cut off, none twice); `merge` of shards keeps a container's
/// members with it, and refuses a shard that ends inside one.
@Suite("Members: every item once, through workers, --resume and merge", .serialized)
struct ContainerItemsTests: SweepRuns {
    /// case/a.zip (three codes), case/b.zip (two codes, a text, a nested ZIP with one code),
    /// case/z.png: six payloads in all, each once.
    static func makeCase(_ dir: TempDir) throws -> String {
        let root = try dir.mkdir("case")
        let pics = try dir.mkdir("pics")
        func qr(_ i: Int) throws -> String { try Containers.qr("item-\(i)", dir, "pics/q\(i).png") }
        try Containers.zip(root + "/a.zip", [.init("q0.png", from: try qr(0)), .init("q1.png", from: try qr(1)), .init("q2.png", from: try qr(2))])
        try Containers.zip(pics + "/c.zip", [.init("deep/q5.png", from: try qr(5))])
        try Containers.zip(
            root + "/b.zip",
            [
                .init("q3.png", from: try qr(3)), .init("readme.txt", text: "not a picture"), .init("inner/c.zip", from: pics + "/c.zip"),
                .init("q4.png", from: try qr(4)),
            ]
        )
        _ = try Containers.qr("item-6", dir, "case/z.png")
        return root
    }

    static func payloads(_ records: [JSONValue]) -> [String] {
        records.flatMap { ($0["codes"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue } }
    }

    static func chain(_ r: JSONValue) -> [String] { (r["member"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue } }

    @Test("Each member once, in its container's order, before the container's own record; in process and in workers alike")
    func membersInOrder() throws {
        let dir = try TempDir("members-order")
        let root = try Self.makeCase(dir)
        let workers = try run(codesweepBinary, ["scan", "-q", "--isolation", "process", root], check: false)
        #expect(workers.status == 0, "\(workers.stderr)")
        let records = try Self.records(workers.stdout)
        #expect(Self.payloads(records).sorted() == (0...6).map { "item-\($0)" })
        let shape = records.map { Self.chain($0).joined(separator: ">") + "@" + ($0["path"]?.stringValue ?? "").split(separator: "/").last! }
        #expect(
            shape == [
                "q0.png@a.zip", "q1.png@a.zip", "q2.png@a.zip", "@a.zip", "q3.png@b.zip", "inner/c.zip>deep/q5.png@b.zip", "inner/c.zip@b.zip",
                "q4.png@b.zip", "@b.zip", "@z.png",
            ], "\(shape)")
        // Indexes are places in the container (the text, index 1, is skipped, not renumbered).
        #expect(records[7]["member"]?.arrayValue?.first?["index"]?.intValue == 3)
        #expect(records[5]["location"]?.stringValue == root + "/b.zip!/inner/c.zip!/deep/q5.png")
        let b = records[8]["container"]
        #expect(b?["format"]?.stringValue == "zip")
        #expect(b?["members"]?.intValue == 4)
        #expect(b?["read"]?.intValue == 3)
        #expect(b?["skipped"]?.intValue == 1)
        #expect(records[6]["container"]?["members"]?.intValue == 1)
        let inProcess = try run(codesweepBinary, ["scan", "-q", "--isolation", "none", root], check: false)
        #expect(inProcess.stdout == workers.stdout, "the worker protocol carries every member's record as the process itself writes it")
        // A folder of containers is not "no images found": its members are read.
        #expect(!workers.stderr.contains("no images found"))
    }

    @Test("Two workers sharing a walked archive's members write exactly what one worker writes, failures and a break included")
    func sharedByWorkers() throws {
        let dir = try TempDir("members-shared")
        let root = try Self.makeCase(dir)
        var many: [Containers.Member] = []
        for i in 0..<9 { many.append(.init(String(format: "p%02d.png", i), from: try Containers.qr("shared-\(i)", dir, "s\(i).png"))) }
        many.insert(.init("notes.txt", text: "text"), at: 4)
        try Containers.zip(root + "/many.zip", many)
        try run("/usr/bin/zip", ["-q", "-j", "-P", "secret", root + "/locked.zip", dir.file("s0.png")])
        try run("/usr/bin/zip", ["-q", "-j", root + "/locked.zip", dir.file("s1.png")])
        try Containers.tar(dir.file("t.tar.gz"), (0..<4).map { .init("t\($0).png", from: dir.file("s\($0).png")) })
        let whole = try Data(contentsOf: dir.url.appendingPathComponent("t.tar.gz"))
        try whole.prefix(whole.count * 2 / 3).write(to: URL(fileURLWithPath: root + "/cut.tar.gz"))
        let one = try run(codesweepBinary, ["scan", "-q", "--isolation", "process", "--jobs", "1", root], check: false)
        let two = try run(codesweepBinary, ["scan", "-q", "--isolation", "process", "--jobs", "2", root], check: false)
        #expect(one.status == 1 && two.status == 1, "an encrypted member and a truncated archive fail")
        #expect(two.stdout == one.stdout, "jobs 1:\n\(one.stdout)\njobs 2:\n\(two.stdout)")
        let many2 = try Self.records(two.stdout).filter { $0["path"]?.stringValue?.hasSuffix("many.zip") == true }
        #expect(many2.compactMap { $0["member"]?.arrayValue?.first?["index"]?.intValue } == [0, 1, 2, 3, 5, 6, 7, 8, 9], "in the archive's order")
        #expect(many2.last?["container"]?["members"]?.intValue == 10)
        #expect(many2.last?["container"]?["skipped"]?.intValue == 1)
    }

    @Test("Killed inside a container, then --resume: the members written before the kill are cut off and the container read again whole")
    func killInsideAndResume() throws {
        let dir = try TempDir("members-resume")
        let root = try dir.mkdir("case")
        var members: [Containers.Member] = []
        for i in 0..<6 { members.append(.init(String(format: "m%02d.png", i), from: try Containers.qr("resume-\(i)", dir, "p\(i).png"))) }
        let hang = dir.file("hang.png")
        try Make.faultFrame(.hang, to: hang)
        // The fault-injecting binary's worker hangs on the fourth member, after three are sent.
        try Containers.zip(root + "/big.zip", Array(members[0..<3]) + [.init("m02b.png", from: hang)] + Array(members[3...]))
        _ = try Containers.qr("loose", dir, "case/a-loose.png")
        let partial = dir.url.appendingPathComponent("partial.jsonl")
        let p = try start(faultInjectingBinary, ["scan", "-q", "--jobs", "1", "-o", partial.path, root])
        // a-loose.png, then big.zip's first three members.
        try Self.waitForLines(partial, 4, while: p)
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let before = try String(contentsOf: partial, encoding: .utf8).split(separator: "\n")
        #expect(before.count == 4)
        #expect(before.dropFirst().allSatisfy { $0.contains("\"member\":") }, "members are written as they are done, before their container")
        // The container then changes (the hanging member goes); the walk sees it anew.
        try Containers.zip(root + "/big.zip", members)
        let resumed = try run(codesweepBinary, ["scan", "-q", "--resume", partial.path, root], check: false)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("3 member record(s)"), "\(resumed.stderr)")
        let full = try run(codesweepBinary, ["scan", "-q", root], check: false)
        let after = try String(contentsOf: partial, encoding: .utf8)
        #expect(after == full.stdout, "resumed report:\n\(after)\nsingle run:\n\(full.stdout)")
        #expect(Self.payloads(try Self.records(after)).sorted() == ["loose"] + (0..<6).map { "resume-\($0)" })
    }

    @Test("Shards merged equal one run, a container's members kept with it; a shard that ends inside a container is refused")
    func shardsAndMerge() throws {
        let dir = try TempDir("members-merge")
        let root = try dir.mkdir("tree")
        for k in 0..<6 {
            let pics = (0..<3).map { i in Containers.Member("p\(i).png", from: (try? Containers.qr("z\(k)-\(i)", dir, "z\(k)-\(i).png")) ?? "") }
            try Containers.zip(root + "/z\(k).zip", pics)
        }
        let single = try run(codesweepBinary, ["scan", "-q", "tree"], currentDirectory: dir.path, check: false)
        #expect(single.status == 0, "\(single.stderr)")
        #expect(try Self.records(single.stdout).count == 24)
        var shards: [String] = []
        for k in 0..<3 {
            let out = "shard\(k).jsonl"
            let r = try run(codesweepBinary, ["scan", "-q", "--shard", "\(k)/3", "-o", out, "tree"], currentDirectory: dir.path, check: false)
            #expect(r.status == 0, "\(r.stderr)")
            shards.append(out)
        }
        let merged = try run(codesweepBinary, ["merge", "--root", "tree"] + shards.reversed(), currentDirectory: dir.path, check: false)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == single.stdout)
        // A shard cut after a member line: the container's own record is missing.
        let cut = single.stdout.split(separator: "\n").prefix(2).joined(separator: "\n") + "\n"
        try cut.write(toFile: dir.file("cut.jsonl"), atomically: true, encoding: .utf8)
        let refused = try run(codesweepBinary, ["merge", "cut.jsonl"], currentDirectory: dir.path, check: false)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("ends inside"), "\(refused.stderr)")
        #expect(refused.stdoutBytes.isEmpty)
    }
}
