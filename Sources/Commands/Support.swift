import ArgumentParser
import AssetCheck
import CodeSweep
import FileWalker
import Foundation
import Reporting
import WorkerProcesses

#if canImport(Glibc)
import Glibc
#endif

enum CodeSweepInfo {
    static let version = BuildVersion.value

    /// This program's own file, for starting worker processes.
    static var executablePath: String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        if n > 0 { return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CommandLine.arguments[0]
    }
}

/// `codesweep __worker SETTINGS`: the decoding side of --isolation process (not for people).
struct Worker: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "__worker", shouldDisplay: false)
    @Argument var settings: String
    func run() throws {
        guard let settings = ScanSettings(workerArgument: settings) else { Glibc.exit(2) }
        // The executable's workers can grade for `check` (the engine does not know AssetCheck).
        Glibc.exit(WorkerServer.run(FileScanner.workerTask(settings, grader: CheckGrading.grader)))
    }
}

/// SIGINT/SIGTERM: stop starting new files, write every finished record, exit cleanly.
/// A second signal exits at once.
enum Interrupt {
    nonisolated(unsafe) static var flag: sig_atomic_t = 0
    static var requested: Bool { flag != 0 }
    /// Set (from the sweep's emitting task) when the report or a picture could not be written.
    nonisolated(unsafe) static var writeFailureFlag: sig_atomic_t = 0
    static var writeFailed: Bool { writeFailureFlag != 0 }
    static func stopForWriteFailure() { writeFailureFlag = 1 }

    static func install() {
        let handler: @convention(c) (Int32) -> Void = { sig in
            if Interrupt.flag != 0 { _exit(128 + sig) }
            Interrupt.flag = 1
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        // A dead worker's pipe must not kill the sweep; a closed stdout is handled on write.
        signal(SIGPIPE, SIG_IGN)
    }
}

/// Messages for stderr, one rule for every line: our words are written as they are, and every
/// value interpolated into a message (file names, payloads, YAML snippets, decoder and system
/// messages, errors) goes through `TerminalText.escape` first, so a newline inside a value is
/// `\n` before the message is cut into lines and can never start a line of its own (a forged
/// `::error`), and no control character or escape sequence is printed raw. Each line is then
/// passed through `TerminalText.guardLine`: no line starts a GitHub workflow command (`::`) or
/// holds `##[`, whatever was put together. A value escaped already goes in as
/// `\(escaped: text)`, so nothing is escaped twice.
enum Stderr {
    static func say(_ message: Message) {
        let lines = message.text.split(separator: "\n", omittingEmptySubsequences: false)
        OutputFile.standardError.write(lines.map { TerminalText.guardLine(String($0)) }.joined(separator: "\n") + "\n")
    }

    /// Lines of text from elsewhere (ArgumentParser's usage messages, which quote arguments):
    /// each line escaped whole.
    static func say(lines text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        OutputFile.standardError.write(lines.map { TerminalText.escape(String($0)) }.joined(separator: "\n") + "\n")
    }

    struct Message: ExpressibleByStringInterpolation {
        var text: String
        init(stringLiteral value: String) { text = value }
        init(stringInterpolation: Interpolation) { text = stringInterpolation.text }

        struct Interpolation: StringInterpolationProtocol {
            var text = ""
            init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity) }
            mutating func appendLiteral(_ literal: String) { text += literal }
            /// A value: escaped.
            mutating func appendInterpolation(_ value: some Any) { text += TerminalText.escape(String(describing: value)) }
            /// Text escaped already (by `TerminalText.escape`), or lines of our own words.
            mutating func appendInterpolation(escaped: String) { text += escaped }
        }
    }
}

/// The live progress line on a terminal's stderr (the words are `ProgressLine`'s): redrawn in
/// place at most ten times a second, cut to the terminal's width so it never wraps.
final class Progress {
    let count: WalkCount?
    let enabled: Bool
    var lastDraw: Double = -1
    init(count: WalkCount?, enabled: Bool) { self.count = count; self.enabled = enabled }

    /// The terminal's width in columns (80 when it does not say).
    static var columns: Int {
        var size = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    func update(_ s: SweepSummary, elapsed: Double, current: String?) {
        guard enabled, elapsed - lastDraw >= 0.1 else { return }
        lastDraw = elapsed
        let line = ProgressLine.live(
            done: s.filesScanned, total: count?.total, codes: s.codes, failed: s.filesFailed,
            elapsed: elapsed, current: current.map(TerminalText.escape), width: Self.columns)
        OutputFile.standardError.write("\r\u{1B}[K" + line)
    }

    /// The end summary, and the first few failed files by name (`failedNames` already escaped).
    func finish(_ s: SweepSummary, failedNames: [String] = []) {
        guard enabled else { return }
        var text = "\r\u{1B}[K" + s.text + "\n"
        if let failed = ProgressLine.failed(failedNames, total: s.filesFailed) { text += failed + "\n" }
        OutputFile.standardError.write(text)
    }
}

/// A count that the sweep's closures update on the caller's task.
final class Counter {
    var value = 0
    /// Names collected by a closure (what each file is, its path): the files a command read.
    final class Names { var names: [(String, String)] = [] }
}

/// The number of files a sweep will scan, counted by a second walk on a thread of its own for
/// the progress line's total and ETA: the sweep streams its walk and knows the total only at
/// the end. `keep` decides what counts (the scan passes `FileScanner.willRecord`, which reads a
/// file's first bytes, so the documents in a folder are not counted). Nil until the count is done.
final class WalkCount: @unchecked Sendable {
    private let lock = NSLock()
    private var counted: Int?
    var total: Int? { lock.lock(); defer { lock.unlock() }; return counted }

    init(_ walk: Walker.Walk, keep: @escaping @Sendable (WalkItem) -> Bool) {
        let thread = Thread { [self] in
            var n = 0
            for item in walk where keep(item) { n += 1 }
            lock.lock(); counted = n; lock.unlock()
        }
        thread.start()
    }
}
