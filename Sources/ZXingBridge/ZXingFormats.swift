import CZXing
import Records

/// zxing-cpp 3.1's barcode formats and CodeSweep's symbologies, one table: which formats a
/// symbology asks for, and which symbology (and variant) each format read is reported as.
package enum ZXingFormats {
    /// (format, symbology, variant name or nil for the plain one). Every row of a symbology is
    /// asked for; zxing-cpp reports specific variants, and a read of a symbology not asked for (a
    /// symbology-wide format such as PDF417 also finds MicroPDF417) is dropped by the caller.
    static let table: [(format: ZXing_BarcodeFormat, symbology: Symbology, variant: String?)] = [
        (ZXing_BarcodeFormat_QRCodeModel2, .qr, nil),
        (ZXing_BarcodeFormat_QRCodeModel1, .qr, "model 1"),
        (ZXing_BarcodeFormat_QRCode, .qr, nil),
        (ZXing_BarcodeFormat_MicroQRCode, .microqr, nil),
        (ZXing_BarcodeFormat_RMQRCode, .rmqr, nil),
        (ZXing_BarcodeFormat_DataMatrix, .datamatrix, nil),
        (ZXing_BarcodeFormat_Aztec, .aztec, nil),
        (ZXing_BarcodeFormat_AztecCode, .aztec, nil),
        (ZXing_BarcodeFormat_AztecRune, .aztec, "rune"),
        (ZXing_BarcodeFormat_PDF417, .pdf417, nil),
        (ZXing_BarcodeFormat_CompactPDF417, .pdf417, "compact"),
        (ZXing_BarcodeFormat_MicroPDF417, .micropdf417, nil),
        (ZXing_BarcodeFormat_MaxiCode, .maxicode, nil),
        (ZXing_BarcodeFormat_EAN13, .ean13, nil),
        (ZXing_BarcodeFormat_ISBN, .ean13, "isbn"),
        (ZXing_BarcodeFormat_EAN8, .ean8, nil),
        (ZXing_BarcodeFormat_UPCA, .upca, nil),
        (ZXing_BarcodeFormat_UPCE, .upce, nil),
        (ZXing_BarcodeFormat_Code128, .code128, nil),
        (ZXing_BarcodeFormat_Code39, .code39, nil),
        (ZXing_BarcodeFormat_Code39Std, .code39, nil),
        (ZXing_BarcodeFormat_Code39Ext, .code39, "extended"),
        (ZXing_BarcodeFormat_Code32, .code39, "code 32"),
        (ZXing_BarcodeFormat_PZN, .code39, "pzn"),
        (ZXing_BarcodeFormat_Code93, .code93, nil),
        (ZXing_BarcodeFormat_Codabar, .codabar, nil),
        (ZXing_BarcodeFormat_ITF, .itf, nil),
        (ZXing_BarcodeFormat_ITF14, .itf, "itf-14"),
        (ZXing_BarcodeFormat_DataBar, .databar, nil),
        (ZXing_BarcodeFormat_DataBarOmni, .databar, nil),
        (ZXing_BarcodeFormat_DataBarStk, .databar, "stacked"),
        (ZXing_BarcodeFormat_DataBarStkOmni, .databar, "stacked omnidirectional"),
        (ZXing_BarcodeFormat_DataBarLtd, .databarLimited, nil),
        (ZXing_BarcodeFormat_DataBarExp, .databarExpanded, nil),
        (ZXing_BarcodeFormat_DataBarExpStk, .databarExpandedStacked, nil),
        (ZXing_BarcodeFormat_DXFilmEdge, .dxFilmEdge, nil),
        (ZXing_BarcodeFormat_Telepen, .telepen, nil),
        (ZXing_BarcodeFormat_TelepenAlpha, .telepen, "alpha"),
        (ZXing_BarcodeFormat_TelepenNumeric, .telepen, "numeric"),
    ]

    /// The symbologies zxing-cpp reads (every one of the table).
    package static let readable = Set(table.map(\.symbology))

    /// The formats to ask for: every row of each symbology.
    static func formats(for symbologies: Set<Symbology>) -> [ZXing_BarcodeFormat] {
        table.filter { symbologies.contains($0.symbology) }.map(\.format)
    }

    static func symbology(_ format: ZXing_BarcodeFormat) -> Symbology? {
        table.first { $0.format == format }?.symbology
    }

    static func variant(_ format: ZXing_BarcodeFormat) -> String? {
        table.first { $0.format == format }?.variant
    }
}
