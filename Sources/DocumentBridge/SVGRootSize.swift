import Imaging
import Records

/// Whether an SVG says how large it is: the root element's `width` and `height` in absolute
/// units (a number alone or px, pt, pc, in, cm, mm, Q). Without them (a viewBox only,
/// `width="100%"`, em or ex) the drawing has no size of its own: librsvg then sizes it from the
/// viewBox in CSS pixels, which says nothing of how large it will be printed.
enum SVGRootSize {
    /// The root element's `width` and `height` values as written (nil: absent), or nil when
    /// no root element is found in the first `limit` bytes (the prolog skipped as
    /// `ImageFormat.sniffDocument` skips it).
    static func attributes(_ bytes: [UInt8], limit: Int = 1 << 20) -> (width: String?, height: String?)? {
        let b = Array(bytes.prefix(limit))
        guard let start = ImageFormat.rootElementStart(b) else { return nil }
        return rootAttributes(Array(b[(start + 1)...]))
    }

    /// The width and height attributes of the start tag `tag` begins (after its `<`).
    static func rootAttributes(_ tag: [UInt8]) -> (width: String?, height: String?) {
        var found: [String: String] = [:]
        var i = 0
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        while i < tag.count, !isSpace(tag[i]), tag[i] != UInt8(ascii: ">"), tag[i] != UInt8(ascii: "/") { i += 1 }  // the element's name
        while i < tag.count {
            while i < tag.count, isSpace(tag[i]) { i += 1 }
            guard i < tag.count, tag[i] != UInt8(ascii: ">"), tag[i] != UInt8(ascii: "/") else { break }
            let nameStart = i
            while i < tag.count, !isSpace(tag[i]), tag[i] != UInt8(ascii: "="), tag[i] != UInt8(ascii: ">") { i += 1 }
            let name = String(decoding: tag[nameStart..<i], as: UTF8.self)
            while i < tag.count, isSpace(tag[i]) { i += 1 }
            guard i < tag.count, tag[i] == UInt8(ascii: "=") else { break }
            i += 1
            while i < tag.count, isSpace(tag[i]) { i += 1 }
            guard i < tag.count, tag[i] == UInt8(ascii: "\"") || tag[i] == UInt8(ascii: "'") else { break }
            let quote = tag[i]
            i += 1
            let valueStart = i
            while i < tag.count, tag[i] != quote { i += 1 }
            found[name] = String(decoding: tag[valueStart..<min(i, tag.count)], as: UTF8.self)
            i += 1
        }
        return (found["width"], found["height"])
    }

    /// A length in absolute units: a number, then nothing or px, pt, pc, in, cm, mm, q.
    static func isAbsolute(_ value: String) -> Bool {
        let v = value.trimmingCharacters(in: " \t\n\r")
        let unit = String(v.reversed().prefix { $0.isLetter }.reversed()).lowercased()
        let number = v.dropLast(unit.count)
        guard ["", "px", "pt", "pc", "in", "cm", "mm", "q"].contains(unit), let d = Double(number), d.isFinite, d > 0 else { return false }
        return true
    }

    /// Whether the drawing has a print size: neither width nor height relative, one at least given.
    static func isSized(_ bytes: [UInt8]) -> Bool {
        guard let a = attributes(bytes) else { return false }
        let given = [a.width, a.height].compactMap { $0 }
        return !given.isEmpty && given.allSatisfy(isAbsolute)
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let s = Set(set)
        return String(drop { s.contains($0) }.reversed().drop { s.contains($0) }.reversed())
    }
}
