import CZBar
import Records

/// The symbologies as ZBar numbers them (`zbar_symbol_type_t`, zbar.h): kept in the bridge, so
/// the core needs no ZBar number.
extension Symbology {
    /// ZBar's type for the symbology; nil for those zxing-cpp reads (`engine == .zxing`).
    package var zbarType: zbar_symbol_type_t? {
        switch self {
        case .qr: ZBAR_QRCODE
        case .sq: ZBAR_SQCODE
        case .ean13: ZBAR_EAN13
        case .ean8: ZBAR_EAN8
        case .upca: ZBAR_UPCA
        case .upce: ZBAR_UPCE
        case .isbn10: ZBAR_ISBN10
        case .isbn13: ZBAR_ISBN13
        case .ean2: ZBAR_EAN2
        case .ean5: ZBAR_EAN5
        case .itf: ZBAR_I25
        case .code39: ZBAR_CODE39
        case .code93: ZBAR_CODE93
        case .code128: ZBAR_CODE128
        case .codabar: ZBAR_CODABAR
        case .databar: ZBAR_DATABAR
        case .databarExpanded: ZBAR_DATABAR_EXP
        // Not ZBar's (its PDF417 decoder is off in Debian's build; no Micro QR, rMQR, MaxiCode, ...): zxing-cpp.
        default: nil
        }
    }

    /// The symbology of a ZBar type; nil for a type CodeSweep does not report (ZBar's PDF417,
    /// composite, partial).
    package init?(zbarType: zbar_symbol_type_t) {
        guard let s = Symbology.allCases.first(where: { $0.zbarType == zbarType }) else { return nil }
        self = s
    }
}
