import Foundation

/// Where things are: the package and a fresh temporary folder. (The codesweep binary under
/// test is the integration tests' business: Tests/IntegrationTests/Support/Processes.swift.)

package enum PackageRoot {
    /// The package root, found from this source file's location (Tests/TestSupport/).
    package static let path: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    package static var url: URL { URL(fileURLWithPath: path) }
    package static var samples: String { path + "/Samples" }
    package static func file(_ relative: String) -> String { path + "/" + relative }
}

/// A fresh folder under the system temporary folder (mkdtemp), removed with everything in it
/// when the test lets go of it. `label` goes into the name, to tell leftovers apart.
package final class TempDir: Sendable {
    package let path: String
    package var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    package init(_ label: String = "tests") throws {
        var template = Array((NSTemporaryDirectory() + "/codesweep-\(label)-XXXXXX").utf8CString)
        guard let p = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ToolFailure("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        path = String(cString: p)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    package func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    package func mkdir(_ name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: file(name), withIntermediateDirectories: true)
        return file(name)
    }

    package func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: file(name)))
    }
}

/// A test helper's failure, saying what went wrong (a tool's exit and stderr, a file not made).
package struct ToolFailure: Error, CustomStringConvertible {
    package var description: String
    package init(description: String) { self.description = description }
    package init(_ description: String) { self.description = description }
}
