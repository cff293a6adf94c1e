import Records

/// Turns ImageMagick 6's image properties into `ImageMetadata`. IM6 parses the EXIF profile on
/// the first `exif:*` lookup and the XMP packet on the first `xmp:*` one (XMP names lose their
/// namespace prefix: `xmp:DateTimeOriginal`, `xmp:CreatorTool`). EXIF wins; XMP fills gaps.
/// Values as IM6 prints them: text as stored (padded with spaces or NULs by some cameras),
/// rationals as `n/d`, GPS coordinates as `d/1, m/1, s/100`, GPSAltitudeRef as `0`/`1`.
enum ImageMetadataReader {
    static func read(_ property: (String) -> String?) -> ImageMetadata? {
        func text(_ name: String) -> String? {
            guard let raw = property(name) else { return nil }
            let t = raw.trimmingCharacters(whereSpaceOrNUL: true)
            return t.isEmpty ? nil : t
        }
        var m = ImageMetadata()
        if let dt = text("exif:DateTimeOriginal") ?? text("exif:DateTimeDigitized") {
            m.captureTime = exifDate(dt, subSeconds: text("exif:SubSecTimeOriginal"), offset: text("exif:OffsetTimeOriginal"))
        }
        if m.captureTime == nil {
            m.captureTime = (text("xmp:DateTimeOriginal") ?? text("xmp:DateCreated") ?? text("xmp:CreateDate")).flatMap(xmpDate)
        }
        m.cameraMake = text("exif:Make") ?? text("xmp:Make")
        m.cameraModel = text("exif:Model") ?? text("xmp:Model")
        m.software = text("exif:Software") ?? text("xmp:CreatorTool")
        if let lat = text("exif:GPSLatitude").flatMap(rationalDegrees), let lon = text("exif:GPSLongitude").flatMap(rationalDegrees) {
            let latSign: Double = text("exif:GPSLatitudeRef")?.uppercased().hasPrefix("S") == true ? -1 : 1
            let lonSign: Double = text("exif:GPSLongitudeRef")?.uppercased().hasPrefix("W") == true ? -1 : 1
            var alt = text("exif:GPSAltitude").flatMap(rational)
            if text("exif:GPSAltitudeRef") == "1", let a = alt { alt = -a }
            m.gps = GPSPosition(latitude: round7(latSign * lat), longitude: round7(lonSign * lon), altitude: alt.map(round3))
        } else if let lat = text("xmp:GPSLatitude").flatMap(xmpCoordinate), let lon = text("xmp:GPSLongitude").flatMap(xmpCoordinate) {
            var alt = text("xmp:GPSAltitude").flatMap(rational)
            if text("xmp:GPSAltitudeRef") == "1", let a = alt { alt = -a }
            m.gps = GPSPosition(latitude: round7(lat), longitude: round7(lon), altitude: alt.map(round3))
        }
        if let g = m.gps, abs(g.latitude) > 90 || abs(g.longitude) > 180 { m.gps = nil }
        return m.isEmpty ? nil : m
    }

    /// 7 decimals of a degree is about a centimetre: enough, and free of binary-fraction noise.
    static func round7(_ x: Double) -> Double { (x * 1e7).rounded() / 1e7 }
    static func round3(_ x: Double) -> Double { (x * 1e3).rounded() / 1e3 }

    /// `n/d` or a plain number; nil for a zero denominator (cameras without a fix write 0/0).
    static func rational(_ s: String) -> Double? {
        let parts = s.split(separator: "/", omittingEmptySubsequences: false).map { $0.trimmingCharacters(whereSpaceOrNUL: false) }
        if parts.count == 1 { return Double(parts[0]).flatMap { $0.isFinite ? $0 : nil } }
        guard parts.count == 2, let n = Double(parts[0]), let d = Double(parts[1]), d != 0 else { return nil }
        let v = n / d
        return v.isFinite ? v : nil
    }

