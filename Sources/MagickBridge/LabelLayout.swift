import Records

/// A label's place on an annotated picture, in pixels (top-left corner and size).
package struct LabelBox: Sendable, Equatable {
    package var x: Double, y: Double, width: Double, height: Double
    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    package func intersects(_ o: LabelBox) -> Bool {
        x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height
    }
}

/// Where the labels of an annotated picture go (pure): above each code's box, else below it,
/// else further up or down in steps of a label's height, the first place that overlaps no label
/// placed before, no first-corner dot (so the dot never covers a label, nor a label the dot) and
/// no code. When no such place fits in the picture (a crowded small image), the label goes above
/// its code, or below it, or at its top, whichever fits first.
package enum LabelLayout {
    /// - codes: each code's corners (the first is the one marked with the large dot).
    /// - sizes: each label's text width and height (nil: no label).
    /// - dotRadius: the first-corner dot's outer radius; gap: space between a code and its label.
    package static func place(
        codes: [[Point]], sizes: [(width: Double, height: Double)?], pictureWidth: Double, pictureHeight: Double,
        dotRadius: Double, gap: Double
    ) -> [LabelBox?] {
        let dots = codes.compactMap(\.first).map {
            LabelBox(x: $0.x - dotRadius - 1, y: $0.y - dotRadius - 1, width: 2 * dotRadius + 2, height: 2 * dotRadius + 2)
        }
        let boxes = codes.filter { !$0.isEmpty }.map { c in
            LabelBox(x: c.map(\.x).min()!, y: c.map(\.y).min()!, width: c.map(\.x).max()! - c.map(\.x).min()!, height: c.map(\.y).max()! - c.map(\.y).min()!)
        }
        var placed: [LabelBox] = []
        var out: [LabelBox?] = []
        for (corners, size) in zip(codes, sizes) {
            guard let size, !corners.isEmpty else { out.append(nil); continue }
            let xs = corners.map(\.x), ys = corners.map(\.y)
            let x = max(0, min(xs.min()!, pictureWidth - size.width))
            let above = ys.min()! - gap - size.height, below = ys.max()! + gap
            let step = size.height + 2
            var candidates = [above, below]
            for k in 1...20 { candidates += [above - Double(k) * step, below + Double(k) * step] }
            let fits = candidates.filter { $0 >= 0 && $0 + size.height <= pictureHeight }
            let box =
                fits.lazy.map { LabelBox(x: x, y: $0, width: size.width, height: size.height) }.first { b in
                    !placed.contains { $0.intersects(b) } && !dots.contains { $0.intersects(b) } && !boxes.contains { $0.intersects(b) }
                } ?? LabelBox(x: x, y: fits.first ?? max(0, ys.min()!), width: size.width, height: size.height)
            placed.append(box)
            out.append(box)
        }
        return out
    }
}
