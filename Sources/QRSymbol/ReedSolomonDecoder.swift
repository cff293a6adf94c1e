/// Reed-Solomon decoding of one QR block with errors and erasures (ISO/IEC 18004 §7.5.2's code:
/// generator roots α⁰…α^(2t−1)). A block with `ecCount` check codewords restores e errors at
/// unknown places and f erasures (places known to be doubtful) while 2e + f ≤ ecCount.
///
/// Steps: syndromes; the erasure locator; Berlekamp-Massey started from it (Blahut's
/// errors-and-erasures form); the roots of the errata locator by trying every position (Chien);
/// the values by Forney's formula; finally the syndromes again, so a block is only ever returned
/// as a codeword.
package enum ReedSolomonDecoder {
    /// What decoding a block did.
    package struct Outcome: Sendable, Equatable {
        /// Positions (in the block, 0 = first codeword) whose value was changed.
        package var corrected: [Int]
        /// Errors found at places not marked as erasures.
        package var errors: Int
        /// Erasures given.
        package var erasures: Int
    }

    /// Decodes `block` in place. `erasures` are positions whose codewords are doubtful (each at
    /// most once); `reserve` check codewords are kept back as a margin against miscorrection:
    /// decoding fails unless 2e + f + reserve ≤ ecCount. Returns nil when the block cannot be
    /// restored within that (the block is then left as it was).
    package static func decode(_ block: inout [UInt8], ecCount: Int, erasures: [Int] = [], reserve: Int = 0) -> Outcome? {
        let n = block.count
        guard ecCount >= 1, ecCount < n, n <= 255 else { return nil }
        let erasures = Array(Set(erasures.filter { $0 >= 0 && $0 < n })).sorted()
        let f = erasures.count
        guard f + reserve <= ecCount else { return nil }
        // S_j = r(α^j), r's first codeword the highest power.
        var syndromes = [UInt8](repeating: 0, count: ecCount)
        var allZero = true
        for j in 0..<ecCount {
            var s: UInt8 = 0
            let a = GF256.power(j)
            for c in block { s = GF256.multiply(s, a) ^ c }
            syndromes[j] = s
            if s != 0 { allZero = false }
        }
        if allZero { return Outcome(corrected: [], errors: 0, erasures: f) }
        // The place of position i is X = α^(n−1−i).
        func locatorOf(_ i: Int) -> UInt8 { GF256.power(n - 1 - i) }
        // Erasure locator Γ(x) = Π (1 + X_k x), lowest power first.
        var gamma: [UInt8] = [1]
        for i in erasures { gamma = Poly.multiply(gamma, [1, locatorOf(i)]) }
        // Berlekamp-Massey from Γ.
        var lambda = gamma, b = gamma
        var l = f
        for k in f..<ecCount {
            var delta: UInt8 = 0
            for j in 0...min(l, lambda.count - 1) where k - j >= 0 {
                delta ^= GF256.multiply(lambda[j], syndromes[k - j])
            }
            let xb = [0] + b
            if delta == 0 {
                b = xb
            } else if 2 * l <= k + f {
                let t = Poly.add(lambda, Poly.scale(xb, delta))
                b = Poly.scale(lambda, GF256.inverse(delta))
                l = k + 1 + f - l
                lambda = t
            } else {
                lambda = Poly.add(lambda, Poly.scale(xb, delta))
                b = xb
            }
        }
        lambda = Poly.trimmed(lambda)
        let degree = lambda.count - 1
        let errors = l - f
        guard degree == l, errors >= 0, 2 * errors + f + reserve <= ecCount else { return nil }
        // Roots: position i is in error when Λ(X_i⁻¹) = 0.
        var places: [Int] = []
        for i in 0..<n where Poly.evaluate(lambda, at: GF256.inverse(locatorOf(i))) == 0 {
            places.append(i)
        }
        guard places.count == degree else { return nil }
        // Ω(x) = S(x) Λ(x) mod x^ecCount; e = X Ω(X⁻¹) / Λ'(X⁻¹).
        let omega = Array(Poly.multiply(syndromes, lambda).prefix(ecCount))
        var derivative = [UInt8](repeating: 0, count: max(1, lambda.count - 1))
        for j in stride(from: 1, to: lambda.count, by: 2) { derivative[j - 1] = lambda[j] }
        var fixed = block
        var corrected: [Int] = []
        for i in places {
            let x = locatorOf(i), xInv = GF256.inverse(x)
            let den = Poly.evaluate(derivative, at: xInv)
            guard den != 0 else { return nil }
            let value = GF256.multiply(x, GF256.multiply(Poly.evaluate(omega, at: xInv), GF256.inverse(den)))
            if value != 0 { fixed[i] ^= value; corrected.append(i) }
        }
        // Only a codeword is returned.
        for j in 0..<ecCount {
            var s: UInt8 = 0
            let a = GF256.power(j)
            for c in fixed { s = GF256.multiply(s, a) ^ c }
            if s != 0 { return nil }
        }
        let erasureSet = Set(erasures)
        block = fixed
        return Outcome(corrected: corrected, errors: places.filter { !erasureSet.contains($0) }.count, erasures: f)
    }

    /// Polynomials over GF(2⁸), lowest power first.
    enum Poly {
        static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: max(a.count, b.count))
            for (i, v) in a.enumerated() { out[i] = v }
            for (i, v) in b.enumerated() { out[i] ^= v }
            return out
        }
        static func scale(_ a: [UInt8], _ k: UInt8) -> [UInt8] { a.map { GF256.multiply($0, k) } }
        static func multiply(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: a.count + b.count - 1)
            for (i, x) in a.enumerated() where x != 0 {
                for (j, y) in b.enumerated() { out[i + j] ^= GF256.multiply(x, y) }
            }
            return out
        }
        static func evaluate(_ a: [UInt8], at x: UInt8) -> UInt8 {
            var acc: UInt8 = 0
            for c in a.reversed() { acc = GF256.multiply(acc, x) ^ c }
            return acc
        }
        static func trimmed(_ a: [UInt8]) -> [UInt8] {
            var a = a
            while a.count > 1 && a.last == 0 { a.removeLast() }
            return a
        }
    }
}

extension GF256 {
    /// The multiplicative inverse of a non-zero element.
    package static func inverse(_ a: UInt8) -> UInt8 {
        precondition(a != 0)
        return exp[255 - log[Int(a)]]
    }
}
