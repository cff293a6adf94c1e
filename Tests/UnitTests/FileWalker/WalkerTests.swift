import FileWalker
import Foundation
import TestSupport
import Testing

/// The walk: which files a folder yields, in which order, with hidden files, globs and links.
@Suite("Walker")
struct WalkerTests {
    @Test func walkerIncludeExcludeHiddenAndSymlinkLoops() throws {
        let dir = try TempDir()
        let root = try dir.mkdir("w")
        try dir.mkdir("w/.hidden")
        try dir.mkdir("w/keep/skip-me")
        for name in ["a.png", "b.jpg", ".dot.png", ".hidden/h.png", "keep/k.png", "keep/skip-me/s.png", "keep/t.txt"] {
            try dir.write("w/" + name, [0x89, 0x50, 0x4E, 0x47])
        }
        // A loop (keep/loop -> ..) and a link to a file outside the tree.
        try FileManager.default.createSymbolicLink(atPath: dir.file("w/keep/loop"), withDestinationPath: "..")
        try dir.write("outside.png", [0x89])
        try FileManager.default.createSymbolicLink(atPath: dir.file("w/link.png"), withDestinationPath: dir.file("outside.png"))

        func names(_ o: WalkOptions) -> [String] {
            Walker(options: o).walk([root]).map { Walker.display($0.pathBytes) }.map { String($0.dropFirst(root.count + 1)) }
        }
        #expect(names(WalkOptions()) == ["a.png", "b.jpg", "keep/k.png", "keep/skip-me/s.png", "keep/t.txt"])
        var o = WalkOptions()
        o.hidden = true
        #expect(names(o) == [".dot.png", ".hidden/h.png", "a.png", "b.jpg", "keep/k.png", "keep/skip-me/s.png", "keep/t.txt"])
        o = WalkOptions()
        o.include = ["*.png"]
        o.exclude = ["skip-me"]
        #expect(names(o) == ["a.png", "keep/k.png"])
        o = WalkOptions()
        o.include = ["keep/*"]
        #expect(names(o) == ["keep/k.png", "keep/skip-me/s.png", "keep/t.txt"])
        // Following links: the file link is scanned, the loop back to the root is walked once only.
        o = WalkOptions()
        o.followSymlinks = true
        #expect(names(o) == ["a.png", "b.jpg", "keep/k.png", "keep/skip-me/s.png", "keep/t.txt", "link.png"])
    }
}
