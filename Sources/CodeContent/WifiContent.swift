/// `wifi`: a network to join, as phones read it (ZXing's `WIFI:` form, the Wi-Fi Alliance's
/// WPA3 specification, Annex: `WIFI:T:WPA;S:name;P:password;H:true;;`, with `\` escaping
/// `\ ; , : "`). The password is sensitive.
enum WifiContent {
    static let authTypes: Set<String> = ["WEP", "WPA", "WPA2", "WPA3", "SAE", "NOPASS", "WPA2-EAP", "WPA-EAP", "EAP"]

    /// `key:value` pairs of a `KEY:value;KEY:value;;` body, values unescaped and as written.
    static func pairs(_ body: Substring) -> (pairs: [(key: String, value: String, written: String)], terminated: Bool) {
        var out: [(String, String, String)] = []
        var i = body.startIndex
        var terminated = false
        while i < body.endIndex {
            if body[i] == ";" { terminated = true; break }
            guard let colon = body[i...].firstIndex(of: ":") else { break }
            let key = String(body[i..<colon]).uppercased()
            var value = "", j = body.index(after: colon), start = j, ended = false
            while j < body.endIndex {
                let ch = body[j]
                if ch == "\\", body.index(after: j) < body.endIndex {
                    value.append(body[body.index(after: j)]); j = body.index(j, offsetBy: 2); continue
                }
                if ch == ";" { ended = true; break }
                value.append(ch); j = body.index(after: j)
            }
            out.append((key, value, String(body[start..<j])))
            i = ended ? body.index(after: j) : j
            if !ended { break }
        }
        return (out, terminated)
    }

    static func read(_ text: String) -> CodeContent {
        var c = CodeContent(.wifi)
        let (pairs, terminated) = Self.pairs(text.dropFirst(5))
        let value = { (k: String) in pairs.last { $0.key == k } }
        c.set("ssid", value("S")?.value)
        let auth = value("T")?.value
        c.set("auth", auth)
        if let h = value("H")?.value {
            if h.lowercased() == "true" || h.lowercased() == "false" {
                c.set("hidden", .bool(h.lowercased() == "true"))
            } else {
                c.problem("the hidden flag H is '\(h)', not true or false")
            }
        }
        if let p = value("P") {
            c.set("password", p.value)
            c.secret("password", kind: .wifiPassword, written: p.written, before: "P:")
        }
        for (k, name) in [("E", "eap_method"), ("A", "anonymous_identity"), ("I", "identity"), ("PH2", "phase2_method")] {
            c.set(name, value(k)?.value)
        }
        if value("S")?.value.isEmpty ?? true { c.problem("it names no network (S, the SSID, is missing or empty)") }
        if let auth, !auth.isEmpty, !authTypes.contains(auth.uppercased()) {
            c.problem("the security type T '\(auth)' is not one of WEP, WPA, WPA2, WPA3, SAE, nopass, WPA2-EAP")
        }
        let secured = auth.map { !$0.isEmpty && $0.uppercased() != "NOPASS" } ?? false
        if secured, !(auth!.uppercased().hasSuffix("EAP")), value("P")?.value.isEmpty ?? true {
            c.problem("the network is secured (\(auth!)) but the code holds no password (P)")
        }
        if auth?.uppercased() == "NOPASS", !(value("P")?.value.isEmpty ?? true) { c.problem("the network is open (nopass) but a password (P) is given") }
        if !terminated { c.problem("it does not end with ';;'") }
        return c
    }
}
