#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Dates and times in UTC, the one formatter: RFC 3339 / ISO 8601 with milliseconds for
/// records ("2026-11-22T03:50:47.865Z"), the calendar date for `check`'s campaign expiry
/// ("2026-11-22"), and JUnit's timestamp without zone or fraction ("2026-11-22T03:50:47").
package enum Timestamp {
    package enum Style: Sendable { case milliseconds, date, junit }

    package static func now(_ style: Style = .milliseconds) -> String {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return format(seconds: Int(ts.tv_sec), milliseconds: Int(ts.tv_nsec) / 1_000_000, style: style)
    }

    package static func format(seconds: Int, milliseconds: Int, style: Style = .milliseconds) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func pad(_ v: Int32, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        let date = "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
        let time = "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
        switch style {
        case .date: return date
        case .junit: return date + "T" + time
        case .milliseconds: return date + "T" + time + ".\(pad(Int32(milliseconds), 3))Z"
        }
    }
}
