import CZBar
import Imaging
import Records

/// Thin wrapper over ZBar's image scanner. Each call creates its own scanner and image and
/// destroys them before returning, so no C handle ever outlives the call or crosses a task
/// (scanners are not thread-safe, and a reused scanner grows memory in ZBar 0.23.92).
package enum ZBarDecoder {
    package struct Config: Sendable, Equatable {
        /// Minimum ITF length handed to ZBar itself (fragments are then never reported).
        package var minITFLength: Int32
        /// Every `lineStep`-th row and column scanned (ZBar's X and Y density; 1: every one).
        package var lineStep: Int32
        package init(minITFLength: Int32 = 6, lineStep: Int32 = 1) { self.minITFLength = minITFLength; self.lineStep = lineStep }
    }

    /// What it reads: every symbology ZBar has a type for (`Symbology.zbarType`).
    package static let symbologies = Set(Symbology.allCases.filter { $0.zbarType != nil })

    /// ZBar's library version, e.g. "0.23.92".
    package static var version: String {
        var major: UInt32 = 0, minor: UInt32 = 0, patch: UInt32 = 0
        zbar_version(&major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }

    package static func decode(_ image: LumaImage, symbologies: Set<Symbology>, config: Config = Config()) -> [RawSymbol] {
        guard image.width > 0, image.height > 0, !symbologies.isEmpty else { return [] }
        guard let scanner = zbar_image_scanner_create() else { return [] }
        defer { zbar_image_scanner_destroy(scanner) }
        // Everything off, then on for exactly what is asked; binary mode keeps the payload bytes exact.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for s in symbologies {
            guard let t = s.zbarType else { continue }
            zbar_image_scanner_set_config(scanner, t, ZBAR_CFG_ENABLE, 1)
            zbar_image_scanner_set_config(scanner, t, ZBAR_CFG_BINARY, 1)
        }
        if symbologies.contains(.itf) {
            zbar_image_scanner_set_config(scanner, ZBAR_I25, ZBAR_CFG_MIN_LEN, config.minITFLength)
        }
        // EAN-13 must stay enabled internally for UPC-A/UPC-E/ISBN, which ZBar derives from it;
        // results are filtered to the requested set below.
        let needsEAN = symbologies.contains { [.upca, .upce, .isbn10, .isbn13, .ean2, .ean5].contains($0) }
        if needsEAN { zbar_image_scanner_set_config(scanner, ZBAR_EAN13, ZBAR_CFG_ENABLE, 1) }
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_POSITION, 1)
        if config.lineStep > 1 {
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, config.lineStep)
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, config.lineStep)
        }

        guard let zimg = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(zimg) }
        zbar_image_set_format(zimg, 0x3030_3859)  // fourcc "Y800": 8-bit gray
        zbar_image_set_size(zimg, UInt32(image.width), UInt32(image.height))

        var out: [RawSymbol] = []
        image.pixels.withUnsafeBufferPointer { buf in
            // No cleanup handler: the buffer belongs to Swift and outlives the scan.
            zbar_image_set_data(zimg, buf.baseAddress, UInt(buf.count), nil)
            let n = zbar_scan_image(scanner, zimg)
            guard n > 0 else { return }
            var sym = zbar_image_first_symbol(zimg)
            while let s = sym {
                defer { sym = zbar_symbol_next(s) }
                guard let symbology = Symbology(zbarType: zbar_symbol_get_type(s)), symbologies.contains(symbology) else { continue }
                let len = Int(zbar_symbol_get_data_length(s))
                var bytes = [UInt8](repeating: 0, count: len)
                if len > 0, let data = zbar_symbol_get_data(s) {
                    bytes.withUnsafeMutableBytes { dst in
                        dst.copyMemory(from: UnsafeRawBufferPointer(start: data, count: len))
                    }
                }
                let count = zbar_symbol_get_loc_size(s)
                var points: [Point] = []
                points.reserveCapacity(Int(count))
                for i in 0..<count {
                    points.append(Point(x: Double(zbar_symbol_get_loc_x(s, i)), y: Double(zbar_symbol_get_loc_y(s, i))))
                }
                if symbology == .qr { points = Self.mirroredQRInOrder(points) }
                let orient = Int(zbar_symbol_get_orientation(s).rawValue)
                out.append(
                    RawSymbol(
                        symbology: symbology, bytes: bytes, points: points,
                        quality: Int(zbar_symbol_get_quality(s)), orientation: orient))
            }
        }
        // The image's data pointer must not be freed by ZBar: detach it before destroy.
        zbar_image_set_data(zimg, nil, 0, nil)
        return out
    }

    /// ZBar gives a QR code's corners as its own top-left, bottom-left, bottom-right and
    /// top-right: counter-clockwise on screen for a code as printed, clockwise for a mirrored
    /// one, whose record corners (`RawSymbol.corners`) would then run counter-clockwise. For a
    /// mirrored code the second and fourth points are swapped, so its corners run clockwise
    /// from its top-left as the grid decoder gives a mirrored code's: the grid decoder, read
    /// again through them for the code's details, then finds it mirrored, as it is.
    static func mirroredQRInOrder(_ p: [Point]) -> [Point] {
        guard p.count == 4 else { return p }
        // Twice the signed area, y down: positive when the points run clockwise on screen.
        let area = (0..<4).reduce(0.0) { s, i in s + p[i].x * p[(i + 1) % 4].y - p[(i + 1) % 4].x * p[i].y }
        return area > 0 ? [p[0], p[3], p[2], p[1]] : p
    }
}
