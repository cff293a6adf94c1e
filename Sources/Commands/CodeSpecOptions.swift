import ArgumentParser
import CodeGenerate

/// `generate`'s flags for how a code looks: format, charset, error correction, sizes, colours,
/// logo, quality (a batch list's options use the same names, without `--`).
struct CodeSpecOptions: ParsableArguments {
    @Option(help: "png, svg or jpeg (default: from -o's extension, else png).")
    var format: String?

    @Option(help: "Encode the payload text in this charset (gb18030, shift_jis, iso-8859-1, ... any iconv name), with an ECI designator.")
    var charset: String?

    @Flag(help: "Leave out the ECI designator (--charset's, or the UTF-8 one non-ASCII text gets).")
    var noEci = false

    @Option(help: "Error correction: L, M, Q or H (default M; H with --logo).")
    var ec: String?

    @Option(help: "Smallest QR version, 1...40 (`--version` is the program's version).")
    var minVersion: Int?

    @Option(name: .customLong("module"), help: "Pixels a module (default 8).")
    var modulePx: Int?

    @Option(name: .customLong("size"), help: "Picture width in pixels (whole pixels a module; the rest goes to the margin).")
    var sizePx: Int?

    @Option(help: "Quiet zone in modules (default 4).")
    var margin: Int?

    @Option(help: "Module colour: #rrggbb, #rgb or a CSS name (default black).")
    var fg: String?

    @Option(help: "Background colour (default white).")
    var bg: String?

    @Option(help: "Logo picture (PNG, JPEG, ...), centred on a plate of the background colour.")
    var logo: String?

    @Option(help: "The logo's share of the code's area, 0 < f < 1 (default 0.1).")
    var logoSize: Double?

    @Option(help: "Logo plate: rounded or square (default rounded).")
    var plate: String?

    @Option(help: "JPEG quality, 1...100 (default 95).")
    var quality: Int?

    /// The flags as a spec (batch options are applied on top of it).
    func baseSpec() throws(GenerateError) -> CodeSpec {
        var s = CodeSpec()
        let pairs: [(String, String?)] = [
            ("ec", ec), ("min-version", minVersion.map(String.init)), ("module", modulePx.map(String.init)), ("size", sizePx.map(String.init)),
            ("margin", margin.map(String.init)), ("fg", fg), ("bg", bg), ("logo", logo), ("logo-size", logoSize.map { String($0) }),
            ("plate", plate), ("format", format), ("quality", quality.map(String.init)), ("charset", charset),
        ]
        if modulePx != nil && sizePx != nil { throw .usage("--module and --size exclude each other") }
        for case (let k, let v?) in pairs { try s.apply(option: k, value: v) }
        if noEci { s.eci = false }
        return s
    }
}
