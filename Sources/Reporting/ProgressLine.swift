import Records

/// The words of `scan`'s progress line and end summary, as pure functions (the terminal side is
/// `Progress` in the CLI): counts with their singular and plural, a rate that never reads
/// "0 img/s", an ETA, the file just finished, and a line that never wraps on a narrow terminal.
package enum ProgressLine {
    /// "1 code", "2 codes".
    package static func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    /// Images per second, or seconds per image when slower than one a second; nil before the
    /// first file is done (no rate to say yet).
    package static func rate(files: Int, elapsed: Double) -> String? {
        guard files > 0, elapsed > 0 else { return nil }
        let perSecond = Double(files) / elapsed
        if perSecond >= 10 { return "\(Int(perSecond.rounded())) img/s" }
        if perSecond >= 1 { return "\(one(perSecond)) img/s" }
        return "\(one(elapsed / Double(files))) s/img"
    }

    /// "ETA 1m05s": the time the files left take at the rate so far; nil before there is a rate.
    package static func eta(done: Int, total: Int, elapsed: Double) -> String? {
        guard done > 0, total > done, elapsed > 0 else { return nil }
        return "ETA " + duration(elapsed / Double(done) * Double(total - done))
    }

    /// "45s", "3m07s", "2h05m".
    package static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m" + pad(s % 60) + "s" }
        return "\(s / 3600)h" + pad(s / 60 % 60) + "m"
    }

    /// The live line: "12/340 files, 3 codes, 1 failed, 4.2 img/s, ETA 1m18s, photos/a.jpg",
    /// cut to `width - 1` columns (a line as wide as the terminal wraps on some terminals, and a
    /// wrapped line is not redrawn in place). The file name (already escaped for the terminal)
    /// goes last and is shortened from the left; the counts come first and are cut last.
    /// `total` is nil while the walk that counts the files has not finished: "12 files, ...",
    /// no ETA.
    package static func live(done: Int, total: Int?, codes: Int, failed: Int, elapsed: Double, current: String?, width: Int) -> String {
        var parts = [total.map { "\(done)/\(count($0, "file"))" } ?? count(done, "file"), count(codes, "code")]
        if failed > 0 { parts.append("\(failed) failed") }
        if let r = rate(files: done, elapsed: elapsed) { parts.append(r) }
        if let total, let e = eta(done: done, total: total, elapsed: elapsed) { parts.append(e) }
        var line = parts.joined(separator: ", ")
        let room = max(10, width - 1)
        if let current, columns(line) + 2 + 8 <= room {
            let left = room - columns(line) - 2
            line += ", " + (columns(current) <= left ? current : "…" + suffix(current, columns: left - 1))
        }
        return columns(line) <= room ? line : prefix(line, columns: room - 1) + "…"
    }

    /// The end summary's line naming failed files: "failed: a.png (corrupt), b.gif (timeout)
    /// and 3 more". `names` are the first few, already escaped; `total` all of them.
    package static func failed(_ names: [String], total: Int) -> String? {
        guard total > 0 else { return nil }
        var s = "failed: " + names.joined(separator: ", ")
        if total > names.count { s += " and \(total - names.count) more" }
        return s
    }

    /// Terminal columns, roughly: East Asian wide characters and emoji take two.
    package static func columns(_ s: String) -> Int {
        s.unicodeScalars.reduce(0) { $0 + width($1) }
    }

    static func width(_ u: Unicode.Scalar) -> Int {
        switch u.value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            2
        case 0x0300...0x036F, 0x200B...0x200F: 0
        default: 1
        }
    }

    static func prefix(_ s: String, columns limit: Int) -> String {
        var out = String.UnicodeScalarView(), used = 0
        for u in s.unicodeScalars {
            let w = width(u)
            if used + w > limit { break }
            used += w
            out.append(u)
        }
        return String(out)
    }

    static func suffix(_ s: String, columns limit: Int) -> String {
        var out: [Unicode.Scalar] = [], used = 0
        for u in s.unicodeScalars.reversed() {
            let w = width(u)
            if used + w > limit { break }
            used += w
            out.append(u)
        }
        return String(String.UnicodeScalarView(out.reversed()))
    }

    static func one(_ d: Double) -> String {
        NumberText.trimmed(d, decimals: 1)
    }

    static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
