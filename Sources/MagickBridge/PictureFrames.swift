import Imaging
import InputSources
import Records

/// A loaded picture as a source of frames (`FrameSource`): its frames one at a time, and each
/// at full resolution on request (`PixelRequest.fullResolution`), for what needs more pixels
/// than a reduced first decode has (a pass that asks for resolution, grading a code on the
/// frame it was read in). When the load was at full resolution these are its own frames;
/// otherwise the file's bytes are decoded again, at full resolution, on first use only, and that
/// decode is timed. Used inside the one task that scans the file.
package final class PictureFrames: FrameSource {
    let loaded: LoadedImage
    let bytes: [UInt8]
    let limits: LoadLimits
    private var decoded: LoadedImage?
    private var given = 0
    let jpeg: JPEGPath
    /// How long the second decode took, in milliseconds; nil when none was made.
    package private(set) var decodeMilliseconds: Double?
    /// Every decode of the file's pixels, in order: the load's, then the second one (when made),
    /// with the decoder and the first frame's scale (1 for full resolution; 0 for a second decode
    /// that failed). A file is decoded once per scale: never two entries with the same scale.
    package private(set) var decodes: [(decoder: LoadedImage.Decoder, scale: Double)]

    /// `bytes` and `limits`: the ones `loaded` was loaded from; `jpeg`: the path it was loaded by.
    package init(of loaded: LoadedImage, bytes: [UInt8], limits: LoadLimits, jpeg: JPEGPath = .standard) {
        self.loaded = loaded; self.bytes = bytes; self.limits = limits; self.jpeg = jpeg
        decodes = [(loaded.decoder, loaded.scale)]
    }

    package func next() -> SourceFrame? {
        guard given < loaded.frames.count else { return nil }
        defer { given += 1 }
        return SourceFrame(loaded.frames[given], index: given, scale: loaded.scale)
    }

    /// Frame `i` at full resolution (a picture has no other request); nil when the file has no
    /// such frame or it does not decode at full resolution within the limits (tried once).
    package func pixels(of i: Int, _ request: PixelRequest) -> LumaImage? {
        guard request == .fullResolution else { return nil }
        if loaded.scale == 1 { return i < loaded.frames.count ? loaded.frames[i] : nil }
        if decodeMilliseconds == nil {
            let start = ContinuousClock.now
            decoded = try? ImageLoader.load(bytes, format: loaded.format, limits: limits, jpeg: jpeg)
            decodeMilliseconds = start.duration(to: .now).milliseconds
            decodes.append((decoded?.decoder ?? loaded.decoder, decoded?.scale ?? 0))
        }
        guard let full = decoded, i < full.frames.count else { return nil }
        return full.frames[i]
    }
}
