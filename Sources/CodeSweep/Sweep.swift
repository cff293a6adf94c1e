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
    /// `items`, as soon as the next record in order is ready: a file's members' records (a
    /// container's) as they come, then the file's own, which ends it. `shouldStop` is polled
    /// between files and, with worker processes, while files are in flight: once it is true no
    /// file is started, and a worker still busy a moment later is killed and its file left
    /// unrecorded (its own record not written: `--resume` reads it again whole), so the sweep
    /// ends within about a second with every finished record emitted.
    /// `items` is read as the sweep goes (a streaming walk: memory stays flat however many files
    /// there are); at most `jobs * 16` of them are held at once.
    public func run<Items: Sequence<WalkItem>>(
        _ items: Items, emit: (FileRecord) -> Void,
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) async {
        MagickEnvironment.start()
        let settings = self.settings
        let grader = self.grader
        let pool: WorkerPool?
        if case .processes(let exe, let timeout) = isolation {
            let launch = WorkerLaunch.sweep(executable: exe, settings: settings, timeout: timeout, timeoutHint: timeoutHint)
            pool = WorkerPool(count: jobs, launch: launch, shouldStop: shouldStop)
        } else {
            pool = nil
        }
        var order = SweepOrder(window: jobs * 16, jobs: jobs)
        let workers = jobs
        var pending = items.makeIterator()
        let (events, sink) = AsyncStream.makeStream(of: SweepOrder.Event.self)
        await withTaskGroup(of: Void.self) { group in
            func startMore() {
                while order.mayStart {
                    if shouldStop() { order.exhausted = true; return }
                    guard let item = pending.next() else { order.exhausted = true; return }
                    let index = order.started()
                    group.addTask {
                        let member: @Sendable (FileRecord) -> Void = { sink.yield(.member(index, $0)) }
                        let record: FileRecord?
                        switch item {
                        case .file(let entry):
                            if let pool, ContainerParts.shares(entry, settings, workers: workers) {
                                record = await ContainerParts.scan(entry, pool: pool, workers: workers, member: member)
                            } else if let pool {
                                record = await pool.scan(entry, items: member)
                            } else {
                                record = FileScanner.scan(entry, settings: settings, grader: grader, items: member)
                            }
                        case .failure(let path, let bytes, let error):
                            record = FileRecord.failure(path: path, pathBytes: bytes, error)
                        }
                        sink.yield(.done(index, record))
                    }
                }
            }
            startMore()
            if order.finished { sink.finish() }
            for await event in events {
                order.take(event, emit: emit)
                startMore()
                if order.finished { sink.finish() }
            }
        }
        await pool?.shutdown()
    }
}

/// The sweep's bookkeeping: records come from tasks in any order and leave in walk order, a
/// file's members first, its own record last; the window bounds how far ahead work runs.
struct SweepOrder {
    enum Event: Sendable {
        /// A record of an item expanded from file `index` (a container's member).
        case member(Int, FileRecord)
        /// File `index` is done: its own record, or nil when it has none (skipped, interrupted).
        case done(Int, FileRecord?)
    }

    let window: Int
    let jobs: Int
    private(set) var nextToStart = 0
    private(set) var nextToEmit = 0
    var exhausted = false
    /// Records of files after the next to emit, in the order they came.
    private var waiting: [Int: [FileRecord]] = [:]
    private var done: Set<Int> = []

    init(window: Int, jobs: Int) { self.window = window; self.jobs = jobs }

    var inFlight: Int { nextToStart - nextToEmit - done.count }
    var mayStart: Bool { !exhausted && nextToStart - nextToEmit < window && inFlight < jobs }
    /// Every file started has ended and none is left to start.
    var finished: Bool { exhausted && nextToEmit == nextToStart }

    mutating func started() -> Int {
        nextToStart += 1
        return nextToStart - 1
    }

    mutating func take(_ event: Event, emit: (FileRecord) -> Void) {
        switch event {
        case .member(let i, let r):
            if i == nextToEmit { emit(r) } else { waiting[i, default: []].append(r) }
        case .done(let i, let r):
            if let r {
                if i == nextToEmit { emit(r) } else { waiting[i, default: []].append(r) }
            }
            done.insert(i)
        }
        while done.contains(nextToEmit) {
            done.remove(nextToEmit)
            nextToEmit += 1
            for r in waiting.removeValue(forKey: nextToEmit) ?? [] { emit(r) }
        }
    }
}
