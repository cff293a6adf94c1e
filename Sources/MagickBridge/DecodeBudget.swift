import CMagickWand
import Imaging
import Records

/// What `ImageLoader.load` checks before any pixel is decoded: the size the header declares
/// (our own parse, then ImageMagick's ping of every frame), and the size the frames will be
/// decoded at against the per-file budget (`LoadLimits`).
extension ImageLoader {
    /// The frames as the ping saw them: what decoding them would hold.
    struct PingedFrames {
        /// Frames in the file, counting at most `maxFrames + 1`.
        var count: Int
        /// Frames that will be decoded: the first `maxFrames`.
        var framesRead: Int
        /// The largest frame in pixels, and the longest side of any frame.
        var biggest: Int
        /// All frames read together, in pixels.
        var total: Int
        /// The animation's screen (the largest page), 0 when there is none.
        var canvasWidth: Int
        var canvasHeight: Int
        /// The first frame's size as stored (before orientation).
        var storedWidth: Int
        var storedHeight: Int
    }

    /// Refuses a file whose own header (PNG, JPEG, GIF, BMP, WebP) declares an empty or too
    /// large image, before ImageMagick sees it.
    static func checkDeclaredSize(_ bytes: [UInt8], format: ImageFormat, limits: LoadLimits) throws(RecordError) {
        guard let (w, h) = ImageHeader.declaredSize(bytes, format: format) else { return }
        if w == 0 || h == 0 { throw RecordError(.corrupt, "\(format.rawValue) header declares \(w)x\(h) pixels") }
        if w * h > limits.maxPixels || max(w, h) > limits.maxSide {
            throw RecordError(
                .tooLarge,
                "\(format.rawValue) header declares \(w)x\(h) pixels; the limit is \(limits.maxPixels / 1_000_000) megapixels and \(limits.maxSide) pixels a side"
            )
        }
    }

