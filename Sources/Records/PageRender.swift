/// One page of a document as it was rendered for reading: its size as a reader shows it
/// (after `/Rotate`), in PDF points (1/72 inch), and the resolution of the rendering whose
/// pixels the page's code corners are in. A corner (x, y) in pixels is at
/// (x * 72 / dpi, y * 72 / dpi) points from the page's top-left corner.
public struct PageRender: Sendable, Equatable {
    /// Index of the page in the document, from 0 (the codes' `frame`).
    public var page: Int
    public var widthPoints: Double
    public var heightPoints: Double
    /// Pixels per inch of the page's rendering (the first, whole-page one; places rendered
    /// again at a higher resolution have their corners brought back to it).
    public var dpi: Double
    /// The rendering's size in pixels.
    public var width: Int
    public var height: Int
    /// The PDF page's /UserUnit: a point of the page (a unit of its user space, which the
    /// sizes and the dpi count in) is this many 1/72 inch as printed. 1 unless the page says.
    public var userUnit: Double = 1
    /// An SVG whose root gives no size in absolute units (only a viewBox, or a percentage): its
    /// points are CSS pixels × 0.75 by convention, not a size it will be printed at.
    public var unsized = false

    public init(
        page: Int, widthPoints: Double, heightPoints: Double, dpi: Double, width: Int, height: Int, userUnit: Double = 1, unsized: Bool = false
    ) {
        self.page = page; self.widthPoints = widthPoints; self.heightPoints = heightPoints
        self.dpi = dpi; self.width = width; self.height = height; self.userUnit = userUnit; self.unsized = unsized
    }

    /// Millimetres per pixel of the rendering as printed (the /UserUnit applied).
    public var millimetresPerPixel: Double { 25.4 / dpi * userUnit }

    /// A rendering whose size is not the page's at its resolution (Poppler draws a page box of
    /// 5,000,000 or 1e30 points as a pixel or so), or less than 2 pixels a side: nothing on
    /// the page was looked at.
    public var isDegenerate: Bool {
        let w = widthPoints / 72 * dpi, h = heightPoints / 72 * dpi
        return width < 2 || height < 2 || abs(Double(width) - w) > 2 + w / 100 || abs(Double(height) - h) > 2 + h / 100
    }
}
