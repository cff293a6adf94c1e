/// Why a file could not be scanned. Raw values are the stable `error.kind` names.
public enum ErrorKind: String, Sendable, Codable, CaseIterable {
    case notFound = "not_found"
    case unreadable = "unreadable"
    case empty = "empty"
    case notImage = "not_image"
    case corrupt = "corrupt"
    /// A PDF that opens only with a user password (one with only an owner password is read).
    case encrypted = "encrypted"
    case truncated = "truncated"
    case tooLarge = "too_large"
    case notRegularFile = "not_regular_file"
    case timeout = "timeout"
    case crash = "crash"
    case internalError = "internal"
}

public struct RecordError: Sendable, Equatable, Error {
    public var kind: ErrorKind
    public var message: String
    public init(_ kind: ErrorKind, _ message: String) { self.kind = kind; self.message = message }
}
