/// How decoding is isolated from the sweep.
public enum Isolation: Sendable, Equatable {
    /// Decode in this process (fastest to start; a crash in a C library ends the sweep).
    case none
    /// Decode in worker processes running `executable __worker`; a crash or a hang costs one
    /// file (recorded as "crash" or "timeout") and the worker is replaced.
    case processes(executable: String, timeoutSeconds: Double)
}
