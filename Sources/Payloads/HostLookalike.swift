/// A host whose letters can pass for another host's (a homograph): the part of UTS #39's
/// "highly restrictive" profile that catches the look-alike links seen in phishing codes, as
/// browsers show such hosts in punycode.
///
/// Per label (between dots):
/// - **mixed script**: letters of two of Latin, Greek, Cyrillic and Armenian in one label
///   (`exоmple` with a Cyrillic `о`; UTS #39 allows no such mix);
/// - **whole-script look-alike**: a label entirely in Greek, Cyrillic or Armenian letters
///   that all look like Latin ones (`аррӏе`, read as `apple`), under a top-level domain written
///   in ASCII (a Cyrillic name under `.рф` is ordinary);
/// - **look-alike Latin**: a Latin label with one of the IPA letters kept in `URLHost.lookalikes`
///   (`ɡoogle`).
/// `check` makes it the violation `url.lookalike_host`; `report` and `summarize` show it.
package struct HostLookalike: Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable { case mixedScript = "mixed_script", wholeScript = "whole_script", latinLookalike = "latin_lookalike" }
    package var kind: Kind
    /// The label as written (Unicode).
    package var label: String
    /// The scripts of its letters, in order of first appearance ("Latin", "Cyrillic").
    package var scripts: [String]
    /// The host with its look-alike letters read as the Latin letters they resemble.
    package var readsAs: String

    package var description: String {
        let what: String
        switch kind {
        case .mixedScript: what = "its label '\(label)' mixes \(scripts.joined(separator: " and ")) letters"
        case .wholeScript: what = "its label '\(label)' is written in \(scripts.first ?? "") letters that look like Latin ones"
        case .latinLookalike: what = "its label '\(label)' holds letters that look like other Latin ones"
        }
        return readsAs.isEmpty ? what : what + " (it reads as \(readsAs))"
    }

    enum Script: String { case latin = "Latin", greek = "Greek", cyrillic = "Cyrillic", armenian = "Armenian" }

    static func script(_ u: Unicode.Scalar) -> Script? {
        switch u.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2AF, 0x1D00...0x1D7F, 0x1E00...0x1EFF, 0xA720...0xA7FF: .latin
        case 0x370...0x3FF, 0x1F00...0x1FFF: .greek
        case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: .cyrillic
        case 0x531...0x58F: .armenian
        default: nil
        }
    }

    /// The first label of `host` that can pass for another, or nil (ASCII hosts, addresses,
    /// and names in one script that do not imitate Latin letters).
    package static func check(_ host: URLHost) -> HostLookalike? {
        guard host.kind == .domain, host.unicode != host.ascii else { return nil }
        let labels = host.unicode.split(separator: ".", omittingEmptySubsequences: false)
        let asciiTop = labels.last.map { $0.unicodeScalars.allSatisfy(\.isASCII) } ?? true
        let readsAs = host.skeleton
        for label in labels where !label.unicodeScalars.allSatisfy(\.isASCII) {
            var scripts: [Script] = []
            for u in label.unicodeScalars {
                if let s = script(u), !scripts.contains(s) { scripts.append(s) }
            }
            let names = scripts.map(\.rawValue)
            if scripts.count > 1 {
                return HostLookalike(kind: .mixedScript, label: String(label), scripts: names, readsAs: readsAs)
            }
            let skeleton = String(String.UnicodeScalarView(label.unicodeScalars.map { URLHost.lookalikes[$0] ?? $0 }))
            let imitatesLatin = skeleton.unicodeScalars.allSatisfy(\.isASCII)
            if scripts == [.latin], skeleton != String(label), label.unicodeScalars.allSatisfy({ $0.isASCII || URLHost.lookalikes[$0] != nil }) {
                return HostLookalike(kind: .latinLookalike, label: String(label), scripts: names, readsAs: readsAs)
            }
            if let s = scripts.first, s != .latin, imitatesLatin, asciiTop {
                return HostLookalike(kind: .wholeScript, label: String(label), scripts: names, readsAs: readsAs)
            }
        }
        return nil
    }
}

extension URLHost {
    /// Why this host can pass for another (`HostLookalike`), or nil.
    package var lookalike: HostLookalike? { HostLookalike.check(self) }
}
