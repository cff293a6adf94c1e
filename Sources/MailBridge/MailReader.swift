import CGMime
import Glibc

/// GMime 3, read from memory only (GMimeStreamMem; never a file): one RFC 5322 message's leaf
/// parts in document order, their transfer encodings (base64, quoted-printable, uuencode)
/// undone, and an MBOX's messages as their own bytes.
///
/// Multiparts (mixed, related, alternative, signed, ...) are walked depth first; each leaf is a
/// `MailPart`: attachments, inline pictures (`cid:`), text. A `message/rfc822` part (a forward)
/// is one part too, `isMessage`, whose bytes are the nested message as GMime writes it back: the
/// caller parses it again, so that the nesting is the caller's to bound. Every GMime object made
/// in a call is released before it returns; GMime is initialised once per process.
public enum MailReader {
    /// `g_mime_init`, once.
    private static let initialised: Bool = {
        g_mime_init()
        return true
    }()

    /// Multiparts nested deeper than this are refused (the walk is recursive).
    public static let maxMultipartDepth = 64

    /// One message's leaf parts, in document order, indexed from 0.
    public static func parts(ofMessage bytes: [UInt8]) throws(MailError) -> [MailPart] {
        _ = initialised
        let stream = memoryStream(bytes)
        defer { cgmime_unref(stream) }
        let parser = g_mime_parser_new_with_stream(stream)!
        defer { cgmime_unref(parser) }
        guard let message = g_mime_parser_construct_message(parser, nil) else {
            throw MailError("GMime finds no message in \(bytes.count) bytes")
        }
        defer { cgmime_unref(message) }
        var parts: [MailPart] = []
        if let body = g_mime_message_get_mime_part(message) { try walk(body, depth: 0, into: &parts) }
        return parts
    }

    /// An MBOX's messages (GMime's parser in MBOX mode), each as its bytes in the file: from its
    /// headers (the "From " line left out) to the next message's "From " line. Lines quoted as
    /// ">From " stay as they are.
    public static func messages(inMbox bytes: [UInt8]) throws(MailError) -> [[UInt8]] {
        try messageRanges(inMbox: bytes).map { Array(bytes[$0]) }
    }

    /// Where `messages(inMbox:)`'s messages lie in `bytes`, without copying them.
    public static func messageRanges(inMbox bytes: [UInt8]) throws(MailError) -> [Range<Int>] {
        _ = initialised
        let stream = memoryStream(bytes)
        defer { cgmime_unref(stream) }
        let parser = g_mime_parser_new_with_stream(stream)!
        defer { cgmime_unref(parser) }
        g_mime_parser_set_format(parser, GMIME_FORMAT_MBOX)
        var ranges: [Range<Int>] = []
        while g_mime_parser_eos(parser) == 0 {
            guard let message = g_mime_parser_construct_message(parser, nil) else { break }
            cgmime_unref(message)
            let begin = Int(g_mime_parser_get_headers_begin(parser)), end = Int(g_mime_parser_tell(parser))
            guard begin >= 0, begin <= end, end <= bytes.count else {
                throw MailError("GMime places message \(ranges.count + 1) of the MBOX at bytes \(begin)..<\(end) of \(bytes.count)")
            }
            ranges.append(begin..<end)
        }
        if ranges.isEmpty { throw MailError("GMime finds no message in the MBOX's \(bytes.count) bytes (no \"From \" line)") }
        return ranges
    }