    /// Reads the headers only. Only the first maxFrames + 1 frames are looked at (a "[0-N]"
    /// scene range on the read), so an animation of thousands of frames costs no more than one
    /// of maxFrames. Refuses a frame over the pixel or side limit, and a file with no pixels.
    static func ping(_ wand: OpaquePointer, _ bytes: [UInt8], format: ImageFormat, limits: LoadLimits) throws(RecordError) -> PingedFrames {
        _ = MagickSetFilename(wand, "[0-\(limits.maxFrames)]")
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
            throw RecordError(
                .tooLarge, "image is \(MagickGetImageWidth(wand))x\(MagickGetImageHeight(wand)) pixels; the limit is \(limits.maxPixels / 1_000_000) megapixels"
            )
        }
        if frameCount == 0 || biggest == 0 {
            // The decoder's reason when it gave one, not the empty size it left behind.
            if let why = exception(wand)?.message ?? imageException(wand), !why.isEmpty { throw RecordError(.corrupt, "no image data: \(why)") }
            throw RecordError(.corrupt, "no image data (\(format.rawValue) header declares 0x0 pixels)")
        }
        _ = MagickSetIteratorIndex(wand, 0)
        return PingedFrames(
            count: frameCount, framesRead: framesRead, biggest: biggest, total: total,
            canvasWidth: canvasWidth, canvasHeight: canvasHeight,
            storedWidth: Int(MagickGetImageWidth(wand)), storedHeight: Int(MagickGetImageHeight(wand)))
    }

    /// The reason a decoder left on the current image rather than on the wand: the JPEG coder
    /// refusing a file at its header (a 12-bit JPEG: "Unsupported JPEG data precision 12")
    /// leaves an empty image whose exception says why.
    static func imageException(_ wand: OpaquePointer) -> String? {
        _ = MagickSetIteratorIndex(wand, 0)
        guard let image = GetImageFromMagickWand(wand), image.pointee.exception.severity != UndefinedException,
            let reason = image.pointee.exception.reason
        else { return nil }
        return cleanMagickMessage(String(cString: reason).trimmingWhitespace())
    }

    /// The divisor a JPEG is decoded at (libjpeg's DCT scaling by 1/2, 1/4 or 1/8; 1 for every
    /// other format): reduced to at least `minMegapixels` when that is set, reduced further to
    /// fit the budget when `reduceToFit` (with a note). Refuses a file whose frames would decode
    /// to more than `maxTotalPixels`. `setJPEGSize` asks MagickWand for it, `jpegScaleDenominator`
    /// says what libjpeg then does.
    static func chooseDecodeSize(
        _ p: PingedFrames, format: ImageFormat, limits: LoadLimits,
        minMegapixels: Double?, reduceToFit: Bool, notes: inout [String]
    ) throws(RecordError) -> Int {
        var decodeScale = 1
        if format == .jpeg, let minMP = minMegapixels {
            var d = 8
            while d > 1 && Double((p.storedWidth / d) * (p.storedHeight / d)) < minMP * 1_000_000 { d /= 2 }
            decodeScale = d
        }
        // The budget across all frames: what decoding would hold at once (a composed GIF
        // animation holds its frames and a full-screen copy of each).
        var decoded = p.total / (decodeScale * decodeScale)
        let composed = format == .gif && p.framesRead > 1
        let screenWidth = max(p.canvasWidth, p.storedWidth), screenHeight = max(p.canvasHeight, p.storedHeight)
        if composed { decoded += p.framesRead * screenWidth * screenHeight }
        if decoded > limits.maxTotalPixels && format == .jpeg && reduceToFit {
            // A JPEG too large for the budget is still read: libjpeg decodes it DCT-scaled.
            var d = decodeScale * 2
            while d <= 8 && p.total / (d * d) > limits.maxTotalPixels { d *= 2 }
            if d <= 8 {
                decodeScale = d
                notes.append(
                    "decoded at 1/\(d) size: full resolution (\(Self.megapixels(p.total)) megapixels) is over the budget of \(Self.megapixels(limits.maxTotalPixels)) megapixels per file"
                )
                decoded = p.total / (d * d)
            }
        }
        if decoded > limits.maxTotalPixels {
            let frames = p.count > limits.maxFrames ? "the first \(p.framesRead) frames (the file has more)" : "\(p.framesRead) frames"
            let what =
                composed
                ? "\(frames) on a \(screenWidth)x\(screenHeight) screen"
                : p.framesRead > 1
                    ? "\(frames) of up to \(Self.megapixels(p.biggest)) megapixels"
                    : "\(p.storedWidth)x\(p.storedHeight) pixels"
            throw RecordError(
                .tooLarge,
                "decoding \(what) would take \(Self.megapixels(decoded)) megapixels; the budget is \(Self.megapixels(limits.maxTotalPixels)) megapixels per file"
            )
        }
        return decodeScale
    }

    /// Asks libjpeg, through MagickWand's "jpeg:size", for the image reduced by `divisor`.
    static func setJPEGSize(_ wand: OpaquePointer, _ p: PingedFrames, divisor d: Int) {
        _ = MagickSetOption(wand, "jpeg:size", "\((p.storedWidth + d - 1) / d)x\((p.storedHeight + d - 1) / d)")
    }

    /// The `scale_denom` ImageMagick 6's JPEG coder gives libjpeg for `setJPEGSize(divisor:)`:
    /// the whole part of the stored size over the size asked for, the smaller of width and
    /// height (a side that `divisor` does not divide gives less: 4001 px by 8 asks for 501,
    /// 4001 / 501 = 7.99, so 7, which libjpeg decodes at 2/8). The direct path decodes at the
    /// same scale, so both give the same frame.
    static func jpegScaleDenominator(_ p: PingedFrames, divisor d: Int) -> Int {
        guard d > 1 else { return 1 }
        let w = (p.storedWidth + d - 1) / d, h = (p.storedHeight + d - 1) / d
        let factor = min(Double(p.storedWidth) / Double(w), Double(p.storedHeight) / Double(h))
        return max(1, Int(factor))
    }
}
