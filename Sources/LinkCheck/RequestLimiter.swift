import Foundation

/// Bounds the requests in flight, overall and to one host: a request waits for a free place.
final class RequestLimiter: @unchecked Sendable {
    let overall: Int
    let perHost: Int
    private let lock = NSLock()
    private var running = 0
    private var byHost: [String: Int] = [:]
    private var waiting: [(host: String, go: CheckedContinuation<Void, Never>)] = []

    init(overall: Int, perHost: Int) {
        self.overall = max(1, overall); self.perHost = max(1, perHost)
    }

    private func free(_ host: String) -> Bool { running < overall && byHost[host, default: 0] < perHost }

    private func take(_ host: String) {
        running += 1
        byHost[host, default: 0] += 1
    }

    func acquire(_ host: String) async {
        await withCheckedContinuation { (go: CheckedContinuation<Void, Never>) in
            let now: Bool = lock.withLock {
                if free(host) {
                    take(host)
                    return true
                }
                waiting.append((host, go))
                return false
            }
            if now { go.resume() }
        }
    }

    func release(_ host: String) {
        let next: CheckedContinuation<Void, Never>? = lock.withLock {
            running -= 1
            byHost[host, default: 1] -= 1
            guard let i = waiting.firstIndex(where: { free($0.host) }) else { return nil }
            let w = waiting.remove(at: i)
            take(w.host)
            return w.go
        }
        next?.resume()
    }

    func limited<T: Sendable>(_ host: String, _ body: () async -> T) async -> T {
        await acquire(host)
        let value = await body()
        release(host)
        return value
    }
}
