import Digests

/// Digests a record can carry (`--hash`), computed with OpenSSL's libcrypto (Digests) from the bytes the scanner
/// already read: a file is read once whatever is asked of it.
public enum HashAlgorithm: String, Sendable, CaseIterable, Comparable, Codable {
    case md5, sha1, sha256, sha512

    public static func < (l: HashAlgorithm, r: HashAlgorithm) -> Bool { l.rawValue < r.rawValue }

    /// `sha256`, `md5,sha256`, ... (case-insensitive; `sha-256` is accepted too). Sorted, without repeats.
    public static func parseList(_ texts: [String]) throws(HashListError) -> [HashAlgorithm] {
        var out = Set<HashAlgorithm>()
        for text in texts {
            for part in text.split(separator: ",") {
                let name = part.lowercased().replacingDashes()
                guard let a = HashAlgorithm(rawValue: name) else { throw HashListError(name: String(part)) }
                out.insert(a)
            }
        }
        return out.sorted()
    }

    /// Lowercase hex digest of `bytes`.
    public func hex(_ bytes: [UInt8]) -> String {
        let algorithm: DigestAlgorithm =
            switch self {
            case .md5: .md5
            case .sha1: .sha1
            case .sha256: .sha256
            case .sha512: .sha512
            }
        return DigestAlgorithm.hex(algorithm.digest(bytes))
    }
}

public struct HashListError: Error, CustomStringConvertible {
    public let name: String
    public var description: String {
        "unknown hash '\(name)'; choose from \(HashAlgorithm.allCases.map(\.rawValue).joined(separator: ", "))"
    }
}

extension String {
    fileprivate func replacingDashes() -> String { String(filter { $0 != "-" }) }
}
