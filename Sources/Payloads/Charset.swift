/// The charsets CodeSweep names in its output. Raw values are the stable `encoding` names.
package enum Charset: String, Sendable, CaseIterable {
    case utf8 = "utf-8"
    case utf16BE = "utf-16be"
    case utf16LE = "utf-16le"
    case gb18030 = "gb18030"
    case shiftJIS = "shift_jis"
    case big5 = "big5"
    case eucKR = "euc-kr"
    case latin1 = "iso-8859-1"

    /// The name glibc's iconv knows. Shift-JIS is read as CP932 (Windows' superset), which keeps
    /// 0x5C a backslash and 0x7E a tilde, as every QR payload (URLs, vCards) expects.
    package var iconvName: String {
        switch self {
        case .utf8: "UTF-8"
        case .utf16BE: "UTF-16BE"
        case .utf16LE: "UTF-16LE"
        case .gb18030: "GB18030"
        case .shiftJIS: "CP932"
        case .big5: "BIG5"
        case .eucKR: "EUC-KR"
        case .latin1: "ISO-8859-1"
        }
    }

    /// Accepts the usual spellings ("SJIS", "gbk", "latin1", "UTF8", ...).
    package init?(named name: String) {
        let key = String(name.lowercased().unicodeScalars.filter { $0 != "-" && $0 != "_" && $0 != " " })
        switch key {
        case "utf8": self = .utf8
        case "utf16be": self = .utf16BE
        case "utf16le": self = .utf16LE
        case "gb18030", "gbk", "gb2312", "cp936", "euccn": self = .gb18030
        case "shiftjis", "sjis", "cp932", "windows31j", "mskanji": self = .shiftJIS
        case "big5", "cp950", "big5tw": self = .big5
        case "euckr", "cp949", "ksc5601", "ksx1001": self = .eucKR
        case "iso88591", "latin1", "l1", "iso885911987": self = .latin1
        default: return nil
        }
    }

    /// AIM ECI assignment numbers (ISO/IEC 18004 / AIM ECI part 3) to charset names, for the
    /// ECI designators that name a character set. Returns the name used in the output.
    package static func eciCharsetName(_ eci: Int) -> String? {
        switch eci {
        case 1, 3: "iso-8859-1"
        case 4...13: "iso-8859-\(eci - 2)"
        case 15...18: "iso-8859-\(eci - 2)"
        case 20: Charset.shiftJIS.rawValue
        case 21: "windows-1250"
        case 22: "windows-1251"
        case 23: "windows-1252"
        case 24: "windows-1256"
        case 25: Charset.utf16BE.rawValue
        case 26: Charset.utf8.rawValue
        case 27: "us-ascii"
        case 28: Charset.big5.rawValue
        case 29: Charset.gb18030.rawValue
        case 30: Charset.eucKR.rawValue
        default: nil
        }
    }
}
