import CMagickWand
import Imaging
import InputSources
import Records

/// A logo scaled to fit a square, as straight-alpha RGBA pixels.
package struct LogoPixels: Sendable, Equatable {
    package var width: Int, height: Int
    package var rgba: [UInt8]
    package init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(rgba.count == width * height * 4)
        self.width = width; self.height = height; self.rgba = rgba
    }
}

/// `codesweep generate`'s pictures: a drawn code encoded as PNG or JPEG (pixels as they are, no
/// resampling), and a logo decoded and scaled for compositing. Every wand is created and
/// destroyed inside the call, in the calling task.
package enum CodePicture {
    /// Encodes RGB pixels as PNG (8 bits a channel, lossless) or JPEG (`quality`, 4:4:4 so the
    /// colours of one-module details are not averaged over two pixels).
    package static func encode(_ image: RGBImage, as format: PictureFormat, quality: Int = 95) throws(RecordError) -> [UInt8] {
        try constitute(width: image.width, height: image.height, map: "RGB", pixels: image.pixels) { wand throws(RecordError) in
            if format == .jpeg { _ = MagickSetSamplingFactors(wand, 3, [1.0, 1.0, 1.0]) }
            return try Annotator.encode(wand, as: format, quality: quality)
        }
    }

    /// Encodes straight-alpha RGBA pixels as PNG (for a logo embedded in an SVG).
    package static func encodePNG(_ logo: LogoPixels) throws(RecordError) -> [UInt8] {
        try constitute(width: logo.width, height: logo.height, map: "RGBA", pixels: logo.rgba) { wand throws(RecordError) in
            try Annotator.encode(wand, as: .png)
        }
    }

    static func constitute<T>(
        width: Int, height: Int, map: String, pixels: [UInt8],
        _ body: (OpaquePointer) throws(RecordError) -> T
    ) throws(RecordError) -> T {
        MagickEnvironment.start()
        guard let wand = NewMagickWand() else { throw RecordError(.internalError, "cannot create MagickWand") }
        defer { DestroyMagickWand(wand) }
        let ok = pixels.withUnsafeBytes { MagickConstituteImage(wand, width, height, map, CharPixel, $0.baseAddress) }
        guard ok == MagickTrue else {
            throw RecordError(.internalError, "cannot make the picture: \(ImageLoader.exception(wand)?.message ?? "no reason given")")
        }
        _ = MagickSetImageDepth(wand, 8)
        return try body(wand)
    }

    /// Decodes a logo (any raster format the scanner reads, sniffed by magic bytes; the first
    /// frame; EXIF orientation applied) and scales it to fit `side` × `side` pixels, keeping its
    /// aspect ratio and its transparency.
    /// A PNG's text chunks are dropped first (see `PNGChunks.withoutText`: generate has no
    /// worker process and no memory limit of its own).
    package static func logo(_ file: [UInt8], side: Int, limits: LoadLimits = LoadLimits()) throws(RecordError) -> LogoPixels {
        guard side >= 1 else { throw RecordError(.internalError, "logo side \(side) px") }
        guard case .image(let format)? = InputSniff.kind(of: file) else {
            throw RecordError(.notImage, "the logo is not a raster image CodeSweep reads (PNG, JPEG, GIF, WebP, HEIC/AVIF, TIFF, BMP)")
        }
        let bytes = format == .png ? PNGChunks.withoutText(file) : file
        if let (w, h) = ImageHeader.declaredSize(bytes, format: format),
            w * h > limits.maxPixels || max(w, h) > limits.maxSide || w == 0 || h == 0
        {
            throw RecordError(.tooLarge, "the logo's \(format.rawValue) header declares \(w)x\(h) pixels")
        }
        MagickEnvironment.start()
        guard let wand = NewMagickWand() else { throw RecordError(.internalError, "cannot create MagickWand") }
        defer { DestroyMagickWand(wand) }
        _ = MagickSetFormat(wand, format.magickCoder)
        _ = MagickSetFilename(wand, "[0]")
        let ok = bytes.withUnsafeBytes { MagickReadImageBlob(wand, $0.baseAddress, $0.count) }
        guard ok == MagickTrue, MagickGetNumberImages(wand) >= 1 else {
            throw ImageLoader.classify(ImageLoader.exception(wand), format: format, fallback: "cannot decode the logo")
        }
        MagickResetIterator(wand)
        _ = MagickSetIteratorIndex(wand, 0)
        if MagickGetImageColorspace(wand) == CMYKColorspace { _ = MagickTransformImageColorspace(wand, sRGBColorspace) }
        let orientation = Int(MagickGetImageOrientation(wand).rawValue)
        if (2...8).contains(orientation) { _ = MagickAutoOrientImage(wand) }
        let w = Int(MagickGetImageWidth(wand)), h = Int(MagickGetImageHeight(wand))
        guard w > 0, h > 0 else { throw RecordError(.corrupt, "the logo has no pixels") }
        let scale = Double(side) / Double(max(w, h))
        let tw = max(1, Int((Double(w) * scale).rounded())), th = max(1, Int((Double(h) * scale).rounded()))
        guard MagickResizeImage(wand, tw, th, LanczosFilter, 1.0) == MagickTrue else {
            throw RecordError(.internalError, "cannot scale the logo: \(ImageLoader.exception(wand)?.message ?? "no reason given")")
        }
        var rgba = [UInt8](repeating: 0, count: tw * th * 4)
        let exported = rgba.withUnsafeMutableBytes { MagickExportImagePixels(wand, 0, 0, tw, th, "RGBA", CharPixel, $0.baseAddress) }
        guard exported == MagickTrue else { throw RecordError(.internalError, "cannot read the logo's pixels") }
        return LogoPixels(width: tw, height: th, rgba: rgba)
    }
}
