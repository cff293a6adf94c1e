import ArgumentParser
import AssetCheck
import CurlBridge
import LinkCheck

/// `check --check-links` and the flags that tune it (docs/check.md, "Links that work").
struct LinkOptions: ParsableArguments {
    @Flag(help: "Request every http(s) link the codes hold and fail images whose link is broken (also `links: check: true` in the rules file).")
    var checkLinks = false

    @Option(help: ArgumentHelp("With --check-links: keep results in FILE; a link that passed within --link-cache-age is not asked again.", valueName: "file"))
    var linkCache: String?

    @Option(help: ArgumentHelp("With --link-cache: how long a passed link is trusted: 1d (default), 12h, 30m, 90s.", valueName: "age"))
    var linkCacheAge: String?

    @Option(help: ArgumentHelp("Seconds one request may take (default 10).", valueName: "seconds"))
    var linkTimeout: Double?

    @Option(help: ArgumentHelp("Redirect hops followed before a link fails (default 10).", valueName: "n"))
    var maxRedirects: Int?

    @Option(help: ArgumentHelp("Retries of a timeout, a 5xx, a 429 or a 503 (default 2).", valueName: "n"))
    var linkRetries: Int?

    @Option(help: ArgumentHelp("Final statuses that pass, lychee-style: 200..=299 (default), 200..=299,429.", valueName: "ranges"))
    var linkAccept: String?

    @Option(help: ArgumentHelp("A link never requested (a regular expression matched anywhere in the URL); repeatable.", valueName: "regex"))
    var linkExclude: [String] = []

    @Flag(help: "Allow requests to loopback, private, link-local and other special-purpose addresses (refused by default).")
    var linksAllowPrivate = false

    @Option(help: ArgumentHelp("Allow requests to this network (e.g. 10.20.0.0/16); repeatable.", valueName: "cidr"))
    var linksAllowCidr: [String] = []

    @Option(help: ArgumentHelp("Send every request through this proxy (the address check cannot then be made).", valueName: "url"))
    var linkProxy: String?

    @Option(help: ArgumentHelp("Pin a name to an address as curl's --resolve does (HOST:PORT:ADDRESS); repeatable.", valueName: "host:port:addr"))
    var linkResolve: [String] = []

    /// The link flags given, named (each needs the link check on).
    var tuning: [String] {
        var given: [String] = []
        if linkCache != nil { given.append("--link-cache") }
        if linkCacheAge != nil { given.append("--link-cache-age") }
        if linkTimeout != nil { given.append("--link-timeout") }
        if maxRedirects != nil { given.append("--max-redirects") }
        if linkRetries != nil { given.append("--link-retries") }
        if linkAccept != nil { given.append("--link-accept") }
        if !linkExclude.isEmpty { given.append("--link-exclude") }
        if linksAllowPrivate { given.append("--links-allow-private") }
        if !linksAllowCidr.isEmpty { given.append("--links-allow-cidr") }
        if linkProxy != nil { given.append("--link-proxy") }
        if !linkResolve.isEmpty { given.append("--link-resolve") }
        return given
    }

    /// A usage error in the values (said before anything is read).
    var problem: String? {
        if let linkCacheAge, CacheAge.seconds(linkCacheAge) == nil { return "--link-cache-age takes 1d, 12h, 30m, 90s or seconds, not '\(linkCacheAge)'" }
        if linkCacheAge != nil && linkCache == nil { return "--link-cache-age needs --link-cache FILE (the cache whose entries it ages)" }
        if let linkTimeout, !(linkTimeout > 0 && linkTimeout.isFinite) { return "--link-timeout takes a number of seconds > 0" }
        if let maxRedirects, maxRedirects < 0 { return "--max-redirects takes a whole number ≥ 0" }
        if let linkRetries, linkRetries < 0 { return "--link-retries takes a whole number ≥ 0" }
        if let linkAccept { do { _ = try StatusRanges(parsing: linkAccept) } catch { return "--link-accept: \(error)" } }
        if let bad = linksAllowCidr.first(where: { CIDR($0) == nil }) {
            return "--links-allow-cidr takes a network like 10.20.0.0/16 or fd00::/8, not '\(bad)'"
        }
        if let bad = linkResolve.first(where: { $0.split(separator: ":", maxSplits: 2).count < 3 }) {
            return "--link-resolve takes HOST:PORT:ADDRESS (e.g. example.com:443:127.0.0.1), not '\(bad)'"
        }
        return nil
    }

    /// The flags over the rules file's `links:`; a tuning flag without the check is refused,
    /// so no flag is silently ignored.
    func apply(to rules: inout CheckRules) throws(Refusal) {
        if checkLinks { rules.links.check = true }
        if !rules.links.check, let first = tuning.first {
            throw Refusal(description: "\(first) needs --check-links (or links: check: true in the rules file); without it no link is requested")
        }
        var s = rules.links.settings
        if let linkTimeout { s.timeout = linkTimeout }
        if let maxRedirects { s.maxRedirects = maxRedirects }
        if let linkRetries { s.retries = linkRetries }
        if let linkAccept, let ranges = try? StatusRanges(parsing: linkAccept) { s.accepted = ranges }
        s.addresses = AddressPolicy(allowPrivate: linksAllowPrivate, allowed: linksAllowCidr.compactMap(CIDR.init))
        s.proxy = linkProxy
        s.resolve = linkResolve
        s.userAgent = "codesweep/\(BuildVersion.value) (link check)"
        rules.links.settings = s
        rules.links.exclude += linkExclude
    }

    /// How the check requests links (nil: it does not).
    func run(_ rules: CheckRules) -> LinkRun? {
        guard rules.links.check else { return nil }
        var run = LinkRun(transport: CurlTransport.transport, networkAvailable: { NetworkProbe.hasRoute() })
        run.cachePath = linkCache
        if let linkCacheAge, let age = CacheAge.seconds(linkCacheAge) { run.cacheAge = age }
        return run
    }

    /// Said on stderr before the check: what the flags give up.
    var warnings: [String] {
        guard let linkProxy else { return [] }
        return [
            "--link-proxy \(linkProxy): every request goes through the proxy, so the address a link resolves to cannot be checked (private addresses are the proxy's to refuse)"
        ]
    }

    struct Refusal: Error, CustomStringConvertible { var description: String }
}
