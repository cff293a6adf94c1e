import CZXing
import Imaging
import Readers
import Records

/// zxing-cpp 3.1.1 through its own C API (`ZXingC.h`, built statically by
/// scripts/build-zxing.sh): a luma image in, raw symbols out, every reader object made and freed
/// inside the call (no C handle outlives it). It reads every symbology CodeSweep names except SQ
/// Code (ZBar's alone) and the ISBN re-labellings; `ZXingFormats` maps its formats to ours.
package enum ZXingDecoder {
    /// What one call tells besides its symbols: nil, or why it read nothing (the library's own
    /// error message: it catches its exceptions and reports them as its last error).
    package struct Outcome: Sendable, Equatable {
        package var symbols: [RawSymbol]
        package var failure: String?
    }

    /// What it reads.
    package static let symbologies = ZXingFormats.readable

    /// The most symbols one read returns: zxing-cpp 3.1's `maxNumberOfSymbols` is a `uint8_t`
    /// (255, also its default). A read that returns this many may have left codes unread.
    package static let maxSymbols = 255

    /// The library's version, "3.1.1".
    package static var version: String { String(cString: ZXing_Version()) }

    /// Reads the given symbologies (those zxing-cpp reads; others are ignored) in `image`, with
    /// what `tries` allows beyond a plain look (`.all`: zxing-cpp's own defaults, try harder,
    /// rotated, inverted, downscaled, as ZXingReader and the Python module read). Corners come in ZBar's order for 2D codes (top-left, bottom-left,
    /// bottom-right, top-right of the code as drawn), so `RawSymbol.corners` treats both decoders alike.
    package static func decode(_ image: LumaImage, symbologies wanted: Set<Symbology>, tries: ReaderTries = .all) -> Outcome {
        let asked = wanted.intersection(symbologies)
        let formats = ZXingFormats.formats(for: asked)
        guard !formats.isEmpty, image.width > 0, image.height > 0 else { return Outcome(symbols: []) }
        guard let options = ZXing_ReaderOptions_new() else { return failed("no reader options", image) }
        defer { ZXing_ReaderOptions_delete(options) }
        formats.withUnsafeBufferPointer { ZXing_ReaderOptions_setFormats(options, $0.baseAddress, Int32($0.count)) }
        ZXing_ReaderOptions_setEanAddOnSymbol(options, ZXing_EanAddOnSymbol_Ignore)
        ZXing_ReaderOptions_setMaxNumberOfSymbols(options, Int32(maxSymbols))
        ZXing_ReaderOptions_setTryHarder(options, tries.contains(.harder))
        ZXing_ReaderOptions_setTryRotate(options, tries.contains(.rotate))
        ZXing_ReaderOptions_setTryInvert(options, tries.contains(.invert))
        ZXing_ReaderOptions_setTryDownscale(options, tries.contains(.downscale))
        let found: OpaquePointer? = image.pixels.withUnsafeBufferPointer { buf in
            guard let view = ZXing_ImageView_new(buf.baseAddress, Int32(image.width), Int32(image.height), ZXing_ImageFormat_Lum, Int32(image.width), 1)
            else { return nil }
            defer { ZXing_ImageView_delete(view) }
            return ZXing_ReadBarcodes(view, options)
        }
        guard let barcodes = found else {
            let message = ZXing_LastErrorMsg().map { p in
                defer { ZXing_free(p) }; return String(cString: p)
            }
            return failed(message ?? "no result", image)
        }
        defer { ZXing_Barcodes_delete(barcodes) }
        var out: [RawSymbol] = []
        for i in 0..<ZXing_Barcodes_size(barcodes) {
            guard let b = ZXing_Barcodes_at(barcodes, i), ZXing_Barcode_isValid(b),
                let s = ZXingFormats.symbology(ZXing_Barcode_format(b)), asked.contains(s)
            else { continue }
            out.append(eanUPC(symbol(b, s), b, asked: asked))
        }
        return Outcome(symbols: out)
    }

    /// zxing-cpp 3 returns a UPC-A as a 13-digit EAN-13 (a leading 0) and a UPC-E expanded to 13
    /// digits; ZBar and earlier records give a UPC-A as its 12 digits and a UPC-E as its 8. One
    /// code reads the same from both readers: a UPC-A when UPC-A is asked for, the UPC-E as printed.
    static func eanUPC(_ raw: RawSymbol, _ b: OpaquePointer, asked: Set<Symbology>) -> RawSymbol {
        var raw = raw
        let zero = UInt8(ascii: "0")
        if raw.symbology == .ean13, asked.contains(.upca), raw.bytes.count == 13, raw.bytes.first == zero { raw.symbology = .upca }
        if raw.symbology == .upca, raw.bytes.count == 13, raw.bytes.first == zero { raw.bytes.removeFirst() }
        if raw.symbology == .upce, let p = ZXing_Barcode_extra(b, "UPCE") {
            defer { ZXing_free(p) }
            let printed = Array(String(cString: p).utf8)
            if printed.count == 8 { raw.bytes = printed }
        }
        return raw
    }

    static func failed(_ why: String, _ image: LumaImage) -> Outcome {
        Outcome(symbols: [], failure: "zxing-cpp failed (\(why)) on a \(image.width)x\(image.height) view")
    }

    /// One barcode as a raw symbol with zxing-cpp's details.
    static func symbol(_ b: OpaquePointer, _ s: Symbology) -> RawSymbol {
        var length: Int32 = 0
        let bytesPointer = ZXing_Barcode_bytes(b, &length)
        defer { ZXing_free(bytesPointer) }
        let bytes = bytesPointer.map { Array(UnsafeBufferPointer(start: $0, count: Int(max(0, length)))) } ?? []
        let p = ZXing_Barcode_position(b)
        let zx = [p.topLeft, p.topRight, p.bottomRight, p.bottomLeft].map { Point(x: Double($0.x), y: Double($0.y)) }
        // zxing: top-left, top-right, bottom-right, bottom-left → ZBar's 2D order.
        let points = s.isTwoDimensional ? [zx[0], zx[3], zx[2], zx[1]] : zx
        // Which way the code's top faces, in ZBar's terms (0 up, 1 right, 2 down, 3 left).
        let deg = ((Int(ZXing_Barcode_orientation(b)) % 360) + 360) % 360
        let gs1 = ZXing_Barcode_contentType(b) == ZXing_ContentType_GS1
        // A linear read is as sure as the scan lines that agreed on it (zxing-cpp asks for two).
        let quality = s.isTwoDimensional ? 1 : max(2, Int(ZXing_Barcode_lineCount(b)))
        var raw = RawSymbol(
            symbology: s, bytes: bytes, points: points, quality: quality, orientation: ((deg + 45) / 90) % 4,
            gs1: s == .qr ? nil : gs1)
        raw.facts = facts(b, s)
        return raw
    }

    /// What zxing-cpp says of the symbol beyond its data.
    static func facts(_ b: OpaquePointer, _ s: Symbology) -> SymbolFacts {
        func string(_ p: UnsafeMutablePointer<CChar>?) -> String? {
            guard let p else { return nil }
            defer { ZXing_free(p) }
            let v = String(cString: p)
            return v.isEmpty ? nil : v
        }
        func extra(_ key: String) -> String? { string(ZXing_Barcode_extra(b, key)) }
        var f = SymbolFacts()
        f.symbologyID = string(ZXing_Barcode_symbologyIdentifier(b))
        f.variant = ZXingFormats.variant(ZXing_Barcode_format(b))
        f.version = extra("Version")
        f.ecLevel = extra("ECLevel")
        f.mask = extra("DataMask").flatMap { Int($0) }
        f.mirrored = ZXing_Barcode_isMirrored(b) ? true : nil
        f.inverted = ZXing_Barcode_isInverted(b) ? true : nil
        if ZXing_Barcode_hasECI(b) {
            var n: Int32 = 0
            let p = ZXing_Barcode_bytesECI(b, &n)
            defer { ZXing_free(p) }
            f.eci = p.flatMap { SymbolFacts.firstECI(Array(UnsafeBufferPointer(start: $0, count: Int(max(0, n))))) }
        }
        let size = Int(ZXing_Barcode_sequenceSize(b))
        if size > 0 {
            f.sequence = SequencePart(
                index: Int(ZXing_Barcode_sequenceIndex(b)), count: size, id: string(ZXing_Barcode_sequenceId(b)) ?? "")
        }
        return f
    }
}

extension ZXingDecoder {
    /// zxing-cpp as a reader of views: a C++ library that may abort or hang, so isolated (a
    /// worker dying in it reads the file again without it); its caught failures are reported.
    package static func viewReader() -> ViewReader {
        ViewReader(name: .zxing, symbologies: symbologies, isolated: true, symbolCap: maxSymbols) { image, request in
            let outcome = decode(image, symbologies: request.symbologies, tries: request.tries)
            return ViewOutcome(symbols: outcome.symbols, failure: outcome.failure)
        }
    }
}
