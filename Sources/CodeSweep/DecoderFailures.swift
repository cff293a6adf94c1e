import Records

/// The second decoder's failures over an item's frames (a picture's, a video's samples), each
/// once, and what they make of the record: `failed_decoder` and a warning each.
struct DecoderFailures {
    private var failures: [String] = []
    private var readers: [String] = []

    mutating func add(_ result: ReadResult) {
        failures += result.decoderFailures.filter { !failures.contains($0) }
        readers += result.failedReaders.filter { !readers.contains($0) }
    }

    func apply(to record: inout FileRecord) {
        guard !failures.isEmpty else { return }
        record.failedDecoder = readers.joined(separator: ",")
        record.warnings += failures.map { "second decoder: " + $0 + "; ZBar's codes are complete" }
    }
}
