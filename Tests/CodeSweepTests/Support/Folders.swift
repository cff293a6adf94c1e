import Foundation

/// Where things are: the package, the codesweep binary under test, and a fresh temporary folder.

enum PackageRoot {
    /// The package root, found from this source file's location (Tests/CodeSweepTests/Support/).
    static let path: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()
    static var url: URL { URL(fileURLWithPath: path) }
    static var samples: String { path + "/Samples" }
    static func file(_ relative: String) -> String { path + "/" + relative }
}

/// The codesweep binary next to the test runner (`swift build --build-tests` builds both into
/// one products folder; on macOS the runner sits inside an .xctest bundle there).
let codesweepBinary: String = {
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var dir = runner.deletingLastPathComponent()
    if dir.path.hasSuffix(".xctest/Contents/MacOS") { dir = dir.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }
    return dir.appendingPathComponent("codesweep").path
}()

/// A fresh folder under the system temporary folder (mkdtemp), removed with everything in it
/// when the test lets go of it. `label` goes into the name, to tell leftovers apart.
final class TempDir: Sendable {
    let path: String
    var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    init(_ label: String = "tests") throws {
        var template = Array((NSTemporaryDirectory() + "/codesweep-\(label)-XXXXXX").utf8CString)
        guard let p = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ToolFailure("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        path = String(cString: p)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    func mkdir(_ name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: file(name), withIntermediateDirectories: true)
        return file(name)
    }

    func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: file(name)))
    }
}
