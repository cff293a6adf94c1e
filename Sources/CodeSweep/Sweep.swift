import FileWalker
import MagickBridge
import Records
import WorkerProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A sweep: walked items in, records out in walk order, decoded in parallel.
public struct Sweep: Sendable {
    public var settings: ScanSettings
    /// Images decoded at once (default: the number of cores).
    public var jobs: Int
    public var isolation: Isolation
    /// Ends a timeout record's message: where the limit is set (`check` has no --timeout).
    public var timeoutHint = " (see --timeout)"
    /// Measures codes in process when `settings.grade` is on (workers have their own, given
    /// to `FileScanner.workerTask` by the executable).
    public var grader: CodeGrader? = nil
    public init(settings: ScanSettings, jobs: Int, isolation: Isolation = .none) {
        self.settings = settings
        self.jobs = max(1, jobs)
        self.isolation = isolation
    }

    /// The cores this process may use (`CoreAllowance`): what `--jobs` defaults to.
    public static var coreCount: Int { CoreAllowance.count }

    /// Runs the sweep. `emit` is called on the caller's task, once per record, in the order of
    /// `items`, as soon as the next record in order is ready. `shouldStop` is polled between files
    /// and, with worker processes, while files are in flight: once it is true no file is
    /// started, and a worker still busy a moment later is killed and its file left unrecorded,
    /// so the sweep ends within about a second with every finished record emitted.
    /// `items` is read as the sweep goes (a streaming walk: memory stays flat however many files
    /// there are); at most `jobs * 16` of them are held at once.
    public func run<Items: Sequence<WalkItem>>(
        _ items: Items, emit: (FileRecord) -> Void,
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) async {
        MagickEnvironment.start()
        let settings = self.settings
        let grader = self.grader
        // Records finished out of order wait here; the window bounds how far ahead work runs.
        var ready: [Int: FileRecord?] = [:]
        var nextToEmit = 0
        var nextToStart = 0
        let window = jobs * 16
        let pool: WorkerPool?
        if case .processes(let exe, let timeout) = isolation {
            let launch = WorkerLaunch.sweep(executable: exe, settings: settings, timeout: timeout, timeoutHint: timeoutHint)
            pool = WorkerPool(count: jobs, launch: launch, shouldStop: shouldStop)
        } else {
            pool = nil
        }
        var pending = items.makeIterator()
        var exhausted = false
        await withTaskGroup(of: (Int, FileRecord?).self) { group in
            func startMore() {
                while !exhausted && nextToStart - nextToEmit < window
                    && nextToStart - nextToEmit - ready.count < jobs
                {
                    if shouldStop() { return }
                    guard let item = pending.next() else { exhausted = true; return }
                    let index = nextToStart
                    nextToStart += 1
                    group.addTask {
                        switch item {
                        case .file(let entry):
                            guard let pool else { return (index, FileScanner.scan(entry, settings: settings, grader: grader)) }
                            return (index, await pool.scan(entry))
                        case .failure(let path, let bytes, let error):
                            return (index, FileRecord.failure(path: path, pathBytes: bytes, error))
                        }
                    }
                }
            }
            startMore()
            while let (index, record) = await group.next() {
                ready[index] = .some(record)
                while let r = ready.removeValue(forKey: nextToEmit) {
                    if let r { emit(r) }
                    nextToEmit += 1
                }
                startMore()
            }
        }
        await pool?.shutdown()
    }
}
