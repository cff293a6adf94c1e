import CodeContent
import Testing

/// What payloads give away: keys, seeds, tokens and passwords in URLs, each flagged, and masked
/// by `--redact` so that the masked payload still names them.
@Suite("Content: secrets and redaction")
struct SecretContentTests {
    @Test func keysAndSeeds() throws {
        let wif = try #require(CodeContent.read("5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ"))  // the Bitcoin wiki's WIF example
        #expect(wif.type == .secret && wif.valid && wif.string("kind") == "wif" && wif.sensitive.first?.kind == .privateKey)
        #expect(CodeContent.read("5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTK")?.problems == ["its Base58Check checksum is wrong"])
        // The master key of BIP-39's "abandon ... about" seed (python-mnemonic's to_hd_master_key).
        let xprv = "xprv9s21ZrQH143K3GJpoapnV8SFfukcVBSfeCficPSGfubmSFDxo1kuHnLisriDvSnRRuL2Qrg5ggqHKNVpxR86QEC8w35uxmGoggxtQTPvfUu"
        #expect(CodeContent.read(xprv).map { $0.valid && $0.string("kind") == "xprv" } == true)
        let words = try #require(CodeContent.read(String(repeating: "abandon ", count: 11) + "about"))  // BIP-39's first test vector
        #expect(words.type == .secret && words.valid && words.field("words") == .int(12) && words.sensitive.first?.kind == .seedPhrase)
        #expect(CodeContent.read(String(repeating: "abandon ", count: 12))?.problems == ["the mnemonic's checksum (its last word) is wrong (BIP-39)"])
        let jwt =
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
        #expect(CodeContent.read(jwt)?.sensitive.map(\.kind) == [.jwt])
    }

    @Test func credentialsInURLs() throws {
        let c = try #require(CodeContent.read("https://bob:hunter2@example.com/a?access_token=abc123&x=1&Sig=zz#frag"))
        #expect(c.type == .url && c.valid && c.string("host") == "example.com")
        #expect(c.sensitive.map(\.field) == ["userinfo", "query.access_token", "query.Sig"])
        #expect(c.sensitive.map(\.written) == ["hunter2", "abc123", "zz"])
        #expect(CodeContent.read("https://example.com/?utm_source=x")?.sensitive.isEmpty == true)
        let look = try #require(CodeContent.read("https://xn--pypal-4ve.com/"))  // pаypal with a Cyrillic а
        #expect(look.string("lookalike") != nil && look.string("host_unicode") == "pаypal.com")
        #expect(CodeContent.read("https://exa mple.com/")?.problems.first?.contains("not a valid URL") == true)
    }

    @Test func redactionMasksEverySecretAndKeepsTheRest() throws {
        for payload in [
            "WIFI:T:WPA;S:Home;P:correct horse;;", "otpauth://totp/x?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ",
            "https://bob:hunter2@example.com/a?token=abc123", String(repeating: "abandon ", count: 11) + "about",
        ] {
            let content = CodeContent.read(payload)
            let masked = String(decoding: Redaction.redact(Array(payload.utf8), text: payload, content: content), as: UTF8.self)
            for secret in try #require(content).sensitive { #expect(!masked.contains(secret.written), "\(payload) → \(masked)") }
            #expect(masked.contains(Redaction.mask))
            let again = CodeContent.read(masked)
            #expect(again.map { $0.sensitive.allSatisfy(\.redacted) } ?? true, "\(masked)")
        }
        // A short secret is masked where the payload writes it, not wherever its characters occur.
        let short = "WIFI:T:WPA;S:Wnet;P:W;;"
        let masked = Redaction.redact(Array(short.utf8), text: short, content: CodeContent.read(short))
        #expect(String(decoding: masked, as: UTF8.self) == "WIFI:T:WPA;S:Wnet;P:********;;")
        let url = "https://example.com/?a=1&token=1"
        #expect(
            String(decoding: Redaction.redact(Array(url.utf8), text: url, content: CodeContent.read(url)), as: UTF8.self)
                == "https://example.com/?a=1&token=********")
        let wifi = try #require(CodeContent.read("WIFI:T:WPA;S:Home;P:********;;"))
        #expect(wifi.valid && wifi.string("ssid") == "Home" && wifi.sensitive.first?.redacted == true)
        #expect(Redaction.redact(Array("hello".utf8), text: "hello", content: nil) == Array("hello".utf8))
    }
}
