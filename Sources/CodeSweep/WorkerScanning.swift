import FileWalker
import Foundation
import MagickBridge
import Records
import WorkerProcesses

extension ScanSettings {
    /// The settings a worker scans with, passed once as its command-line argument: all of
    /// them, as `Codable` JSON (the plan's passes and settings included), so a worker scans
    /// exactly as the coordinator would in its own process.
    public var workerArgument: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // ScanSettings holds strings, numbers, booleans and enums only: encoding cannot fail.
        guard let data = try? encoder.encode(self) else { fatalError("ScanSettings did not encode as JSON") }
        return String(decoding: data, as: UTF8.self)
    }

    /// Settings read back from a worker's argument; nil when it is not theirs.
    public init?(workerArgument text: String) {
        guard let s = try? JSONDecoder().decode(ScanSettings.self, from: Data(text.utf8)) else { return nil }
        self = s
    }
}

extension FileScanner {
    /// What a worker process does with each file it is sent (`codesweep __worker`): this
    /// scanner with `settings`, leaving out the readers the request names.
    package static func workerTask(_ settings: ScanSettings, grader: CodeGrader?) -> WorkerTask {
        WorkerTask(
            memoryLimitMiB: settings.memoryLimitMiB, prepare: { MagickEnvironment.start() },
            scan: { entry, without, part, checkpoint, member, progress in
                var fileSettings = settings
                fileSettings.reader.leftOut = without
                fileSettings.containers.part = part
                return scan(entry, settings: fileSettings, grader: grader, checkpoint: checkpoint, items: member, progress: progress)
            })
    }
}

extension WorkerLaunch {
    /// How a sweep with `settings` starts its workers.
    static func sweep(executable: String, settings: ScanSettings, timeout: Double, timeoutHint: String) -> WorkerLaunch {
        WorkerLaunch(
            executable: executable, settingsArgument: settings.workerArgument, memoryLimitMiB: settings.memoryLimitMiB,
            timeout: timeout, timeoutHint: timeoutHint, tmpdir: MagickEnvironment.privateDirectory,
            isolatedReaders: BarcodeReader.isolatedReaders)
    }
}
