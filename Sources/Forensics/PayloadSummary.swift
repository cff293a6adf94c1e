import CodeContent
import Payloads
import Records
import Reporting

/// `codesweep summarize`: what one or more reports found, payload by payload. Works on the
/// reports as `ReportInput` reads them (the text each code was written with), so it needs
/// nothing but the reports.
package struct PayloadSummary {
    package struct Payload {
        package var symbology: String
        package var bytes: [UInt8]
        /// As the report wrote it; nil for binary payloads.
        package var text: String?
        /// Codes with this payload (one file may hold several).
        package var count = 0
        /// Files holding it.
        package var files = 0
        /// The first and last file holding it, in report order.
        package var first: String
        package var last: String
        var lastFileIndex = -1
    }

    package struct Host {
        /// As compared: punycode labels (`URLHost.ascii`).
        package var host: String
        /// The same with its labels decoded (`例え.jp`); equal to `host` for ASCII names.
        package var unicode: String
        /// Why the host can pass for another (`HostLookalike`), or nil.
        package var lookalike: String?
        package var codes = 0
        package var payloads = 0
        package var files = 0
        package var first: String
        package var last: String
        var lastFileIndex = -1
    }

    package var records = 0
    package var filesWithCodes = 0
    package var filesFailed = 0
    package var codes = 0
    /// Unique payloads (symbology + exact bytes), in order of first appearance.
    package var payloads: [Payload] = []
    package var hosts: [Host] = []
    /// Structured-append parts, with their files, to join across files (`SequenceSummary.swift`).
    var sequenceParts: [(path: String, code: DetectedCode)] = []
    /// What the unique payloads say, by type (`ContentSummary`).
    package var contents = ContentSummary()
    var payloadIndex: [String: [[UInt8]: Int]] = [:]
    var hostIndex: [String: Int] = [:]

    package init() {}

    /// Adds every record of a report read back (`ReportInput`: JSON Lines or a `--format json`
    /// document), with the text the report wrote for each code.
    package mutating func add(_ read: ReportInput.Read) {
        for (i, record) in read.records.enumerated() { add(record, texts: i < read.texts.count ? read.texts[i] : []) }
    }

    /// Adds one record; `texts[i]` is the text the report wrote for code i (nil: binary).
    package mutating func add(_ record: FileRecord, texts: [String?]) {
        let fileIndex = records
        records += 1
        let path = record.location
        if record.error != nil { filesFailed += 1 }
        if !record.codes.isEmpty { filesWithCodes += 1 }
        sequenceParts += record.codes.filter { $0.facts?.sequence != nil }.map { (record.location, $0) }
        for (k, c) in record.codes.enumerated() {
            let sym = c.symbology.rawValue, bytes = c.bytes
            // A video's code: where, and when it is on screen.
            let place = c.seconds.map { t in path + " @ " + t.map { NumberText.trimmed($0, decimals: 2) }.joined(separator: "–") + " s" } ?? path
            self.codes += 1
            let text = k < texts.count ? texts[k] : nil
            var newPayload = false
            let i: Int
            if let existing = payloadIndex[sym]?[bytes] {
                i = existing
            } else {
                i = payloads.count
                payloads.append(Payload(symbology: sym, bytes: bytes, text: text, first: place, last: place))
                payloadIndex[sym, default: [:]][bytes] = i
                newPayload = true
                contents.add(CodeContent.read(text, gs1: c.isGS1))
            }
            payloads[i].count += 1
            if payloads[i].lastFileIndex != fileIndex { payloads[i].files += 1; payloads[i].lastFileIndex = fileIndex; payloads[i].last = place }
            if let text, let parsed = URLHost.ofHostURL(text) {
                let host = parsed.ascii
                let h: Int
                if let existing = hostIndex[host] {
                    h = existing
                } else {
                    h = hosts.count
                    hosts.append(Host(host: host, unicode: parsed.unicode, lookalike: parsed.lookalike?.description, first: path, last: path))
                    hostIndex[host] = h
                }
                hosts[h].codes += 1
                if newPayload { hosts[h].payloads += 1 }
                if hosts[h].lastFileIndex != fileIndex { hosts[h].files += 1; hosts[h].lastFileIndex = fileIndex; hosts[h].last = path }
            }
        }
    }

    /// Symbologies by name, each with its payloads, most frequent first (ties: first seen first).
    package var bySymbology: [(symbology: String, payloads: [Payload])] {
        var order: [String] = []
        var groups: [String: [Payload]] = [:]
        for p in payloads {
            if groups[p.symbology] == nil { order.append(p.symbology) }
            groups[p.symbology, default: []].append(p)
        }
        return order.sorted().map { sym in
            // A stable sort: equal counts keep their order of first appearance.
            (
                sym,
                groups[sym]!.enumerated().sorted { a, b in a.element.count != b.element.count ? a.element.count > b.element.count : a.offset < b.offset }.map(
                    \.element)
            )
        }
    }

    /// Hosts with the most codes first (ties by name).
    package var hostsByCount: [Host] {
        hosts.sorted { $0.codes != $1.codes ? $0.codes > $1.codes : $0.host < $1.host }
    }

    /// The host of a URL payload as a browser takes it (`URLHost.ofHostURL`: http, https, ws,
    /// wss and ftp URLs; percent-decoded, UTS-46 mapped, punycode, lower case, no trailing dot,
    /// IPv4 forms as a dotted quad); nil for other text (`vmess://BASE64` has no host).
    package static func urlHost(_ text: String) -> String? {
        URLHost.ofHostURL(text)?.ascii
    }

    /// Characters of a payload's text shown in the text summary; longer ones are cut, with a
    /// marker saying how long they are (the JSON summary holds them whole).
    package static let displayLimit = 200

    /// A payload for people: its text in quotes (escaped; cut after `displayLimit` characters,
    /// with a marker), or its bytes as hex when binary.
    package static func display(_ p: Payload) -> String {
        if let t = p.text {
            let n = t.count
            guard n > displayLimit else { return "\"" + TerminalText.escape(t).replacingQuotes() + "\"" }
            return "\"" + TerminalText.escape(String(t.prefix(displayLimit))).replacingQuotes() + "\"..."
                + " [cut: \(n) characters (\(p.bytes.count) bytes), the first \(displayLimit) shown; --json has it whole]"
        }
        let hex = p.bytes.prefix(32).map { b -> String in
            let h = String(b, radix: 16); return h.count == 1 ? "0" + h : h
        }.joined()
        return "binary \(p.bytes.count) bytes: \(hex)\(p.bytes.count > 32 ? "..." : "")"
    }

    /// The reports read, in the order given (names as given).
    package var sources: [String] = []

    package var text: String {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var s =
            "\(plural(records, "file"))\(sources.count > 1 ? " in \(sources.count) reports" : ""), \(filesWithCodes) with codes, \(filesFailed) failed; \(plural(codes, "code")), \(payloads.count) unique payloads\n"
        for (sym, list) in bySymbology {
            let n = list.reduce(0) { $0 + $1.count }
            s += "\n\(sym): \(plural(n, "code")), \(list.count) unique\n"
            for p in list {
                s += "  \(p.count)× in \(plural(p.files, "file"))  \(PayloadSummary.display(p))\n"
                s += "      first: \(TerminalText.escape(p.first))\n"
                if p.files > 1 { s += "      last:  \(TerminalText.escape(p.last))\n" }
            }
        }
        s += sequencesText
        if !contents.groups.isEmpty { s += "\nWhat they say: " + contents.phrases.joined(separator: ", ") + "\n" }
        if !hosts.isEmpty {
            s += "\nURL hosts: \(hosts.count)\n"
            for h in hostsByCount {
                // A look-alike is named by its punycode first (what a browser shows for it), with the warning.
                let name = h.unicode == h.host ? h.host : h.lookalike == nil ? "\(h.unicode) (\(h.host))" : "\(h.host) (\(h.unicode))"
                s +=
                    "  \(TerminalText.escape(name)): \(plural(h.codes, "code")), \(h.payloads) unique, in \(plural(h.files, "file")); first: \(TerminalText.escape(h.first))\n"
                if let l = h.lookalike { s += "      LOOK-ALIKE HOST: \(TerminalText.escape(l))\n" }
            }
        }
        return s
    }

    package var json: JSONValue {
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
            (
                "by_symbology",
                .object(
                    bySymbology.map { sym, list in
                        (
                            sym,
                            .object([
                                ("codes", .int(list.reduce(0) { $0 + $1.count })),
                                ("unique_payloads", .int(list.count)),
                                ("payloads", .array(list.map(payload))),
                            ])
                        )
                    })
            ),
            (
                "by_host",
                .array(
                    hostsByCount.map { h in
                        .object([
                            ("host", .string(h.host)),
                            ("unicode", .string(h.unicode)),
                            ("lookalike", h.lookalike.map(JSONValue.string) ?? .null),
                            ("codes", .int(h.codes)),
                            ("unique_payloads", .int(h.payloads)),
                            ("files", .int(h.files)),
                            ("first", .string(h.first)),
                            ("last", .string(h.last)),
                        ])
                    })
            ),
            ("sequences", sequencesJSON),
            ("by_content_type", contents.json),
            ("reports", .array(sources.map(JSONValue.string))),
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
