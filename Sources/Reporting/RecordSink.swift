import Foundation
import Records

/// A printer in ripgrep's sense: it receives records in output order and writes them.
package protocol RecordSink {
    /// Called once per file, in output order.
    mutating func write(_ record: FileRecord)
    /// Called once at the end (also after an interruption) with the sweep's summary.
    mutating func finish(summary: SweepSummary)
    /// The first error writing the output (a message naming it), or nil. A sweep stops at the
    /// first one and exits 2.
    var outputFailure: OutputError? { get }
}

/// Counts over a whole sweep.
package struct SweepSummary: Sendable, Equatable {
    /// Records, a container's members' included (each an item of its own).
    package var filesScanned = 0
    /// Of those, members of containers.
    package var membersScanned = 0
    package var filesWithCodes = 0
    package var filesWithoutCodes = 0
    package var filesFailed = 0
    package var codes = 0
    package var codesBySymbology: [Symbology: Int] = [:]
    package var errorsByKind: [ErrorKind: Int] = [:]
    package var uniquePayloads: Set<[UInt8]> = []
    package var elapsedSeconds: Double = 0
    package var interrupted = false
    package init() {}

    package mutating func add(_ r: FileRecord) {
        filesScanned += 1
        if r.isMember { membersScanned += 1 }
        if let e = r.error {
            filesFailed += 1
            errorsByKind[e.kind, default: 0] += 1
        } else if r.codes.isEmpty {
            filesWithoutCodes += 1
        } else {
            filesWithCodes += 1
        }
        for c in r.codes {
            codes += 1
            codesBySymbology[c.symbology, default: 0] += 1
            uniquePayloads.insert(c.bytes)
        }
    }

    package var imagesPerSecond: Double { elapsedSeconds > 0 ? Double(filesScanned) / elapsedSeconds : 0 }

    package var json: JSONValue {
        .object([
            ("files_scanned", .int(filesScanned)),
            ("members_scanned", .int(membersScanned)),
            ("files_with_codes", .int(filesWithCodes)),
            ("files_without_codes", .int(filesWithoutCodes)),
            ("files_failed", .int(filesFailed)),
            ("codes", .int(codes)),
            ("codes_by_symbology", .object(codesBySymbology.sorted { $0.key < $1.key }.map { ($0.key.rawValue, .int($0.value)) })),
            ("errors_by_kind", .object(errorsByKind.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key.rawValue, .int($0.value)) })),
            ("unique_payloads", .int(uniquePayloads.count)),
            ("elapsed_seconds", .double((elapsedSeconds * 1000).rounded() / 1000)),
            ("images_per_second", .double((imagesPerSecond * 100).rounded() / 100)),
            ("interrupted", .bool(interrupted)),
        ])
    }

    /// A few lines for people (stderr at the end of a terminal run).
    package var text: String {
        var s = "\(ProgressLine.count(filesScanned, "file")): \(filesWithCodes) with codes, \(filesWithoutCodes) without, \(filesFailed) failed"
        if membersScanned > 0 { s += " (\(membersScanned) of them members of containers)" }
        s += "; \(ProgressLine.count(codes, "code")) (\(uniquePayloads.count) unique)"
        if !codesBySymbology.isEmpty {
            s += " — " + codesBySymbology.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        }
        s += "; \(NumberText.fixed(elapsedSeconds, decimals: 1)) s"
        if let rate = ProgressLine.rate(files: filesScanned, elapsed: elapsedSeconds) { s += ", " + rate }
        if interrupted { s += " (interrupted)" }
        return s
    }
}
