import CArchive
import Glibc

/// libarchive, read in place: one archive's members one at a time, in memory, never written to a
/// file. Every filter and every format libarchive has (`archive_read_support_filter_all`,
/// `archive_read_support_format_all`; not `raw`): ZIP (ZIP64, traditional and AES encryption),
/// tar (gzip, bzip2, xz, zstd, ...), 7z, RAR, ISO 9660, cpio, and the ZIP packages (DOCX, XLSX,
/// PPTX, ODF, EPUB).
///
/// `next()` gives each regular file as a `.member` with its data; directories, links and devices
/// are counted (`counts`) and passed over. A member that is not read is a `.failure` and the
/// reading goes on (encrypted with no password that opens it, over the member size limit, data
/// that does not unpack), except past the total or the member count limit, where it stops.
/// Damage that ends the archive (truncation, a broken header) is a `.broken`, the last entry,
/// after the members read before it. Passwords are tried on encrypted members in order
/// (`archive_read_add_passphrase`); libarchive decrypts ZIP's, not 7z's or RAR's.
///
/// Not Sendable: one task owns a reader, and libarchive's handle never crosses tasks.
public final class ArchiveReader {
    private let handle: OpaquePointer
    /// The archive's bytes for `archive_read_open_memory`, which reads them in place until freed.
    private let memory: UnsafeMutableRawBufferPointer?
    private let limits: ArchiveLimits
    private let hasPasswords: Bool
    private var nextIndex = 0
    private var lastRead: (index: Int, name: [UInt8])?
    private var finished = false
    /// Headers libarchive could not read, one after another: three end the reading.
    private var failedHeaders = 0
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)

    /// libarchive's name of the format, after the first header: "ZIP 2.0 (deflation)", "GNU tar format".
    public private(set) var formatName: String?
    /// The filters the data passed through, outermost last ("gzip", "xz"); empty for none.
    public private(set) var filterNames: [String] = []
    /// Member data unpacked so far, in bytes, a member's part read before it proved too large
    /// included (what `ArchiveLimits.maxTotalBytes` is held against; it never passes it).
    public private(set) var unpackedBytes = 0
    /// The archive's own bytes libarchive has consumed so far (`archive_filter_bytes` of the
    /// source; a ZIP's central directory, read first through a seek, not counted): against
    /// `unpackedBytes`, the expansion ratio, which libarchive gives per archive, not per member.
    public var consumedBytes: Int { Int(archive_filter_bytes(handle, -1)) }
    /// Members returned, failures, and the entries passed over.
    public private(set) var counts = ArchiveCounts()

    /// What the reader takes the data for: an archive of any format libarchive has, or a bare
    /// compressed stream (a gzip, bzip2, xz or zstd file that holds no archive, `x.log.gz`)
    /// whose one member, named `data`, is what it decompresses to (`archive_read_support_format_raw`).
    public enum Formats: Sendable { case archives, rawStream }

    /// Reads an archive held in memory (`archive_read_open_memory` over a copy of `bytes`).
    public init(bytes: [UInt8], passwords: [String] = [], limits: ArchiveLimits, formats: Formats = .archives) throws(ArchiveError) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { copy.copyMemory(from: $0) }
        do {
            handle = try Self.open(passwords, formats) { archive_read_open_memory($0, copy.baseAddress, bytes.count) }
        } catch {
            copy.deallocate()
            throw error
        }
        memory = copy
        self.limits = limits
        hasPasswords = !passwords.isEmpty
    }

    /// Reads an archive held in memory in place, without copying it: `body` gets a reader over
    /// `bytes`' own storage, which is valid only while `body` runs (a reader kept past it gives no
    /// more entries). An archive of many small members is held once, not twice.
    public static func reading<T>(
        _ bytes: [UInt8], passwords: [String] = [], limits: ArchiveLimits, formats: Formats = .archives, _ body: (ArchiveReader) -> T
    ) throws(ArchiveError) -> T {
        if bytes.isEmpty { return body(try ArchiveReader(bytes: bytes, passwords: passwords, limits: limits, formats: formats)) }
        let result: Result<T, ArchiveError> = bytes.withUnsafeBytes { buffer in
            let reader: ArchiveReader
            do throws(ArchiveError) { reader = try ArchiveReader(borrowing: buffer, passwords: passwords, limits: limits, formats: formats) } catch {
                return .failure(error)
            }
            defer { reader.finished = true }
            return .success(body(reader))
        }
        return try result.get()
    }

    /// A reader over `buffer` in place (`reading(_:passwords:limits:_:)` keeps it alive).
    private init(borrowing buffer: UnsafeRawBufferPointer, passwords: [String], limits: ArchiveLimits, formats: Formats) throws(ArchiveError) {
        handle = try Self.open(passwords, formats) { archive_read_open_memory($0, buffer.baseAddress, buffer.count) }
        memory = nil
        self.limits = limits
        hasPasswords = !passwords.isEmpty
    }

    /// Reads an archive from an open descriptor, streamed (`archive_read_open_fd`, seeking where
    /// the descriptor allows: a ZIP's central directory): the archive is never held whole. The
    /// caller keeps the descriptor open while the reader lives, and closes it.
    public init(fileDescriptor: Int32, passwords: [String] = [], limits: ArchiveLimits, formats: Formats = .archives) throws(ArchiveError) {
        handle = try Self.open(passwords, formats) { archive_read_open_fd($0, fileDescriptor, 64 << 10) }
        memory = nil
        self.limits = limits
        hasPasswords = !passwords.isEmpty
    }

    deinit {
        archive_read_free(handle)
        memory?.deallocate()
    }

    /// A reader with every filter and format, the passwords added, opened by `open`.
    private static func open(_ passwords: [String], _ formats: Formats, _ open: (OpaquePointer) -> Int32) throws(ArchiveError) -> OpaquePointer {
        try inUTF8Locale { () throws(ArchiveError) in try opened(passwords, formats, open) }
    }

    private static func opened(_ passwords: [String], _ formats: Formats, _ open: (OpaquePointer) -> Int32) throws(ArchiveError) -> OpaquePointer {
        guard let a = archive_read_new() else { throw ArchiveError("libarchive cannot make a reader (out of memory)") }
        var status = archive_read_support_filter_all(a)
        if status == ARCHIVE_OK { status = formats == .archives ? archive_read_support_format_all(a) : archive_read_support_format_raw(a) }
        for password in passwords where status == ARCHIVE_OK && !password.isEmpty { status = archive_read_add_passphrase(a, password) }
        if status == ARCHIVE_OK || status == ARCHIVE_WARN { status = open(a) }
        guard status == ARCHIVE_OK || status == ARCHIVE_WARN else {
            let message = errorString(a)
            archive_read_free(a)
            throw ArchiveError("libarchive cannot read it as an archive: \(message)")
        }
        return a
    }

    /// The next member, failure or break; nil after the last entry (or after a break or a limit
    /// that stops the reading).
    public func next() -> ArchiveEntry? { Self.inUTF8Locale { nextEntry() } }

    private func nextEntry() -> ArchiveEntry? {
        while !finished {
            var entry: OpaquePointer?
            var status = archive_read_next_header(handle, &entry)
            if status == ARCHIVE_RETRY { status = archive_read_next_header(handle, &entry) }
            if status == ARCHIVE_EOF {
                finished = true
                return nil
            }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN || status == ARCHIVE_FAILED, let entry else {
                return broken(in: nil, status: status)
            }
            noteFormat()
            let index = nextIndex
            nextIndex += 1
            let name = Self.name(entry)
            if index >= limits.maxMembers {
                finished = true
                return fail(
                    index, name, .countLimit,
                    "member \(index) (\(Self.quoted(name))) is past the member count limit: the archive holds more than \(limits.maxMembers) entries")
            }
            if status != ARCHIVE_FAILED { failedHeaders = 0 }
            if status == ARCHIVE_FAILED {
                // The header is unusable; libarchive can go on to the next one. Three in a row: broken.
                failedHeaders += 1
                if failedHeaders >= 3 { return broken(in: (index, name)) }
                return fail(index, name, .damaged, "member \(index) (\(Self.quoted(name))) has a damaged header: \(Self.errorString(handle))")
            }
            if let kind = Self.nonRegular(entry) {
                counts[keyPath: kind] += 1
                continue
            }
            return read(entry, index: index, name: name)
        }
        return nil
    }

    /// The regular file `entry`'s data, or why it is not read.
    private func read(_ entry: OpaquePointer, index: Int, name: [UInt8]) -> ArchiveEntry {
        let size = archive_entry_size_is_set(entry) != 0 ? Int(archive_entry_size(entry)) : nil
        let mtime = archive_entry_mtime_is_set(entry) != 0 ? Double(archive_entry_mtime(entry)) + Double(archive_entry_mtime_nsec(entry)) / 1e9 : nil
        let encrypted = archive_entry_is_encrypted(entry) != 0
        let what = "member \(index) (\(Self.quoted(name)))"
        if encrypted && !hasPasswords {
            return skip(index, name, .encrypted, "\(what) is encrypted and no password was given")
        }
        // libarchive decrypts ZIP's encryption (PKWARE's and WinZip's AES) and no other format's;
        // reading 7z's encrypted data is fatal to the reader, so it is not tried.
        if encrypted && archive_format(handle) & ARCHIVE_FORMAT_BASE_MASK != ARCHIVE_FORMAT_ZIP {
            return skip(index, name, .encrypted, "\(what) is encrypted, and libarchive does not decrypt \(formatName ?? "this format")'s encryption")
        }
        if let size, size > limits.maxMemberBytes {
            return skip(index, name, .tooLarge, "\(what) declares \(size) bytes, over the member size limit of \(limits.maxMemberBytes) bytes")
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(min(size ?? 0, limits.maxMemberBytes, 64 << 20))
        while true {
            let n = chunk.withUnsafeMutableBytes { archive_read_data(handle, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if Int32(n) == ARCHIVE_FATAL { return broken(in: (index, name)) }
                let message = Self.errorString(handle)
                if encrypted { return skip(index, name, .encrypted, "\(what) is encrypted and no password given opens it: \(message)") }
                return skip(index, name, .damaged, "\(what) does not unpack: \(message)")
            }
            if unpackedBytes + n > limits.maxTotalBytes {
                finished = true
                return fail(
                    index, name, .totalLimit,
                    "\(what) takes the archive past \(limits.maxTotalBytes) bytes unpacked, the total limit (\(unpackedBytes + n) bytes so far)")
            }
            unpackedBytes += n
            if bytes.count + n > limits.maxMemberBytes {
                return skip(index, name, .tooLarge, "\(what) unpacks to more than \(limits.maxMemberBytes) bytes, the member size limit")
            }
            chunk.withUnsafeBufferPointer { bytes.append(contentsOf: $0[0..<n]) }
        }
        counts.members += 1
        lastRead = (index, name)
        return .member(ArchiveMember(index: index, nameBytes: name, size: size, mtime: mtime, bytes: bytes))
    }

    /// A failure whose remaining data libarchive passes over; a skip that fails is a break.
    private func skip(_ index: Int, _ name: [UInt8], _ kind: ArchiveMemberFailure.Kind, _ message: String) -> ArchiveEntry {
        if archive_read_data_skip(handle) == ARCHIVE_FATAL {
            counts.failures += 1
            return broken(in: (index, name))
        }
        return fail(index, name, kind, message)
    }

    private func fail(_ index: Int, _ name: [UInt8], _ kind: ArchiveMemberFailure.Kind, _ message: String) -> ArchiveEntry {
        counts.failures += 1
        return .failure(ArchiveMemberFailure(index: index, nameBytes: name, kind: kind, message: message))
    }

    /// The break at libarchive's current error, after the last member read (inside `member`).
    private func broken(in member: (index: Int, name: [UInt8])?, status: Int32 = ARCHIVE_FATAL) -> ArchiveEntry {
        finished = true
        var place = lastRead.map { "after member \($0.index) (\(Self.quoted($0.name)))" } ?? "before its first member"
        if let member { place += ", in member \(member.index) (\(Self.quoted(member.name)))" }
        let reason = archive_error_string(handle).map { String(cString: $0) } ?? "libarchive stops (status \(status)) and gives no reason"
        // Before any header: libarchive knows whether it stopped at encrypted headers (7z's -mhe).
        let encrypted = nextIndex == 0 && archive_read_has_encrypted_entries(handle) > 0
        return .broken(ArchiveBreak(afterIndex: lastRead?.index, encrypted: encrypted, message: "truncated or damaged \(place): \(reason)"))
    }

    /// The format's and the filters' names, once the first header is read.
    private func noteFormat() {
        guard formatName == nil else { return }
        formatName = archive_format_name(handle).map { String(cString: $0) }
        let filters = archive_filter_count(handle)
        filterNames = (0..<filters).compactMap { i in
            archive_filter_name(handle, i).map { String(cString: $0) }
        }.filter { $0 != "none" }
    }

    /// libarchive converts the names a format stores as Unicode (ZIP's UTF-8 flag, pax, 7z's
    /// UTF-16, Joliet) to the charset of the thread's locale, and in the C locale a process starts
    /// in, gives no name for one that is not ASCII. Its calls run with the thread's locale set to
    /// C.UTF-8 (`uselocale`, this thread only; the process's locale is left alone), so those names
    /// come as UTF-8, and names stored as bytes (tar, cpio) as their bytes.
    private nonisolated(unsafe) static let utf8Locale: locale_t? = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

    private static func inUTF8Locale<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        guard let locale = utf8Locale else { return try body() }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        return try body()
    }

    /// Which count a non-regular entry goes to; nil for a regular file.
    private static func nonRegular(_ entry: OpaquePointer) -> WritableKeyPath<ArchiveCounts, Int>? {
        if archive_entry_hardlink(entry) != nil { return \.links }
        switch archive_entry_filetype(entry) {
        case carchive_regular: return nil
        case carchive_directory: return \.directories
        case carchive_symlink: return \.links
        default: return \.otherNonRegular
        }
    }

    /// The entry's name as stored (the locale's bytes), else as UTF-8 (names stored as UTF-16).
    private static func name(_ entry: OpaquePointer) -> [UInt8] {
        guard let p = archive_entry_pathname(entry) ?? archive_entry_pathname_utf8(entry) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: strlen(p)))
    }

    /// A name for a message: its bytes as UTF-8 (invalid bytes replaced), in quotes.
    static func quoted(_ name: [UInt8]) -> String { "'" + String(decoding: name, as: UTF8.self) + "'" }

    private static func errorString(_ a: OpaquePointer) -> String {
        archive_error_string(a).map { String(cString: $0) } ?? "libarchive gives no reason"
    }
}

@available(*, unavailable)
extension ArchiveReader: Sendable {}
