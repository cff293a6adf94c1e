/// A deterministic generator (tests must not depend on the run): bit errors and random modules
/// for the QR symbol and grid reader tests, unit and integration.
package struct Rand {
    package var state: UInt64
    package init(state: UInt64) { self.state = state }
    package mutating func next() -> UInt64 { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return state >> 33 }
    package mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// `code` with `count` of its low `width` bits flipped, chosen at random.
    package mutating func flipping(_ count: Int, of width: Int, in code: Int) -> Int {
        var flipped = Set<Int>()
        while flipped.count < count { flipped.insert(below(width)) }
        return flipped.reduce(code) { $0 ^ (1 << $1) }
    }
}

/// SplitMix64: the same payloads and pictures on every run (charset samples, generate's batches,
/// the scannability gate's pictures).
package struct SplitMix {
    package var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    package mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    package mutating func pick<T>(_ a: [T]) -> T { a[int(a.count)] }
}
