import ArchiveBridge
import InputSources
import MailBridge
import Records

#if canImport(Glibc)
import Glibc
#endif

/// A container's members, each an item of its own (as IPED treats them): read from memory
/// (libarchive for archives and packages, GMime for mail), told apart by their bytes
/// (`InputSniff`), read by `ItemScanner` as a walked file is (a container inside is opened in
/// turn, to `ContainerSettings.maxDepth`), and sent to `Context.items` as each is done. Members
/// of other content are counted as skipped. The container's own record, with its counts, comes
/// after its members'. Nothing is written to a file; a member's name is never a path.
enum ContainerScanner {
    /// The bytes a walked file may still unpack, across its nesting (one per walked file).
    final class Budget {
        var left: Int
        init(_ left: Int) { self.left = left }
    }

    /// Where a container's bytes are: in memory (a member, a mail), or a walked archive's
    /// descriptor, streamed by libarchive (never held whole; a ZIP's central directory is the one
    /// thing that grows with its members).
    enum Source {
        case bytes([UInt8])
        case descriptor(Int32, size: Int)

        var size: Int {
            switch self {
            case .bytes(let b): b.count
            case .descriptor(_, let size): size
            }
        }
    }

    static func read(_ bytes: [UInt8], kind: ContainerKind, into record: inout FileRecord, _ context: ItemScanner.Context) {
        read(.bytes(bytes), kind: kind, into: &record, context)
    }

    static func read(_ source: Source, kind: ContainerKind, into record: inout FileRecord, _ context: ItemScanner.Context) {
        let settings = context.settings.containers
        var summary = ContainerSummary(format: kind.rawValue)
        defer { record.container = summary }
        if context.depth >= settings.maxDepth {
            record.error = RecordError(
                .tooLarge, "a container nested \(context.depth) deep: its members are not read (the limit is --max-container-depth \(settings.maxDepth))")
            return
        }
        let budget = context.budget ?? Budget(settings.unpackBudget(walkedSize: source.size))
        var inner = context
        inner.depth += 1
        inner.checkpoint = nil
        inner.videoPath = nil
        inner.budget = budget
        var reading = MemberReading(parent: record, context: inner, summary: summary)
        switch source {
        case .bytes(let bytes) where kind.isMail: readMail(bytes, kind: kind, &reading, into: &record)
        default: readArchive(source, kind: kind, &reading, budget: budget, into: &record)
        }
        summary = reading.summary
    }

    /// Reads a member's bytes as an item: its record, sent on; other content only counted.
    struct MemberReading {
        let parent: FileRecord
        let context: ItemScanner.Context
        var summary: ContainerSummary

        /// Whether this scan reads the member: a walked container's members are shared out by
        /// index among the workers reading it (`ContainerSettings.part`); nested ones are not.
        func owns(_ link: MemberLink) -> Bool {
            guard context.depth == 1, let part = context.settings.containers.part, part.count == 2, part[1] > 1 else { return true }
            return link.index % part[1] == part[0]
        }

        mutating func member(_ link: MemberLink, _ bytes: [UInt8], mtime: Double?, kind known: InputKind? = nil) {
            guard owns(link) else { return }
            summary.members += 1
            summary.unpackedBytes += bytes.count
            let kind = known ?? InputSniff.kind(of: bytes)
            guard let kind, ItemScanner.reads(kind, context.settings) else {
                summary.skipped += 1
                return
            }
            var record = item(link)
            record.size = bytes.count
            record.mtime = mtime
            var clock = StageClock(on: context.settings.timings)
            ItemScanner.read(bytes, kind: kind, into: &record, context, clock: &clock)
            if let inner = record.container { summary.unpackedBytes += inner.unpackedBytes }
            if record.error == nil { summary.read += 1 } else { summary.failed += 1 }
            context.items(record)
        }

        mutating func failure(_ link: MemberLink, _ error: RecordError, size: Int? = nil) {
            guard owns(link) else { return }
            summary.members += 1
            summary.failed += 1
            var record = item(link)
            record.size = size
            record.error = error
            context.items(record)
        }

        func item(_ link: MemberLink) -> FileRecord {
            var r = FileRecord(path: parent.path, pathBytes: parent.pathBytes)
            r.member = parent.member + [link]
            return r
        }
    }

    static func readArchive(_ source: Source, kind: ContainerKind, _ reading: inout MemberReading, budget: Budget, into record: inout FileRecord) {
        let settings = reading.context.settings.containers
        let limits = ArchiveLimits(maxMemberBytes: settings.maxMemberBytes, maxTotalBytes: max(0, budget.left), maxMembers: settings.maxMembers)
        // Read in place (the archive's bytes are not copied: a ZIP of 200,000 members is held
        // once). A compressed stream that holds no archive (app.log.gz, photo.jpg.gz): its one
        // member is what it decompresses to, read (or skipped) by its content.
        let stream: Set<ContainerKind> = [.gzip, .bzip2, .xz, .zstd]
        for formats in [ArchiveReader.Formats.archives, .rawStream] {
            do throws(ArchiveError) {
                switch source {
                case .bytes(let bytes):
                    try ArchiveReader.reading(bytes, passwords: settings.passwords, limits: limits, formats: formats) { reader in
                        readMembers(reader, &reading, budget: budget, into: &record)
                    }
                case .descriptor(let fd, _):
                    guard lseek(fd, 0, SEEK_SET) == 0 else { throw ArchiveError("cannot read the file again from its start") }
                    let reader = try ArchiveReader(fileDescriptor: fd, passwords: settings.passwords, limits: limits, formats: formats)
                    readMembers(reader, &reading, budget: budget, into: &record)
                }
                return
            } catch {
                if formats == .archives && stream.contains(kind) { continue }
                record.error = RecordError(.corrupt, error.message)
                return
            }
        }
    }

