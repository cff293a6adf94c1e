import Records
import Reporting

/// How decoding is isolated from the sweep.
public enum Isolation: Sendable, Equatable {
    /// Decode in this process (fastest to start; a crash in a C library ends the sweep).
    case none
    /// Decode in worker processes running `executable __worker`; a crash or a hang costs one
    /// file (recorded as "crash" or "timeout") and the worker is replaced.
    case processes(executable: String, timeoutSeconds: Double)
}

extension WorkerSlot {
    /// A record read without the isolated readers (zxing-cpp) after one failed on the file: named
    /// and warned about, with the symbologies only they read.
    static func withoutSecondReader(_ record: FileRecord, _ what: String, _ kept: String) -> FileRecord {
        var r = record
        let readers = BarcodeReader.isolatedReaders
        let names = readers.map(\.rawValue).joined(separator: ", ")
        let only = Symbology.allCases.filter { readers.contains($0.engine) }.prefix(6).map(\.displayName).joined(separator: ", ")
        r.failedDecoder = names
        r.warnings.append(
            "the second decoder (\(names)) \(what); the worker was replaced and \(kept). Codes only \(names) reads (\(only), ...) may be missing"
        )
        return r
    }
}
