import Imaging
import Records

/// One reader of views, as zxing-cpp's `Reader`: the name the plan's passes give it
/// (`ScanPass.decoder`), the symbologies it reads, and `read(view, request)`. The executor holds
/// a list of them (`PlanExecutor.readers`); a pass runs the reader it names, asking it only for
/// the symbologies that reader reads. Each bridge makes its own (`ZBarDecoder.viewReader`,
/// `ZXingDecoder.viewReader`; `BarcodeReader` lists them), so the engine knows no decoder, calls
/// the decoder's module directly, and no decoder calls back into it. (The grid decoder reads
/// located QR codes, not views: it is the plan's `grid` pass, `GridPass`.)
public struct ViewReader {
    public let name: ReaderName
    public let symbologies: Set<Symbology>
    /// The reader may crash or hang (a C++ library): before it reads, the codes found so far
    /// are handed to `PlanExecutor.beforeIsolatedReader`, so a worker can send them on first.
    public let isolated: Bool
    /// The reader that confirms weak linear reads (few agreeing scan lines, `RawSymbol.quality`,
    /// in a big photo; from any reader): after each of its passes it reads crops around the held
    /// reads again (`LinearConfirmation.confirmHeld`). ZBar.
    public let confirmsWeakReads: Bool
    /// The most symbols one read returns (zxing-cpp 3.1: 255, its `maxNumberOfSymbols` is a
    /// `uint8_t`), nil for no cap. A read that returns that many is not done: the engine reads
    /// the view again in overlapping tiles (`CappedRead`) until each read returns fewer.
    public let symbolCap: Int?
    public let read: (LumaImage, ViewRequest) -> ViewOutcome

    public init(
        name: ReaderName, symbologies: Set<Symbology>, isolated: Bool = false, confirmsWeakReads: Bool = false,
        symbolCap: Int? = nil, read: @escaping (LumaImage, ViewRequest) -> ViewOutcome
    ) {
        self.name = name; self.symbologies = symbologies; self.isolated = isolated; self.confirmsWeakReads = confirmsWeakReads
        self.symbolCap = symbolCap
        self.read = read
    }

    /// A reader that never fails, from a decode function (tests, and ZBar).
    public init(name: ReaderName, symbologies: Set<Symbology>, confirmsWeakReads: Bool = false, decode: @escaping SymbolDecoder) {
        self.init(name: name, symbologies: symbologies, confirmsWeakReads: confirmsWeakReads) { ViewOutcome(symbols: decode($0, $1)) }
    }
}

/// What one reader found in one view, and why it read nothing when it failed (an exception or an
/// abort caught inside the library): the record names the reader and keeps the reason.
public struct ViewOutcome: Sendable {
    public var symbols: [RawSymbol]
    public var failure: String?
    public init(symbols: [RawSymbol], failure: String? = nil) { self.symbols = symbols; self.failure = failure }
}

/// What a pass asks a decoder for on one view: the symbologies, and how densely to scan.
public struct ViewRequest: Sendable, Equatable, Hashable {
    public var symbologies: Set<Symbology>
    /// Every `lineStep`-th row and column is scanned (ZBar's scan density; 1: every one). A
    /// full-frame pass looking for bars only, on a frame whose QR codes are settled, scans every
    /// `PlanSettings.settledLineStep`-th: a linear code crosses hundreds of lines.
    public var lineStep: Int
    /// What zxing-cpp tries beyond a plain look (ZBar ignores it).
    public var tries: ReaderTries
    public init(_ symbologies: Set<Symbology>, lineStep: Int = 1, tries: ReaderTries = .all) {
        self.symbologies = symbologies; self.lineStep = lineStep; self.tries = tries
    }
}

/// What zxing-cpp tries beyond one plain look at a view, as its ReaderOptions name them:
/// `harder` (more scan lines and detector effort), `rotate` (linear codes turned 90°), `invert`
/// (the view again, light and dark swapped, when nothing was read), `downscale` (smaller copies
/// when nothing was read). `.all` is zxing-cpp's default, what ZXingReader and its Python module
/// use. On a page with no code each costs a look at the whole view again: a digital frame's
/// first pass tries only harder and looks at the inverted frame itself (`zxing-inverted`).
public struct ReaderTries: OptionSet, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let harder = ReaderTries(rawValue: 1)
    public static let rotate = ReaderTries(rawValue: 2)
    public static let invert = ReaderTries(rawValue: 4)
    public static let downscale = ReaderTries(rawValue: 8)
    public static let all: ReaderTries = [.harder, .rotate, .invert, .downscale]
    public static let plain: ReaderTries = []

    public var description: String {
        if self == .all { return "all" }
        let names = [(ReaderTries.harder, "harder"), (.rotate, "rotate"), (.invert, "invert"), (.downscale, "downscale")]
        let on = names.filter { contains($0.0) }.map(\.1)
        return on.isEmpty ? "plain" : on.joined(separator: "+")
    }
}

/// A decode function: scans one luma image for what the request asks. The engine passes ZBar's.
public typealias SymbolDecoder = (LumaImage, ViewRequest) -> [RawSymbol]
