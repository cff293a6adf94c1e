import Records

/// Each format's ImageMagick coder: kept in the bridge, so the core needs no ImageMagick name.
extension ImageFormat {
    /// The ImageMagick coder used to read it; set explicitly so ImageMagick never guesses.
    package var magickCoder: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .gif: "GIF"
        case .webp: "WEBP"
        case .heic: "HEIC"
        case .avif: "AVIF"
        case .tiff: "TIFF"
        case .bmp: "BMP"
        // Never set: ImageLoader refuses documents, and the policy blocks these coders.
        case .pdf: "PDF"
        case .svg: "SVG"
        }
    }
}
