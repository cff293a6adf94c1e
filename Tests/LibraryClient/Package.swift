// swift-tools-version:6.0
import PackageDescription

// An outside package that uses CodeSweep's library product, as a client would: what compiles here
// is the public API (`make check-library` builds and runs it; everything else is `package`).
let package = Package(
    name: "LibraryClient",
    dependencies: [.package(name: "CodeSweep", path: "../..")],
    targets: [
        .executableTarget(name: "LibraryClient", dependencies: [.product(name: "CodeSweep", package: "CodeSweep")])
    ]
)
