import Foundation
import Imaging
import Readers
import Records
import Testing

/// What a reader of views is: the request it gets, the outcome it gives, zxing-cpp's tries as
/// the plan listing names them.
@Suite("Readers of views")
struct ViewReaderTests {
    @Test("a reader made from a decode function gets the pass's request and never reports a failure")
    func decodeFunctionReader() {
        let image = LumaImage(width: 4, height: 3, pixels: [UInt8](repeating: 200, count: 12))
        let symbol = RawSymbol(symbology: .ean13, bytes: Array("4006381333931".utf8), points: [Point(x: 0, y: 1)], quality: 3, orientation: 0)
        var asked: [ViewRequest] = []
        let reader = ViewReader(name: .zbar, symbologies: [.ean13, .qr], confirmsWeakReads: true) { view, request in
            asked.append(request)
            return view.width == 4 ? [symbol] : []
        }
        let request = ViewRequest([.ean13], lineStep: 2, tries: .plain)
        let outcome = reader.read(image, request)
        #expect(outcome.symbols == [symbol] && outcome.failure == nil)
        #expect(asked == [request])
        #expect(reader.confirmsWeakReads && !reader.isolated && reader.name == .zbar)
    }

    @Test("zxing-cpp's tries are named as the plan listing prints them, and read back as written")
    func triesNamesAndCoding() throws {
        #expect(ReaderTries.all.description == "all")
        #expect(ReaderTries.plain.description == "plain")
        #expect(([.harder, .invert] as ReaderTries).description == "harder+invert")
        #expect(([.rotate, .downscale] as ReaderTries).description == "rotate+downscale")
        let back = try JSONDecoder().decode(ReaderTries.self, from: JSONEncoder().encode([.harder, .downscale] as ReaderTries))
        #expect(back == [.harder, .downscale] && !back.contains(.rotate))
    }
}
