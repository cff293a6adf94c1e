import Imaging
import QRSymbol
import Records

/// The grid decoder: a located QR code read without ZBar. Its frame (module coordinates to
/// pixels) is refined by the alignment patterns, found one by one from the top-left, each
/// searched near where its found neighbours put it; their offsets from the frame make a
/// displacement field across the symbol (a bent or lens-distorted code is followed piece by
/// piece). Every module is sampled at its centre, called dark or light against the mean of the
/// modules around it, with a sureness from its distance to that mean; `QRSymbolDecoder` then
/// reads format and version information, undoes the mask and restores each block, the least
/// sure codewords as erasures. The mirror image is tried too.
package enum QRGridReader {
    /// A code read, in the pixels of the image it was read in.
    package struct Read: Sendable {
        package var decoded: QRDecoded
        package var mirrored: Bool
        /// The code's corners clockwise from its own top-left.
        package var corners: Quad
        /// Which way the code's top faces (0 up, 1 right, 2 down, 3 left), as ZBar says it.
        package var orientation: Int
    }

    package enum Outcome: Sendable {
        case read(Read)
        /// No frame tried found format information within 3 bits in either reading: not a QR
        /// code, or one the frames are too far off for; worth no further retries.
        case notACode
        /// Format information read, but the data did not decode: why, for the trace
        /// ("blocks", "data"; the version tried).
        case unread(String)
    }

    /// Reads the code a located candidate frames (`candidate` in this image's pixels).
    /// `polish: false` skips fitting the corners to every sure module after a read (the most
    /// costly step, some 60 % of a read): for a caller that needs the symbol, not its corners.
    package static func read(_ image: LumaImage, candidate c: QRCandidate, polish: Bool = true) -> Outcome {
        var formatSeen = false
        var why: [String] = []
        var frames = [(c.dimension, c.toImage)] + c.otherFrames
        // From version 5 the locator's estimate may be versions off (blurred finders, a dense
        // code): the version information, read at every size through the finders' frame, names
        // the size to try first.
        if c.dimension >= 37, let m = versionScan(image, frame: c.toImage, dimension: c.dimension), m != c.dimension {
            frames.insert((m, rescaled(c.toImage, from: c.dimension, to: m)), at: 0)
        }
        var k = 0
        // One sampler's grids in both readings: the code read, and whether format information
        // was seen. A version named by the version information is queued as the next frame.
        func attempt(_ sampler: Sampler, n: Int, frame: Homography, label: String) -> (read: Read?, formatSeen: Bool) {
            var seen = false
            for grid in sampler.grids() {
                for mirrored in [false, true] {
                    switch QRSymbolDecoder.decode(mirrored ? grid.transposed : grid) {
                    case .success(let decoded):
                        // The symbol is known now: its modules as sampled fit the frame's corners
                        // to a fraction of a pixel (the finders alone leave the far corner loose).
                        var polished = sampler
                        if polish { polished.polishCorners(grid) }
                        return (
                            Read(
                                decoded: decoded, mirrored: mirrored, corners: polished.corners(mirrored: mirrored),
                                orientation: sampler.orientation(mirrored: mirrored)), true
                        )
                    case .failure(.version(let v)):
                        seen = true
                        // The version information names another size: the same finders, that size.
                        let m = QRStructure.size(version: v)
                        if !frames.contains(where: { $0.0 == m }) {
                            frames.insert((m, rescaled(frame, from: n, to: m)), at: k)
                        }
                    case .failure(.format):
                        break
                    case .failure(let f):
                        seen = true
                        why.append("v\((n - 17) / 4)\(mirrored ? "m" : "")\(label):\(f)")
                    }
                }
            }
            return (nil, seen)
        }
        while k < frames.count && k < 6 {
            let (n, frame) = frames[k]
            k += 1
            guard n >= 21, n <= 177 else { continue }
            let fitted = Sampler(image: image, frame: frame, dimension: n)
            guard fitted.moduleSize >= 1.2 else { continue }
            var (read, seen) = attempt(fitted, n: n, frame: frame, label: "")
            formatSeen = formatSeen || seen
            // Format information but no data: the frame as located, its corners not fitted. The
            // fit can pull a good frame off where the known modules leave a corner free (version
            // 1 has no alignment pattern, and a close-up's modules are larger than the fit's
            // first step, so the correlation is flat there).
            if read == nil, seen, fitted.frame != frame {
                (read, _) = attempt(Sampler(image: image, frame: frame, dimension: n, keepCorners: true), n: n, frame: frame, label: "-as-located")
            }
            // Versions 2-6 with format information but no data: the alignment pattern's first
            // best offset instead of the middle of them (a version 3 photo in the zxing-cpp
            // corpus reads only so; the middle is what a sharp version 2-L needs).
            if read == nil, seen, (25...41).contains(n) {
                (read, _) = attempt(Sampler(image: image, frame: frame, dimension: n, centredAlignment: false), n: n, frame: frame, label: "-first-alignment")
            }
            if let read { return .read(read) }
        }
        return formatSeen ? .unread(why.joined(separator: ",")) : .notACode
    }

    /// The size (modules) whose version information, read through `frame` rescaled to it, is
    /// within two bits of that version's in either block; the nearest when several are.
    static func versionScan(_ image: LumaImage, frame: Homography, dimension n: Int) -> Int? {
        let probe = Sampler(image: image, frame: frame, dimension: n, refine: false)
        var best: (size: Int, distance: Int)? = nil
        for v in 7...40 {
            let m = QRStructure.size(version: v)
            let f = rescaled(frame, from: n, to: m)
            func grey(_ x: Int, _ y: Int) -> Double { probe.grey(f.apply(Point(x: Double(x) + 0.5, y: Double(y) + 0.5))) }
            // Threshold: the top-right finder's dark core and light ring in this frame.
            let core = (0..<9).map { grey(m - 5 + $0 % 3, 2 + $0 / 3) }.reduce(0, +) / 9
            let ring =
                [(m - 6, 1), (m - 2, 1), (m - 6, 5), (m - 2, 5), (m - 4, 1), (m - 4, 5), (m - 6, 3), (m - 2, 3)].map { grey($0.0, $0.1) }.reduce(0, +) / 8
            guard ring - core > 20 else { continue }
            let t = (core + ring) / 2
            let (a, b) = QRVersionInformation.positions(size: m)
            var bitsA = 0, bitsB = 0
            for i in 0..<18 {
                if grey(a[i].x, a[i].y) < t { bitsA |= 1 << i }
                if grey(b[i].x, b[i].y) < t { bitsB |= 1 << i }
            }
            let code = QRVersionInformation.codeword(v)
            let d = min((code ^ bitsA).nonzeroBitCount, (code ^ bitsB).nonzeroBitCount)
            if d <= 2 && (best == nil || d < best!.distance) { best = (m, d) }
        }
        return best?.size
    }

    /// The frame of a symbol of `m` modules with the same finder centres as `frame`'s of `n`.
    static func rescaled(_ frame: Homography, from n: Int, to m: Int) -> Homography {
        let k = Double(n - 7) / Double(m - 7)
        let s = Homography([k, 0, 3.5 - 3.5 * k, 0, k, 3.5 - 3.5 * k, 0, 0, 1])
        return frame.concatenating(s)
    }
}
