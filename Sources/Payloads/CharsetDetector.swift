/// Tells GB18030, Shift-JIS, Big5, EUC-KR and ISO-8859-1 apart for payload bytes that are not
/// UTF-8, by validity first and plausibility second.
///
/// Validity: each multi-byte charset has its own lead/trail byte structure, and the areas its
/// standard leaves unassigned or user-defined are treated as invalid (text in that charset does
/// not use them; bytes from another charset often land there).
///
/// Plausibility: every charset orders its repertoire so that the common characters of its
/// language sit in known byte areas (GB2312 level 1 hanzi, Big5 level 1, JIS X 0208 kana and
/// level 1 kanji, KS X 1001 Hangul). Each character earns the weight of the area it falls in,
/// and the decoded text earns a bonus for each of the most frequent characters of the language.
/// The candidate with the highest total wins; when no candidate reaches a minimum weight per
/// non-ASCII byte the payload is called binary.
///
/// Two corrections, both following what zxing-cpp and ZBar show for the same bytes:
/// - **Text with a few foreign letters.** When the bytes are mostly printable ASCII (at least
///   four ASCII bytes to each high byte, and no ASCII control other than tab, CR, LF), they are
///   text already, and a charset in which the few high bytes are valid and assigned is believed
///   with a much lower weight (`minimumScorePerByteInASCIIText`). A URL whose host has one
///   Cyrillic letter written in Shift_JIS (`84 80`, as segno writes it) is text with a
///   look-alike letter, not binary.
/// - **One character over and over is not language.** A multi-byte candidate whose non-ASCII
///   characters are eight or more and more than half of them one and the same character is
///   dropped: `Hist` and a run of `0xF3` pairs is one rare hanzi repeated (GB18030 篌, Big5 麑),
///   a fill pattern. ISO-8859-1, the charset ISO/IEC 18004 gives byte mode without an ECI and
///   zxing-cpp's choice for such bytes, then reads it ("Históóó…").
package enum CharsetDetector {
    package struct Candidate: Sendable, Equatable {
        package var charset: Charset
        package var score: Double
        package var text: String
    }

    /// Minimum plausibility, per non-ASCII byte, for a legacy charset to be believed.
    static let minimumScorePerByte = 0.45
    /// The same for bytes that are mostly printable ASCII text (see above).
    static let minimumScorePerByteInASCIIText = 0.05

    /// Valid and plausible candidates, best first (empty: the bytes are binary).
    package static func candidates(_ bytes: [UInt8]) -> [Candidate] {
        let highBytes = bytes.reduce(0) { $0 + ($1 >= 0x80 ? 1 : 0) }
        guard highBytes > 0 else { return [] }
        let scorers: [(Charset, ([UInt8]) -> Double?)] = [
            (.gb18030, scoreGB18030), (.shiftJIS, scoreShiftJIS), (.big5, scoreBig5),
            (.eucKR, scoreEUCKR), (.latin1, scoreLatin1),
        ]
        let minimum = isMostlyASCIIText(bytes, highBytes: highBytes) ? minimumScorePerByteInASCIIText : minimumScorePerByte
        var out: [Candidate] = []
        for (charset, scorer) in scorers {
            guard var score = scorer(bytes) else { continue }
            guard let text = CharsetConverter.decode(bytes, iconvName: charset.iconvName),
                PayloadText.looksLikeText(text.unicodeScalars)
            else { continue }
            if charset != .latin1 && isOneCharacterRepeated(text) { continue }
            if let common = frequent[charset] {
                for u in text.unicodeScalars where common.contains(u) { score += 1.5 }
            }
            if score <= 0 || score / Double(highBytes) < minimum { continue }
            out.append(Candidate(charset: charset, score: score, text: text))
        }
        // Stable: on a tie the order above (GB18030, Shift-JIS, Big5, EUC-KR, Latin-1) wins.
        return out.enumerated().sorted { a, b in
            a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
        }.map(\.element)
    }

    /// The best candidate, or nil for binary.
    package static func detect(_ bytes: [UInt8]) -> Candidate? { candidates(bytes).first }

    /// At least four ASCII bytes to each high byte, and the ASCII part free of control bytes
    /// other than tab, CR and LF: text already, whatever its few high bytes are.
    static func isMostlyASCIIText(_ bytes: [UInt8], highBytes: Int) -> Bool {
        let ascii = bytes.count - highBytes
        guard ascii >= 4 * highBytes else { return false }
        return bytes.allSatisfy { $0 >= 0x80 || ($0 >= 0x20 && $0 != 0x7F) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// Eight or more non-ASCII characters, more than half of them one character.
    static func isOneCharacterRepeated(_ text: String) -> Bool {
        var counts: [Unicode.Scalar: Int] = [:], total = 0
        for u in text.unicodeScalars where !u.isASCII { counts[u, default: 0] += 1; total += 1 }
        guard total >= 8, let most = counts.values.max() else { return false }
        return most * 2 > total
    }

    // MARK: Structure and area weights (bytes only)

    /// The walk every multi-byte scorer makes: ASCII bytes pass unweighed; at each other byte
    /// `character` checks the character that starts there, adds its weight to `score` and
    /// returns how many bytes it takes, or nil when the bytes are not valid in the charset.
    static func walk(_ b: [UInt8], _ character: (_ i: Int, _ score: inout Double) -> Int?) -> Double? {
        var i = 0, score = 0.0
        while i < b.count {
            if b[i] < 0x80 { i += 1; continue }
            guard let length = character(i, &score) else { return nil }
            i += length
        }
        return score
    }

    /// GB18030: one byte 00-7F; two bytes 81-FE + 40-7E/80-FE; four bytes 81-FE 30-39 81-FE 30-39.
    static func scoreGB18030(_ b: [UInt8]) -> Double? {
        walk(b) { i, score in
            let c = b[i]
            guard c != 0x80, c != 0xFF, i + 1 < b.count else { return nil }
            let t = b[i + 1]
            if (0x30...0x39).contains(t) {
                guard i + 3 < b.count, (0x81...0xFE).contains(b[i + 2]), (0x30...0x39).contains(b[i + 3]),
                    (0x81...0x84).contains(c) || (0x90...0xE3).contains(c)
                else { return nil }
                score += 1.0  // other scripts, emoji: legitimate but not typical of Chinese text
                return 4
            }
            guard (0x40...0x7E).contains(t) || (0x80...0xFE).contains(t) else { return nil }
            if t >= 0xA1 {
                switch c {
                case 0xA1, 0xA3: score += 1.5  // punctuation, full-width ASCII
                case 0xA2: score += 0.8  // numbered items
                case 0xA4...0xA9: score += 0.3  // kana, Greek, Cyrillic, pinyin, box drawing
                case 0xAA...0xAF, 0xF8...0xFE: return nil  // user-defined areas
                case 0xB0...0xC8: score += 1.5  // level 1 hanzi (pinyin a..r)
                case 0xC9...0xD7: score += 2.0  // level 1 hanzi (pinyin s..z)
                default: score += 1.0  // D8-F7: level 2 hanzi
                }
            } else if (0xA1...0xA7).contains(c) {
                return nil  // A140-A7A0: user-defined
            } else {
                score += 0.2  // GBK extension hanzi: rare
            }
            return 2
        }
    }

    /// Shift-JIS (CP932): 00-7F; A1-DF half-width katakana; 81-9F/E0-FC + 40-7E/80-FC.
    static func scoreShiftJIS(_ b: [UInt8]) -> Double? {
        walk(b) { i, score in
            let c = b[i]
            if (0xA1...0xDF).contains(c) {
                // Half-width katakana come in words; a lone one is more likely a Latin-1 sign.
                let inRun = (i > 0 && (0xA1...0xDF).contains(b[i - 1])) || (i + 1 < b.count && (0xA1...0xDF).contains(b[i + 1]))
                score += inRun ? 0.6 : 0.4
                // A voiced mark after a kana that takes it (ﾃﾞ, ｻﾞ, ﾊﾟ) is Japanese through and
                // through; the same byte pairs read as EUC-KR are rare Hangul syllables.
                if i + 1 < b.count, b[i + 1] == 0xDE, c == 0xB3 || (0xB6...0xC4).contains(c) || (0xCA...0xCE).contains(c) { score += 2.0 }
                if i + 1 < b.count, b[i + 1] == 0xDF, (0xCA...0xCE).contains(c) { score += 2.0 }
                return 1
            }
            guard (0x81...0x9F).contains(c) || (0xE0...0xFC).contains(c), i + 1 < b.count else { return nil }
            let t = b[i + 1]
            guard (0x40...0x7E).contains(t) || (0x80...0xFC).contains(t) else { return nil }
            let code = Int(c) << 8 | Int(t)
            switch code {
            case 0x8140...0x81FC: score += 1.5  // punctuation and symbols (、。「」ー)
            case 0x8240...0x829A: score += 0.8  // full-width digits and Latin
            case 0x829F...0x82F1: score += 2.5  // hiragana
            case 0x8340...0x8396: score += 2.0  // katakana
            case 0x839F...0x84BE: score += 0.3  // Greek, Cyrillic, box drawing
            case 0x8740...0x879C: score += 0.3  // NEC special characters
            case 0x889F...0x9872: score += 2.0  // level 1 kanji
            case 0x989F...0xEAA4: score += 1.0  // level 2 kanji
            case 0xED40...0xEEFC, 0xFA40...0xFC4B: score += 0.2  // IBM extensions
            default: return nil  // unassigned or user-defined (F0-F9)
            }
            return 2
        }
    }

    /// Big5: 00-7F; A1-F9 + 40-7E/A1-FE.
    static func scoreBig5(_ b: [UInt8]) -> Double? {
        walk(b) { i, score in
            let c = b[i]
            guard (0xA1...0xF9).contains(c), i + 1 < b.count else { return nil }
            let t = b[i + 1]
            guard (0x40...0x7E).contains(t) || (0xA1...0xFE).contains(t) else { return nil }
            let code = Int(c) << 8 | Int(t)
            switch code {
            case 0xA140...0xA1FE: score += 1.5  // punctuation
            case 0xA240...0xA2FE: score += 0.8  // symbols, numerals, full-width Latin
            case 0xA340...0xA3BF: score += 0.5  // Greek, bopomofo
            case 0xA3C0...0xA3FE: score += 0.1  // reserved (CP950 puts the euro sign here)
            case 0xA440...0xC67E: score += 2.0  // level 1 hanzi (frequent)
            case 0xC6A1...0xC8FE: score += 0.1  // ETEN extensions / private use
            case 0xC940...0xF9D5: score += 1.0  // level 2 hanzi
            default: score += 0.3  // F9D6-F9FE ETEN box drawing
            }
            return 2
        }
    }

    /// EUC-KR (KS X 1001): 00-7F; A1-FE + A1-FE, without the user-defined rows C9 and FE.
    static func scoreEUCKR(_ b: [UInt8]) -> Double? {
        walk(b) { i, score in
            let c = b[i]
            guard (0xA1...0xFE).contains(c), c != 0xC9, c != 0xFE, i + 1 < b.count else { return nil }
            let t = b[i + 1]
            guard (0xA1...0xFE).contains(t) else { return nil }
            switch c {
            case 0xA1: score += 1.5  // punctuation
            case 0xA2, 0xA4: score += 0.5  // symbols, compatibility jamo
            case 0xA3: score += 0.8  // full-width ASCII
            case 0xA5...0xAC: score += 0.3  // Roman numerals, Greek, box, kana, Cyrillic
            case 0xAD...0xAF: return nil  // unassigned
            case 0xB0...0xC8: score += 2.1  // Hangul syllables (a hair above Big5 level 1, which overlaps)
            default: score += 0.5  // CA-FD hanja: rare in modern Korean
            }
            return 2
        }
    }

    /// ISO-8859-1: every byte is assigned, but 80-9F are C1 controls that text does not hold.
    /// Accented letters sit alone between ASCII letters; runs of them are unlikely.
    static func scoreLatin1(_ b: [UInt8]) -> Double? {
        var score = 0.0, i = 0
        func isASCIILetter(_ x: UInt8) -> Bool { (0x41...0x5A).contains(x) || (0x61...0x7A).contains(x) }
        while i < b.count {
            if b[i] < 0x80 { i += 1; continue }
            var j = i
            while j < b.count && b[j] >= 0x80 { j += 1 }
            let run = j - i
            let touchesLetter = (i > 0 && isASCIILetter(b[i - 1])) || (j < b.count && isASCIILetter(b[j]))
            for k in i..<j {
                let x = b[k]
                if x < 0xA0 { return nil }
                let letter = x >= 0xC0 && x != 0xD7 && x != 0xF7
                switch (letter, run) {
                case (true, 1): score += touchesLetter ? 1.2 : 0.8
                case (true, 2): score += 0.6
                case (true, _): score += 0.5
                case (false, 1...2): score += 0.5  // ° £ © « » etc.
                default: score += 0.1
                }
            }
            i = j
        }
        return score
    }

    // MARK: Frequent characters (a bonus on the decoded text)

    static let frequent: [Charset: Set<Unicode.Scalar>] = [
        .gb18030: Set(
            ("的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服"
                as String).unicodeScalars),
        .big5: Set(
            ("的一是不了人我在有他這中大來上國個到說們為子和你地出道也時年得就那要下以生會自著去之過家學對可她裡後小麼心多天而能好都然沒日於起還發成事只作當想看文無開手十用主行方又如前所本見經頭面公同三已老從動兩長知民樣現分將外但身些與高意進把法此實回二理美點月明其種聲全工己話兒者向情部正名定女問力機給等幾很業最間新什打便位因重被走電四第門相次東政海口使教西再平真聽世氣信北少關並內加化由卻代軍產入先山五太水萬市眼體別處總才場師書比住員九笑性通目華報立馬命張活難神數件安表原車白應路期叫死常提感金何更反合放做系計或司利受光王果親界及今京務制解各任至清物台象記邊共風戰乾接它許八特覺望直服"
                as String).unicodeScalars),
        .eucKR: Set(
            ("이다는의에하고을가한서지로기사나도있어리국대자요니를은수들인게시정적해주으아보과습그했일것라전만상구위부성동와학생제세면우내되며연장소할무여문거같화회경비계방원신러까저마없오모히중실때분말선두든치업개발관터진민법력명목운물공통재결단현금토약강표데산체당행간영교양품안녕감합님씨께드릴입까네요"
                as String).unicodeScalars),
        .shiftJIS: Set(("日一国人年大十二本中長出三時行見月分後前生五間上東四今金九入学高円子外八六下来気小七山話女北午百書先名川千水半男西電校語土木聞食車何南万毎白天母火右読友左休父雨会社者事自新私思" as String).unicodeScalars),
    ]
}
