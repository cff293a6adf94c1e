import FileWalker
import InputSources
import Records
import Synchronization
import WorkerProcesses

/// A walked archive read by several workers at once: worker k of n reads the members whose index
/// is k modulo n (`ContainerSettings.part`), and the sweep puts their records back in the
/// archive's order and sums the parts' counts into the container's one record. The records are
/// those one worker would write; none goes out before every part is done, so a sweep stopped
/// meanwhile leaves the archive unrecorded (`--resume` reads it again whole).
enum ContainerParts {
    /// Whether the walked file is an archive worth sharing out: by its first bytes, when
    /// containers are read, with more than one worker (mail is read by one: its parts are
    /// parsed at once, not streamed).
    static func shares(_ entry: FileEntry, _ settings: ScanSettings, workers: Int) -> Bool {
        // The first KiB tells every archive but an ISO image (which one worker then reads): the
        // coordinator's look at each walked file stays small.
        guard workers > 1, settings.containers.enabled, let head = FileBytes.head(entry.pathBytes, count: 1024),
            case .container(let kind)? = InputSniff.kind(of: head)
        else { return false }
        return !kind.isMail
    }

    /// The archive read in `workers` parts; its members' records in order to `member`, then its
    /// own record (nil when a part was stopped, or skipped it).
    static func scan(_ entry: FileEntry, pool: WorkerPool, workers: Int, member: @Sendable (FileRecord) -> Void) async -> FileRecord? {
        let parts = await withTaskGroup(of: (Int, [FileRecord], FileRecord?).self) { group in
            for k in 0..<workers {
                group.addTask {
                    // The part's members, collected on its worker's queue, read once it is done.
                    let collected = Mutex<[FileRecord]>([])
                    let own = await pool.scan(entry, part: [k, workers], items: { r in collected.withLock { $0.append(r) } })
                    return (k, collected.withLock { $0 }, own)
                }
            }
            var out: [(Int, [FileRecord], FileRecord?)] = []
            for await p in group { out.append(p) }
            return out.sorted { $0.0 < $1.0 }
        }
        guard let merged = merge(parts.map(\.2)) else { return nil }
        let members = parts.flatMap(\.1).enumerated().sorted { a, b in
            let (x, y) = (a.element.member.first?.index ?? 0, b.element.member.first?.index ?? 0)
            return x != y ? x < y : a.offset < b.offset
        }
        for m in members { member(m.element) }
        return merged
    }

    /// The parts' own records as one: the first part's, its counts the sum of all, the first
    /// error and decoder failure, every warning once. Nil when any part has none.
    static func merge(_ records: [FileRecord?]) -> FileRecord? {
        guard var first = records.first ?? nil else { return nil }
        let all = records.compactMap { $0 }
        guard all.count == records.count else { return nil }
        if var total = first.container {
            total.members = 0; total.read = 0; total.skipped = 0; total.failed = 0; total.unpackedBytes = 0
            for c in all.compactMap(\.container) {
                total.members += c.members; total.read += c.read; total.skipped += c.skipped
                total.failed += c.failed; total.unpackedBytes += c.unpackedBytes
                total.detail = total.detail ?? c.detail
            }
            first.container = total
        }
        if first.error == nil, let e = all.first(where: { $0.error != nil })?.error { first.error = e }
        first.failedDecoder = first.failedDecoder ?? all.first { $0.failedDecoder != nil }?.failedDecoder
        for r in all.dropFirst() { first.warnings += r.warnings.filter { !first.warnings.contains($0) } }
        return first
    }
}
