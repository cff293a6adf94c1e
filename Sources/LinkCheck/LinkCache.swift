import Foundation

/// `--link-cache FILE`: results with the time they were found, keyed by the URL and by the rules
/// that decide the verdict (accepted statuses, redirect limit, host rules, address policy), so a
/// change of rules asks again. A link that passed within `maxAge` is not asked again; a failure
/// always is. The file is JSON; one that does not read is a warning and an empty cache.
package struct LinkCache: Sendable, Equatable {
    package struct Entry: Sendable, Equatable, Codable {
        /// Seconds since 1970 when the link was asked.
        package var checkedAt: Double
        package var result: LinkResult
        enum CodingKeys: String, CodingKey {
            case result
            case checkedAt = "checked_at"
        }
    }

    struct File: Codable {
        var version: Int
        var entries: [String: Entry]
    }

    package var entries: [String: Entry] = [:]
    package init() {}

    package struct Unreadable: Error, CustomStringConvertible {
        package var description: String
    }

    /// The cache file's bytes read (an empty file is an empty cache).
    package init(reading bytes: [UInt8]) throws(Unreadable) {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: Data(bytes)) } catch {
            throw Unreadable(description: "not a codesweep link cache (\(error))")
        }
        guard file.version == 1 else { throw Unreadable(description: "link cache version \(file.version); this codesweep reads version 1") }
        entries = file.entries
    }

    package func encoded() -> [UInt8] {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array((try? e.encode(File(version: 1, entries: entries))) ?? Data("{\"version\":1,\"entries\":{}}".utf8)) + [0x0A]
    }

    /// The key of `url` under rules summed up as `rules` (LinkCache.fingerprint).
    package static func key(_ url: String, rules: String) -> String { "\(rules) \(url)" }

    /// The rules that decide a verdict, as a short stable text (FNV-1a 64 of their description).
    package static func fingerprint(_ settings: LinkSettings, hostRules: String) -> String {
        let text = [
            "accept=\(settings.accepted)", "redirects=\(settings.maxRedirects)", "private=\(settings.addresses.allowPrivate)",
            "cidr=\(settings.addresses.allowed.map(\.description).sorted().joined(separator: ","))", "proxy=\(settings.proxy ?? "")",
            "resolve=\(settings.resolve.joined(separator: ","))", hostRules,
        ].joined(separator: "\n")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A passed result for `key` asked less than `maxAge` seconds before `now`, marked cached.
    package func fresh(_ key: String, now: Double, maxAge: Double) -> LinkResult? {
        guard let e = entries[key], e.result.outcome == .passed, now - e.checkedAt < maxAge, now >= e.checkedAt else { return nil }
        var r = e.result
        r.cached = true
        return r
    }

    /// Records what was asked this run (cached and excluded results are not re-stamped).
    package mutating func record(_ key: String, _ result: LinkResult, now: Double) {
        guard !result.cached, result.outcome != .excluded else { return }
        entries[key] = Entry(checkedAt: now, result: result)
    }

    /// Drops entries older than `keep` seconds, so the file does not grow without end.
    package mutating func prune(now: Double, keep: Double) {
        entries = entries.filter { now - $0.value.checkedAt < keep }
    }
}

/// `--link-cache-age`: `1d`, `12h`, `30m`, `90s` or a number of seconds.
package enum CacheAge {
    package static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800]
        var number = Substring(text)
        var unit = 1.0
        if let last = text.last, let u = units[last] {
            unit = u
            number = number.dropLast()
        }
        guard let v = Double(number), v.isFinite, v >= 0 else { return nil }
        return v * unit
    }
}
