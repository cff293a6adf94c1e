import Records

/// Mail has no signature: an MBOX starts with a "From " separator line, an EML (RFC 5322) with
/// header fields. A file is taken for an EML when its first line is a header field and its first
/// lines hold at least two of the fields every mail has (From, Date, Subject, To, Message-ID,
/// MIME-Version, Received, Return-Path), before the first empty line.
enum MailSniff {
    static let fields: Set<String> = ["from", "date", "subject", "to", "message-id", "mime-version", "received", "return-path", "delivered-to", "cc"]

    static func kind(_ b: [UInt8]) -> ContainerKind? {
        let head = Array(b.prefix(4096))
        if head.starts(with: Array("From ".utf8)) {
            guard let nl = head.firstIndex(of: 0x0A) else { return nil }
            return headerCount(Array(head[(nl + 1)...])) >= 2 ? .mbox : nil
        }
        return headerCount(head) >= 2 && isField(head) ? .eml : nil
    }

    /// Whether the bytes start with `Name:` (printable ASCII without space or colon, then a colon).
    static func isField(_ line: [UInt8]) -> Bool {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return false }
        return line[..<colon].allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// The known fields among the header lines before the first empty line (continuation lines
    /// skipped); 0 as soon as a line is neither a field nor a continuation.
    static func headerCount(_ b: [UInt8]) -> Int {
        var known = Set<String>()
        for raw in b.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            let line = raw.last == 0x0D ? Array(raw.dropLast()) : Array(raw)
            if line.isEmpty { break }
            if line[0] == 0x20 || line[0] == 0x09 { continue }
            guard isField(line), let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return 0 }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            if fields.contains(name) { known.insert(name) }
        }
        return known.count
    }
}
