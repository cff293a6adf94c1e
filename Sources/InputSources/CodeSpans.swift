import Imaging
import Records

/// Codes merged across the sampled frames of a video: one code for each span it is on screen,
/// `seconds` = [first, last] (the times of the first and last samples that read it), its corners
/// and quality from the sample it read best in. A code that leaves and comes back is two codes.
/// A sample the probe saw unchanged since the last one read (`unchanged`) keeps every open span
/// going; a sample read without a code ends that code's span.
public struct CodeSpans: Sendable {
    struct Key: Hashable { var symbology: Symbology; var bytes: [UInt8] }
    struct Span {
        var code: DetectedCode
        var first: Double
        var last: Double
        var order: Int
    }

    private var open: [Key: Span] = [:]
    private var closed: [Span] = []
    private var started = 0

    public init() {}

    /// The codes a sample at `seconds` read (each `frame` set to the sample's index).
    public mutating func read(_ codes: [DetectedCode], at seconds: Double) {
        var seen = Set<Key>()
        for code in codes {
            let key = Key(symbology: code.symbology, bytes: code.bytes)
            guard seen.insert(key).inserted else {
                if let s = open[key], code.quality > s.code.quality, s.last == seconds { open[key]?.code = code }
                continue
            }
            if var span = open[key] {
                span.last = seconds
                if code.quality > span.code.quality { span.code = code }
                open[key] = span
            } else {
                open[key] = Span(code: code, first: seconds, last: seconds, order: started)
                started += 1
            }
        }
        for (key, span) in open where !seen.contains(key) {
            closed.append(span)
            open[key] = nil
        }
    }

    /// A sample at `seconds` unchanged since the last one read: what was on screen still is.
    public mutating func unchanged(at seconds: Double) {
        for key in open.keys { open[key]?.last = seconds }
    }

    /// Every span, in the order they began, each a code with its `seconds`.
    public func codes() -> [DetectedCode] {
        (closed + open.values).sorted { ($0.first, $0.order) < ($1.first, $1.order) }.map { span in
            var c = span.code
            c.seconds = [span.first, span.last]
            return c
        }
    }
}

/// The cheap look that tells a sampled frame from the last one read: both shrunk to at most
/// 64 x 64 cells of block means; unchanged when no cell moved by more than `tolerance` grey
/// levels (a still screen, a paused picture, video noise aside).
public struct FrameChange: Sendable {
    public static let cells = 64
    public var tolerance = 3
    private var last: [UInt8]? = nil
    private var lastSize = (0, 0)

    public init() {}

    /// Whether `image` looks as the last frame given did (and remembers it either way).
    public mutating func isUnchanged(_ image: LumaImage) -> Bool {
        let cells = Self.thumbnail(image)
        defer { last = cells; lastSize = (image.width, image.height) }
        guard let last, lastSize == (image.width, image.height), last.count == cells.count else { return false }
        for i in cells.indices where abs(Int(cells[i]) - Int(last[i])) > tolerance { return false }
        return true
    }

    static func thumbnail(_ image: LumaImage) -> [UInt8] {
        let w = image.width, h = image.height
        guard w > 0, h > 0 else { return [] }
        let cw = min(cells, w), ch = min(cells, h)
        var out = [UInt8](repeating: 0, count: cw * ch)
        image.pixels.withUnsafeBufferPointer { p in
            for cy in 0..<ch {
                let y0 = cy * h / ch, y1 = max(y0 + 1, (cy + 1) * h / ch)
                for cx in 0..<cw {
                    let x0 = cx * w / cw, x1 = max(x0 + 1, (cx + 1) * w / cw)
                    var sum = 0
                    // Every second row and column: the mean of a block does not need them all.
                    var y = y0
                    var n = 0
                    while y < y1 {
                        var x = x0
                        while x < x1 { sum += Int(p[y * w + x]); n += 1; x += 2 }
                        y += 2
                    }
                    out[cy * cw + cx] = UInt8(sum / max(1, n))
                }
            }
        }
        return out
    }
}
