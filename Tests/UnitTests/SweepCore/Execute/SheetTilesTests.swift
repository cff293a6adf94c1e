import Imaging
import Records
import Testing

@testable import SweepCore

/// A sheet's full-resolution tiles and the busy blocks no code explains: pure geometry.
@Suite("Sheet tiles")
struct SheetTilesTests {
    @Test("tiles cover the image, each whole, the last of a row and column against the edge; any part of at most the overlap lies in one tile")
    func tiling() {
        let tiles = SheetOfCodes.sheetTiles(width: 8200, height: 4500, side: 2048, overlap: 512)
        #expect(Set(tiles.map(\.x)) == [0, 1536, 3072, 4608, 6144, 6152])
        #expect(Set(tiles.map(\.y)) == [0, 1536, 2452])
        #expect(tiles.count == 18 && tiles.allSatisfy { $0.width == 2048 && $0.height == 2048 })
        // Every 512 x 512 box lies wholly in some tile.
        for y in stride(from: 0, through: 4500 - 512, by: 97) {
            for x in stride(from: 0, through: 8200 - 512, by: 89) {
                #expect(tiles.contains { $0.x <= x && $0.y <= y && $0.x + $0.width >= x + 512 && $0.y + $0.height >= y + 512 }, "\(x),\(y)")
            }
        }
        // An image smaller than a tile is one tile, itself.
        #expect(SheetOfCodes.sheetTiles(width: 1000, height: 3000, side: 2048, overlap: 512).map(\.width) == [1000, 1000])
        #expect(SheetOfCodes.sheetTiles(width: 1000, height: 800, side: 2048, overlap: 512) == [PixelRect(x: 0, y: 0, width: 1000, height: 800)])
        #expect(SheetOfCodes.sheetTiles(width: 0, height: 800, side: 2048, overlap: 512).isEmpty)
    }

    @Test("busy blocks a code explains are not counted; the count stops at enough")
    func unexplained() {
        // 20 x 10 blocks (160 x 80 px), busy in columns 2-5 and 12-15 of rows 2-7.
        var mask = [Bool](repeating: false, count: 200)
        for y in 2...7 { for x in Array(2...5) + Array(12...15) { mask[y * 20 + x] = true } }
        let map = SheetOfCodes.BusyMap(mask: mask, blocksWide: 20, blocksHigh: 10)
        let all = PixelRect(x: 0, y: 0, width: 160, height: 80)
        #expect(map.unexplained(in: all, explained: [], enough: 1000) == 48)
        #expect(map.unexplained(in: all, explained: [], enough: 4) == 4)
        // A code over the left group explains it.
        #expect(map.unexplained(in: all, explained: [PixelRect(x: 10, y: 10, width: 40, height: 60)], enough: 1000) == 24)
        // A tile over the left group only, that code read: nothing left.
        #expect(
            map.unexplained(in: PixelRect(x: 0, y: 0, width: 64, height: 80), explained: [PixelRect(x: 10, y: 10, width: 40, height: 60)], enough: 1000) == 0)
    }

    @Test("one place, one code: a linear read over a code of its symbology read on more scan lines, with other bytes, is dropped")
    func misreadOfEarlier() {
        func ean(_ text: String, x: Double, quality: Int, symbology: Symbology = .ean13) -> DetectedCode {
            DetectedCode(
                symbology: symbology, bytes: Array(text.utf8),
                corners: Quad([Point(x: x, y: 0), Point(x: x + 190, y: 0), Point(x: x + 190, y: 100), Point(x: x, y: 100)]), quality: quality,
                orientation: 0, frame: 0, pass: "p")
        }
        // Only in large frames: in a small image the first, stronger read may be the misread.
        var small = CodeMerger()
        small.add(ean("5977623270484", x: 2172, quality: 100))
        small.add(ean("4759916270484", x: 2180, quality: 50))
        #expect(small.codes.count == 2)
        var merger = CodeMerger(oneCodePerPlace: true)
        merger.add(ean("5977623270484", x: 2172, quality: 100))
        // The halves of two codes joined, read where the first one is on fewer lines: dropped.
        merger.add(ean("4759916270484", x: 2180, quality: 50))
        let held = merger.hold(ean("4759916270484", x: 2180, quality: 20), source: "half")
        #expect(!held)
        #expect(merger.codes.count == 1 && merger.held.isEmpty)
        // Stronger than the first, another symbology, or elsewhere: kept.
        merger.add(ean("1234567890128", x: 2172, quality: 120))
        merger.add(ean("TAG-1", x: 2172, quality: 10, symbology: .code128))
        merger.add(ean("4006381333931", x: 3000, quality: 10))
        #expect(merger.codes.count == 4)
    }
}