    /// A GMimeStreamMem holding a copy of `bytes` (one reference, the caller's).
    private static func memoryStream(_ bytes: [UInt8]) -> UnsafeMutablePointer<GMimeStream> {
        bytes.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { g_mime_stream_mem_new_with_buffer($0.baseAddress, $0.count)! }
        }
    }

    /// `object`'s leaves, appended in document order.
    private static func walk(_ object: UnsafeMutablePointer<GMimeObject>, depth: Int, into parts: inout [MailPart]) throws(MailError) {
        if cgmime_is_multipart(object) != 0 {
            guard depth < maxMultipartDepth else { throw MailError("multiparts nested more than \(maxMultipartDepth) deep") }
            let multipart = cgmime_multipart(object)
            for i in 0..<max(0, g_mime_multipart_get_count(multipart)) {
                if let child = g_mime_multipart_get_part(multipart, i) { try walk(child, depth: depth + 1, into: &parts) }
            }
        } else if cgmime_is_message_part(object) != 0 {
            let nested = g_mime_message_part_get_message(cgmime_message_part(object))
            let bytes = nested.map { written(cgmime_object($0)) } ?? []
            parts.append(part(object, index: parts.count, isMessage: true, bytes: bytes))
        } else if cgmime_is_part(object) != 0 {
            let content = g_mime_part_get_content(cgmime_part(object))
            parts.append(part(object, index: parts.count, isMessage: false, bytes: content.map(decoded) ?? []))
        }
    }

    /// A leaf's description around its bytes.
    private static func part(_ object: UnsafeMutablePointer<GMimeObject>, index: Int, isMessage: Bool, bytes: [UInt8]) -> MailPart {
        let contentID = g_mime_object_get_content_id(object).map { String(cString: $0) }
        let name = name(object, contentID: contentID, index: index)
        var mimeType = "application/octet-stream"
        if let type = g_mime_object_get_content_type(object), let text = g_mime_content_type_get_mime_type(type) {
            mimeType = String(cString: text).lowercased()
            g_free(text)
        }
        let disposition = g_mime_object_get_content_disposition(object)
        let attachment = disposition.map { g_mime_content_disposition_is_attachment($0) != 0 } ?? false
        return MailPart(
            index: index, nameBytes: name, contentType: mimeType, contentID: contentID, isAttachment: attachment, isMessage: isMessage, bytes: bytes)
    }

    /// The filename (Content-Disposition), else the name parameter (Content-Type), else the
    /// Content-ID as a `cid:` link, else "part-" and the index.
    private static func name(_ object: UnsafeMutablePointer<GMimeObject>, contentID: String?, index: Int) -> [UInt8] {
        let filename = g_mime_object_get_content_disposition_parameter(object, "filename") ?? g_mime_object_get_content_type_parameter(object, "name")
        if let filename, filename.pointee != 0 { return Array(UnsafeRawBufferPointer(start: filename, count: strlen(filename))) }
        if let contentID { return Array(("cid:" + contentID).utf8) }
        return Array("part-\(index)".utf8)
    }

    /// A part's content with its transfer encoding undone.
    private static func decoded(_ content: UnsafeMutablePointer<GMimeDataWrapper>) -> [UInt8] {
        let out = g_mime_stream_mem_new()!
        defer { cgmime_unref(out) }
        _ = g_mime_data_wrapper_write_to_stream(content, out)
        return bytes(of: out)
    }

    /// An object (a nested message) as GMime writes it.
    private static func written(_ object: UnsafeMutablePointer<GMimeObject>) -> [UInt8] {
        let out = g_mime_stream_mem_new()!
        defer { cgmime_unref(out) }
        _ = g_mime_object_write_to_stream(object, nil, out)
        return bytes(of: out)
    }

    private static func bytes(of stream: UnsafeMutablePointer<GMimeStream>) -> [UInt8] {
        guard let array = g_mime_stream_mem_get_byte_array(cgmime_stream_mem(stream)), let data = array.pointee.data else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(array.pointee.len)))
    }
}

/// A leaf of a message: an attachment, an inline picture, a text, or a forwarded message.
public struct MailPart: Sendable, Equatable {
    /// Its place among the message's leaves, from 0, in document order.
    public var index: Int
    /// The Content-Disposition filename, else the Content-Type name parameter (RFC 2047/2231
    /// decoded by GMime), else "cid:" and the Content-ID, else "part-" and the index. Untrusted
    /// bytes: never a file system path.
    public var nameBytes: [UInt8]
    /// The MIME type, lowercased: "image/png", "text/plain", "message/rfc822".
    public var contentType: String
    /// The Content-ID without its angle brackets (what a `cid:` link names).
    public var contentID: String?
    /// Content-Disposition says attachment.
    public var isAttachment: Bool
    /// A message/rfc822 part: `bytes` is the nested message, to be parsed again.
    public var isMessage: Bool
    /// The decoded content (base64 and quoted-printable undone; no charset conversion).
    public var bytes: [UInt8]

    public init(index: Int, nameBytes: [UInt8], contentType: String, contentID: String?, isAttachment: Bool, isMessage: Bool, bytes: [UInt8]) {
        self.index = index
        self.nameBytes = nameBytes
        self.contentType = contentType
        self.contentID = contentID
        self.isAttachment = isAttachment
        self.isMessage = isMessage
        self.bytes = bytes
    }
}

/// Why GMime gives no message (GMime's parser is lenient: this is rare).
public struct MailError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
