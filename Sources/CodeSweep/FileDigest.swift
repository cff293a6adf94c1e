import Crypto

/// Digests a record can carry (`--hash`), computed with swift-crypto from the bytes the scanner
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
        switch self {
        case .md5: Self.hex(Insecure.MD5.hash(data: bytes))
        case .sha1: Self.hex(Insecure.SHA1.hash(data: bytes))
        case .sha256: Self.hex(SHA256.hash(data: bytes))
        case .sha512: Self.hex(SHA512.hash(data: bytes))
        }
    }

    static func hex<D: Digest>(_ d: D) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(D.byteCount * 2)
        for b in d { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
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
