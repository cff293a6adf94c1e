import CMagickWand
import Imaging
import Records

/// How `ImageLoader.load` turns the decoded wand into what a scan reads: the decoder's
/// warnings, each once, and one upright 8-bit luma image per frame (GIF animations composed,
/// CMYK and YCbCr converted to sRGB, transparency flattened onto white, EXIF orientation applied).
extension ImageLoader {
    /// Decodes the first `frames` frames into `wand`; the decoder's own exception becomes a
    /// warning (or the error when nothing decoded: a file that ends early is `truncated`).
    static func decode(
        _ wand: OpaquePointer, _ bytes: [UInt8], frames: Int, format: ImageFormat,
        warnings: inout [String]
    ) throws(RecordError) {
        _ = MagickSetFilename(wand, "[0-\(frames - 1)]")
        let ok = bytes.withUnsafeBytes { MagickReadImageBlob(wand, $0.baseAddress, $0.count) }
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
    }

    /// Decoders leave warnings such as "Premature end of JPEG file" on the image itself.
    static func appendImageWarnings(_ wand: OpaquePointer, to warnings: inout [String]) {
        for i in 0..<Int(MagickGetNumberImages(wand)) {
            _ = MagickSetIteratorIndex(wand, i)
            if let image = GetImageFromMagickWand(wand), image.pointee.exception.severity != UndefinedException {
                let e = image.pointee.exception
                let text = cleanMagickMessage(e.reason.map { String(cString: $0) } ?? "decoder warning")
                if !warnings.contains(text) { warnings.append(text) }
            }
        }
    }

    /// The decoded frames as upright luma, and the first frame's orientation as stored, its
    /// upright full-resolution size and its scale (1 unless it was decoded reduced).
    static func uprightFrames(
        _ wand: OpaquePointer, _ header: PingedFrames, format: ImageFormat, limits: LoadLimits,
        warnings: inout [String]
    ) throws(RecordError)
        -> (frames: [LumaImage], orientation: Int, width: Int, height: Int, scale: Double)
    {
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
        if header.count > limits.maxFrames || n > limits.maxFrames {
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
            let (frame, o, decodedWidth) = try uprightFrame(work, index: i, white: white, format: format)
            frames.append(frame)
            if i == 0 {
                firstOrientation = o
                scale = header.storedWidth > 0 ? Double(decodedWidth) / Double(header.storedWidth) : 1
                (width, height) = ExifOrientation.uprightSize(width: header.storedWidth, height: header.storedHeight, orientation: o)
                if scale > 0.999 { scale = 1; width = frame.width; height = frame.height }
            }
        }
        return (frames, firstOrientation, width, height, scale)
    }

    /// The wand's current frame as upright luma, with its EXIF orientation (1...8; anything
    /// else counts as 1) and its width as decoded.
    static func uprightFrame(
        _ work: OpaquePointer, index i: Int, white: OpaquePointer?,
        format: ImageFormat
    ) throws(RecordError) -> (LumaImage, orientation: Int, decodedWidth: Int) {
        let orientation = Int(MagickGetImageOrientation(work).rawValue)
        // CMYK, and the YCbCr ImageMagick 6's HEIC coder leaves its pixels in (exported as they
        // are, Cb and Cr would be weighed as green and blue: black at 90, white at 166).
        let colorspace = MagickGetImageColorspace(work)
        if colorspace == CMYKColorspace || colorspace == YCbCrColorspace {
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
        return (ExifOrientation.upright(luma(fromRGB: rgb, width: w, height: h), orientation: o), o, w)
    }
}
