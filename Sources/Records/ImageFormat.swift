/// Raster formats CodeSweep decodes, recognised from a file's first bytes (never its name),
/// and the documents it renders (PDF, SVG: `sniffDocument`, DocumentFormat.swift), which never
/// reach ImageMagick. Anything else (MVG, MSL, PostScript, text...) is refused.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case jpeg, png, gif, webp, heic, avif, tiff, bmp
    /// Documents: rendered page by page by Poppler (PDF) or librsvg (SVG), not ImageMagick.
    case pdf, svg
}
