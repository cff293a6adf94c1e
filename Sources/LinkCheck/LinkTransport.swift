/// One HTTP request of a link check: one hop, never following a redirect itself.
package struct HopRequest: Sendable, Equatable {
    package enum Method: String, Sendable { case head = "HEAD", get = "GET" }
    package var url: String
    package var method: Method
    package init(url: String, method: Method) { self.url = url; self.method = method }
}

/// What a hop answered: a status (with where a redirect points and a Retry-After), or a failure.
package struct HopResponse: Sendable, Equatable {
    package var status: Int?
    /// A redirect's target, absolute (resolved against the hop's URL).
    package var location: String?
    /// The Retry-After header's value, as sent.
    package var retryAfter: String?
    package var failure: LinkResult.Failure?
    /// The failure in words (libcurl's message, or the address refused).
    package var message: String?
    package init(status: Int?, location: String? = nil, retryAfter: String? = nil, failure: LinkResult.Failure? = nil, message: String? = nil) {
        self.status = status; self.location = location; self.retryAfter = retryAfter; self.failure = failure; self.message = message
    }
    package static func failed(_ failure: LinkResult.Failure, _ message: String) -> HopResponse {
        HopResponse(status: nil, failure: failure, message: message)
    }
}

/// Makes one request (CurlBridge's libcurl transport; a table in unit tests).
package typealias LinkTransport = @Sendable (HopRequest, LinkSettings) async -> HopResponse
