/// Where an item expanded from a container sits: one link per container from the walked file
/// inward (a ZIP's member, then a member of the DOCX inside it, ...). A member's index is its
/// place in its container (from 0, in the container's own order), so two members of the same
/// name (archives allow it) are two addresses. The name is the container's bytes, untrusted:
/// it is never made into a path.
public struct MemberLink: Sendable, Equatable, Hashable {
    public var index: Int
    /// As the container names it, lossy when the bytes are not UTF-8 (`nameBytes` exact).
    public var name: String
    /// The exact bytes when they are not valid UTF-8; nil when `name` is exact.
    package var exactName: [UInt8]?

    public init(index: Int, nameBytes: [UInt8]) {
        self.index = index
        name = String(decoding: nameBytes, as: UTF8.self)
        exactName = String(validating: nameBytes, as: UTF8.self) == nil ? nameBytes : nil
    }

    public var nameBytes: [UInt8] { exactName ?? Array(name.utf8) }
}

/// What a container's own record says of what it held (its members each have their record,
/// written before it): how many members it listed, how many were read (pictures, documents,
/// containers), skipped (other content) or failed, and its format as its reader names it.
public struct ContainerSummary: Sendable, Equatable {
    /// "zip", "tar", "7z", "rar", "iso9660", "cpio", "eml", "mbox" (`ContainerKind`).
    public var format: String
    /// The reader's own description of the format ("ZIP 2.0 (deflation)"), when it gives one.
    public var detail: String?
    public var members = 0
    public var read = 0
    public var skipped = 0
    public var failed = 0
    /// Bytes of member data unpacked, nested containers' included.
    public var unpackedBytes = 0

    public init(format: String) { self.format = format }
}

extension FileRecord {
    /// The display form of the address: the walked path, then each member's name after "!/"
    /// (as a JAR URL writes a member), e.g. `bundle.zip!/deck.pptx!/ppt/media/image1.png`.
    public var location: String {
        member.reduce(path) { $0 + "!/" + $1.name }
    }

    /// Whether this is an item expanded from a container, not the walked file's own record.
    public var isMember: Bool { !member.isEmpty }
}

/// What a video's record says of it: its container and codec as FFmpeg names them, its upright
/// size, rotation, duration and frame rate, and how it was read (samples taken at `interval`,
/// frames the engine read, the rest unchanged since the last one read).
public struct VideoSummary: Sendable, Equatable {
    public var container: String
    public var codec: String
    public var width: Int
    public var height: Int
    public var rotation: Int
    public var bitDepth: Int
    public var duration: Double?
    public var frameRate: Double?
    /// Seconds between samples (1 / --video-fps).
    public var interval: Double
    public var samples = 0
    /// Samples the engine read (the others were unchanged since the last one read).
    public var framesRead = 0
    /// Time read, in seconds (the last sample's).
    public var secondsRead = 0.0
    /// Reading stopped at --max-video-seconds.
    public var capped = false

    public init(
        container: String, codec: String, width: Int, height: Int, rotation: Int, bitDepth: Int, duration: Double?, frameRate: Double?, interval: Double
    ) {
        self.container = container; self.codec = codec; self.width = width; self.height = height; self.rotation = rotation
        self.bitDepth = bitDepth; self.duration = duration; self.frameRate = frameRate; self.interval = interval
    }
}
