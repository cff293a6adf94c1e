import CMagickWand
import Imaging
import Records

#if canImport(Glibc)
import Glibc
#endif

/// An image as loaded: upright 8-bit luma frames plus what the record reports.
package struct LoadedImage: Sendable {
    package var format: ImageFormat
    /// Upright size of the first frame at full resolution.
    package var width: Int
    package var height: Int
    /// EXIF orientation of the first frame as stored (1...8).
    package var orientation: Int
    package var frames: [LumaImage]
    /// Each frame's pixel scale relative to full resolution (1 unless decoded reduced).
    package var scale: Double
    package var warnings: [String]
    /// EXIF/XMP provenance of the first frame; nil when the file has none of the fields.
    package var metadata: ImageMetadata? = nil
    /// What decoded the pixels.
    package var decoder: Decoder = .imageMagick

    package enum Decoder: String, Sendable {
        case imageMagick = "ImageMagick"
        /// JPEGBridge: libjpeg-turbo straight to grey.
        case libjpegTurbo = "libjpeg-turbo"
        /// PNGBridge: libpng straight to grey.
        case libpng = "libpng"
        /// WebPBridge: libwebp straight to grey.
        case libwebp = "libwebp"
        /// HEIFBridge: libheif's luma plane (HEIC, AVIF).
        case libheif = "libheif"
    }
}

public struct LoadLimits: Sendable, Equatable, Codable {
    /// Largest frame accepted, in pixels (checked from the header before decoding).
    public var maxPixels: Int = 120_000_000
    /// Frames or pages read from one file at most (the rest are ignored with a warning).
    public var maxFrames: Int = 64
    /// Longest side accepted (ImageMagick's own policy allows 32768).
    public var maxSide: Int = 32768
    /// Pixels decoded from one file at most, all frames together, checked from the header
    /// (ping) before any pixel is decoded. A GIF animation's frames count at the size of its
    /// screen, as each is composed on it; a JPEG at the DCT-reduced size it is decoded at.
    /// With ImageMagick's 8 bytes a pixel plus CodeSweep's own copies, 64 MP stays well under
    /// a gigabyte.
    public var maxTotalPixels: Int = 64_000_000
    public init() {}
}