    /// `d/1, m/1, s/100` (degrees, minutes, seconds; fewer parts allowed) → decimal degrees, unsigned.
    static func rationalDegrees(_ s: String) -> Double? {
        let parts = s.split(separator: ",").map { rational(String($0)) }
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        let v = parts.map { $0! }
        return v[0] + (v.count > 1 ? v[1] / 60 : 0) + (v.count > 2 ? v[2] / 3600 : 0)
    }

    /// XMP's GPSCoordinate: `DDD,MM,SSk` or `DDD,MM.mmk` with k one of N, S, E, W → signed degrees.
    static func xmpCoordinate(_ s: String) -> Double? {
        guard let k = s.last?.uppercased(), ["N", "S", "E", "W"].contains(k) else { return nil }
        let parts = s.dropLast().split(separator: ",").map { Double($0.trimmingCharacters(whereSpaceOrNUL: false)) }
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        let v = parts.map { $0! }
        let deg = v[0] + (v.count > 1 ? v[1] / 60 : 0) + (v.count > 2 ? v[2] / 3600 : 0)
        return (k == "S" || k == "W") ? -deg : deg
    }

    /// EXIF `YYYY:MM:DD HH:MM:SS` (+ SubSecTime digits, + OffsetTime `±HH:MM`) → ISO 8601.
    /// Placeholders such as `0000:00:00 00:00:00` or blanks give nil.
    static func exifDate(_ s: String, subSeconds: String?, offset: String?) -> String? {
        let b = Array(s.utf8)
        guard b.count >= 19 else { return nil }
        let digitsAt = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        guard digitsAt.allSatisfy({ b[$0] >= 0x30 && b[$0] <= 0x39 }),
            b[4] == UInt8(ascii: ":"), b[7] == UInt8(ascii: ":"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            b[10] == UInt8(ascii: " ") || b[10] == UInt8(ascii: "T")
        else { return nil }
        func num(_ r: Range<Int>) -> Int { Int(String(decoding: b[r], as: UTF8.self))! }
        let (mo, d, h, mi, se) = (num(5..<7), num(8..<10), num(11..<13), num(14..<16), num(17..<19))
        guard num(0..<4) > 0, (1...12).contains(mo), (1...31).contains(d), h <= 24, mi <= 59, se <= 60 else { return nil }
        var out =
            String(decoding: b[0..<4], as: UTF8.self) + "-" + String(decoding: b[5..<7], as: UTF8.self) + "-"
            + String(decoding: b[8..<10], as: UTF8.self) + "T" + String(decoding: b[11..<19], as: UTF8.self)
        if let sub = subSeconds, !sub.isEmpty, sub.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { out += "." + sub }
        if let off = offset, isOffset(off) { out += off }
        return out
    }

    static func isOffset(_ s: String) -> Bool {
        let b = Array(s.utf8)
        if b == [UInt8(ascii: "Z")] { return true }
        return b.count == 6 && (b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-")) && b[3] == UInt8(ascii: ":")
            && [1, 2, 4, 5].allSatisfy { b[$0] >= 0x30 && b[$0] <= 0x39 }
    }

    /// XMP dates are ISO 8601 already (`2022-01-02T03:04:05+01:00`, or just a date); kept when they look like one.
    static func xmpDate(_ s: String) -> String? {
        let b = Array(s.utf8)
        guard b.count >= 10, [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy({ b[$0] >= 0x30 && b[$0] <= 0x39 }),
            b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            b.allSatisfy({
                ($0 >= 0x30 && $0 <= 0x3A) || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "T"), UInt8(ascii: "Z"), UInt8(ascii: ".")].contains($0)
            })
        else { return nil }
        return s
    }
}

extension StringProtocol {
    /// Without leading and trailing white space (and NULs, which some cameras pad text with).
    func trimmingCharacters(whereSpaceOrNUL nul: Bool) -> String {
        var s = Substring(self)
        func strip(_ c: Character) -> Bool { c.isWhitespace || (nul && c == "\u{0}") }
        while let f = s.first, strip(f) { s.removeFirst() }
        while let l = s.last, strip(l) { s.removeLast() }
        return String(s)
    }
}
