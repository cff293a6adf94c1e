import Imaging
import Records

/// One reader of views, as zxing-cpp's `Reader`: the name the plan's passes give it
/// (`ScanPass.decoder`), the symbologies it reads, and `read(view, request)`. The executor holds
/// a list of them (`PlanExecutor.readers`); a pass runs the reader it names, asking it only for
/// the symbologies that reader reads. The readers are made where the C libraries are
/// (`BarcodeReader`: ZBar and zxing-cpp); the engine knows none of them. (The grid decoder reads
/// located QR codes, not views: it is the plan's `grid` pass, `GridPass`.)
public struct ViewReader {
    public let engine: DecodingEngine
    public let symbologies: Set<Symbology>
    /// The reader may crash or hang (a C++ library): before it reads, the codes found so far
    /// are handed to `PlanExecutor.beforeIsolatedReader`, so a worker can send them on first.
    public let isolated: Bool
    /// The reader that confirms weak linear reads (few agreeing scan lines, `RawSymbol.quality`,
    /// in a big photo; from any reader): after each of its passes it reads crops around the held
    /// reads again (`LinearConfirmation.confirmHeld`). ZBar.
    public let confirmsWeakReads: Bool
    public let read: (LumaImage, ViewRequest) -> ViewOutcome

    public init(
        engine: DecodingEngine, symbologies: Set<Symbology>, isolated: Bool = false, confirmsWeakReads: Bool = false,
        read: @escaping (LumaImage, ViewRequest) -> ViewOutcome
    ) {
        self.engine = engine; self.symbologies = symbologies; self.isolated = isolated; self.confirmsWeakReads = confirmsWeakReads
        self.read = read
    }

    /// A reader that never fails, from a decode function (tests, and ZBar).
    public init(engine: DecodingEngine, symbologies: Set<Symbology>, confirmsWeakReads: Bool = false, decode: @escaping SymbolDecoder) {
        self.init(engine: engine, symbologies: symbologies, confirmsWeakReads: confirmsWeakReads) { ViewOutcome(symbols: decode($0, $1)) }
    }
}

/// What one reader found in one view, and why it read nothing when it failed (an exception or an
/// abort caught inside the library): the record names the reader and keeps the reason.
public struct ViewOutcome: Sendable {
    public var symbols: [RawSymbol]
    public var failure: String?
    public init(symbols: [RawSymbol], failure: String? = nil) { self.symbols = symbols; self.failure = failure }
}

extension ReaderOptions {
    /// Whether a reader's symbol counts: a symbology asked for, a linear read of at least
    /// `minLinearQuality`, an ITF of at least `minITFLength` digits when one is given (else each
    /// reader kept to its own rule).
    func accepts(_ raw: RawSymbol, scanned: SymbologySet) -> Bool {
        guard scanned.members.contains(raw.symbology) else { return false }
        if !raw.symbology.isTwoDimensional && raw.quality < minLinearQuality { return false }
        if raw.symbology == .itf, let min = minITFLength, raw.bytes.count < min { return false }
        return true
    }
}
