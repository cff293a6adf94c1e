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
    /// A record read without zxing-cpp after it failed on the file: named and warned about.
    static func withoutSecondReader(_ record: FileRecord, _ what: String, _ kept: String) -> FileRecord {
        var r = record
        r.failedDecoder = DecodingEngine.zxing.rawValue
        r.warnings.append(
            "the second decoder (zxing-cpp) \(what); the worker was replaced and \(kept). Codes only zxing-cpp reads (Data Matrix, PDF417, Aztec, Micro QR, rMQR, MaxiCode, ...) may be missing"
        )
        return r
    }
}
