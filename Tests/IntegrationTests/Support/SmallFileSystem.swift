import Foundation
import TestSupport
import Testing

/// A small tmpfs (mount needs root; nil when it fails) for the tests of a full device.
enum SmallFileSystem {
    /// A tmpfs of `kib` KiB mounted on a fresh folder, for a real "no space left on device";
    /// nil when mounting is not permitted (not root). Unmounted by `unmount`.
    static func mount(_ dir: TempDir, kib: Int) throws -> String? {
        let mnt = try dir.mkdir("full")
        let r = try run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kib)k", "tmpfs", mnt], check: false)
        return r.status == 0 ? mnt : nil
    }

    static func unmount(_ mnt: String) { _ = try? run("/bin/umount", [mnt], check: false) }

    /// Fills the file system at `mnt` until `leave` bytes are free.
    static func fill(_ mnt: String, leaving leave: Int) throws {
        var st = statvfs()
        #expect(statvfs(mnt, &st) == 0)
        let free = Int(st.f_bavail) * Int(st.f_frsize)
        if free > leave { try Data(count: free - leave).write(to: URL(fileURLWithPath: mnt + "/filler")) }
    }
}
