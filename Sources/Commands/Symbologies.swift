import ArgumentParser
import CodeSweep
import InputSources
import Records
import SweepCore

struct Symbologies: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the symbologies and groups --symbologies accepts.")

    func run() {
        print("NAME          DIMENSION  ENGINE     ENGINE NAME   DESCRIPTION")
        for s in Symbology.allCases {
            let def = SymbologySet.standard.members.contains(s) ? "" : "  (not in 'default')"
            print(pad(s.rawValue, 14) + pad(s.isTwoDimensional ? "2D" : "1D", 11) + pad(s.reader.rawValue, 11) + pad(s.zbarName, 14) + s.displayName + def)
        }
        print("\nGROUPS")
        for g in SymbologySet.groups {
            print(pad(g.name, 14) + g.help)
        }
        print(
            "\nzbar: ZBar \(BarcodeReader.zbarVersion); zxing-cpp: zxing-cpp \(BarcodeReader.zxingVersion), linked in, reads every symbology but SQ Code"
        )
        print("(and what only it reads, above); a clean digital frame is read by zxing-cpp first, a photo by the grid decoder and ZBar")
        print("first, zxing-cpp in passes of its own: see `codesweep plan`")
        print("\nExamples: --symbologies qr   --symbologies 1d,qr   --symbologies default,-code39   --symbologies datamatrix,pdf417")
    }

    func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count) }
}

struct Plan: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the scan plan (the passes run) for an effort level.")

    @Option(help: "fast, normal or thorough.")
    var effort: Effort = .normal

    func run() {
        print(ScanPlan.forEffort(effort).listing)
    }
}

struct Formats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the inputs scan reads: image formats, documents, containers and mail, videos, and the library that reads each.")

    func run() {
        print("KIND       FORMATS" + String(repeating: " ", count: 70) + "READ BY")
        for e in InputCatalogue.entries {
            print(pad(e.kind, 11) + pad(e.formats, 77) + e.library)
        }
        print("\nEvery input is recognised by its first bytes, never its name (mail by its header fields).")
        print("A container's members are items of their own: each is recognised and read the same way, containers")
        print("inside to --max-container-depth; members of other content are counted as skipped in the container's record.")
        print("A video is sampled --video-fps times a second; each code is one entry a span on screen, with its seconds.")
    }

    func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count) }
}
