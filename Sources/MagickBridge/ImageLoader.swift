import CMagickWand
import SweepCore
#if canImport(Glibc)
import Glibc
#endif

/// An image as loaded: upright 8-bit luma frames plus what the record reports.
public struct LoadedImage: Sendable {
    public var format: ImageFormat
    /// Upright size of the first frame at full resolution.
    public var width: Int
    public var height: Int
    /// EXIF orientation of the first frame as stored (1...8).
    public var orientation: Int
    public var frames: [LumaImage]
    /// Each frame's pixel scale relative to full resolution (1 unless decoded reduced).
    public var scale: Double
    public var warnings: [String]
    /// EXIF/XMP provenance of the first frame; nil when the file has none of the fields.
    public var metadata: ImageMetadata? = nil
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
/// The wand is created and destroyed inside `load`, in the calling task.
public enum ImageLoader {
    /// - Parameter minMegapixels: when set, a JPEG may be decoded reduced (libjpeg's DCT scaling
    ///   by 1/2, 1/4 or 1/8) as long as the result still holds at least this many megapixels;
    ///   `LoadedImage.scale` then says by how much. nil decodes at full resolution.
    /// - Parameter reduceToFit: a JPEG over `maxTotalPixels` is decoded DCT-scaled to fit (with
    ///   a warning) instead of refused; only for a first decode that reports its `scale`.
    public static func load(_ bytes: [UInt8], format: ImageFormat, limits: LoadLimits = LoadLimits(),
                            minMegapixels: Double? = nil, reduceToFit: Bool = false) throws(RecordError) -> LoadedImage {
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
        if let (w, h) = ImageHeader.declaredSize(bytes, format: format) {
            if w == 0 || h == 0 { throw RecordError(.corrupt, "\(format.rawValue) header declares \(w)x\(h) pixels") }
            if w * h > limits.maxPixels || max(w, h) > limits.maxSide {
                throw RecordError(.tooLarge, "\(format.rawValue) header declares \(w)x\(h) pixels; the limit is \(limits.maxPixels / 1_000_000) megapixels and \(limits.maxSide) pixels a side")
            }
        }

        // 1. Header only: refuse decompression bombs before any pixel is decoded. Only the
        //    first maxFrames + 1 frames are looked at (a "[0-N]" scene range on the read), so
        //    an animation of thousands of frames costs no more than one of maxFrames.
        let scenes = "[0-\(limits.maxFrames)]"
        _ = MagickSetFilename(wand, scenes)
        let pinged = bytes.withUnsafeBytes { MagickPingImageBlob(wand, $0.baseAddress, $0.count) }
        if pinged == MagickFalse {
            throw classify(exception(wand), format: format, fallback: "cannot read image header")
        }
        let frameCount = Int(MagickGetNumberImages(wand))
        let framesRead = min(frameCount, limits.maxFrames)
        var biggest = 0, maxSide = 0, total = 0
        var canvasWidth = 0, canvasHeight = 0
        MagickResetIterator(wand)
        for i in 0..<frameCount {
            _ = MagickSetIteratorIndex(wand, i)
            let w = Int(MagickGetImageWidth(wand)), h = Int(MagickGetImageHeight(wand))
            biggest = max(biggest, w * h)
            maxSide = max(maxSide, w, h)
            if i < framesRead { total += w * h }
            var pw = 0, ph = 0, px = 0, py = 0
            if MagickGetImagePage(wand, &pw, &ph, &px, &py) == MagickTrue {
                canvasWidth = max(canvasWidth, pw); canvasHeight = max(canvasHeight, ph)
            }
        }
        if biggest > limits.maxPixels || maxSide > limits.maxSide {
            _ = MagickSetIteratorIndex(wand, 0)
            throw RecordError(.tooLarge, "image is \(MagickGetImageWidth(wand))x\(MagickGetImageHeight(wand)) pixels; the limit is \(limits.maxPixels / 1_000_000) megapixels")
        }
        if frameCount == 0 || biggest == 0 { throw RecordError(.corrupt, "no image data (\(format.rawValue) header declares 0x0 pixels)") }
        _ = MagickSetIteratorIndex(wand, 0)
        let storedWidth = Int(MagickGetImageWidth(wand)), storedHeight = Int(MagickGetImageHeight(wand))
        ClearMagickWand(wand)
        _ = MagickSetFormat(wand, format.magickCoder)
        var decodeScale = 1
        if format == .jpeg, let minMP = minMegapixels {
            var d = 8
            while d > 1 && Double((storedWidth / d) * (storedHeight / d)) < minMP * 1_000_000 { d /= 2 }
            if d > 1 {
                // libjpeg decodes at the smallest DCT scale that is at least this size.
                _ = MagickSetOption(wand, "jpeg:size", "\((storedWidth + d - 1) / d)x\((storedHeight + d - 1) / d)")
                decodeScale = d
            }
        }
        // The budget across all frames: what decoding would hold at once (a composed GIF
        // animation holds its frames and a full-screen copy of each).
        var decoded = total / (decodeScale * decodeScale)
        let composed = format == .gif && framesRead > 1
        if composed { decoded += framesRead * max(canvasWidth, storedWidth) * max(canvasHeight, storedHeight) }
        var notes: [String] = []
        if droppedText > 0 {
            notes.append("compressed text chunks of \(droppedText) bytes (past the first \(PNGChunks.maxCompressedText >> 10) KiB of compressed text) were not read")
        }
        if decoded > limits.maxTotalPixels && format == .jpeg && reduceToFit {
            // A JPEG too large for the budget is still read: libjpeg decodes it DCT-scaled.
            var d = decodeScale * 2
            while d <= 8 && total / (d * d) > limits.maxTotalPixels { d *= 2 }
            if d <= 8 {
                _ = MagickSetOption(wand, "jpeg:size", "\((storedWidth + d - 1) / d)x\((storedHeight + d - 1) / d)")
                notes.append("decoded at 1/\(d) size: full resolution (\(Self.megapixels(total)) megapixels) is over the budget of \(Self.megapixels(limits.maxTotalPixels)) megapixels per file")
                decodeScale = d
                decoded = total / (d * d)
            }
        }
        if decoded > limits.maxTotalPixels {
            let frames = frameCount > limits.maxFrames ? "the first \(framesRead) frames (the file has more)" : "\(framesRead) frames"
            let what = composed
                ? "\(frames) on a \(max(canvasWidth, storedWidth))x\(max(canvasHeight, storedHeight)) screen"
                : framesRead > 1 ? "\(frames) of up to \(Self.megapixels(biggest)) megapixels"
                : "\(storedWidth)x\(storedHeight) pixels"
            throw RecordError(.tooLarge, "decoding \(what) would take \(Self.megapixels(decoded)) megapixels; the budget is \(Self.megapixels(limits.maxTotalPixels)) megapixels per file")
        }
        // Decode only the frames that are scanned.
        _ = MagickSetFilename(wand, "[0-\(framesRead - 1)]")

        // 2. Decode.
        let ok = bytes.withUnsafeBytes { MagickReadImageBlob(wand, $0.baseAddress, $0.count) }
        var warnings: [String] = notes
        let ex = exception(wand)
        if ok == MagickFalse {
            if ImageHeader.looksTruncated(bytes, format: format) {
                throw RecordError(.truncated, "file ends early (\(ex?.message.isEmpty == false ? ex!.message : "no end marker")); nothing could be decoded")
            }
            throw classify(ex, format: format, fallback: "cannot decode image")
        }
        if let ex, ex.severity != UndefinedException {
            warnings.append(ex.message.isEmpty ? "decoder warning" : ex.message)
        }
        MagickClearException(wand)
        _ = MagickSetIteratorIndex(wand, 0)
        let metadata = ImageMetadataReader.read { name in
            guard let p = MagickGetImageProperty(wand, name) else { return nil }
            defer { MagickRelinquishMemory(p) }
            return String(cString: p)
        }
        MagickClearException(wand)
        // Decoders leave warnings such as "Premature end of JPEG file" on the image itself.
        for i in 0..<Int(MagickGetNumberImages(wand)) {
            _ = MagickSetIteratorIndex(wand, i)
            if let image = GetImageFromMagickWand(wand), image.pointee.exception.severity != UndefinedException {
                let e = image.pointee.exception
                let text = cleanMagickMessage(e.reason.map { String(cString: $0) } ?? "decoder warning")
                if !warnings.contains(text) { warnings.append(text) }
            }
        }

        var work: OpaquePointer = wand
        var coalesced: OpaquePointer? = nil
        if format == .gif && MagickGetNumberImages(wand) > 1 {
            // Animation frames may be partial: render each one fully before scanning.
            coalesced = MagickCoalesceImages(wand)
            if let c = coalesced { work = c }
        }
        defer { if let c = coalesced { DestroyMagickWand(c) } }

        let n = Int(MagickGetNumberImages(work))
        guard n > 0 else { throw RecordError(.corrupt, "no image data") }
        if frameCount > limits.maxFrames || n > limits.maxFrames {
            warnings.append("only the first \(limits.maxFrames) frames were scanned; the file has more")
        }
        var frames: [LumaImage] = []
        var firstOrientation = 1, width = 0, height = 0
        var scale = 1.0
        let white = NewPixelWand()
        defer { if let white { DestroyPixelWand(white) } }
        _ = PixelSetColor(white, "white")
        for i in 0..<min(n, limits.maxFrames) {
            _ = MagickSetIteratorIndex(work, i)
            let orientation = Int(MagickGetImageOrientation(work).rawValue)
            if MagickGetImageColorspace(work) == CMYKColorspace {
                _ = MagickTransformImageColorspace(work, sRGBColorspace)
            }
            if MagickGetImageAlphaChannel(work) == MagickTrue {
                _ = MagickSetImageBackgroundColor(work, white)
                _ = MagickSetImageAlphaChannel(work, RemoveAlphaChannel)
            }
            let w = Int(MagickGetImageWidth(work)), h = Int(MagickGetImageHeight(work))
            guard w > 0, h > 0 else { throw RecordError(.corrupt, "frame \(i) has no pixels") }
            var rgb = [UInt8](repeating: 0, count: w * h * 3)
            let exported = rgb.withUnsafeMutableBytes {
                MagickExportImagePixels(work, 0, 0, w, h, "RGB", CharPixel, $0.baseAddress)
            }
            if exported == MagickFalse { throw classify(exception(work), format: format, fallback: "cannot read pixels") }
            let o = (1...8).contains(orientation) ? orientation : 1
            let frame = ExifOrientation.upright(luma(fromRGB: rgb, width: w, height: h), orientation: o)
            frames.append(frame)
            if i == 0 {
                firstOrientation = o
                scale = storedWidth > 0 ? Double(w) / Double(storedWidth) : 1
                (width, height) = ExifOrientation.uprightSize(width: storedWidth, height: storedHeight, orientation: o)
                if scale > 0.999 { scale = 1; width = frame.width; height = frame.height }
            }
        }
        return LoadedImage(format: format, width: width, height: height, orientation: firstOrientation,
                           frames: frames, scale: scale, warnings: warnings, metadata: metadata)
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
        return MagickException(severity: severity, message: cleanMagickMessage(String(cString: text).trimmingCharactersWhitespace()))
    }

    static func classify(_ ex: MagickException?, format: ImageFormat, fallback: String) -> RecordError {
        let msg = (ex?.message).flatMap { $0.isEmpty ? nil : $0 } ?? "\(fallback) (\(format.rawValue) decoder gave no reason)"
        let lower = msg.lowercased()
        if lower.contains("width or height exceeds limit") || lower.contains("exceeds limit") || lower.contains("too large")
            || lower.contains("resource limit") || lower.contains("memory allocation failed") {
            return RecordError(.tooLarge, msg)
        }
        if lower.contains("cache resources exhausted") {
            let l = MagickEnvironment.Limits()
            return RecordError(.tooLarge, "\(msg): decoding needs more pixel memory than ImageMagick may use (at most \(l.memoryMiB) MiB of memory and \(l.mapMiB) MiB of mapped file)")
        }
        if lower.contains("premature end") || lower.contains("truncat") || lower.contains("unexpected end") || lower.contains("corrupt image") && lower.contains("end") {
            return RecordError(.truncated, msg)
        }
        return RecordError(.corrupt, msg)
    }
}

extension String {
    func trimmingCharactersWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
