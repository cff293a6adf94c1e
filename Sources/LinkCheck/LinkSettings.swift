import Foundation

/// How links are checked and judged: accepted statuses, limits, and where a request may go.
package struct LinkSettings: Sendable, Equatable {
    /// Final statuses that pass (lychee-style ranges: `200..=299,429`).
    package var accepted = StatusRanges.success
    /// Seconds one request may take (`--link-timeout`).
    package var timeout: Double = 10
    /// Redirect hops followed before the link fails (`--max-redirects`).
    package var maxRedirects = 10
    /// Retries of a timeout, a 5xx, a 429 or a 503 (`--link-retries`).
    package var retries = 2
    /// First wait between retries without a Retry-After, doubled each time.
    package var backoff: Double = 0.5
    /// Requests in flight overall and to one host.
    package var concurrency = 8
    package var perHost = 2
    package var addresses = AddressPolicy()
    /// `--link-proxy`: every request goes through it (the address check is then not made).
    package var proxy: String?
    /// `--link-resolve HOST:PORT:ADDRESS` (libcurl's CURLOPT_RESOLVE): names pinned to addresses.
    package var resolve: [String] = []
    package var userAgent = "codesweep link check"
    package init() {}
}

/// Accepted HTTP statuses: `200..=299`, `200..299` (end excluded), `429`, comma-separated.
package struct StatusRanges: Sendable, Equatable, CustomStringConvertible {
    package var ranges: [ClosedRange<Int>]
    package static let success = StatusRanges(ranges: [200...299])
    package init(ranges: [ClosedRange<Int>]) { self.ranges = ranges }

    package struct Invalid: Error, CustomStringConvertible {
        package var description: String
    }

    package init(parsing text: String) throws(Invalid) {
        var out: [ClosedRange<Int>] = []
        for raw in text.split(separator: ",") {
            let part = raw.trimmingCharacters(in: .whitespaces)
            func status(_ s: Substring) throws(Invalid) -> Int {
                guard let v = Int(s), (100...999).contains(v) else {
                    throw Invalid(description: "'\(part)' is not a status or a range of statuses (e.g. 200..=299,429)")
                }
                return v
            }
            if let r = part.range(of: "..=") {
                let lo = try status(part[..<r.lowerBound]), hi = try status(part[r.upperBound...])
                guard lo <= hi else { throw Invalid(description: "'\(part)' is an empty range") }
                out.append(lo...hi)
            } else if let r = part.range(of: "..") {
                let lo = try status(part[..<r.lowerBound]), hi = try status(part[r.upperBound...])
                guard lo < hi else { throw Invalid(description: "'\(part)' is an empty range") }
                out.append(lo...(hi - 1))
            } else {
                let v = try status(Substring(part))
                out.append(v...v)
            }
        }
        guard !out.isEmpty else { throw Invalid(description: "no accepted status given (e.g. 200..=299)") }
        ranges = out
    }

    package func contains(_ status: Int) -> Bool { ranges.contains { $0.contains(status) } }

    package var description: String {
        ranges.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)..=\($0.upperBound)" }.joined(separator: ",")
    }
}
