import CodeSweep
import Reporting
import SweepCore

/// `codesweep summarize`: what a report found, payload by payload. Works on the report's JSON
/// (the text each code was written with), so it needs nothing but the report.
public struct PayloadSummary {
    public struct Payload {
        public var symbology: String
        public var bytes: [UInt8]
        /// As the report wrote it; nil for binary payloads.
        public var text: String?
        /// Codes with this payload (one file may hold several).
        public var count = 0
        /// Files holding it.
        public var files = 0
        /// The first and last file holding it, in report order.
        public var first: String
        public var last: String
        var lastFileIndex = -1
    }

    public struct Host {
        public var host: String
        public var codes = 0
        public var payloads = 0
        public var files = 0
        public var first: String
        public var last: String
        var lastFileIndex = -1
    }

    public var records = 0
    public var filesWithCodes = 0
    public var filesFailed = 0
    public var codes = 0
    /// Unique payloads (symbology + exact bytes), in order of first appearance.
    public var payloads: [Payload] = []
    public var hosts: [Host] = []
    var payloadIndex: [String: [[UInt8]: Int]] = [:]
    var hostIndex: [String: Int] = [:]

    public init() {}

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads a jsonl report.
    public static func load(_ data: [UInt8], name: String) throws(Failure) -> PayloadSummary {
        var s = PayloadSummary()
        var number = 0
        for raw in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            if raw.isEmpty { continue }
            guard let record = try? JSONReading.decode(Record.self, from: raw) else {
                throw Failure(description: "\(name):\(number): not a codesweep jsonl record")
            }
            s.add(record)
        }
        return s
    }

    /// What a summary needs of a record as written in a report: its path, whether it failed,
    /// and each code's symbology, bytes and text (the text as the scan wrote it, --charset and all).
    public struct Record: Decodable {
        public var path: String
        public var status: String?
        public var codes: [Code]
        public struct Code: Decodable {
            public var symbology: String
            public var bytes: [UInt8]
            public var text: String?
            enum CodingKeys: String, CodingKey { case symbology, bytes = "bytes_b64", text }
            public init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                symbology = try c.decode(String.self, forKey: .symbology)
                guard let b = Base64.decode(try c.decode(String.self, forKey: .bytes)) else {
                    throw DecodingError.dataCorruptedError(forKey: .bytes, in: c, debugDescription: "not base64")
                }
                bytes = b
                text = try c.decodeIfPresent(String.self, forKey: .text)
            }
        }
        enum CodingKeys: String, CodingKey { case path, status, codes }
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            path = try c.decode(String.self, forKey: .path)
            status = try c.decodeIfPresent(String.self, forKey: .status)
            codes = try c.decodeIfPresent([Code].self, forKey: .codes) ?? []
        }
    }

    /// Adds one record (as written in a report).
    public mutating func add(_ record: Record) {
        let fileIndex = records
        records += 1
        let path = record.path
        if record.status == "error" { filesFailed += 1 }
        let codes = record.codes
        if !codes.isEmpty { filesWithCodes += 1 }
        for c in codes {
            let sym = c.symbology, bytes = c.bytes
            self.codes += 1
            let text = c.text
            var newPayload = false
            let i: Int
            if let existing = payloadIndex[sym]?[bytes] {
                i = existing
            } else {
                i = payloads.count
                payloads.append(Payload(symbology: sym, bytes: bytes, text: text, first: path, last: path))
                payloadIndex[sym, default: [:]][bytes] = i
                newPayload = true
            }
            payloads[i].count += 1
            if payloads[i].lastFileIndex != fileIndex { payloads[i].files += 1; payloads[i].lastFileIndex = fileIndex; payloads[i].last = path }
            if let text, let host = PayloadSummary.urlHost(text) {
                let h: Int
                if let existing = hostIndex[host] { h = existing } else {
                    h = hosts.count
                    hosts.append(Host(host: host, first: path, last: path))
                    hostIndex[host] = h
                }
                hosts[h].codes += 1
                if newPayload { hosts[h].payloads += 1 }
                if hosts[h].lastFileIndex != fileIndex { hosts[h].files += 1; hosts[h].lastFileIndex = fileIndex; hosts[h].last = path }
            }
        }
    }

    /// Symbologies by name, each with its payloads, most frequent first (ties: first seen first).
    public var bySymbology: [(symbology: String, payloads: [Payload])] {
        var order: [String] = []
        var groups: [String: [Payload]] = [:]
        for p in payloads {
            if groups[p.symbology] == nil { order.append(p.symbology) }
            groups[p.symbology, default: []].append(p)
        }
        return order.sorted().map { sym in
            // A stable sort: equal counts keep their order of first appearance.
            (sym, groups[sym]!.enumerated().sorted { a, b in a.element.count != b.element.count ? a.element.count > b.element.count : a.offset < b.offset }.map(\.element))
        }
    }

    /// Hosts with the most codes first (ties by name).
    public var hostsByCount: [Host] {
        hosts.sorted { $0.codes != $1.codes ? $0.codes > $1.codes : $0.host < $1.host }
    }

    /// The host of a URL payload (`scheme://[user@]host[:port]/...`) as a browser takes it
    /// (`URLHost`: percent-decoded, UTS-46 mapped, punycode, lower case, no trailing dot, IPv4
    /// forms as a dotted quad); nil when the text is not such a URL.
    public static func urlHost(_ text: String) -> String? {
        URLHost.ofURL(text)?.host.ascii
    }

    /// A payload for people: its text in quotes (escaped), or its bytes as hex when binary.
    public static func display(_ p: Payload) -> String {
        if let t = p.text { return "\"" + TerminalText.escape(t).replacingQuotes() + "\"" }
        let hex = p.bytes.prefix(32).map { b -> String in let h = String(b, radix: 16); return h.count == 1 ? "0" + h : h }.joined()
        return "binary \(p.bytes.count) bytes: \(hex)\(p.bytes.count > 32 ? "..." : "")"
    }

    public var text: String {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var s = "\(plural(records, "file")), \(filesWithCodes) with codes, \(filesFailed) failed; \(plural(codes, "code")), \(payloads.count) unique payloads\n"
        for (sym, list) in bySymbology {
            let n = list.reduce(0) { $0 + $1.count }
            s += "\n\(sym): \(plural(n, "code")), \(list.count) unique\n"
            for p in list {
                s += "  \(p.count)× in \(plural(p.files, "file"))  \(PayloadSummary.display(p))\n"
                s += "      first: \(TerminalText.escape(p.first))\n"
                if p.files > 1 { s += "      last:  \(TerminalText.escape(p.last))\n" }
            }
        }
        if !hosts.isEmpty {
            s += "\nURL hosts: \(hosts.count)\n"
            for h in hostsByCount {
                s += "  \(TerminalText.escape(h.host)): \(plural(h.codes, "code")), \(h.payloads) unique, in \(plural(h.files, "file")); first: \(TerminalText.escape(h.first))\n"
            }
        }
        return s
    }

    public var json: JSONValue {
        func payload(_ p: Payload) -> JSONValue {
            .object([
                ("symbology", .string(p.symbology)),
                ("text", p.text.map(JSONValue.string) ?? .null),
                ("bytes_b64", .string(Base64.encode(p.bytes))),
                ("count", .int(p.count)),
                ("files", .int(p.files)),
                ("first", .string(p.first)),
                ("last", .string(p.last)),
            ])
        }
        return .object([
            ("files", .int(records)),
            ("files_with_codes", .int(filesWithCodes)),
            ("files_failed", .int(filesFailed)),
            ("codes", .int(codes)),
            ("unique_payloads", .int(payloads.count)),
            ("by_symbology", .object(bySymbology.map { sym, list in
                (sym, .object([
                    ("codes", .int(list.reduce(0) { $0 + $1.count })),
                    ("unique_payloads", .int(list.count)),
                    ("payloads", .array(list.map(payload))),
                ]))
            })),
            ("by_host", .array(hostsByCount.map { h in
                .object([
                    ("host", .string(h.host)),
                    ("codes", .int(h.codes)),
                    ("unique_payloads", .int(h.payloads)),
                    ("files", .int(h.files)),
                    ("first", .string(h.first)),
                    ("last", .string(h.last)),
                ])
            })),
        ])
    }
}

extension String {
    fileprivate func replacingQuotes() -> String {
        var out = ""
        for c in self { if c == "\"" { out += "\\\"" } else { out.append(c) } }
        return out
    }
}
