import Imaging

/// What a video says of itself once opened: read from the container's and the stream's headers
/// (the file's own word, not checked against the frames).
public struct VideoInfo: Sendable, Equatable {
    /// The demuxer that probed it: "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", "avi" or "mpegts".
    public var container: String
    /// The video stream's codec: "h264", "hevc", "vp8", "vp9", "av1" or "mpeg4".
    public var codec: String
    /// The upright size, after the display rotation (a phone's 1280x720 portrait clip: 720x1280).
    public var width: Int
    public var height: Int
    /// The clockwise turn that makes the coded picture upright: 0, 90, 180 or 270.
    public var rotation: Int
    /// The container's duration in seconds, when it gives one.
    public var duration: Double?
    /// The stream's average frame rate (its real one when it gives none), when known.
    public var frameRate: Double?
    /// Bits per luma sample as coded (8, 10, 12); frames are 8-bit grey whatever it is.
    public var bitDepth: Int

    public init(
        container: String, codec: String, width: Int, height: Int, rotation: Int, duration: Double?, frameRate: Double?, bitDepth: Int
    ) {
        self.container = container
        self.codec = codec
        self.width = width
        self.height = height
        self.rotation = rotation
        self.duration = duration
        self.frameRate = frameRate
        self.bitDepth = bitDepth
    }
}

/// A sampled frame: its luma, upright, 8-bit.
public struct VideoFrame: Sendable {
    /// The upright 8-bit grey picture (the decoder's Y plane; 10-bit brought to 8).
    public var image: LumaImage
    /// Its presentation time in seconds from the stream's start (the first frame of an MPEG-TS
    /// whose clock starts at 1.4 s is at 0).
    public var seconds: Double
    /// Which sample it is: 0 for the first `next` returned, then 1, 2...
    public var index: Int

    public init(image: LumaImage, seconds: Double, index: Int) {
        self.image = image
        self.seconds = seconds
        self.index = index
    }
}

/// Why a video could not be opened.
public struct VideoError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The container holds no video stream (an M4A, a WAV in a MOV), or only a cover picture.
        case notVideo
        /// The container or the codec is not one CodeSweep reads (FLV, GIF, MPEG-2, ...).
        case unsupported
        /// The file is not what it claims, or its headers do not parse.
        case corrupt
        /// The file ends before its headers do.
        case truncated
        /// The file cannot be opened or read (a path that is gone, no permission, no memory).
        case unreadable
    }

    public var kind: Kind
    /// What went wrong, for a person: FFmpeg's own message (av_strerror) where there is one.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
