import CodeSweep
import FileWalker
import Foundation
import Imaging
import Payloads
import SweepCore

// Each file named on the command line through the sweep's scanner, as `codesweep scan` reads it;
// one line per code: symbology, text (in the QR code's ECI charset when it names one), corners.
var failed = false
for path in CommandLine.arguments.dropFirst() {
    let entry = FileEntry(path: path, pathBytes: Array(path.utf8), explicit: true, size: 0, mtime: 0)
    guard let record = FileScanner.scan(entry, settings: ScanSettings()) else { continue }
    if let error = record.error {
        print("\(path): \(error.kind.rawValue): \(error.message)")
        failed = true
    }
    for code in record.codes {
        let text = PayloadText.decode(code.bytes, eci: code.qr?.eci).text ?? "<binary>"
        let corners = code.corners.points.map { "\(Int($0.x)),\(Int($0.y))" }.joined(separator: " ")
        print("\(path): \(code.symbology.rawValue) \(text) [\(corners)]")
    }
}

// A luma image straight into the reader, as zxing-cpp's ReadBarcodes(ImageView, ReaderOptions).
let blank = LumaImage(width: 64, height: 64, fill: 255)
print("blank: \(BarcodeReader.read(ReadFrame(blank), ReaderOptions()).codes.count) codes")
exit(failed ? 1 : 0)
