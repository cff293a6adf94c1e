/// Texts in each legacy charset, with the charset name the detector must report. The bytes are
/// made by the iconv command, not by the code under test.
enum CharsetSamples {
    static let all: [(text: String, iconv: String, encoding: String)] = [
        // Mixed-script Chinese: hanzi, full-width punctuation, Latin, Greek, Cyrillic, an emoji
        // and a letter outside GB2312 (four-byte GB18030 sequences), the euro sign.
        ("中文测试：扫描二维码，结果正确。Mixed English 123, Ελληνικά, Русский, emoji 😀, Straße, 价格 €5", "GB18030", "gb18030"),
        ("我们在北京学习中文，这是一个很好的城市。", "GB18030", "gb18030"),
        // Japanese: kanji, hiragana, katakana and half-width katakana; backslash and tilde stay ASCII.
        ("日本語のテキスト、漢字とひらがな。ｶﾀｶﾅ ﾃｽﾄ ｺｰﾄﾞ C:\\temp ~user", "CP932", "shift_jis"),
        ("東京都新宿区 ﾊﾞｰｺｰﾄﾞ読み取り結果：ＯＫ", "CP932", "shift_jis"),
        // Half-width katakana with voiced marks only (zxing-cpp qrcode-2/17): as EUC-KR the same
        // bytes are three valid but rare Hangul syllables.
        ("ﾃﾞｻﾞｲﾝQR\r\nhttp://d-qr.net/ex/", "CP932", "shift_jis"),
        ("繁體中文測試：條碼掃描結果，臺灣的朋友們。", "BIG5", "big5"),
        ("我們在臺北學習中文，這是一個很好的城市。", "BIG5", "big5"),
        ("한국어 텍스트입니다. 바코드 스캔 결과, 안녕하세요!", "EUC-KR", "euc-kr"),
        ("서울특별시 중구 세종대로 110, 대한민국", "EUC-KR", "euc-kr"),
        ("Crème brûlée, façade, naïve café - Ærøskøbing, São Paulo, Zürich; 100 °C ±2 £3", "ISO-8859-1", "iso-8859-1"),
        ("Ça va très bien, merci. Größe: 5 m²", "ISO-8859-1", "iso-8859-1"),
    ]
}
