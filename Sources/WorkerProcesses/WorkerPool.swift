import Dispatch
import FileWalker
import Records
import UserInput

#if canImport(Glibc)
import Glibc
#endif

/// How a pool's workers are started and watched.
package struct WorkerLaunch: Sendable {
    /// The program started as `EXECUTABLE __worker SETTINGS` (this one).
    package var executable: String
    /// The scan settings, as the worker's argument (`ScanSettings.workerArgument`).
    package var settingsArgument: String
    /// A worker's address-space limit beyond its start (MiB; 0: none): a death there is no crash.
    package var memoryLimitMiB: Int
    /// Seconds a file may take.
    package var timeout: Double
    /// The end of a timeout message: which flag changes the limit (" (see --timeout)").
    package var timeoutHint: String
    /// The workers' TMPDIR (ImageMagick's private folder), nil: the sweep's own.
    package var tmpdir: String?
    /// The readers that run in the worker after a checkpoint (zxing-cpp): a file one of them
    /// died on is read again without them (`BarcodeReader.isolatedReaders`).
    package var isolatedReaders: [ReaderName]

    package init(
        executable: String, settingsArgument: String, memoryLimitMiB: Int, timeout: Double, timeoutHint: String, tmpdir: String?,
        isolatedReaders: [ReaderName]
    ) {
        self.executable = executable; self.settingsArgument = settingsArgument; self.memoryLimitMiB = memoryLimitMiB
        self.timeout = timeout; self.timeoutHint = timeoutHint; self.tmpdir = tmpdir
        self.isolatedReaders = isolatedReaders
    }
}

extension WorkerSlot {
    /// A record read without the isolated readers (zxing-cpp) after one failed on the file: named
    /// and warned about, with the symbologies only they read.
    func withoutIsolatedReaders(_ record: FileRecord, _ what: String, _ kept: String) -> FileRecord {
        var r = record
        let names = launch.isolatedReaders.map(\.rawValue).joined(separator: ", ")
        let only = Symbology.allCases.filter { launch.isolatedReaders.contains($0.reader) }.prefix(6).map(\.displayName)
            .joined(separator: ", ")
        r.failedDecoder = names
        r.warnings.append(
            "the isolated reader (\(names)) \(what); the worker was replaced and \(kept). Codes only \(names) reads (\(only), ...) may be missing"
        )
        return r
    }
}

/// A fixed set of workers handed out to the sweep's tasks one at a time.
package actor WorkerPool {
    private var free: [WorkerSlot]
    private var all: [WorkerSlot]
    private var waiters: [CheckedContinuation<WorkerSlot, Never>] = []

    /// Write end of the lifeline pipe: held (close-on-exec) by this process only, so the
    /// workers' read ends see end of file when it dies.
    private let lifelineWriteEnd: Int32
    private let lifelineReadEnd: Int32

    package init(count: Int, launch: WorkerLaunch, shouldStop: @escaping @Sendable () -> Bool) {
        // Both ends close-on-exec, set under the spawn lock (no spawn can slip in between):
        // a worker gets the read end only as its descriptor 3, nothing else inherits either.
        let ends: [Int32] = WorkerSlot.spawnLock.sync {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { return [-1, -1] }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return fds
        }
        lifelineWriteEnd = ends[1]
        lifelineReadEnd = ends[0]
        let readEnd = ends[0]
        let slots = (0..<count).map { WorkerSlot(index: $0, launch: launch, lifeline: readEnd, shouldStop: shouldStop) }
        free = slots
        all = slots
    }

    /// Reads one file in a free worker (waiting for one): its record, or nil when the file is
    /// skipped or the sweep stopped while it was in flight. The records of items expanded from
    /// it (a container's members) go to `items` as the worker sends them, before it ends.
    package func scan(_ entry: FileEntry, part: [Int]? = nil, items: @escaping @Sendable (FileRecord) -> Void = { _ in }) async -> FileRecord? {
        let worker = await acquire()
        let record = await worker.scan(entry, part: part, items: items)
        release(worker)
        return record
    }

    func acquire() async -> WorkerSlot {
        if let s = free.popLast() { return s }
        return await withCheckedContinuation { waiters.append($0) }
    }

    func release(_ s: WorkerSlot) {
        if waiters.isEmpty { free.append(s) } else { waiters.removeFirst().resume(returning: s) }
    }

    package func shutdown() async {
        for s in all { await s.shutdown() }
    }

    deinit {
        if lifelineWriteEnd >= 0 { close(lifelineWriteEnd) }
        if lifelineReadEnd >= 0 { close(lifelineReadEnd) }
    }
}
