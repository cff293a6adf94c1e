import CodeContent
import Records

/// `summarize`'s count of what the unique payloads say (`CodeContent`), by type: "12 Wi-Fi
/// networks (3 with passwords), 2 TOTP seeds, 5 SEPA payments totalling EUR 430.00".
package struct ContentSummary {
    package struct Group {
        package var payloads = 0
        package var invalid = 0
        /// Payloads that give something away (`content.sensitive` not empty).
        package var sensitive = 0
        /// Wi-Fi: with a password; otpauth: TOTP (the rest HOTP).
        package var withPassword = 0
        package var totp = 0
        /// Payments: the sum of their amounts per currency, in hundredths.
        package var totals: [String: Int] = [:]
    }

    package var groups: [ContentType: Group] = [:]

    package init() {}

    /// Adds one unique payload's content.
    package mutating func add(_ content: CodeContent?) {
        guard let content else { return }
        var g = groups[content.type, default: Group()]
        g.payloads += 1
        if !content.valid { g.invalid += 1 }
        if !content.sensitive.isEmpty { g.sensitive += 1 }
        if content.type == .wifi, content.string("password") != nil { g.withPassword += 1 }
        if content.type == .otpauth, content.string("otp_type") == "totp" { g.totp += 1 }
        if content.type == .epc || content.type == .swissQRBill, content.valid, let amount = content.string("amount"),
            let currency = content.string("currency"), let cents = DecimalText.cents(amount)
        {
            g.totals[currency, default: 0] += cents
        }
        groups[content.type] = g
    }

    static func plural(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }

    /// One phrase per type, in type order.
    package var phrases: [String] {
        groups.sorted { $0.key < $1.key }.map { type, g in
            var s: String
            switch type {
            case .wifi: s = Self.plural(g.payloads, "Wi-Fi network", "Wi-Fi networks") + " (\(g.withPassword) with password\(g.withPassword == 1 ? "" : "s"))"
            case .otpauth:
                let hotp = g.payloads - g.totp
                s = [g.totp > 0 ? Self.plural(g.totp, "TOTP seed", "TOTP seeds") : nil, hotp > 0 ? Self.plural(hotp, "HOTP seed", "HOTP seeds") : nil]
                    .compactMap { $0 }.joined(separator: ", ")
            case .epc: s = Self.plural(g.payloads, "SEPA payment", "SEPA payments")
            case .swissQRBill: s = Self.plural(g.payloads, "Swiss QR-bill", "Swiss QR-bills")
            case .url: s = Self.plural(g.payloads, "link", "links")
            case .vcard, .mecard: s = Self.plural(g.payloads, "contact", "contacts") + " (\(type.rawValue))"
            case .gs1: s = Self.plural(g.payloads, "GS1 product code", "GS1 product codes")
            case .emvco: s = Self.plural(g.payloads, "EMVCo merchant payment", "EMVCo merchant payments")
            case .geo: s = Self.plural(g.payloads, "place", "places")
            case .tel: s = Self.plural(g.payloads, "phone number", "phone numbers")
            case .sms: s = Self.plural(g.payloads, "text message", "text messages")
            case .mailto: s = Self.plural(g.payloads, "email", "emails")
            case .secret: s = Self.plural(g.payloads, "private key or seed", "private keys or seeds")
            }
            if !g.totals.isEmpty {
                s += " totalling " + g.totals.sorted { $0.key < $1.key }.map { "\($0.key) \(DecimalText.fromCents($0.value))" }.joined(separator: " + ")
            }
            var notes: [String] = []
            if g.invalid > 0 { notes.append("\(g.invalid) invalid") }
            if g.sensitive > 0 && type != .wifi && type != .otpauth && type != .secret { notes.append("\(g.sensitive) with credentials") }
            return notes.isEmpty ? s : s + " [\(notes.joined(separator: ", "))]"
        }
    }

    package var json: JSONValue {
        .object(
            groups.sorted { $0.key < $1.key }.map { type, g in
                var o: [(String, JSONValue)] = [("payloads", .int(g.payloads)), ("invalid", .int(g.invalid)), ("sensitive", .int(g.sensitive))]
                if type == .wifi { o.append(("with_password", .int(g.withPassword))) }
                if type == .otpauth { o.append(("totp", .int(g.totp))) }
                if type == .epc || type == .swissQRBill {
                    o.append(("totals", .object(g.totals.sorted { $0.key < $1.key }.map { ($0.key, .string(DecimalText.fromCents($0.value))) })))
                }
                return (type.rawValue, .object(o))
            })
    }
}
