import FileWalker
import UserInput

#if canImport(Glibc)
import Glibc
#endif

/// `--shard K/N`: this run scans only the walked items whose path falls in shard K of N.
///
/// The shard of a path is FNV-1a (64-bit) of the path's exact bytes, as walked (the argument as
/// given, then the path below it), modulo N. It depends on nothing but those bytes: not on the
/// machine, the walk order, the file's contents or the time. So for the same roots, written the
/// same way, shards 0..<N never overlap and always cover every file, whichever machine runs each.
/// The filter is applied after the walk and before any file is opened for scanning.
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// Counts from 0: 0 ..< count.
    package let index: Int
    package let count: Int

    package init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.index = index; self.count = count
    }

    /// `K/N` with 0 <= K < N.
    package init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: k, count: n)
    }

    package var description: String { "\(index)/\(count)" }

    /// FNV-1a, 64-bit (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
    package static func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h &*= 0x0000_0100_0000_01b3
        }
        return h
    }

    package static func of(_ pathBytes: [UInt8], count: Int) -> Int { Int(fnv1a64(pathBytes) % UInt64(count)) }

    /// Whether a walked item's path is in this shard (error items too: each lands in exactly one shard).
    package func contains(_ pathBytes: [UInt8]) -> Bool { Shard.of(pathBytes, count: count) == index }
}

/// Paths listed in a file (`--files-from`, `--expect-from`): one per line, or NUL-separated.
package enum PathList {
    /// Reads FILE (`-` = standard input) and splits it. Empty entries are dropped; with newline
    /// separation a trailing carriage return is dropped too (lists written on Windows).
    package static func read(_ file: String, nulSeparated: Bool) throws(PathListError) -> [[UInt8]] {
        let data: [UInt8]
        let shown = UserPath.shown(file)
        do {
            data = try UserPath.readWhole(
                file, limit: InputLimits.pathListBytes, limitText: "\(InputLimits.describe(InputLimits.pathListBytes)) for a list of paths")
        } catch {
            throw PathListError(message: error.description)
        }
        // A NUL can never be part of a path: a list holding one was written with -print0 and
        // read line by line it would be one "path" made of many, and the sweep would look
        // complete after covering one file.
        if !nulSeparated, let at = data.firstIndex(of: 0) {
            throw PathListError(message: "the list \(shown) holds a NUL byte (at byte \(at)): it looks NUL-separated (find -print0); add -0 to read it as such")
        }
        return split(data, nulSeparated: nulSeparated)
    }

    package static func split(_ data: [UInt8], nulSeparated: Bool) -> [[UInt8]] {
        let sep: UInt8 = nulSeparated ? 0 : 0x0A
        return data.split(separator: sep, omittingEmptySubsequences: true).compactMap { part -> [UInt8]? in
            var p = Array(part)
            if !nulSeparated && p.last == 0x0D { p.removeLast() }
            return p.isEmpty ? nil : p
        }
    }
}

package struct PathListError: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
