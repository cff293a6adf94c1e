import Records

/// EAN-2/EAN-5 add-ons belong to the EAN/UPC code printed just left of them (a price, an issue
/// number). ZBar reads them as separate symbols, and on photo noise it also "reads" lone
/// add-ons that are not there, so an add-on is kept only when it stands where an add-on of a
/// code found in the same frame would stand.
package enum AddOnPairing {
    /// Whether an add-on at `addOn` stands beside the code at `host`: past the host's end along
    /// its reading direction (a quiet zone of 7-12 modules, then 20 or 47 modules of add-on, so
    /// up to 2.3 widths of a 51-module UPC-E from its start) and within its bar band.
    package static func isBeside(addOn: Quad, host: Quad) -> Bool {
        // Corners run clockwise from the code's own top-left: 0→1 is the reading direction.
        let o = host.points[0], r = host.points[1], d = host.points[3]
        let ux = r.x - o.x, uy = r.y - o.y
        let width = (ux * ux + uy * uy).squareRoot()
        guard width >= 4 else { return false }
        let c = addOn.center
        let cx = c.x - o.x, cy = c.y - o.y
        let along = (cx * ux + cy * uy) / (width * width)
        // Signed distance across the reading direction, and the host's own extent that way.
        let across = (cy * ux - cx * uy) / width
        let band = ((d.y - o.y) * ux - (d.x - o.x) * uy) / width
        let slack = 0.35 * width
        return along >= 1.0 && along <= 2.3
            && across >= min(0, band) - slack && across <= max(0, band) + slack
    }

    /// The codes of one frame with every add-on that has no host beside it removed.
    package static func pairing(_ codes: [DetectedCode]) -> [DetectedCode] {
        let hosts = codes.filter { Symbology.addOnHosts.contains($0.symbology) }
        return codes.filter { code in
            !code.symbology.isAddOn || hosts.contains { $0.frame == code.frame && isBeside(addOn: code.corners, host: $0.corners) }
        }
    }
}
