import COpenSSL

/// A message digest of OpenSSL's libcrypto (3.0 on Debian 12), through its EVP API: MD5 (RFC 1321),
/// SHA-1, SHA-256 and SHA-512 (FIPS 180-4). What `--hash`, the annotated pictures' names, the HTML
/// report's Content-Security-Policy and the Base58Check and BIP-39 checksums are computed with.
package enum DigestAlgorithm: Sendable, CaseIterable {
    case md5, sha1, sha256, sha512

    /// The digest's length in bytes: 16, 20, 32, 64.
    package var byteCount: Int {
        switch self {
        case .md5: 16
        case .sha1: 20
        case .sha256: 32
        case .sha512: 64
        }
    }

    /// OpenSSL's static description of the algorithm (`const EVP_MD *`, never freed).
    var evp: OpaquePointer? {
        switch self {
        case .md5: EVP_md5()
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        case .sha512: EVP_sha512()
        }
    }

    /// `bytes` (a digest, or part of one) in lowercase hex, two digits a byte.
    package static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The digest of `bytes`, in one go.
    package func digest(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = DigestHasher(self)
        hasher.update(bytes)
        return hasher.finish()
    }
}

/// One digest being computed: `update` with the bytes, in as many chunks as they come, then
/// `finish`. It owns OpenSSL's `EVP_MD_CTX`, freed when the hasher ends, so it cannot be copied;
/// nor is it Sendable: the task that makes one feeds and finishes it, and the context never
/// crosses tasks.
package struct DigestHasher: ~Copyable {
    private let context: OpaquePointer
    package let algorithm: DigestAlgorithm

    /// OpenSSL fails here only out of memory, or when its configuration withholds the algorithm
    /// (MD5 and SHA-1 under a FIPS-only provider): a machine CodeSweep does not run on, so it stops.
    package init(_ algorithm: DigestAlgorithm) {
        guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL: EVP_MD_CTX_new failed (out of memory)") }
        guard EVP_DigestInit_ex(context, algorithm.evp, nil) == 1 else {
            EVP_MD_CTX_free(context)
            fatalError("OpenSSL: EVP_DigestInit_ex refused \(algorithm) (is it disabled in openssl.cnf?)")
        }
        self.context = context
        self.algorithm = algorithm
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` (any number, none too) to what is digested.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        guard EVP_DigestUpdate(context, base, bytes.count) == 1 else { fatalError("OpenSSL: EVP_DigestUpdate failed") }
    }

    /// Adds `bytes` to what is digested: in place when they are contiguous (an array, a slice).
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { update($0) } }
    }

    /// The digest of everything added, `algorithm.byteCount` bytes; the hasher ends with it.
    package consuming func finish() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var size: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &out, &size) == 1 else { fatalError("OpenSSL: EVP_DigestFinal_ex failed") }
        out.removeSubrange(Int(size)...)
        return out
    }
}

@available(*, unavailable)
extension DigestHasher: Sendable {}
