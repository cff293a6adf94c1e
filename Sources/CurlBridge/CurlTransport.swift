import CCurl
import Foundation
import LinkCheck

/// LinkCheck's transport over libcurl's easy interface: one hop per call, redirects never
/// followed (each hop is LinkChecker's to judge). The handle is made and freed inside one call,
/// on one thread. Every address curl is about to connect to is held against the address policy
/// (CURLOPT_OPENSOCKETFUNCTION), and the address connected to is confirmed before the request
/// is sent (CURLOPT_PREREQFUNCTION), so a name that resolves to a private address, or rebinds
/// to one, is refused. No proxy from the environment (only `--link-proxy`), no cookies, no
/// .netrc; at most `bodyLimit` bytes of a body are read and none is kept.
package enum CurlTransport {
    package static let bodyLimit = 16 * 1024

    static let initialized: Bool = cs_global_init() == CURLE_OK

    /// The transport: the blocking request runs on a thread of its own, not the task pool's.
    package static let transport: LinkTransport = { request, settings in
        await withCheckedContinuation { done in
            Thread.detachNewThread { done.resume(returning: fetch(request, settings)) }
        }
    }

    /// What a callback knows: the policy, and what it refused or read.
    final class Hop {
        let policy: AddressPolicy
        let vet: Bool
        var refused: String?
        var bodyBytes = 0
        init(policy: AddressPolicy, vet: Bool) { self.policy = policy; self.vet = vet }
        static func of(_ p: UnsafeMutableRawPointer) -> Hop { Unmanaged<Hop>.fromOpaque(p).takeUnretainedValue() }

        /// Records and returns the refusal of `address`, nil when it may be connected to.
        func refuse(_ address: IPAddress?) -> String? {
            guard vet else { return nil }
            guard let address else {
                refused = "not checked: an address that is neither IPv4 nor IPv6"
                return refused
            }
            if let why = policy.refusal(address) { refused = why }
            return policy.refusal(address)
        }
    }

    /// CURLOPT_OPENSOCKETFUNCTION: the socket for an allowed address, none for a refused one
    /// (curl then tries the name's next address, if any).
    static func openSocket(_ clientp: UnsafeMutableRawPointer?, _ address: UnsafeMutablePointer<curl_sockaddr>?) -> curl_socket_t {
        guard let clientp, let address else { return cs_socket_bad() }
        var raw = [UInt8](repeating: 0, count: 16)
        let count = Int(cs_sockaddr_bytes(address, &raw))
        if Hop.of(clientp).refuse(count > 0 ? IPAddress(bytes: Array(raw[0..<count])) : nil) != nil { return cs_socket_bad() }
        return cs_open_socket(address)
    }

    /// CURLOPT_PREREQFUNCTION: the address connected to, confirmed before the request is sent.
    static func confirm(_ clientp: UnsafeMutableRawPointer?, _ primary: UnsafeMutablePointer<CChar>?) -> Int32 {
        guard let clientp else { return 1 }
        let hop = Hop.of(clientp)
        guard hop.vet else { return 0 }
        return hop.refuse(primary.flatMap { IPAddress(String(cString: $0)) }) == nil ? 0 : 1
    }

    /// CURLOPT_WRITEFUNCTION: the body counted and dropped; past `bodyLimit` the transfer stops.
    static func discard(_ bytes: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
        guard let userdata else { return 0 }
        let hop = Hop.of(userdata)
        hop.bodyBytes += bytes
        return hop.bodyBytes > bodyLimit ? 0 : bytes
    }

    /// One request, synchronously.
    package static func fetch(_ request: HopRequest, _ settings: LinkSettings) -> HopResponse {
        guard initialized, let h = curl_easy_init() else { return .failed(.error, "libcurl could not be started") }
        defer { curl_easy_cleanup(h) }
        let hop = Hop(policy: settings.addresses, vet: settings.proxy == nil)
        let errors = UnsafeMutablePointer<CChar>.allocate(capacity: cs_error_size())
        errors.initialize(repeating: 0, count: cs_error_size())
        defer { errors.deallocate() }
        var resolve: UnsafeMutablePointer<curl_slist>? = nil
        for entry in settings.resolve { resolve = curl_slist_append(resolve, entry) }
        defer { curl_slist_free_all(resolve) }
        let code: CURLcode = withExtendedLifetime(hop) {
            let box = Unmanaged.passUnretained(hop).toOpaque()
            configure(h, request, settings)
            _ = cs_set_pointer(h, CURLOPT_ERRORBUFFER, errors)
            _ = cs_set_list(h, CURLOPT_RESOLVE, resolve)
            _ = cs_set_opensocket(h) { clientp, _, address in CurlTransport.openSocket(clientp, address) }
            _ = cs_set_pointer(h, CURLOPT_OPENSOCKETDATA, box)
            _ = cs_set_prereq(h) { clientp, primary, _, _, _ in CurlTransport.confirm(clientp, primary) }
            _ = cs_set_pointer(h, CURLOPT_PREREQDATA, box)
            _ = cs_set_write(h) { _, size, count, userdata in CurlTransport.discard(size * count, userdata) }
            _ = cs_set_pointer(h, CURLOPT_WRITEDATA, box)
            return curl_easy_perform(h)
        }
        let status = cs_info_long(h, CURLINFO_RESPONSE_CODE)
        if status > 0, code == CURLE_OK || (code == CURLE_WRITE_ERROR && hop.bodyBytes > bodyLimit) {
            let location = (300...399).contains(status) ? cs_info_string(h, CURLINFO_REDIRECT_URL).map { String(cString: $0) } : nil
            let retryAfter = cs_header(h, "Retry-After").map { String(cString: $0) }
            return HopResponse(status: status, location: location, retryAfter: retryAfter)
        }
        let detail = errors.pointee != 0 ? String(cString: errors) : String(cString: curl_easy_strerror(code))
        return failure(code, detail: detail, refused: hop.refused, settings: settings)
    }

    /// The options every request has.
    static func configure(_ h: UnsafeMutableRawPointer, _ request: HopRequest, _ settings: LinkSettings) {
        _ = cs_set_string(h, CURLOPT_URL, request.url)
        if request.method == .head { _ = cs_set_long(h, CURLOPT_NOBODY, 1) } else { _ = cs_set_long(h, CURLOPT_HTTPGET, 1) }
        _ = cs_set_long(h, CURLOPT_FOLLOWLOCATION, 0)
        _ = cs_set_string(h, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = cs_set_string(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        let ms = max(1, Int(settings.timeout * 1000))
        _ = cs_set_long(h, CURLOPT_TIMEOUT_MS, ms)
        _ = cs_set_long(h, CURLOPT_CONNECTTIMEOUT_MS, ms)
        _ = cs_set_long(h, CURLOPT_NOSIGNAL, 1)
        _ = cs_set_string(h, CURLOPT_USERAGENT, settings.userAgent)
        // "" turns off the proxies of the environment (http_proxy, HTTPS_PROXY, ALL_PROXY).
        _ = cs_set_string(h, CURLOPT_PROXY, settings.proxy ?? "")
        _ = cs_set_long(h, CURLOPT_NETRC, 0)
    }

    static func failure(_ code: CURLcode, detail: String, refused: String?, settings: LinkSettings) -> HopResponse {
        if let refused { return .failed(.privateAddress, refused) }
        switch code.rawValue {
        case 28: return .failed(.timeout, "no answer within \(settings.timeout) s (--link-timeout): \(detail)")
        case 6: return .failed(.dns, "the host name does not resolve (DNS): \(detail)")
        case 5, 7: return .failed(.connect, "could not connect: \(detail)")
        case 35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91: return .failed(.tls, "TLS failed: \(detail)")
        default: return .failed(.error, "the request failed: \(detail)")
        }
    }
}
