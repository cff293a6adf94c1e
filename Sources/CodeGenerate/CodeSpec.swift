import Imaging
import Payloads
import QRSymbol

/// The file format a code is written in.
package enum OutputKind: String, Sendable, CaseIterable {
    case png, svg, jpeg
    package var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// From a file name's extension (case-insensitive): .png, .svg, .jpg/.jpeg.
    package init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: "."), !fileName[dot...].contains("/") else { return nil }
        switch fileName[fileName.index(after: dot)...].lowercased() {
        case "png": self = .png
        case "svg": self = .svg
        case "jpg", "jpeg": self = .jpeg
        default: return nil
        }
    }
}

/// The logo's plate: a background-coloured square under the logo, with rounded corners or not.
package enum PlateShape: String, Sendable, CaseIterable { case rounded, square }

/// How one code should look and be encoded. `apply(option:value:)` takes the same names as the
/// command's flags (without `--`), for batch lists.
package struct CodeSpec: Sendable, Equatable {
    /// nil: M, or H when there is a logo.
    package var ec: QRErrorCorrection? = nil
    /// Smallest QR version (1...40); 0 lets the encoder choose.
    package var minVersion = 0
    /// Pixels a module; nil with `sizePx` set (fit), else `defaultModulePx`.
    package var modulePx: Int? = nil
    package var sizePx: Int? = nil
    package var margin = 4
    package var foreground = RGBColor.black
    package var background = RGBColor.white
    package var logoPath: String? = nil
    /// The logo's area as a fraction of the code's area (symbol without quiet zone).
    package var logoSize = 0.10
    package var plate = PlateShape.rounded
    package var format = OutputKind.png
    package var jpegQuality = 95
    /// Encode the payload text in this charset (iconv name); nil keeps the bytes as given.
    package var charset: String? = nil
    /// Put an ECI designator before the data: with a charset, its number (when it has one);
    /// without, ECI 26 (UTF-8) for a payload that is UTF-8 text and not all ASCII.
    package var eci = true

    package static let defaultModulePx = 8
    package init() {}

    package var effectiveEC: QRErrorCorrection { ec ?? (logoPath != nil ? .H : .M) }

    /// Option names batch lists take (the flags without `--`).
    package static let optionNames = [
        "ec", "min-version", "module", "size", "margin", "fg", "bg", "logo", "logo-size",
        "plate", "format", "quality", "charset", "no-eci",
    ]

    package mutating func apply(option key: String, value: String) throws(GenerateError) {
        func int(_ range: ClosedRange<Int>) throws(GenerateError) -> Int {
            guard let v = Int(value), range.contains(v) else {
                throw GenerateError.usage("--\(key) takes a whole number in \(range.lowerBound)...\(range.upperBound), not '\(value)'")
            }
            return v
        }
        switch key {
        case "ec":
            guard let e = QRErrorCorrection(flag: value) else { throw GenerateError.usage("--ec takes L, M, Q or H, not '\(value)'") }
            ec = e
        case "min-version": minVersion = try int(1...40)
        case "module": modulePx = try int(1...200); sizePx = nil
        case "size": sizePx = try int(21...20000); modulePx = nil
        case "margin": margin = try int(0...100)
        case "fg", "bg":
            let c: RGBColor
            do { c = try RGBColor(css: value) } catch { throw GenerateError.usage("--\(key): \(error.description)") }
            if key == "fg" { foreground = c } else { background = c }
        case "logo": logoPath = value.isEmpty ? nil : value
        case "logo-size":
            guard let f = Double(value), f > 0, f < 1 else {
                throw GenerateError.usage("--logo-size takes the logo's share of the code's area, 0 < f < 1 (0.1 = 10 %), not '\(value)'")
            }
            logoSize = f
        case "plate":
            guard let p = PlateShape(rawValue: value.lowercased()) else { throw GenerateError.usage("--plate takes rounded or square, not '\(value)'") }
            plate = p
        case "format":
            let v = value.lowercased() == "jpg" ? "jpeg" : value.lowercased()
            guard let f = OutputKind(rawValue: v) else { throw GenerateError.usage("--format takes png, svg or jpeg, not '\(value)'") }
            format = f
        case "quality": jpegQuality = try int(1...100)
        case "charset": charset = value.isEmpty ? nil : value
        case "no-eci":
            guard let b = ["true": true, "yes": true, "1": true, "false": false, "no": false, "0": false][value.lowercased()] else {
                throw GenerateError.usage("no-eci takes true or false, not '\(value)'")
            }
            eci = !b
        default:
            throw GenerateError.usage("unknown option '\(key)' (known: \(Self.optionNames.joined(separator: ", ")))")
        }
    }
}

