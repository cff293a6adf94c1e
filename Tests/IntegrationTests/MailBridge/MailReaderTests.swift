import Foundation
import MailBridge
import TestSupport
import Testing

/// GMime on mail Python's email and mailbox packages write here: a message with a
/// quoted-printable text, an HTML text with an inline `cid:` picture (base64) and an attachment
/// whose name is RFC 2231-encoded; a forward (message/rfc822) whose nested message holds a
/// picture, parsed again; an MBOX of three messages, one with a "From " line in its body.
@Suite("Mail read with GMime")
struct MailReaderTests {
    static let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + noise(3_000, seed: 1)
    static let jpeg = [0xFF, 0xD8, 0xFF, 0xE0] + noise(5_000, seed: 2)
    static let text = "Caf\u{E9} cr\u{E8}me = 3 \u{20AC}, a line long enough that quoted-printable has to fold it somewhere past seventy-six.\n"

    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    /// Runs the mail script: kind, out, then the files it reads (text, PNG, JPEG).
    static func make(_ kind: String, in dir: TempDir) throws -> [UInt8] {
        try dir.write("text", Array(text.utf8))
        try dir.write("png", png)
        try dir.write("jpeg", jpeg)
        try run("python3", ["-c", writer, kind, dir.file("out"), dir.file("text"), dir.file("png"), dir.file("jpeg")])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.file("out"))))
    }

    @Test("a message's leaves in document order: QP text, HTML, inline cid: picture, named attachment, decoded")
    func message() throws {
        let dir = try TempDir("mail-eml")
        let eml = try Self.make("eml", in: dir)
        let raw = String(decoding: eml, as: UTF8.self)
        // What GMime has to undo is there: quoted-printable, base64, an RFC 2231 name.
        #expect(raw.contains("Content-Transfer-Encoding: quoted-printable") && raw.contains("Content-Transfer-Encoding: base64"))
        #expect(raw.contains("Caf=C3=A9") && raw.contains("=\n"), "the text is quoted-printable, folded")
        #expect(raw.contains("filename*=utf-8''re%C3%A7u.jpg"), "\(raw.prefix(2_000))")
        let parts = try MailReader.parts(ofMessage: eml)
        #expect(parts.map(\.contentType) == ["text/plain", "text/html", "image/png", "image/jpeg"])
        #expect(parts.map(\.index) == [0, 1, 2, 3])
        #expect(parts[0].bytes == Array(Self.text.utf8), "\(String(decoding: parts[0].bytes, as: UTF8.self))")
        #expect(String(decoding: parts[1].bytes, as: UTF8.self).contains("<img src=\"cid:logo@example.com\">"))
        #expect(parts[2].bytes == Self.png && parts[2].contentID == "logo@example.com" && !parts[2].isAttachment)
        #expect(parts[2].nameBytes == Array("cid:logo@example.com".utf8))
        #expect(parts[3].bytes == Self.jpeg && parts[3].isAttachment && parts[3].nameBytes == Array("re\u{E7}u.jpg".utf8))
        #expect(parts[0].nameBytes == Array("part-0".utf8) && parts.allSatisfy { !$0.isMessage })
    }

    @Test("a forward: the message/rfc822 part's bytes are the nested message, whose picture is read again")
    func forward() throws {
        let dir = try TempDir("mail-forward")
        let parts = try MailReader.parts(ofMessage: Self.make("forward", in: dir))
        #expect(parts.map(\.contentType) == ["text/plain", "message/rfc822"])
        let forwarded = try #require(parts.last)
        #expect(forwarded.isMessage && forwarded.isAttachment && forwarded.nameBytes == Array("part-1".utf8))
        #expect(String(decoding: forwarded.bytes, as: UTF8.self).contains("Subject: the inner one"))
        let nested = try MailReader.parts(ofMessage: forwarded.bytes)
        #expect(nested.map(\.contentType) == ["text/plain", "image/png"])
        #expect(nested.last?.bytes == Self.png && nested.last?.nameBytes == Array("code.png".utf8) && nested.last?.isAttachment == true)
    }

    @Test("an MBOX's three messages, each its own bytes from its headers on, in order")
    func mbox() throws {
        let dir = try TempDir("mail-mbox")
        let mbox = try Self.make("mbox", in: dir)
        let messages = try MailReader.messages(inMbox: mbox)
        try #require(messages.count == 3)
        #expect(try MailReader.messageRanges(inMbox: mbox).map { Array(mbox[$0]) } == messages)
        for (i, subject) in ["one", "two", "three"].enumerated() {
            let text = String(decoding: messages[i], as: UTF8.self)
            #expect(text.hasPrefix("From: sender@example.com\n") && text.contains("\nSubject: \(subject)\n"), "\(text.prefix(300))")
        }
        // Message two's body line "From here on" is quoted as ">From" in the file; it does not split it.
        #expect(String(decoding: messages[1], as: UTF8.self).contains(">From here on"))
        let third = try MailReader.parts(ofMessage: messages[2])
        #expect(third.map(\.contentType) == ["text/plain", "image/png"] && third.last?.bytes == Self.png)
    }

    @Test("a message cut inside its attachment keeps the parts before the cut, and the attachment's start")
    func truncated() throws {
        let dir = try TempDir("mail-truncated")
        let eml = try Self.make("eml", in: dir)
        let raw = String(decoding: eml, as: UTF8.self)
        // Halfway into the JPEG's base64 (the last part), on a line boundary.
        let start = try #require(raw.range(of: "filename*=utf-8''re%C3%A7u.jpg")).upperBound
        let body = raw[start...]
        let cut = raw.utf8.distance(from: raw.startIndex, to: start) + body.utf8.count / 2
        let lineEnd = try #require(eml[cut...].firstIndex(of: 0x0A))
        let parts = try MailReader.parts(ofMessage: Array(eml[..<(lineEnd + 1)]))
        #expect(parts.map(\.contentType) == ["text/plain", "text/html", "image/png", "image/jpeg"])
        #expect(parts[2].bytes == Self.png)
        let partial = parts[3].bytes
        #expect(partial.count > 1_000 && partial.count < Self.jpeg.count && Array(Self.jpeg.prefix(partial.count)) == partial, "\(partial.count)")
    }

    @Test("bytes with no \"From \" line are no MBOX: MailError")
    func notAnMbox() throws {
        #expect(throws: MailError.self) { try MailReader.messages(inMbox: Array("Subject: hi\n\nbody\n".utf8)) }
    }

    @Test("multiparts nested past the depth limit: MailError, not a stack overflow")
    func deepMultiparts() throws {
        var message = "From: a@example.com\nSubject: deep\nMIME-Version: 1.0\n"
        let depth = MailReader.maxMultipartDepth + 5
        for i in 0..<depth { message += "Content-Type: multipart/mixed; boundary=\"b\(i)\"\n\n--b\(i)\n" }
        message += "Content-Type: text/plain\n\nleaf\n"
        for i in (0..<depth).reversed() { message += "--b\(i)--\n" }
        #expect {
            _ = try MailReader.parts(ofMessage: Array(message.utf8))
        } throws: { error in
            (error as? MailError)?.message == "multiparts nested more than \(MailReader.maxMultipartDepth) deep"
        }
    }

    /// argv: kind ("eml", "forward", "mbox"), out, the text, PNG and JPEG files.
    static let writer = #"""
        import mailbox, sys
        from email import policy
        from email.message import EmailMessage
        kind, out, text, png, jpeg = sys.argv[1], sys.argv[2], *[open(p, "rb").read() for p in sys.argv[3:6]]
        def message(subject, body):
            m = EmailMessage()
            m["From"], m["To"], m["Subject"] = "sender@example.com", "examiner@example.com", subject
            m.set_content(body)
            return m
        if kind == "eml":
            m = message("codes", "")
            m.set_content(text.decode(), cte="quoted-printable")
            m.add_alternative('<p>Logo: <img src="cid:logo@example.com"></p>\n', subtype="html")
            m.get_payload()[1].add_related(png, "image", "png", cid="<logo@example.com>")
            m.add_attachment(jpeg, "image", "jpeg", filename="re\u00e7u.jpg")
            open(out, "wb").write(m.as_bytes(policy=policy.default))
        elif kind == "forward":
            inner = message("the inner one", "the code is attached\n")
            inner.add_attachment(png, "image", "png", filename="code.png")
            outer = message("Fwd: the inner one", "forwarding\n")
            outer.add_attachment(inner)
            open(out, "wb").write(outer.as_bytes(policy=policy.default))
        elif kind == "mbox":
            box = mailbox.mbox(out)
            box.add(message("one", "first\n"))
            box.add(message("two", "second\nFrom here on, a line mbox must quote\n"))
            third = message("three", "third\n")
            third.add_attachment(png, "image", "png", filename="code.png")
            box.add(third)
            box.flush()
            box.close()
        """#
}
