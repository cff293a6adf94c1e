/// `otpauth`: a one-time-password account to add to an authenticator (Google Authenticator's
/// Key Uri Format: `otpauth://totp/Issuer:account?secret=BASE32&issuer=Issuer&algorithm=SHA1&digits=6&period=30`;
/// `hotp` needs `counter`). The secret must be RFC 4648 base32; it is sensitive.
enum OTPAuthContent {
    static func read(_ text: String) -> CodeContent {
        var c = CodeContent(.otpauth)
        let afterScheme = text.dropFirst("otpauth://".count)
        let typeEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.firstIndex(of: "?") ?? afterScheme.endIndex
        let kind = afterScheme[..<typeEnd].lowercased()
        c.set("otp_type", kind)
        let rest = afterScheme[typeEnd...].drop { $0 == "/" }
        let labelText = rest.prefix { $0 != "?" }
        let label = URLParts.percentDecoded(labelText.replacing("+", with: "%2B"))
        var labelIssuer: String? = nil
        if let colon = label.firstIndex(of: ":") {
            labelIssuer = String(label[..<colon]).trimmed
            c.set("account", String(label[label.index(after: colon)...]).trimmed)
        } else {
            c.set("account", label)
        }
        var params: [(name: String, value: String, written: String)] = []
        if let q = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: q)...].split(separator: "&") {
                let eq = pair.firstIndex(of: "=") ?? pair.endIndex
                let written = eq < pair.endIndex ? String(pair[pair.index(after: eq)...]) : ""
                params.append((URLParts.percentDecoded(pair[..<eq]).lowercased(), URLParts.percentDecoded(written), written))
            }
        }
        let param = { (n: String) in params.last { $0.name == n } }
        let issuer = param("issuer")?.value ?? labelIssuer
        c.set("issuer", issuer)
        if let li = labelIssuer, let pi = param("issuer")?.value, li != pi {
            c.problem("the label's issuer '\(li)' differs from the issuer parameter '\(pi)'")
        }
        if !["totp", "hotp"].contains(kind) { c.problem("the type '\(kind)' is not totp or hotp") }
        checkSecret(param("secret"), in: &c)
        checkParameters(kind: kind, param: param, in: &c)
        return c
    }

    static func checkSecret(_ secret: (name: String, value: String, written: String)?, in c: inout CodeContent) {
        guard let secret, !secret.value.isEmpty else { c.problem("it holds no secret (the secret parameter is required)"); return }
        c.secret("secret", kind: .otpSecret, written: secret.written, before: "=")
        c.set("secret", secret.value)
        guard secret.written != Redaction.mask else { return }
        if let key = CheckDigits.base32(secret.value) {
            c.set("secret_bits", .int(key.count * 8))
        } else {
            c.problem("the secret is not valid base32 (RFC 4648: letters A-Z and digits 2-7)")
        }
    }

    static func checkParameters(kind: String, param: (String) -> (name: String, value: String, written: String)?, in c: inout CodeContent) {
        let algorithm = param("algorithm")?.value.uppercased() ?? "SHA1"
        c.set("algorithm", algorithm)
        if !["SHA1", "SHA256", "SHA512"].contains(algorithm) { c.problem("the algorithm '\(algorithm)' is not SHA1, SHA256 or SHA512") }
        let digits = param("digits")?.value ?? "6"
        if let d = Int(digits), (6...8).contains(d) { c.set("digits", .int(d)) } else { c.problem("digits is '\(digits)', not 6, 7 or 8") }
        if kind == "totp" {
            let period = param("period")?.value ?? "30"
            if let p = Int(period), p > 0 { c.set("period", .int(p)) } else { c.problem("the period '\(period)' is not a positive number of seconds") }
        }
        if kind == "hotp" {
            if let counter = param("counter")?.value, let n = UInt64(counter) {
                c.set("counter", .int(Int(clamping: n)))
            } else {
                c.problem("an hotp account needs a counter parameter (a whole number)")
            }
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
