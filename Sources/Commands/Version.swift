/// The version `codesweep --version` prints and JSON documents name.
///
/// A plain `swift build` (or `make release`) gives the default below. `make dist` builds with
/// `-DCODESWEEP_DIST_VERSION` after writing `DistVersion.generated.swift` (gitignored) next to this
/// file, holding `distVersion`: scripts/version.sh's answer, from `git describe --tags --always --dirty`.
enum BuildVersion {
    #if CODESWEEP_DIST_VERSION
    static let value = distVersion
    #else
    static let value = "0.1.0"
    #endif
}
