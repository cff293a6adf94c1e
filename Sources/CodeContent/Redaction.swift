/// `--redact`: a payload with what it gives away masked. The secret is found where the payload
/// text writes it and replaced in the bytes; the content read from the masked payload names the
/// same fields as sensitive, `redacted`.
public enum Redaction {
    /// What stands in for a secret.
    public static let mask = "********"

    /// `bytes` with every secret of `content` (read from `text`, the bytes' text) masked; the
    /// bytes unchanged when nothing is sensitive. A secret not found in the bytes as UTF-8 (a
    /// payload in another charset) masks the text, whose UTF-8 becomes the bytes.
    public static func redact(_ bytes: [UInt8], text: String?, content: CodeContent?) -> [UInt8] {
        guard let content, let text else { return bytes }
        let secrets = content.sensitive.filter { !$0.redacted }.sorted { $0.written.count > $1.written.count }
        guard !secrets.isEmpty else { return bytes }
        var out = bytes
        for s in secrets where !replace(Array(s.written.utf8), after: Array(s.before.utf8), in: &out) {
            var masked = text
            for t in secrets { masked = masked.replacing(t.before + t.written, with: t.before + mask).replacing(t.written, with: mask) }
            return Array(masked.utf8)
        }
        return out
    }

    /// Every occurrence of `needle` right after `before` in `bytes` masked (of `needle` anywhere
    /// when none follows `before`); false when there was none.
    static func replace(_ needle: [UInt8], after before: [UInt8], in bytes: inout [UInt8]) -> Bool {
        if !before.isEmpty, replace(before + needle, with: before + Array(mask.utf8), in: &bytes) { return true }
        return replace(needle, with: Array(mask.utf8), in: &bytes)
    }

    static func replace(_ needle: [UInt8], with m: [UInt8], in bytes: inout [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= bytes.count else { return false }
        var out: [UInt8] = [], i = 0, found = false
        while i < bytes.count {
            if i + needle.count <= bytes.count, bytes[i] == needle[0], Array(bytes[i..<(i + needle.count)]) == needle {
                out += m; i += needle.count; found = true
            } else {
                out.append(bytes[i]); i += 1
            }
        }
        if found { bytes = out }
        return found
    }
}
