import ArgumentParser
import CodeSweep
import Records
import SweepCore

struct Symbologies: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the symbologies and groups --symbologies accepts.")

    func run() {
        print("NAME          DIMENSION  ENGINE     ENGINE NAME   DESCRIPTION")
        for s in Symbology.allCases {
            let def = SymbologySet.standard.members.contains(s) ? "" : "  (not in 'default')"
            print(pad(s.rawValue, 14) + pad(s.isTwoDimensional ? "2D" : "1D", 11) + pad(s.engine.rawValue, 11) + pad(s.zbarName, 14) + s.displayName + def)
        }
        print("\nGROUPS")
        for g in SymbologySet.groups {
            print(pad(g.name, 14) + g.help)
        }
        print(
            "\nzbar: ZBar \(BarcodeReader.zbarVersion); zxing-cpp: the second decoder, zxing-cpp \(BarcodeReader.zxingVersion) (Data Matrix incl. GS1, PDF417, Aztec,"
        )
        print("and QR codes ZBar and the grid decoder left; run by `normal` and `thorough` as plan passes of their own, see `codesweep plan`;")
        print("`fast` runs ZBar and the grid decoder only)")
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
