import Records

/// The isolated reader's failures over an item's frames (a picture's, a video's samples), each
/// once, and what they make of the record: `failed_decoder` and a warning each.
struct ReaderFailures {
    private var failures: [String] = []
    private var readers: [String] = []

    mutating func add(_ result: ReadResult) {
        failures += result.readerFailures.filter { !failures.contains($0) }
        readers += result.failedReaders.filter { !readers.contains($0) }
    }

    func apply(to record: inout FileRecord) {
        guard !failures.isEmpty else { return }
        record.failedDecoder = readers.joined(separator: ",")
        record.warnings += failures.map { "isolated reader failed: " + $0 + "; the other readers' codes are complete" }
    }
}
