import CAV

/// The containers and decoders a `VideoReader` opens (issue 61): FFmpeg's own whitelists are set
/// from these, and the probed demuxer and the stream's codec are checked against them as well.
enum VideoWhitelist {
    /// Demuxer names as FFmpeg gives them (`AVInputFormat.name`).
    static let demuxers = ["mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", "avi", "mpegts"]
    /// `format_whitelist`: FFmpeg matches any of a demuxer's comma-separated names.
    static let formatOption = demuxers.joined(separator: ",")
    /// The decoder used for each codec (AV1 through libdav1d, as Debian's libavcodec has it).
    static let decoders: [AVCodecID: String] = [
        AV_CODEC_ID_H264: "h264", AV_CODEC_ID_HEVC: "hevc", AV_CODEC_ID_VP8: "vp8", AV_CODEC_ID_VP9: "vp9", AV_CODEC_ID_AV1: "libdav1d",
        AV_CODEC_ID_MPEG4: "mpeg4",
    ]
    /// `codec_whitelist`, on the decoder and on the format context (the decoders
    /// avformat_find_stream_info opens).
    static let codecOption = "h264,hevc,vp8,vp9,libdav1d,mpeg4"
}

/// FFmpeg's message for an error code (av_strerror).
func avMessage(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    av_strerror(code, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// A buffer in memory behind a custom AVIOContext: what the read and seek callbacks read.
final class MemorySource {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int) -> Int32 {
        let count = min(size, bytes.count - position)
        guard count > 0 else { return cav_error_eof() }
        bytes.withUnsafeBufferPointer { src in buffer.update(from: src.baseAddress! + position, count: count) }
        position += count
        return Int32(count)
    }

    func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        let origin: Int
        switch whence & ~AVSEEK_FORCE {
        case AVSEEK_SIZE: return Int64(bytes.count)
        case SEEK_SET: origin = 0
        case SEEK_CUR: origin = position
        case SEEK_END: origin = bytes.count
        default: return Int64(cav_error_invalid_data())
        }
        let target = Int64(origin) + offset
        guard target >= 0, target <= Int64(bytes.count) else { return Int64(cav_error_invalid_data()) }
        position = Int(target)
        return target
    }
}

/// The demuxer over its bytes: the AVIOContext (FFmpeg's file protocol for a path, or a memory
/// buffer) probed, checked against the whitelist, and opened as an AVFormatContext. Frees both.
final class VideoInput {
    private(set) var io: UnsafeMutablePointer<AVIOContext>?
    private(set) var format: UnsafeMutablePointer<AVFormatContext>?
    private let memory: MemorySource?
    /// The demuxer FFmpeg probed ("matroska,webm").
    private(set) var demuxer = ""

    /// The file at `path` through the file protocol alone ("file:" + its bytes, so a name with a
    /// colon is not a protocol).
    init(path: [UInt8]) throws(VideoError) {
        _ = silenceFFmpeg
        memory = nil
        let url = String(decoding: Array("file:".utf8) + path, as: UTF8.self)
        var options: OpaquePointer? = nil
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        let status = avio_open2(&io, url, AVIO_FLAG_READ, nil, &options)
        av_dict_free(&options)
        guard status >= 0, io != nil else { throw VideoError(.unreadable, "cannot open the file: \(avMessage(status))") }
        try open(url: url, fileProtocol: true)
    }

    /// `bytes` through a custom AVIOContext: nothing written to disk, and no protocol opened.
    init(bytes: [UInt8]) throws(VideoError) {
        _ = silenceFFmpeg
        let source = MemorySource(bytes)
        memory = source
        let size: Int32 = 64 * 1024
        guard let buffer = av_malloc(Int(size)) else { throw VideoError(.unreadable, "cannot allocate the input buffer") }
        io = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), size, 0, Unmanaged.passUnretained(source).toOpaque(),
            { opaque, buffer, size in Unmanaged<MemorySource>.fromOpaque(opaque!).takeUnretainedValue().read(buffer!, Int(size)) }, nil,
            { opaque, offset, whence in Unmanaged<MemorySource>.fromOpaque(opaque!).takeUnretainedValue().seek(offset, whence) })
        guard io != nil else {
            var owned: UnsafeMutableRawPointer? = buffer
            av_freep(&owned)
            throw VideoError(.unreadable, "cannot allocate the input context")
        }
        try open(url: "", fileProtocol: false)
    }

    deinit {
        avformat_close_input(&format)  // custom I/O: the AVIOContext stays ours
        guard io != nil else { return }
        if memory == nil {
            avio_closep(&io)
        } else {
            av_freep(&io!.pointee.buffer)  // FFmpeg may have replaced the buffer it was given
            avio_context_free(&io)
        }
    }

    /// Probes the demuxer, refuses one off the whitelist, opens it with the whitelists set and
    /// reads the streams' parameters.
    private func open(url: String, fileProtocol: Bool) throws(VideoError) {
        var probed: UnsafePointer<AVInputFormat>? = nil
        let score = av_probe_input_buffer2(io, &probed, url, nil, 0, 0)
        guard score >= 0, let probed else {
            let empty = score == cav_error_eof()
            throw VideoError(empty ? .truncated : .corrupt, "not a recognised container: \(avMessage(score))")
        }
        demuxer = String(cString: probed.pointee.name)
        guard VideoWhitelist.demuxers.contains(demuxer) else {
            throw VideoError(.unsupported, "the \(demuxer) format is not a video container CodeSweep reads")
        }
        format = avformat_alloc_context()
        guard let context = format else { throw VideoError(.unreadable, "cannot allocate the format context") }
        context.pointee.pb = io
        if !fileProtocol {
            // A reference to another file (a MOV's dref, a playlist) opens nothing at all.
            context.pointee.io_open = { _, _, _, _, _ in cav_error_permission() }
        }
        var options: OpaquePointer? = nil
        av_dict_set(&options, "format_whitelist", VideoWhitelist.formatOption, 0)
        av_dict_set(&options, "codec_whitelist", VideoWhitelist.codecOption, 0)
        if fileProtocol { av_dict_set(&options, "protocol_whitelist", "file", 0) }
        let status = avformat_open_input(&format, url, probed, &options)
        av_dict_free(&options)
        guard status >= 0, let opened = format else {
            format = nil
            throw VideoError(status == cav_error_eof() ? .truncated : .corrupt, "the \(demuxer) container does not open: \(avMessage(status))")
        }
        let name = String(cString: opened.pointee.iformat.pointee.name)
        guard VideoWhitelist.demuxers.contains(name) else { throw VideoError(.unsupported, "the \(name) format is not a video container CodeSweep reads") }
        let found = avformat_find_stream_info(opened, nil)
        guard found >= 0 else { throw VideoError(.corrupt, "the \(demuxer) streams do not parse: \(avMessage(found))") }
    }
}

/// FFmpeg's own log is silenced once, before the first input opens: what goes wrong comes back as
/// errors (`VideoError`, `VideoReader.damage`).
private let silenceFFmpeg: Void = av_log_set_level(AV_LOG_QUIET)
