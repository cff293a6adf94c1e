import LinkCheck
import Yams

extension RulesFile {
    /// `links: {check: true, exclude: [...], accept: "200..=299", timeout: 10, max_redirects: 10, retries: 2}`.
    static func links(_ node: Node, _ at: String) throws -> LinkRules {
        guard let map = node.mapping else { throw Error("\(at): a mapping (check, exclude, accept, timeout, max_redirects, retries)") }
        var l = LinkRules()
        let known = ["check", "exclude", "accept", "timeout", "max_redirects", "retries"]
        for (k, value) in map {
            let key = k.string ?? "", here = "\(at).\(key)"
            switch key {
            case "check": l.check = try bool(value, here)
            case "exclude": l.exclude = try strings(value, here)
            case "accept":
                do { l.settings.accepted = try StatusRanges(parsing: strings(value, here).joined(separator: ",")) } catch let e as StatusRanges.Invalid {
                    throw Error("\(here): \(e)")
                }
            case "timeout":
                guard let s = value.string, let d = Double(s), d.isFinite, d > 0 else { throw Error("\(here): a number of seconds > 0") }
                l.settings.timeout = d
            case "max_redirects": l.settings.maxRedirects = try int(value, here)
            case "retries": l.settings.retries = try int(value, here)
            default: throw unknownKey(here, key, known: known)
            }
        }
        _ = try l.excludeMatchers()
        return l
    }
}
