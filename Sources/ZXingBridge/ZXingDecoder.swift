import CZXing
import Records
import SweepCore

#if canImport(Glibc)
import Glibc
#endif

/// The second decoder: zxing-cpp (Debian's libzxing 1.4) for the symbologies ZBar does not
/// read (Data Matrix, PDF417, Aztec), and for QR codes where ZBar and the grid decoder read
/// none (`symbologies`). Same shape as `ZBarDecoder`: a luma image in, raw symbols
/// out, all reader state made and freed inside the call (no C or C++ handle outlives it).
package enum ZXingDecoder {
    /// What one call tells besides its symbols: nil, or why it read nothing (an exception, or
    /// an abort() inside the library that was caught on this thread).
    package struct Outcome: Sendable, Equatable {
        package var symbols: [RawSymbol]
        package var failure: String?
    }

    /// What it reads: Data Matrix, PDF417 and Aztec (ZBar lacks them), and QR codes (its passes
    /// read those ZBar and the grid decoder leave: curved, glared, tilted).
    package static let symbologies = Set(Symbology.allCases.filter { formatBit($0) != nil })

    /// The library's version, e.g. "1.4.0".
    package static var version: String { String(cString: czx_version()) }

    /// Test hook: `CODESWEEP_TEST_SECOND_DECODER` = `abort` (abort() inside the reader, caught
    /// by the guard), `abort-unguarded` (abort() that ends the process), `crash` (SIGKILL) or
    /// `hang` (sleeps for ever) instead of reading. For the tests of what survives such a failure.
    static let fault: Int32 = {
        guard let v = getenv("CODESWEEP_TEST_SECOND_DECODER") else { return Int32(CZX_FAULT_NONE) }
        switch String(cString: v) {
        case "abort": return Int32(CZX_FAULT_ABORT)
        case "abort-unguarded": return Int32(CZX_FAULT_ABORT_UNGUARDED)
        case "crash": return Int32(CZX_FAULT_CRASH)
        case "hang": return Int32(CZX_FAULT_HANG)
        default: return Int32(CZX_FAULT_NONE)
        }
    }()

    static func formatBit(_ s: Symbology) -> Int32? {
        switch s {
        case .datamatrix: Int32(CZX_DATAMATRIX)
        case .pdf417: Int32(CZX_PDF417)
        case .aztec: Int32(CZX_AZTEC)
        case .qr: Int32(CZX_QRCODE)
        default: nil
        }
    }

    static func symbology(_ bit: Int32) -> Symbology? {
        switch bit {
        case Int32(CZX_DATAMATRIX): .datamatrix
        case Int32(CZX_PDF417): .pdf417
        case Int32(CZX_AZTEC): .aztec
        case Int32(CZX_QRCODE): .qr
        default: nil
        }
    }

    /// Reads the given symbologies (those zxing-cpp is used for; others are ignored) in `image`.
    /// Corners come in ZBar's order for 2D codes (top-left, bottom-left, bottom-right,
    /// top-right of the code as drawn), so `RawSymbol.corners` treats both decoders alike.
    package static func decode(_ image: LumaImage, symbologies: Set<Symbology>, guardAbort: Bool = true) -> Outcome {
        let formats = symbologies.compactMap(formatBit).reduce(0, |)
        guard formats != 0, image.width > 0, image.height > 0 else { return Outcome(symbols: []) }
        var results: UnsafeMutablePointer<czx_result>? = nil
        var count: Int32 = 0
        let status = image.pixels.withUnsafeBufferPointer { buf in
            czx_read(
                buf.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width), formats,
                1, guardAbort ? 1 : 0, fault, &results, &count)
        }
        defer { czx_free(results, count) }
        switch Int(status) {
        case Int(CZX_OK): break
        case Int(CZX_ABORTED):
            return Outcome(
                symbols: [],
                failure:
                    "zxing-cpp aborted (a failed assertion inside the library) on a \(image.width)x\(image.height) view; that view's Data Matrix/PDF417/Aztec reads are lost"
            )
        default:
            return Outcome(symbols: [], failure: "zxing-cpp failed (status \(status)) on a \(image.width)x\(image.height) view")
        }
        var out: [RawSymbol] = []
        for i in 0..<Int(count) {
            guard let r = results?[i], let s = symbology(r.format), symbologies.contains(s) else { continue }
            var bytes = r.length > 0 && r.bytes != nil ? Array(UnsafeBufferPointer(start: r.bytes, count: Int(r.length))) : []
            // zxing-cpp 1.4's Aztec decoder reads past the end of the data bits on some codes
            // (bytes from beyond its buffer, different from run to run): the bytes are taken
            // from the data bits here instead, where they decode without FLG(n) (FNC1, ECI).
            if s == .aztec, r.raw_bits > 0, let raw = r.raw,
                let checked = AztecBits.decode(Array(UnsafeBufferPointer(start: raw, count: (Int(r.raw_bits) + 7) / 8)), bitCount: Int(r.raw_bits))
            {
                bytes = checked
            }
            let xs = [r.x.0, r.x.1, r.x.2, r.x.3], ys = [r.y.0, r.y.1, r.y.2, r.y.3]
            // zxing: top-left, top-right, bottom-right, bottom-left → ZBar's 2D order.
            let points = [0, 3, 2, 1].map { Point(x: xs[$0], y: ys[$0]) }
            // Which way the code's top faces, in ZBar's terms (0 up, 1 right, 2 down, 3 left).
            let deg = ((Int(r.orientation) % 360) + 360) % 360
            let orientation = ((deg + 45) / 90) % 4
            out.append(
                RawSymbol(
                    symbology: s, bytes: bytes, points: points, quality: 1, orientation: orientation,
                    // A QR code's record is the same whichever decoder read it (ZBar tells no GS1).
                    gs1: s == .qr ? nil : r.gs1 != 0))
        }
        return Outcome(symbols: out)
    }
}
