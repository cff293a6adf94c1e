import CodeSweep
import Digests
import Foundation
import TestSupport
import Testing

/// `Digests`, OpenSSL's libcrypto through EVP: the published test vectors (FIPS 180-2's appendices
/// for SHA-1, SHA-256 and SHA-512, RFC 1321's suite for MD5), one million 'a' fed in chunks of odd
/// sizes, and a file of a few MB against coreutils' sha256sum, sha1sum, md5sum and sha512sum.
@Suite("Digests: MD5, SHA-1, SHA-256, SHA-512 from libcrypto")
struct DigestsTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static let abc448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"

    /// (algorithm, message, digest) of FIPS 180-2 and RFC 1321.
    static let vectors: [(DigestAlgorithm, String, String)] = [
        (.sha256, "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (.sha256, "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (.sha256, abc448, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (.sha1, "", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        (.sha1, "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (.sha1, abc448, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        (
            .sha512, "",
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
        ),
        (
            .sha512, "abc",
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        ),
        (
            .sha512, abc448,
            "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445"
        ),
        (.md5, "", "d41d8cd98f00b204e9800998ecf8427e"),
        (.md5, "a", "0cc175b9c0f1b6a831c399e269772661"),
        (.md5, "abc", "900150983cd24fb0d6963f7d28e17f72"),
        (.md5, "message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        (.md5, "abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        (.md5, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (.md5, String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ]

    @Test("the test vectors of FIPS 180-2 and RFC 1321, whole and a byte at a time")
    func vectors() {
        for (algorithm, message, want) in Self.vectors {
            let got = algorithm.digest(Array(message.utf8))
            #expect(Self.hex(got) == want, "\(algorithm) of '\(message)'")
            #expect(got.count == algorithm.byteCount)
            var hasher = DigestHasher(algorithm)
            for byte in message.utf8 { hasher.update([byte]) }
            #expect(Self.hex(hasher.finish()) == want, "\(algorithm) of '\(message)', a byte at a time")
        }
    }

    @Test("one million 'a' fed in chunks of odd sizes (1 to 65,537 bytes), and nothing between them")
    func millionA() {
        let want: [(DigestAlgorithm, String)] = [
            (.sha256, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
            (.sha1, "34aa973cd4c4daa4f61eeb2bdbad27316534016f"),
            (
                .sha512,
                "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"
            ),
            (.md5, "7707d6ae4e027c70eea2a935c2296f21"),
        ]
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        let sizes = [1, 3, 7, 63, 65, 127, 129, 997, 4095, 65_537]
        for (algorithm, digest) in want {
            #expect(Self.hex(algorithm.digest(million)) == digest, "\(algorithm), whole")
            var hasher = DigestHasher(algorithm)
            var at = 0, k = 0
            while at < million.count {
                let end = min(million.count, at + sizes[k % sizes.count])
                hasher.update(million[at..<end])
                hasher.update([UInt8]())
                at = end
                k += 1
            }
            #expect(Self.hex(hasher.finish()) == digest, "\(algorithm), in \(k) chunks")
        }
    }

    @Test("a file of 3 MB: the digests of coreutils' sha256sum, sha1sum, md5sum and sha512sum, and --hash's")
    func againstCoreutils() throws {
        var r = Rand(state: 63)
        let bytes = (0..<(3 << 20) + 17).map { _ in UInt8(truncatingIfNeeded: r.next()) }
        let dir = try TempDir("digests")
        try dir.write("blob.bin", bytes)
        let tools: [(DigestAlgorithm, HashAlgorithm, String)] = [
            (.sha256, .sha256, "sha256sum"), (.sha1, .sha1, "sha1sum"), (.md5, .md5, "md5sum"), (.sha512, .sha512, "sha512sum"),
        ]
        for (algorithm, hash, tool) in tools {
            let line = try run("/usr/bin/env", [tool, dir.file("blob.bin")]).stdout
            let want = String(line.prefix { $0 != " " })
            #expect(want.count == algorithm.byteCount * 2, "\(tool): \(line)")
            #expect(Self.hex(algorithm.digest(bytes)) == want, "\(algorithm) against \(tool)")
            #expect(hash.hex(bytes) == want, "--hash \(hash.rawValue) against \(tool)")
            var hasher = DigestHasher(algorithm)
            var at = 0, k = 0
            let sizes = [1, 4093, 65_537, 1 << 20]
            while at < bytes.count {
                let end = min(bytes.count, at + sizes[k % sizes.count])
                bytes[at..<end].withUnsafeBytes { hasher.update($0) }
                at = end
                k += 1
            }
            #expect(Self.hex(hasher.finish()) == want, "\(algorithm) in chunks against \(tool)")
        }
    }
}
