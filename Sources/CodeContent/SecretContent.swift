import Digests

/// `secret`: a payload that is, on its own, a key to money or an account: a Bitcoin private key
/// in Wallet Import Format (Base58Check, version 0x80 or 0xEF), an extended private key (BIP-32
/// `xprv`/`tprv`/`yprv`/`zprv`, Base58Check), a BIP-39 mnemonic (12 to 24 words of the English
/// list, its checksum verified), a JSON Web Token. Each is sensitive.
enum SecretContent {
    static func read(_ text: String) -> CodeContent? {
        let trimmed = text.trimmed.filter { $0 != "\n" && $0 != "\r" }
        if let c = mnemonic(text) { return c }
        if let c = base58Key(trimmed) { return c }
        let jwts = JWT.find(in: text)
        if let jwt = jwts.first, jwt.count * 10 >= trimmed.count * 9 {
            var c = CodeContent(.secret)
            c.set("kind", "jwt")
            c.secret("token", kind: .jwt, written: jwt)
            return c
        }
        return nil
    }

    /// 12, 15, 18, 21 or 24 words of the BIP-39 English list (spaces between); the checksum
    /// (the first words/3 bits of SHA-256 of the entropy) checked.
    static func mnemonic(_ text: String) -> CodeContent? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }).map { $0.lowercased() }
        guard [12, 15, 18, 21, 24].contains(words.count), words.allSatisfy({ BIP39Words.index[$0] != nil }) else { return nil }
        var c = CodeContent(.secret)
        c.set("kind", "bip39-mnemonic")
        c.set("words", .int(words.count))
        c.secret("mnemonic", kind: .seedPhrase, written: text.trimmed)
        var bits: [Bool] = []
        for w in words { let v = BIP39Words.index[w]!; for b in (0..<11).reversed() { bits.append(v >> b & 1 == 1) } }
        let checksumBits = words.count / 3, entropyBits = bits.count - checksumBits
        var entropy = [UInt8](repeating: 0, count: entropyBits / 8)
        for i in 0..<entropyBits where bits[i] { entropy[i / 8] |= 0x80 >> UInt8(i % 8) }
        let hash = DigestAlgorithm.sha256.digest(entropy)
        let want = (0..<checksumBits).map { hash[0] >> (7 - UInt8($0)) & 1 == 1 }
        if Array(bits[entropyBits...]) != want { c.problem("the mnemonic's checksum (its last word) is wrong (BIP-39)") }
        return c
    }

    static let extendedPrefixes = ["xprv", "tprv", "yprv", "zprv", "uprv", "vprv", "Yprv", "Zprv"]

    /// A WIF key (51 or 52 characters starting 5, K, L, 9 or c) or an extended private key.
    static func base58Key(_ s: String) -> CodeContent? {
        let extended = extendedPrefixes.contains { s.hasPrefix($0) } && s.count == 111
        let wif = (s.count == 51 && (s.hasPrefix("5") || s.hasPrefix("9"))) || (s.count == 52 && (s.hasPrefix("K") || s.hasPrefix("L") || s.hasPrefix("c")))
        guard extended || wif, let bytes = Base58.decode(s) else { return nil }
        var c = CodeContent(.secret)
        c.set("kind", extended ? "xprv" : "wif")
        c.secret("key", kind: .privateKey, written: s)
        guard bytes.count > 4 else { c.problem("it is too short for Base58Check"); return c }
        let payload = bytes.dropLast(4)
        let check = DigestAlgorithm.sha256.digest(DigestAlgorithm.sha256.digest(payload)).prefix(4)
        if Array(check) != Array(bytes.suffix(4)) { c.problem("its Base58Check checksum is wrong") }
        if wif, ![33, 34].contains(payload.count) || ![0x80, 0xEF].contains(payload.first!) {
            c.problem("it is not a WIF key's version and length")
        }
        return c
    }
}

/// Bitcoin's Base58 (no 0, O, I, l).
enum Base58 {
    static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
    static let values: [Character: Int] = Dictionary(uniqueKeysWithValues: alphabet.enumerated().map { ($1, $0) })

    static func decode(_ s: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        for ch in s {
            guard var carry = values[ch] else { return nil }
            for i in bytes.indices.reversed() {
                carry += Int(bytes[i]) * 58
                bytes[i] = UInt8(carry & 0xFF)
                carry >>= 8
            }
            while carry > 0 { bytes.insert(UInt8(carry & 0xFF), at: 0); carry >>= 8 }
        }
        return Array(repeating: 0, count: s.prefix { $0 == "1" }.count) + bytes
    }
}
