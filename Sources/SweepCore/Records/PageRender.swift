/// One page of a document as it was rendered for reading: its size as a reader shows it
/// (after `/Rotate`), in PDF points (1/72 inch), and the resolution of the rendering whose
/// pixels the page's code corners are in. A corner (x, y) in pixels is at
/// (x * 72 / dpi, y * 72 / dpi) points from the page's top-left corner.
public struct PageRender: Sendable, Equatable, Codable {
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

    enum Field: String, CodingKey { case page, widthPoints = "width_pt", heightPoints = "height_pt", dpi, width, height }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Field.self)
        self.init(
            page: try c.decode(Int.self, forKey: .page), widthPoints: try c.decode(Double.self, forKey: .widthPoints),
            heightPoints: try c.decode(Double.self, forKey: .heightPoints), dpi: try c.decode(Double.self, forKey: .dpi),
            width: try c.decode(Int.self, forKey: .width), height: try c.decode(Int.self, forKey: .height))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Field.self)
        let style = RecordStyle.of(encoder)
        try c.encode(page, forKey: .page); try c.encode(style.round(widthPoints, 2), forKey: .widthPoints)
        try c.encode(style.round(heightPoints, 2), forKey: .heightPoints); try c.encode(style.round(dpi, 2), forKey: .dpi)
        try c.encode(width, forKey: .width); try c.encode(height, forKey: .height)
    }
}
