/// The most a command reads of a file it reads whole or a line at a time, so that a stream with
/// no end or no newline (`/dev/zero`, a wrong file, a pipe from a runaway program) ends with a
/// clear error naming the file and the limit instead of exhausting memory. Images have their own
/// limits (`--max-file-bytes`), rules and expectations files theirs (`RulesFile.sizeLimit`).
package enum InputLimits {
    /// A report read whole: `report`'s report, each of `merge`'s shards, a `--format json`
    /// document given to `summarize`, a `--resume` report: 1 GiB.
    package static let reportBytes = 1 << 30
    /// One line of a JSON Lines report that `summarize` reads a line at a time: 64 MiB (a
    /// record of a file with thousands of codes is a few MB).
    package static let reportLineBytes = 64 << 20
    /// A `--files-from` or `--expect-from` list of paths: 256 MiB (a million paths of 250 bytes).
    package static let pathListBytes = 256 << 20

    /// "1 GiB (1073741824 bytes)".
    package static func describe(_ limit: Int) -> String {
        let unit = limit >= 1 << 30 && limit % (1 << 30) == 0 ? "\(limit >> 30) GiB" : "\(limit >> 20) MiB"
        return "\(unit) (\(limit) bytes)"
    }

    /// A whole report the user named (`-`: standard input), within `reportBytes`.
    package static func readReport(_ path: String) throws(UserPath.Failure) -> [UInt8] {
        try UserPath.readWhole(path, limit: reportBytes, limitText: "\(describe(reportBytes)) for a report")
    }
}
