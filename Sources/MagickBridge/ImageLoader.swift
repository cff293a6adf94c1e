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
}

public struct LoadLimits: Sendable {
    /// Largest frame accepted, in pixels (checked from the header before decoding).
    public var maxPixels: Int = 120_000_000
    /// Frames or pages read from one file at most (the rest are ignored with a warning).
    public var maxFrames: Int = 64
    public init() {}
}

/// Thin wrapper over MagickWand: bytes of a sniffed raster format in, upright luma out.
/// The wand is created and destroyed inside `load`, in the calling task.
public enum ImageLoader {
    public static func load(_ bytes: [UInt8], format: ImageFormat, limits: LoadLimits = LoadLimits()) throws(RecordError) -> LoadedImage {
        MagickEnvironment.start()
        guard !bytes.isEmpty else { throw RecordError(.empty, "file is empty") }
        guard let wand = NewMagickWand() else { throw RecordError(.internalError, "cannot create MagickWand") }
        defer { DestroyMagickWand(wand) }
        _ = MagickSetFormat(wand, format.magickCoder)

        // 1. Header only: refuse decompression bombs before any pixel is decoded.
        let pinged = bytes.withUnsafeBytes { MagickPingImageBlob(wand, $0.baseAddress, $0.count) }
        if pinged == MagickFalse {
            throw classify(exception(wand), format: format, fallback: "cannot read image header")
        }
        let frameCount = Int(MagickGetNumberImages(wand))
        var biggest = 0
        MagickResetIterator(wand)
        for i in 0..<frameCount {
            _ = MagickSetIteratorIndex(wand, i)
            biggest = max(biggest, Int(MagickGetImageWidth(wand)) * Int(MagickGetImageHeight(wand)))
        }
        if biggest > limits.maxPixels {
            _ = MagickSetIteratorIndex(wand, 0)
            throw RecordError(.tooLarge, "image is \(MagickGetImageWidth(wand))x\(MagickGetImageHeight(wand)) pixels; the limit is \(limits.maxPixels / 1_000_000) megapixels")
        }
        if frameCount == 0 || biggest == 0 { throw RecordError(.corrupt, "no image data (\(format.rawValue) header declares 0x0 pixels)") }
        ClearMagickWand(wand)
        _ = MagickSetFormat(wand, format.magickCoder)

        // 2. Decode.
        let ok = bytes.withUnsafeBytes { MagickReadImageBlob(wand, $0.baseAddress, $0.count) }
        var warnings: [String] = []
        let ex = exception(wand)
        if ok == MagickFalse {
            throw classify(ex, format: format, fallback: "cannot decode image")
        }
        if let ex, ex.severity != UndefinedException {
            warnings.append(ex.message.isEmpty ? "decoder warning" : ex.message)
        }
        // Decoders' warnings (libjpeg's "Premature end of JPEG file" for a truncated file) are
        // left in each image's own exception, not the wand's: without this a truncated file
        // reads as a clean image whose missing part is grey.
        for message in imageWarnings(wand) where !warnings.contains(message) {
            warnings.append(message)
        }
        MagickClearException(wand)

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
        if n > limits.maxFrames { warnings.append("only the first \(limits.maxFrames) of \(n) frames were scanned") }
        var frames: [LumaImage] = []
        var firstOrientation = 1, width = 0, height = 0
        let white = NewPixelWand()
        defer { if let white { DestroyPixelWand(white) } }
        _ = PixelSetColor(white, "white")
        for i in 0..<min(n, limits.maxFrames) {
            _ = MagickSetIteratorIndex(work, i)
            let orientation = Int(MagickGetImageOrientation(work).rawValue)
            _ = MagickAutoOrientImage(work)
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
            frames.append(luma(fromRGB: rgb, width: w, height: h))
            if i == 0 { firstOrientation = (1...8).contains(orientation) ? orientation : 1; width = w; height = h }
        }
        return LoadedImage(format: format, width: width, height: height, orientation: firstOrientation,
                           frames: frames, scale: 1, warnings: warnings)
    }

    /// Rec. 601 luma from packed RGB, in integer arithmetic.
    static func luma(fromRGB rgb: [UInt8], width: Int, height: Int) -> LumaImage {
        var out = [UInt8](repeating: 0, count: width * height)
        rgb.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var j = 0
                for i in 0..<(width * height) {
                    let r = UInt32(src[j]), g = UInt32(src[j + 1]), b = UInt32(src[j + 2])
                    dst[i] = UInt8((r * 77 + g * 150 + b * 29 + 128) >> 8)
                    j += 3
                }
            }
        }
        return LumaImage(width: width, height: height, pixels: out)
    }

    struct MagickException { var severity: ExceptionType; var message: String }

    /// Warnings recorded in the images' own exceptions (all frames) after a successful read.
    static func imageWarnings(_ wand: OpaquePointer) -> [String] {
        MagickResetIterator(wand)
        guard let image = GetImageFromMagickWand(wand), let info = AcquireExceptionInfo() else { return [] }
        defer { DestroyExceptionInfo(info) }
        GetImageException(image, info)
        guard info.pointee.severity != UndefinedException else { return [] }
        var parts: [String] = []
        if let reason = info.pointee.reason { parts.append(String(cString: reason)) }
        if let description = info.pointee.description { parts.append("(" + String(cString: description) + ")") }
        let message = parts.joined(separator: " ").trimmingCharactersWhitespace()
        return [message.isEmpty ? "decoder warning" : message]
    }

    static func exception(_ wand: OpaquePointer) -> MagickException? {
        var severity = UndefinedException
        guard let text = MagickGetException(wand, &severity) else { return nil }
        defer { MagickRelinquishMemory(text) }
        if severity == UndefinedException { return nil }
        return MagickException(severity: severity, message: String(cString: text).trimmingCharactersWhitespace())
    }

    static func classify(_ ex: MagickException?, format: ImageFormat, fallback: String) -> RecordError {
        let msg = (ex?.message).flatMap { $0.isEmpty ? nil : $0 } ?? "\(fallback) (\(format.rawValue) decoder gave no reason)"
        let lower = msg.lowercased()
        if lower.contains("width or height exceeds limit") || lower.contains("exceeds limit") || lower.contains("too large")
            || lower.contains("resource limit") || lower.contains("memory allocation failed") {
            return RecordError(.tooLarge, msg)
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
