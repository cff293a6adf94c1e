/// `mailto`: an email to write (RFC 6068: `mailto:a@example.com?subject=...&body=...&cc=...`;
/// the older `MATMSG:TO:...;SUB:...;BODY:...;;`).
enum MailtoContent {
    static func read(_ text: String) -> CodeContent {
        var c = CodeContent(.mailto)
        var to: [String] = [], cc: [String] = [], bcc: [String] = [], subject: String? = nil, body: String? = nil
        if text.uppercased().hasPrefix("MATMSG:") {
            let (pairs, _) = WifiContent.pairs(text.dropFirst(7))
            to = pairs.filter { $0.key == "TO" }.map(\.value)
            subject = pairs.last { $0.key == "SUB" }?.value
            body = pairs.last { $0.key == "BODY" }?.value
        } else {
            let rest = text.dropFirst(7)
            let list = rest.prefix { $0 != "?" }
            to = list.split(separator: ",").map { URLParts.percentDecoded($0.replacing("+", with: "%2B")) }
            if list.endIndex < rest.endIndex {
                for pair in rest[rest.index(after: list.endIndex)...].split(separator: "&") {
                    let eq = pair.firstIndex(of: "=") ?? pair.endIndex
                    let value = eq < pair.endIndex ? URLParts.percentDecoded(pair[pair.index(after: eq)...].replacing("+", with: "%2B")) : ""
                    switch pair[..<eq].lowercased() {
                    case "to": to += value.split(separator: ",").map(String.init)
                    case "cc": cc += value.split(separator: ",").map(String.init)
                    case "bcc": bcc += value.split(separator: ",").map(String.init)
                    case "subject": subject = value
                    case "body": body = value
                    default: break
                    }
                }
            }
        }
        for (name, list) in [("to", to), ("cc", cc), ("bcc", bcc)] where !list.isEmpty { c.set(name, .array(list.map { .string($0) })) }
        c.set("subject", subject)
        c.set("body", body)
        if to.isEmpty { c.problem("it names no address to write to") }
        for a in to + cc + bcc where !isAddress(a) { c.problem("'\(a)' is not an email address") }
        return c
    }

    /// local@domain: one `@`, something before it, a dotted or bracketed domain after it, no spaces.
    static func isAddress(_ a: String) -> Bool {
        let parts = a.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !a.contains(where: { $0 == " " || $0.unicodeScalars.first!.value < 0x20 }) else {
            return false
        }
        return parts[1].contains(".") || parts[1].hasPrefix("[") || parts[1] == "localhost"
    }
}
