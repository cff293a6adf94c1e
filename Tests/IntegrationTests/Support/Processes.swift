import Foundation
import TestSupport

/// The one way the tests run other programs: `run` to completion (the codesweep binary, the image
/// tools, python3, shells), `start` for a sweep a test interrupts. Both give the child the same
/// environment and find a program named without a slash on PATH.

struct ProcessResult: Sendable {
    var status: Int32
    var stdoutBytes: Data
    var stderrBytes: Data
    var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
    var stderr: String { String(decoding: stderrBytes, as: UTF8.self) }
    var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
}

/// The codesweep binary next to the test runner (`swift build --build-tests` builds both into
/// one products folder; on macOS the runner sits inside an .xctest bundle there).
let codesweepBinary: String = {
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var dir = runner.deletingLastPathComponent()
    if dir.path.hasSuffix(".xctest/Contents/MacOS") { dir = dir.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }
    return dir.appendingPathComponent("codesweep").path
}()

/// The same commands with readers that fail on `FaultFrame`'s frames (Tests/FaultInjectingCLI),
/// built beside it: for the tests of what survives a reader that aborts, crashes, hangs or eats memory.
let faultInjectingBinary: String = (codesweepBinary as NSString).deletingLastPathComponent + "/FaultInjectingCLI"

/// The environment for child processes: the library sets MAGICK_CONFIGURE_PATH (its own
/// locked-down policy) in this process once ImageMagick starts; tools such as `convert` and the
/// codesweep binary must not inherit it.
func childEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
    ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MAGICK_") }.merging(extra) { $1 }
}

/// A program as given when it holds a slash, else the first executable of that name on the
/// child's PATH (what /usr/bin/env would run).
func executablePath(_ program: String, environment: [String: String]) throws -> String {
    if program.contains("/") { return program }
    let dirs = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
    for dir in dirs where FileManager.default.isExecutableFile(atPath: "\(dir)/\(program)") { return "\(dir)/\(program)" }
    throw ToolFailure("\(program) is not on PATH (\(environment["PATH"] ?? "unset"))")
}

/// A process set up but not started: program, arguments, the child environment plus `env`, folder.
private func makeProcess(_ program: String, _ arguments: [String], env: [String: String], currentDirectory: String?) throws -> Process {
    let environment = childEnvironment(env)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: try executablePath(program, environment: environment))
    p.arguments = arguments
    p.environment = environment
    if let currentDirectory { p.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
    return p
}

/// Runs a program to completion and returns its exit status and both outputs. stdout and
/// stderr are pipes read concurrently, each on its own thread (and `stdin` is written on a third),
/// so that no pipe can fill up and block the child. Without `stdin` the child reads /dev/null.
/// With `check` a non-zero exit throws, naming the command and its stderr.
@discardableResult
func run(
    _ program: String, _ arguments: [String], stdin: Data? = nil, env: [String: String] = [:],
    currentDirectory: String? = nil, check: Bool = true
) throws -> ProcessResult {
    let p = try makeProcess(program, arguments, env: env, currentDirectory: currentDirectory)
    let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
    p.standardOutput = outPipe
    p.standardError = errPipe
    p.standardInput = stdin == nil ? FileHandle.nullDevice : inPipe
    try p.run()
    final class Box: @unchecked Sendable { var data = Data() }
    let out = Box(), err = Box()
    let group = DispatchGroup()
    let outHandle = outPipe.fileHandleForReading, errHandle = errPipe.fileHandleForReading
    DispatchQueue.global().async(group: group) { out.data = outHandle.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { err.data = errHandle.readDataToEndOfFile() }
    if let stdin {
        let writer = inPipe.fileHandleForWriting
        DispatchQueue.global().async(group: group) {
            withoutSIGPIPE { try? writer.write(contentsOf: stdin) }
            try? writer.close()
        }
    }
    group.wait()
    p.waitUntilExit()
    let result = ProcessResult(status: p.terminationStatus, stdoutBytes: out.data, stderrBytes: err.data)
    if check && result.status != 0 {
        throw ToolFailure("\(program) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
    }
    return result
}

/// Runs `body` with SIGPIPE blocked on this thread, so that writing to a child that has exited
/// (or closed its stdin) fails with EPIPE instead of killing the test runner. A SIGPIPE raised
/// meanwhile is taken off before the mask is restored. Ignoring SIGPIPE process-wide would not
/// do: every child started afterwards would inherit the ignored signal.
func withoutSIGPIPE(_ body: () -> Void) {
    var pipeSignal = sigset_t(), previous = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
    body()
    var pending = sigset_t()
    sigpending(&pending)
    if sigismember(&pending, SIGPIPE) == 1 {
        var now = timespec()
        _ = sigtimedwait(&pipeSignal, nil, &now)
    }
    pthread_sigmask(SIG_SETMASK, &previous, nil)
}

/// Starts a program that a test waits for, signals or kills itself; stdin and stderr are
/// /dev/null, stdout is the file `stdout` (created) or /dev/null.
func start(_ program: String, _ arguments: [String], env: [String: String] = [:], stdout: String? = nil) throws -> Process {
    let p = try makeProcess(program, arguments, env: env, currentDirectory: nil)
    if let stdout {
        guard FileManager.default.createFile(atPath: stdout, contents: nil) else { throw ToolFailure("cannot create \(stdout)") }
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdout))
    } else {
        p.standardOutput = FileHandle.nullDevice
    }
    p.standardError = FileHandle.nullDevice
    p.standardInput = FileHandle.nullDevice
    try p.run()
    return p
}

/// Runs `/bin/sh -c script` with `args` as $1..., the codesweep binary as $CS and the
/// fault-injecting one as $FAULTY (never throws
/// on a non-zero exit). The shell lets a test redirect (to /dev/full, a closed descriptor) and
/// pass arguments that are not UTF-8 (built with printf), which Foundation's Process cannot.
@discardableResult
func sh(_ script: String, _ args: [String] = [], stdin: Data? = nil, env: [String: String] = [:]) throws -> ProcessResult {
    try run(
        "/bin/sh", ["-c", script, "sh"] + args, stdin: stdin, env: ["CS": codesweepBinary, "FAULTY": faultInjectingBinary].merging(env) { $1 }, check: false)
}
