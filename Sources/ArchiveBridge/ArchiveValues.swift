/// The values `ArchiveReader` hands out: limits in, members, per-member failures and where an
/// archive broke out. Plain values, no libarchive type: they cross tasks freely.

/// How much one archive may unpack. Each breach is a per-member failure (`ArchiveMemberFailure`):
/// a member past `maxMemberBytes` is skipped and the reading goes on; past `maxTotalBytes` or
/// `maxMembers` the reading stops there.
public struct ArchiveLimits: Sendable, Equatable {
    /// One member's data, in bytes (its header's size, and the bytes actually unpacked: a header can lie).
    public var maxMemberBytes: Int
    /// All members' data unpacked by one reader, in bytes. A caller reading nested containers
    /// hands the inner reader what is left of the outer budget.
    public var maxTotalBytes: Int
    /// Entries (members of every kind, directories and links included) one archive may hold.
    public var maxMembers: Int

    public init(maxMemberBytes: Int = 512 << 20, maxTotalBytes: Int = 8 << 30, maxMembers: Int = 1_000_000) {
        self.maxMemberBytes = maxMemberBytes
        self.maxTotalBytes = maxTotalBytes
        self.maxMembers = maxMembers
    }
}

/// Why an archive cannot be read at all (libarchive's words): not an archive libarchive knows,
/// an unreadable descriptor, an archive whose headers are encrypted.
public struct ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What `ArchiveReader.next()` gives: a member read, a member not read (and why), or the place
/// where the archive is damaged or truncated (the last thing it gives).
public enum ArchiveEntry: Sendable, Equatable {
    case member(ArchiveMember)
    case failure(ArchiveMemberFailure)
    /// The archive is damaged or truncated here; `next()` returns nil after it.
    case broken(ArchiveBreak)
}

/// A regular file inside an archive, its data unpacked in memory.
public struct ArchiveMember: Sendable, Equatable {
    /// The entry's position in the archive, from 0, counting every entry (directories and links
    /// too): with the name, the member's address, since archives allow duplicate names.
    public var index: Int
    /// The name as the archive stores it (libarchive's pathname; UTF-8 where the format stores
    /// UTF-16, as 7z does). Untrusted bytes: never a file system path.
    public var nameBytes: [UInt8]
    /// The size the header declares, when it declares one.
    public var size: Int?
    /// Modification time, seconds since 1970 (with nanoseconds where the format has them).
    public var mtime: Double?
    /// The member's data.
    public var bytes: [UInt8]

    public init(index: Int, nameBytes: [UInt8], size: Int?, mtime: Double?, bytes: [UInt8]) {
        self.index = index
        self.nameBytes = nameBytes
        self.size = size
        self.mtime = mtime
        self.bytes = bytes
    }
}

/// A member that was not read, and why.
public struct ArchiveMemberFailure: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// Encrypted, and no password given opens it (or libarchive cannot decrypt the format).
        case encrypted
        /// Over `ArchiveLimits.maxMemberBytes`: skipped, the members after it are read.
        case tooLarge
        /// Its data does not unpack (a bad CRC, a corrupt stream); the members after it are read.
        case damaged
        /// The archive's unpacked bytes would pass `ArchiveLimits.maxTotalBytes`: the reading stops.
        case totalLimit
        /// The archive holds more than `ArchiveLimits.maxMembers` entries: the reading stops.
        case countLimit
    }

    public var index: Int
    public var nameBytes: [UInt8]
    public var kind: Kind
    /// What happened, naming the member, and for a limit the number and the limit.
    public var message: String

    public init(index: Int, nameBytes: [UInt8], kind: Kind, message: String) {
        self.index = index
        self.nameBytes = nameBytes
        self.kind = kind
        self.message = message
    }
}

/// Where an archive broke: the member read last before the damage, and libarchive's error.
public struct ArchiveBreak: Sendable, Equatable {
    /// The index of the last member fully read before the break (nil: none was).
    public var afterIndex: Int?
    /// The archive's headers are encrypted (7z's -mhe): libarchive reads no member of it.
    public var encrypted: Bool
    /// "truncated or damaged after member 12 ('x.png'), in member 13 ('y.png'): <libarchive's
    /// error string>"; "before its first member" when none was read.
    public var message: String

    public init(afterIndex: Int?, encrypted: Bool = false, message: String) {
        self.afterIndex = afterIndex
        self.encrypted = encrypted
        self.message = message
    }
}

/// The entries a reader has passed that are not members: counted, not returned.
public struct ArchiveCounts: Sendable, Equatable {
    /// Regular files returned as members.
    public var members = 0
    /// Members not read (`ArchiveMemberFailure`).
    public var failures = 0
    public var directories = 0
    /// Symbolic and hard links.
    public var links = 0
    /// Devices, FIFOs, sockets.
    public var otherNonRegular = 0
    /// Every entry that is not a regular file: directories, links and the rest.
    public var skippedNonRegular: Int { directories + links + otherNonRegular }

    public init() {}
}
