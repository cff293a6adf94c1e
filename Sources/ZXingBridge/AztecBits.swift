/// The Aztec code's high-level decoding (ISO/IEC 24778, 7.3): error-corrected data bits to
/// bytes. Used to check what zxing-cpp 1.4 makes of the same bits: its decoder reads past the
/// end of the bits on some codes (a binary shift running into the padding, as in zxing-cpp's
/// own test `aztec-1/padding_bs.png`: 996 zero bytes came back as 1,027 bytes ending in whatever
/// lay past its buffer, different from run to run; valgrind: "Invalid read" in
/// ZXing::Aztec::Decode). Pure Swift, no state.
public enum AztecBits {
    /// The bytes, or nil when the bits use what this check does not follow: FLG(n) (FNC1 or an
    /// ECI designator) or a structured-append header (M/L U/L first), whose bytes zxing-cpp
    /// renders its own way.
    ///
    /// Modes as zxing-cpp follows ISO/IEC 24778: a shift or latch code read in a mode makes that
    /// mode the one to return to (so D/L U/S B/S returns to Upper after the bytes), a latch also
    /// makes its target the mode to return to; after a character, the return mode is current.
    public static func decode(_ raw: [UInt8], bitCount: Int) -> [UInt8]? {
        guard bitCount >= 0, bitCount <= raw.count * 8 else { return nil }
        enum Mode { case upper, lower, mixed, punct, digit, binary }
        var index = 0
        func read(_ n: Int) -> Int? {
            guard bitCount - index >= n else { return nil }
            var v = 0
            for _ in 0..<n {
                v = v << 1 | Int(raw[index >> 3] >> (7 - UInt8(index & 7)) & 1)
                index += 1
            }
            return v
        }
        if bitCount > 20, read(5) == 29, read(5) == 29 { return nil } // structured append
        index = 0
        let punct = ["", "\r", "\r\n", ". ", ", ", ": ", "!", "\"", "#", "$", "%", "&", "'", "(", ")", "*", "+", ",",
                     "-", ".", "/", ":", ";", "<", "=", ">", "?", "[", "]", "{", "}"]
        let mixedSymbols = Array("@\\^_`|~".utf8)
        var out: [UInt8] = []
        var latch = Mode.upper, current = Mode.upper
        /// A control code read in `current`: shift (or latch) to `target`.
        func control(_ target: Mode, latching: Bool) {
            latch = current
            current = target
            if latching { latch = target }
        }
        while true {
            if current == .binary {
                guard var length = read(5) else { break }
                if length == 0 {
                    guard let extended = read(11) else { break }
                    length = extended + 31
                }
                for _ in 0..<length {
                    guard let b = read(8) else { return out } // the bits end inside the shift: stop there
                    out.append(UInt8(b))
                }
                current = latch
                continue
            }
            guard let code = read(current == .digit ? 4 : 5) else { break }
            var char: [UInt8]? = nil
            switch current {
            case .upper, .lower:
                switch code {
                case 0: control(.punct, latching: false)
                case 1: char = [32]
                case 2...27: char = [UInt8((current == .upper ? 65 : 97) + code - 2)]
                case 28: if current == .upper { control(.lower, latching: true) } else { control(.upper, latching: false) }
                case 29: control(.mixed, latching: true)
                case 30: control(.digit, latching: true)
                default: control(.binary, latching: false)
                }
            case .mixed:
                switch code {
                case 0: control(.punct, latching: false)
                case 1: char = [32]
                case 2...14: char = [UInt8(code - 1)] // ^A ... ^M
                case 15...19: char = [UInt8(27 + code - 15)] // ^[ ^\ ^] ^^ ^_
                case 20...26: char = [mixedSymbols[code - 20]]
                case 27: char = [127]
                case 28: control(.lower, latching: true)
                case 29: control(.upper, latching: true)
                case 30: control(.punct, latching: true)
                default: control(.binary, latching: false)
                }
            case .punct:
                switch code {
                case 0: return nil // FLG(n): FNC1 or ECI
                case 31: control(.upper, latching: true)
                default: char = Array(punct[code].utf8)
                }
            case .digit:
                switch code {
                case 0: control(.punct, latching: false)
                case 1: char = [32]
                case 2...11: char = [UInt8(48 + code - 2)]
                case 12: char = Array(",".utf8)
                case 13: char = Array(".".utf8)
                case 14: control(.upper, latching: true)
                default: control(.upper, latching: false) // 15: U/S
                }
            case .binary: break
            }
            if let char {
                out += char
                current = latch
            }
        }
        return out
    }
}
