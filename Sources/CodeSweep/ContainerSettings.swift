/// How containers (archives, office packages, mail) are read: whether at all, how deep, and the
/// limits that stop a hostile one (a ZIP bomb, a million tiny members, nesting without end).
/// Each limit is counted per walked file, across nesting, and each breach is a per-member error
/// while the sweep goes on.
public struct ContainerSettings: Sendable, Equatable, Codable {
    /// Read containers' members (`--containers all`); off, a container is not read (`none`).
    public var enabled = true
    /// Containers inside containers are opened to this depth (the walked file's members: 1).
    public var maxDepth = 4
    /// One member's data, in bytes.
    public var maxMemberBytes = 512 << 20
    /// All members' data a walked file may unpack, nested containers' included.
    public var maxUnpackedBytes = 8 << 30
    /// Unpacked bytes over the walked file's own size, past `expansionFloorBytes`.
    public var maxExpansion = 200.0
    /// Entries (members, directories, links) one container may list.
    public var maxMembers = 1_000_000
    /// Passwords tried on encrypted members, in order (`--archive-passwords FILE`).
    public var passwords: [String] = []
    /// Which of a walked container's members this scan reads, when several workers share it:
    /// those whose index is `part[0]` modulo `part[1]` (nil: all). Set per request, never a flag.
    public var part: [Int]? = nil

    /// Below this many unpacked bytes the expansion ratio is not held against a walked file (a
    /// small ZIP of text expands a lot, harmlessly).
    public static let expansionFloorBytes = 64 << 20

    public init() {}

    /// The unpacked bytes a walked file of `size` bytes may give: `maxUnpackedBytes`, or less by
    /// the expansion ratio.
    public func unpackBudget(walkedSize size: Int) -> Int {
        let byRatio = max(Self.expansionFloorBytes, Int(min(Double(Int.max / 2), maxExpansion * Double(size))))
        return min(maxUnpackedBytes, byRatio)
    }

    /// The limits as `--resume` compares them.
    public var summary: String {
        "containers=\(enabled ? "all" : "none"),max_depth=\(maxDepth),max_member_bytes=\(maxMemberBytes),max_unpacked=\(maxUnpackedBytes),max_expansion=\(maxExpansion),max_members=\(maxMembers),passwords=\(passwords.count)"
    }
}

/// How videos are read: whether at all, how often a frame is sampled, and how much time.
public struct VideoSettings: Sendable, Equatable, Codable {
    /// Read videos (`--videos all`); off, a video is not read (`none`).
    public var enabled = true
    /// Samples a second (`--video-fps`): at 4, a code on screen for 0.5 s is seen twice.
    public var samplesPerSecond = 4.0
    /// Seconds of a video read at most (`--max-video-seconds`); a 2-hour film fits.
    public var maxSeconds = 10_800.0

    public init() {}

    public var summary: String { "videos=\(enabled ? "all" : "none"),video_fps=\(samplesPerSecond),max_video_seconds=\(maxSeconds)" }
}