/// Why a code was not made, or a usage error.
package struct GenerateError: Error, CustomStringConvertible, Equatable {
    package enum Kind: Sendable, Equatable { case usage, refused }
    package var kind: Kind
    package var description: String
    package static func usage(_ s: String) -> GenerateError { GenerateError(kind: .usage, description: s) }
    package static func refused(_ s: String) -> GenerateError { GenerateError(kind: .refused, description: s) }
}

/// Payload text to bytes in a legacy charset, and the ECI designator that names it.
package enum PayloadEncoding {
    /// ECI assignments (AIM ECI registry) for the charsets CodeSweep reads.
    package static func eciNumber(_ charset: String) -> UInt32? {
        let n = charset.lowercased().replacing("_", with: "-")
        switch n {
        case "utf-8", "utf8": return 26
        case "iso-8859-1", "latin1", "latin-1": return 3
        case "shift-jis", "sjis", "cp932", "windows-31j": return 20
        case "windows-1250", "cp1250": return 21
        case "windows-1251", "cp1251": return 22
        case "windows-1252", "cp1252": return 23
        case "windows-1256", "cp1256": return 24
        case "utf-16be": return 25
        case "us-ascii", "ascii": return 27
        case "big5": return 28
        case "gb2312", "euc-cn", "gbk", "cp936": return 29
        case "euc-kr", "ks-c-5601-1987": return 30
        case "gb18030": return 32
        default:
            if n.hasPrefix("iso-8859-"), let k = Int(n.dropFirst(9)), (2...16).contains(k), k != 12 { return UInt32(k + 2) }
            return nil
        }
    }

    /// The ECI number of UTF-8.
    package static let utf8ECI: UInt32 = 26

    /// The payload's bytes and ECI: without a charset the bytes as given, with ECI 26 (UTF-8)
    /// when they are UTF-8 text that is not all ASCII (a reader without it guesses: zbarimg reads
    /// UTF-8 "café" as Shift-JIS "caf矇"); with a charset, the text (which must be UTF-8)
    /// converted, with its ECI. `eci` false leaves the designator out either way.
    package static func encode(_ bytes: [UInt8], charset: String?, eci: Bool) throws(GenerateError) -> (bytes: [UInt8], eci: UInt32?) {
        guard let charset else {
            let utf8Text = !bytes.allSatisfy { $0 < 0x80 } && String(validating: bytes, as: UTF8.self) != nil
            return (bytes, eci && utf8Text ? utf8ECI : nil)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw GenerateError.usage(
                "--charset \(charset) converts text, and this payload is not UTF-8 text (without --charset its bytes are encoded as they are)")
        }
        guard let out = CharsetConverter.encode(text, iconvName: charset) else {
            if !CharsetConverter.isAvailable(charset) { throw GenerateError.usage("--charset: '\(charset)' is not a charset iconv knows") }
            throw GenerateError.refused("the payload has characters \(charset) cannot represent")
        }
        return (out, eci ? eciNumber(charset) : nil)
    }

    /// What a person should know about the payload's charset designator, or nil: non-ASCII
    /// bytes written without an ECI leave readers to guess.
    package static func note(_ bytes: [UInt8], charset: String?, eci: UInt32?) -> String? {
        guard charset == nil, eci == nil, !bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        if String(validating: bytes, as: UTF8.self) != nil {
            return "no ECI (--no-eci): readers must guess the charset of this UTF-8 text, and some guess wrong (zbarimg reads UTF-8 'café' as Shift-JIS 'caf矇')"
        }
        return
            "the payload is not UTF-8 text: its bytes are encoded as they are, with no ECI, and readers show them in a charset they guess (for text, give it in UTF-8, with --charset NAME for a legacy charset)"
    }
}