    static func readMembers(_ reader: ArchiveReader, _ reading: inout MemberReading, budget: Budget, into record: inout FileRecord) {
        let settings = reading.context.settings.containers
        defer { budget.left -= reader.unpackedBytes }
        while let entry = reader.next() {
            reading.summary.detail = reading.summary.detail ?? reader.formatName
            switch entry {
            case .member(let m):
                reading.member(MemberLink(index: m.index, nameBytes: m.nameBytes), m.bytes, mtime: m.mtime)
            case .failure(let f):
                reading.failure(MemberLink(index: f.index, nameBytes: f.nameBytes), RecordError(errorKind(f.kind), describe(f, settings)))
            case .broken(let b):
                record.error = RecordError(.truncated, b.message)
            }
        }
        reading.summary.detail = reading.summary.detail ?? reader.formatName
        if let name = reader.formatName { reading.summary.format = formatKey(name, fallback: reading.summary.format) }
    }

    static func errorKind(_ kind: ArchiveMemberFailure.Kind) -> ErrorKind {
        switch kind {
        case .encrypted: .encrypted
        case .tooLarge, .totalLimit, .countLimit: .tooLarge
        case .damaged: .corrupt
        }
    }

    /// The bridge's words, with the flag that moves the limit.
    static func describe(_ f: ArchiveMemberFailure, _ settings: ContainerSettings) -> String {
        switch f.kind {
        case .encrypted: f.message + (settings.passwords.isEmpty ? " (--archive-passwords FILE lists passwords to try)" : "")
        case .tooLarge: f.message + " (--max-member-size)"
        case .totalLimit: f.message + " (--max-unpacked, --max-expansion: counted across nesting)"
        case .countLimit: f.message + " (--max-members)"
        case .damaged: f.message
        }
    }

    /// libarchive's format name as the record's short key.
    static func formatKey(_ name: String, fallback: String) -> String {
        let n = name.lowercased()
        for (needle, key) in [("zip", "zip"), ("7-zip", "7z"), ("rar", "rar"), ("iso9660", "iso9660"), ("cpio", "cpio"), ("tar", "tar")]
        where n.contains(needle) {
            return key
        }
        return fallback
    }

    static func readMail(_ bytes: [UInt8], kind: ContainerKind, _ reading: inout MemberReading, into record: inout FileRecord) {
        do {
            if kind == .mbox {
                for (i, message) in try MailReader.messages(inMbox: bytes).enumerated() {
                    reading.member(MemberLink(index: i, nameBytes: Array("message-\(i + 1).eml".utf8)), message, mtime: nil, kind: .container(.eml))
                }
                return
            }
            for part in try MailReader.parts(ofMessage: bytes) {
                let kind: InputKind? = part.isMessage ? .container(.eml) : nil
                reading.member(MemberLink(index: part.index, nameBytes: part.nameBytes), part.bytes, mtime: nil, kind: kind)
            }
        } catch {
            record.error = RecordError(.corrupt, error.message)
        }
    }
}

extension ContainerScanner {
    /// The bytes of the member at `link` of the container whose bytes these are, found again by
    /// its index (`--annotate`, `report --html`): the container read up to it, in memory.
    static func memberBytes(_ bytes: [UInt8], _ link: MemberLink, _ settings: ContainerSettings) throws(RecordError) -> [UInt8] {
        guard case .container(let kind) = InputSniff.kind(of: bytes) else {
            throw RecordError(.notImage, "no longer a container: member \(link.index) cannot be found")
        }
        let missing = RecordError(.notFound, "the container no longer holds member \(link.index) ('\(link.name)')")
        do {
            switch kind {
            case .mbox:
                let messages = try MailReader.messages(inMbox: bytes)
                guard link.index < messages.count else { throw missing }
                return messages[link.index]
            case .eml:
                guard let part = try MailReader.parts(ofMessage: bytes).first(where: { $0.index == link.index }) else { throw missing }
                return part.bytes
            default:
                let limits = ArchiveLimits(maxMemberBytes: settings.maxMemberBytes, maxTotalBytes: settings.maxUnpackedBytes, maxMembers: settings.maxMembers)
                let reader: ArchiveReader
                do { reader = try ArchiveReader(bytes: bytes, passwords: settings.passwords, limits: limits) } catch {
                    reader = try ArchiveReader(bytes: bytes, passwords: settings.passwords, limits: limits, formats: .rawStream)
                }
                while let entry = reader.next() {
                    if case .member(let m) = entry, m.index == link.index { return m.bytes }
                }
                throw missing
            }
        } catch let error as RecordError {
            throw error
        } catch {
            throw RecordError(.corrupt, "\(error)")
        }
    }
}
