/// The Aztec code's high-level decoding (ISO/IEC 24778, 7.3): error-corrected data bits to
/// bytes. Used to check what zxing-cpp 1.4 makes of the same bits: its decoder reads past the
/// end of the bits on some codes (a binary shift running into the padding, as in zxing-cpp's
/// own test `aztec-1/padding_bs.png`: 996 zero bytes came back as 1,027 bytes ending in whatever
/// lay past its buffer, different from run to run; valgrind: "Invalid read" in
/// ZXing::Aztec::Decode). Pure Swift, no state.
package enum AztecBits {
    /// The bytes, or nil when the bits use what this check does not follow: FLG(n) (FNC1 or an
    /// ECI designator) or a structured-append header (M/L U/L first), whose bytes zxing-cpp
    /// renders its own way.
    ///
    /// Modes as zxing-cpp follows ISO/IEC 24778: a shift or latch code read in a mode makes that
    /// mode the one to return to (so D/L U/S B/S returns to Upper after the bytes), a latch also
    /// makes its target the mode to return to; after a character, the return mode is current.
    package static func decode(_ raw: [UInt8], bitCount: Int) -> [UInt8]? {
        guard bitCount >= 0, bitCount <= raw.count * 8 else { return nil }
        var bits = BitReader(raw: raw, count: bitCount)
        if bitCount > 20, bits.read(5) == 29, bits.read(5) == 29 { return nil }  // structured append
        bits.index = 0
        var out: [UInt8] = []
        var latch = Mode.upper, current = Mode.upper
        while true {
            if current == .binary {
                guard var length = bits.read(5) else { break }
                if length == 0 {
                    guard let extended = bits.read(11) else { break }
                    length = extended + 31
                }
                for _ in 0..<length {
                    guard let b = bits.read(8) else { return out }  // the bits end inside the shift: stop there
                    out.append(UInt8(b))
                }
                current = latch
                continue
            }
            guard let code = bits.read(current == .digit ? 4 : 5) else { break }
            switch meaning(of: code, in: current) {
            case .flg: return nil
            case .characters(let text):
                out += text
                current = latch
            case .shift(let target):  // a shift read in `current` returns there
                latch = current
                current = target
            case .latch(let target):
                latch = target
                current = target
            }
        }
        return out
    }

    enum Mode { case upper, lower, mixed, punct, digit, binary }

    /// What one code means in a text mode.
    enum Meaning: Equatable {
        case characters([UInt8])
        case shift(Mode)
        case latch(Mode)
        /// FLG(n): FNC1 or an ECI designator.
        case flg
    }

    static let punctuation = [
        "", "\r", "\r\n", ". ", ", ", ": ", "!", "\"", "#", "$", "%", "&", "'", "(", ")", "*", "+", ",",
        "-", ".", "/", ":", ";", "<", "=", ">", "?", "[", "]", "{", "}",
    ]
    static let mixedSymbols = Array("@\\^_`|~".utf8)

    /// The character tables and control codes of ISO/IEC 24778, table 3 (5-bit codes; 4-bit in
    /// Digit). Binary Shift is read as bytes by `decode`, never through this table.
    static func meaning(of code: Int, in mode: Mode) -> Meaning {
        switch mode {
        case .upper, .lower:
            switch code {
            case 0: return .shift(.punct)
            case 1: return .characters([32])
            case 2...27: return .characters([UInt8((mode == .upper ? 65 : 97) + code - 2)])
            case 28: return mode == .upper ? .latch(.lower) : .shift(.upper)
            case 29: return .latch(.mixed)
            case 30: return .latch(.digit)
            default: return .shift(.binary)
            }
        case .mixed:
            switch code {
            case 0: return .shift(.punct)
            case 1: return .characters([32])
            case 2...14: return .characters([UInt8(code - 1)])  // ^A ... ^M
            case 15...19: return .characters([UInt8(27 + code - 15)])  // ^[ ^\ ^] ^^ ^_
            case 20...26: return .characters([mixedSymbols[code - 20]])
            case 27: return .characters([127])
            case 28: return .latch(.lower)
            case 29: return .latch(.upper)
            case 30: return .latch(.punct)
            default: return .shift(.binary)
            }
        case .punct:
            switch code {
            case 0: return .flg
            case 31: return .latch(.upper)
            default: return .characters(Array(punctuation[code].utf8))
            }
        case .digit:
            switch code {
            case 0: return .shift(.punct)
            case 1: return .characters([32])
            case 2...11: return .characters([UInt8(48 + code - 2)])
            case 12: return .characters(Array(",".utf8))
            case 13: return .characters(Array(".".utf8))
            case 14: return .latch(.upper)
            default: return .shift(.upper)  // 15: U/S
            }
        case .binary:
            preconditionFailure("Binary Shift is read as bytes by decode")
        }
    }

    /// The data bits, most significant first, read `n` at a time.
    struct BitReader {
        let raw: [UInt8]
        let count: Int
        var index = 0

        /// The next `n` bits as a number; nil when fewer than `n` are left.
        mutating func read(_ n: Int) -> Int? {
            guard count - index >= n else { return nil }
            var v = 0
            for _ in 0..<n {
                v = v << 1 | Int(raw[index >> 3] >> (7 - UInt8(index & 7)) & 1)
                index += 1
            }
            return v
        }
    }
}
