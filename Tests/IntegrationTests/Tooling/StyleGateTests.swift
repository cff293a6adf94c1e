import Foundation
import TestSupport
import Testing

/// The gates `make lint` runs beside the formatter (CI runs them before the tests):
/// `scripts/check-sizes.py` must catch a long function and a long file, not count braces in
/// strings or comments, and fail loudly when it read nothing; `scripts/check-deps.py` must name a
/// dependency declared and not imported, and one imported and not declared.
@Suite("Style gate: check-sizes and check-deps")
struct StyleGateTests {
    let script = PackageRoot.file("scripts/check-sizes.py")

    func function(_ name: String, bodyLines: Int) -> String {
        "func \(name)() {\n" + String(repeating: "    _ = 1\n", count: bodyLines) + "}\n"
    }

    @Test("a function of 81 lines and a file of 351 are breaches; 80 and 350 are not")
    func limitsAreExact() throws {
        let dir = try TempDir("sizes")
        // 80 lines: the declaration, 78 body lines, the closing brace.
        try dir.write("ok.swift", Array(function("fits", bodyLines: 78).utf8))
        var r = try run("python3", [script, dir.path], check: false)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        try dir.write("long.swift", Array(function("tooLong", bodyLines: 79).utf8))
        try dir.write("big.swift", Array(String(repeating: "let x = 1\n", count: 351).utf8))
        r = try run("python3", [script, dir.path], check: false)
        #expect(r.status == 1)
        #expect(r.stdout.contains("long.swift:1: func tooLong is 81 lines"))
        #expect(r.stdout.contains("big.swift:1: 351 lines"))
        #expect(!r.stdout.contains("ok.swift"))
    }

    @Test("braces in strings, interpolations and comments are not counted")
    func bracesInStringsAndComments() throws {
        let dir = try TempDir("sizes")
        // Unbalanced braces in every place that is not code: were any counted, the function's end
        // would be found too early or never, and its length would be wrong.
        let source = """
            func tricky() {
                let a = "{ {"  // } {
                let b = "\\("}" + "{")"
                let c = \"\"\"
                    {{{
                    \"\"\"
                /* { */
                let d = #"{ "# + a + b + c
            }
            func after() {
            \(String(repeating: "    _ = 2\n", count: 85))}
            """
        try dir.write("tricky.swift", Array(source.utf8))
        let r = try run("python3", [script, "--max-function", "80", dir.path], check: false)
        #expect(r.status == 1)
        #expect(r.stdout.contains("tricky.swift:10: func after is 87 lines"), "\(r.stdout)")
        #expect(!r.stdout.contains("func tricky"))
    }

    @Test("a folder without Swift files exits 2: a gate that checked nothing does not pass")
    func nothingCheckedFails() throws {
        let dir = try TempDir("sizes")
        let r = try run("python3", [script, dir.path], check: false)
        #expect(r.status == 2)
        #expect(r.stderr.contains("nothing was checked"))
    }

    @Test("the package's own Sources keep the rules")
    func sourcesKeepTheRules() throws {
        let r = try run("python3", [script, PackageRoot.file("Sources")], check: false)
        #expect(r.status == 0, "\(r.stdout)")
    }

    @Test("check-deps: a declared module not imported and an imported module not declared are both named; the package is clean")
    func dependenciesMatchImports() throws {
        let deps = PackageRoot.file("scripts/check-deps.py")
        let dir = try TempDir("deps")
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(
                name: "P",
                targets: [
                    .target(name: "Core"),
                    .target(name: "Extra"),
                    // Declares Extra without importing it; imports Yams without declaring it.
                    .target(name: "App", dependencies: ["Core", "Extra"]),
                ]
            )
            """
        try dir.write("Package.swift", Array(manifest.utf8))
        _ = try dir.mkdir("Sources")
        for (name, source) in [("Core", "public let x = 1\n"), ("Extra", "public let y = 2\n"), ("App", "import Core\nimport Foundation\nimport Yams\n")] {
            _ = try dir.mkdir("Sources/\(name)")
            try dir.write("Sources/\(name)/\(name).swift", Array(source.utf8))
        }
        var r = try run("python3", [deps, dir.path], check: false)
        #expect(r.status == 1)
        #expect(r.stdout.contains("App: declares Extra, imports nothing of it"), "\(r.stdout)")
        #expect(r.stdout.contains("App: imports Yams, does not declare it"))
        #expect(!r.stdout.contains("Foundation"))
        // A target folder without sources: nothing checked is a failure, not a pass.
        try FileManager.default.removeItem(atPath: dir.file("Sources/Core/Core.swift"))
        r = try run("python3", [deps, dir.path], check: false)
        #expect(r.status == 2 && r.stderr.contains("nothing was checked"))
        let ours = try run("python3", [deps, PackageRoot.path], check: false)
        #expect(ours.status == 0, "\(ours.stdout)\(ours.stderr)")
    }
}