/// Thin wrapper over MagickWand: bytes of a sniffed raster format in, upright luma out.
/// The wand is created and destroyed inside `load`, in the calling task. `load` runs the
/// steps in order: the checks before any pixel is decoded (DecodeBudget.swift), the decode and
/// the frames as upright luma (UprightFrames.swift). A reduced load's frames at full
/// resolution: `PictureFrames` (its `pixels(of:_:)` on request).
package enum ImageLoader {
    /// - Parameter minMegapixels: when set, a JPEG may be decoded reduced (libjpeg's DCT scaling
    ///   by 1/2, 1/4 or 1/8) as long as the result still holds at least this many megapixels;
    ///   `LoadedImage.scale` then says by how much. nil decodes at full resolution.
    /// - Parameter reduceToFit: a JPEG over `maxTotalPixels` is decoded DCT-scaled to fit (with
    ///   a warning) instead of refused; only for a first decode that reports its `scale`.
    /// - Parameter jpeg: `.direct` decodes a JPEG's pixels with libjpeg-turbo, a PNG's with
    ///   libpng, a WebP's with libwebp and a HEIC's or an AVIF's with libheif, straight to grey
    ///   (DirectJPEG.swift, DirectPNG.swift, DirectWebP.swift, DirectHEIF.swift), unless they
    ///   decline; `.imageMagick` always with MagickWand.
    ///
    /// A multi-picture JPEG (MPO: `JPEGPictures`) is loaded picture by picture, each a frame
    /// (MultiPictureJPEG.swift).
    package static func load(
        _ bytes: [UInt8], format: ImageFormat, limits: LoadLimits = LoadLimits(),
        minMegapixels: Double? = nil, reduceToFit: Bool = false, jpeg: JPEGPath = .standard
    ) throws(RecordError) -> LoadedImage {
        if format == .jpeg, let pictures = JPEGPictures.ranges(bytes) {
            return try loadPictures(bytes, pictures, limits: limits, minMegapixels: minMegapixels, reduceToFit: reduceToFit, jpeg: jpeg)
        }
        return try loadPicture(bytes, format: format, limits: limits, minMegapixels: minMegapixels, reduceToFit: reduceToFit, jpeg: jpeg)
    }

    /// One picture (a JPEG, or an image of another format with all its frames).
    static func loadPicture(
        _ bytes: [UInt8], format: ImageFormat, limits: LoadLimits, minMegapixels: Double?, reduceToFit: Bool, jpeg: JPEGPath
    ) throws(RecordError) -> LoadedImage {
        MagickEnvironment.start()
        guard !bytes.isEmpty else { throw RecordError(.empty, "file is empty") }
        // A PNG's big compressed text chunks (a zTXt that inflates to gigabytes) never reach
        // the decoder, with or without a worker's memory limit; small ones (XMP, EXIF) stay.
        let original = bytes.count
        let bytes = format == .png ? PNGChunks.withoutLargeCompressedText(bytes) : bytes
        let droppedText = original - bytes.count
        guard let wand = NewMagickWand() else { throw RecordError(.internalError, "cannot create MagickWand") }
        defer { DestroyMagickWand(wand) }
        _ = MagickSetFormat(wand, format.magickCoder)

        // 0. Our own header parse (PNG, JPEG, GIF, BMP, WebP): a bomb never reaches a decoder.
        try checkDeclaredSize(bytes, format: format, limits: limits)
        // A WebP: libwebp without the ping, which would decode it all (DirectWebP.swift).
        if format == .webp && jpeg == .direct,
            let direct = try loadDirectWebP(bytes, wand: wand, limits: limits, minMegapixels: minMegapixels, reduceToFit: reduceToFit)
        {
            DecodeTrace.decoded(direct)
            return direct
        }
        // 1. Header only (ping): refuse decompression bombs before any pixel is decoded.
        let header = try ping(wand, bytes, format: format, limits: limits)
        var warnings: [String] = []
        if droppedText > 0 {
            warnings.append(
                "compressed text chunks of \(droppedText) bytes (past the first \(PNGChunks.maxCompressedText >> 10) KiB of compressed text) were not read")
        }
        let divisor = try chooseDecodeSize(
            header, format: format, limits: limits, minMegapixels: minMegapixels, reduceToFit: reduceToFit, notes: &warnings)
        if format == .jpeg && jpeg == .direct,
            let direct = loadDirect(bytes, pinged: wand, header, divisor: divisor, warnings: warnings)
        {
            DecodeTrace.decoded(direct)
            return direct
        }
        if format == .png && jpeg == .direct, let direct = loadDirectPNG(bytes, pinged: wand, header, warnings: warnings) {
            DecodeTrace.decoded(direct)
            return direct
        }
        if format == .heic || format == .avif, jpeg == .direct,
            let direct = loadDirectHEIF(bytes, pinged: wand, header, format: format, limits: limits, warnings: warnings)
        {
            DecodeTrace.decoded(direct)
            return direct
        }
        ClearMagickWand(wand)
        _ = MagickSetFormat(wand, format.magickCoder)
        if divisor > 1 { setJPEGSize(wand, header, divisor: divisor) }
        // 2. Decode only the frames that are scanned.
        try decode(wand, bytes, frames: header.framesRead, format: format, warnings: &warnings)
        _ = MagickSetIteratorIndex(wand, 0)
        let metadata = metadata(wand)
        MagickClearException(wand)
        appendImageWarnings(wand, to: &warnings)
        // 3. Upright luma, frame by frame.
        let upright = try uprightFrames(wand, header, format: format, limits: limits, warnings: &warnings)
        let loaded = LoadedImage(
            format: format, width: upright.width, height: upright.height, orientation: upright.orientation,
            frames: upright.frames, scale: upright.scale, warnings: warnings, metadata: metadata)
        DecodeTrace.decoded(loaded)
        return loaded
    }

    /// EXIF/XMP metadata of the wand's current image, from its properties (a ping has them too:
    /// they come from the file's markers).
    static func metadata(_ wand: OpaquePointer) -> ImageMetadata? {
        ImageMetadataReader.read { name in
            guard let p = MagickGetImageProperty(wand, name) else { return nil }
            defer { MagickRelinquishMemory(p) }
            return String(cString: p)
        }
    }

    static func megapixels(_ pixels: Int) -> String {
        let mp = Double(pixels) / 1_000_000
        return mp >= 10 ? NumberText.trimmed(mp, decimals: 0) : NumberText.fixed(mp, decimals: 1)
    }

    /// Rec. 601 luma from packed RGB, in integer arithmetic: `RGBImage.luma()`, the one grey
    /// conversion (`generate` computes colour contrast with the same formula, `RGBColor.luma`).
    static func luma(fromRGB rgb: [UInt8], width: Int, height: Int) -> LumaImage {
        RGBImage(width: width, height: height, pixels: rgb).luma()
    }

    struct MagickException { var severity: ExceptionType; var message: String }

    static func exception(_ wand: OpaquePointer) -> MagickException? {
        var severity = UndefinedException
        guard let text = MagickGetException(wand, &severity) else { return nil }
        defer { MagickRelinquishMemory(text) }
        if severity == UndefinedException { return nil }
        return MagickException(severity: severity, message: cleanMagickMessage(String(cString: text).trimmingWhitespace()))
    }

    static func classify(_ ex: MagickException?, format: ImageFormat, fallback: String) -> RecordError {
        let msg = (ex?.message).flatMap { $0.isEmpty ? nil : $0 } ?? "\(fallback) (\(format.rawValue) decoder gave no reason)"
        let lower = msg.lowercased()
        if lower.contains("width or height exceeds limit") || lower.contains("exceeds limit") || lower.contains("too large")
            || lower.contains("resource limit") || lower.contains("memory allocation failed")
        {
            return RecordError(.tooLarge, msg)
        }
        if lower.contains("cache resources exhausted") {
            let l = MagickEnvironment.Limits()
            return RecordError(
                .tooLarge,
                "\(msg): decoding needs more pixel memory than ImageMagick may use (at most \(l.memoryMiB) MiB of memory and \(l.mapMiB) MiB of mapped file)")
        }
        if lower.contains("premature end") || lower.contains("truncat") || lower.contains("unexpected end")
            || lower.contains("corrupt image") && lower.contains("end")
        {
            return RecordError(.truncated, msg)
        }
        return RecordError(.corrupt, msg)
    }
}
