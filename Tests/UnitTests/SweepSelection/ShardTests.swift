import SweepSelection
import Testing

/// `--shard K/N` and `--files-from`: which files a run sweeps, from the path's bytes alone.
@Suite("Shards and path lists")
struct ShardTests {
    @Test("K/N parses only with 0 <= K < N")
    func parsing() {
        #expect(Shard(parsing: "0/4") == Shard(index: 0, count: 4))
        #expect(Shard(parsing: "3/4")?.description == "3/4")
        for bad in ["4/4", "1/0", "-1/4", "1/", "/4", "1/2/3", "a/4", ""] { #expect(Shard(parsing: bad) == nil, "\(bad)") }
    }

    @Test("a path's shard is FNV-1a 64 of its bytes (the published test vectors), and the shards of N cover each path once")
    func fnvAndCover() {
        #expect(Shard.fnv1a64([]) == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.fnv1a64(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.fnv1a64(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
        let paths = (0..<200).map { Array("photos/IMG_\($0).jpg".utf8) } + [[0xFF, 0xFE, 0x2F]]
        for n in [1, 3, 7] {
            let shards = (0..<n).compactMap { Shard(index: $0, count: n) }
            for p in paths { #expect(shards.filter { $0.contains(p) }.count == 1) }
            #expect(Set(paths.map { Shard.of($0, count: n) }).count == n, "every shard of \(n) gets some of 201 paths")
        }
    }

    @Test("a path list drops empty entries, and a Windows line's carriage return unless NUL-separated")
    func pathListSplit() {
        let text = Array("a.png\r\n\nb c.jpg\n".utf8)
        #expect(PathList.split(text, nulSeparated: false) == [Array("a.png".utf8), Array("b c.jpg".utf8)])
        let nul: [UInt8] = Array("a\r".utf8) + [0] + [0] + Array("b\nc".utf8) + [0]
        #expect(PathList.split(nul, nulSeparated: true) == [Array("a\r".utf8), Array("b\nc".utf8)])
    }
}
