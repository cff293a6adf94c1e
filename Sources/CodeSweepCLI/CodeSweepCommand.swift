import ArgumentParser
import CodeSweep
import SweepCore

@main
struct CodeSweepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codesweep",
        abstract: "Find every barcode and QR code in folders of images.",
        discussion: """
        Walks files and folders, loads every image upright (EXIF orientation applied), decodes \
        barcodes and QR codes with ZBar at several scales and with other preprocessing, and \
        reports each code with its payload, exact bytes and corners.

        Exit status: 0 every file was read, 1 some files failed, 2 usage or fatal error.
        """,
        version: CodeSweepInfo.version,
        subcommands: [Scan.self, Symbologies.self, Plan.self, Report.self, Worker.self],
        defaultSubcommand: Scan.self
    )
}
