import ArgumentParser
import CodeSweep
import UserInput

/// How `scan` reads containers (archives, office packages, mail): on by default, with limits
/// that stop a hostile one; each breach is a per-member error record and the sweep goes on.
struct ContainerOptions: ParsableArguments {
    enum Mode: String, ExpressibleByArgument, CaseIterable { case all, none }

    @Option(
        help: ArgumentHelp(
            "Read the members of archives (ZIP, tar with gzip/bzip2/xz/zstd, 7z, RAR, ISO 9660, cpio), office and e-book packages (DOCX, XLSX, PPTX, ODF, EPUB) and mail (EML, MBOX): each member a record of its own, before the container's. 'none': containers are not read (a walked one is not recorded).",
            valueName: "all|none"))
    var containers: Mode = .all

    @Option(help: ArgumentHelp("Try the passwords in FILE (one per line) on encrypted members, in order.", valueName: "FILE"))
    var archivePasswords: String?

    @Option(help: "Containers inside containers are opened to this depth (a walked container's members: 1); deeper ones get an error record.")
    var maxContainerDepth = 4

    @Option(help: ArgumentHelp("One member's data at most, in MiB; a larger member gets a too_large record and the others are read.", valueName: "MIB"))
    var maxMemberSize = 512

    @Option(help: ArgumentHelp("Member data one walked file may unpack at most, in MiB, nested containers' included.", valueName: "MIB"))
    var maxUnpacked = 8192

    @Option(
        help: ArgumentHelp(
            "Member data one walked file may unpack at most, as a multiple of its own size (past the first 64 MiB): a ZIP bomb stops there.",
            valueName: "RATIO"))
    var maxExpansion: Double = 200

    @Option(help: "Entries one container may list at most (members, folders, links).")
    var maxMembers = 1_000_000

    func validate() throws {
        if maxContainerDepth < 1 { throw ValidationError("--max-container-depth must be at least 1 (--containers none reads no container)") }
        if maxMemberSize < 1 || maxUnpacked < 1 { throw ValidationError("--max-member-size and --max-unpacked take MiB, at least 1") }
        if !(maxExpansion >= 1) { throw ValidationError("--max-expansion must be at least 1") }
        if maxMembers < 1 { throw ValidationError("--max-members must be at least 1") }
    }

    /// The settings, the passwords read from their file (a file that cannot be read ends the run).
    func settings() throws -> ContainerSettings {
        var s = ContainerSettings()
        s.enabled = containers == .all
        s.maxDepth = maxContainerDepth
        s.maxMemberBytes = maxMemberSize << 20
        s.maxUnpackedBytes = maxUnpacked << 20
        s.maxExpansion = maxExpansion
        s.maxMembers = maxMembers
        if let file = archivePasswords {
            let bytes: [UInt8]
            do { bytes = try UserPath.readWhole(file, limit: 1 << 20, limitText: "1 MiB") } catch {
                throw ValidationError("--archive-passwords: \(error)")
            }
            s.passwords = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).map {
                $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
            }.filter { !$0.isEmpty }
        }
        return s
    }
}
