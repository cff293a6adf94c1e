#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte-to-text conversion through the C library's iconv (glibc's tables cover GB18030, CP932,
/// Big5, EUC-KR, the ISO-8859 family and the Windows code pages). Only conversion lives here;
/// deciding which charset to use is CharsetDetector's job. A converter is opened per call, so
/// nothing is shared between tasks.
package enum CharsetConverter {
    /// True when iconv knows the name (as a source charset converted to UTF-8).
    package static func isAvailable(_ iconvName: String) -> Bool {
        let cd = iconv_open("UTF-8", iconvName)
        if isFailure(cd) { return false }
        iconv_close(cd)
        return true
    }

    /// Strict conversion: nil when the charset is unknown or any byte sequence is invalid.
    package static func decode(_ bytes: [UInt8], iconvName: String) -> String? {
        convert(bytes, iconvName: iconvName, lossy: false)
    }

    /// Lossy conversion: each invalid byte becomes U+FFFD. nil only when the charset is unknown.
    package static func decodeLossy(_ bytes: [UInt8], iconvName: String) -> String? {
        convert(bytes, iconvName: iconvName, lossy: true)
    }

    /// Text to bytes in `iconvName` (for `generate --charset`): nil when the charset is unknown
    /// or cannot represent some character of the text.
    package static func encode(_ text: String, iconvName: String) -> [UInt8]? {
        let cd = iconv_open(iconvName, "UTF-8")
        if isFailure(cd) { return nil }
        defer { iconv_close(cd) }
        var input = Array(text.utf8)
        if input.isEmpty { return [] }
        // GB18030 and friends need at most 4 bytes per UTF-8 byte; UTF-16/32 with a BOM a few more.
        var output = [UInt8](repeating: 0, count: input.count * 4 + 16)
        var produced = 0
        let ok: Bool = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                var inPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBuf.baseAddress!).assumingMemoryBound(to: CChar.self)
                var inLeft = inBuf.count
                var outPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuf.baseAddress!).assumingMemoryBound(to: CChar.self)
                var outLeft = outBuf.count
                guard iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft) != -1, inLeft == 0 else { return false }
                guard iconv(cd, nil, nil, &outPtr, &outLeft) != -1 else { return false }
                produced = outBuf.count - outLeft
                return true
            }
        }
        return ok ? Array(output[..<produced]) : nil
    }

    static func isFailure(_ cd: iconv_t?) -> Bool {
        guard let cd else { return true }
        return Int(bitPattern: cd) == -1
    }

    static func convert(_ bytes: [UInt8], iconvName: String, lossy: Bool) -> String? {
        let cd = iconv_open("UTF-8", iconvName)
        if isFailure(cd) { return nil }
        defer { iconv_close(cd) }
        if bytes.isEmpty { return "" }
        var input = bytes
        // Every charset handled here needs at most 4 UTF-8 bytes per input byte.
        var output = [UInt8](repeating: 0, count: bytes.count * 4 + 16)
        var produced = 0
        let ok: Bool = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                let inBase = UnsafeMutableRawPointer(inBuf.baseAddress!).assumingMemoryBound(to: CChar.self)
                let outBase = UnsafeMutableRawPointer(outBuf.baseAddress!).assumingMemoryBound(to: CChar.self)
                var inPtr: UnsafeMutablePointer<CChar>? = inBase
                var inLeft = inBuf.count
                var outPtr: UnsafeMutablePointer<CChar>? = outBase
                var outLeft = outBuf.count
                while inLeft > 0 {
                    let r = iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
                    if r != -1 { break }
                    let err = errno
                    if err == EILSEQ || err == EINVAL {
                        guard lossy, outLeft >= 3 else { return false }
                        // U+FFFD, then skip one byte and go on from a clean state.
                        for b: UInt8 in [0xEF, 0xBF, 0xBD] { outPtr!.pointee = CChar(bitPattern: b); outPtr! += 1 }
                        outLeft -= 3
                        inPtr! += 1
                        inLeft -= 1
                        _ = iconv(cd, nil, nil, nil, nil)
                    } else {
                        return false  // E2BIG cannot happen with the sizing above
                    }
                }
                // Flush any shift state.
                _ = iconv(cd, nil, nil, &outPtr, &outLeft)
                produced = outBuf.count - outLeft
                return true
            }
        }
        guard ok else { return nil }
        return String(decoding: output[..<produced], as: UTF8.self)
    }
}
