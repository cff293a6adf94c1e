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

    public init(page: Int, widthPoints: Double, heightPoints: Double, dpi: Double, width: Int, height: Int) {
        self.page = page; self.widthPoints = widthPoints; self.heightPoints = heightPoints
        self.dpi = dpi; self.width = width; self.height = height
    }

    /// Millimetres per pixel of the rendering.
    public var millimetresPerPixel: Double { 25.4 / dpi }
}
