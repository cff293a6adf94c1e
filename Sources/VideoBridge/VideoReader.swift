import CAV
import Imaging

/// A video's frames, sampled, as upright 8-bit grey, through FFmpeg's libraries (libavformat,
/// libavcodec, libswscale 5.1). Streams: one frame is held at a time, whatever the length.
///
/// Not Sendable: one task owns a reader, and FFmpeg's handles never cross tasks. One decoder
/// thread (the sweep's workers are already parallel); FFmpeg's log is silenced (its errors come
/// back as `VideoError` and `damage`).
///
/// Sampling: frames are decoded in order and none is sought. A packet whose presentation time is
/// before the next sample is due is decoded with `skip_frame = AVDISCARD_NONREF` (a frame no other
/// frame refers to is then not decoded at all: B-frames, mostly); from the packet that is due on,
/// `AVDISCARD_DEFAULT`. Keyframe seeking (to the keyframe before a due time) would only pay where
/// keyframes are closer together than the interval, which the clips a sweep meets (a keyframe
/// every 1 to 10 s) are not: it is not used, and every packet is met in order (damage included).
public final class VideoReader {
    public let info: VideoInfo
    /// The first damage met, and where: a demuxer's error, which ends the reading ("corrupt data
    /// after 2.40 s: Invalid data found when processing input"); a packet the decoder refuses, one
    /// the demuxer flags as damaged, or a frame decoded with errors concealed, after which reading
    /// goes on (50 refused packets in a row end it); or a file that ends well before the duration
    /// it declares. Frames read before the damage are kept; nil for a whole file.
    public private(set) var damage: String?
    /// Whether reading stopped at `maxSeconds` with frames left.
    public private(set) var capped = false
    /// Whether packets before the next sample skip their non-reference frames (on by default;
    /// off only to measure what the skipping saves).
    public var skipsNonReference = true

    private let input: VideoInput
    private let handles: DecoderHandles
    private var grey = GreyPlane()
    private let stream: Int32
    private let timeBase: Double
    private let start: Int64
    private let streamDuration: Double?  // the video stream's own, where the container gives one
    private let maxSeconds: Double
    private var demuxed = false  // the demuxer is done (the end, or damage); the decoder drains
    private var finished = false
    private var samples = 0
    private var lastSeconds: Double?
    private var decodeErrors = 0

    /// The video at `path` (its bytes as the file system has them), through FFmpeg's file
    /// protocol alone. Reads at most `maxSeconds` of it.
    public convenience init(path: [UInt8], maxSeconds: Double) throws(VideoError) {
        try self.init(input: try VideoInput(path: path), maxSeconds: maxSeconds)
    }

    /// A video held in memory (a member of an archive), read through a custom AVIOContext:
    /// nothing is written to disk and no other file or protocol is opened.
    public convenience init(bytes: [UInt8], maxSeconds: Double) throws(VideoError) {
        try self.init(input: try VideoInput(bytes: bytes), maxSeconds: maxSeconds)
    }

    private init(input: VideoInput, maxSeconds: Double) throws(VideoError) {
        self.input = input
        self.maxSeconds = maxSeconds
        let format = input.format!
        let index = try Self.videoStream(format)
        stream = index
        let st = format.pointee.streams[Int(index)]!
        let params = st.pointee.codecpar!
        let id = params.pointee.codec_id
        let codecName = String(cString: avcodec_get_name(id))
        guard let decoderName = VideoWhitelist.decoders[id] else {
            throw VideoError(.unsupported, "\(codecName) video is not a codec CodeSweep reads (H.264, HEVC, VP8, VP9, AV1, MPEG-4)")
        }
        guard let codec = avcodec_find_decoder_by_name(decoderName) else {
            throw VideoError(.unsupported, "this FFmpeg has no \(decoderName) decoder for \(codecName) video")
        }
        timeBase = av_q2d(st.pointee.time_base)
        streamDuration = st.pointee.duration != cav_nopts() && st.pointee.duration > 0 ? Double(st.pointee.duration) * timeBase : nil
        start = st.pointee.start_time == cav_nopts() ? 0 : st.pointee.start_time
        handles = DecoderHandles(codec)  // freed by its own deinit, should the rest of this throw
        guard let decoder = handles.decoder, handles.packet != nil, handles.frame != nil else {
            throw VideoError(.unreadable, "cannot allocate the decoder")
        }
        var status = avcodec_parameters_to_context(decoder, params)
        guard status >= 0 else { throw VideoError(.corrupt, "the \(codecName) stream's parameters: \(avMessage(status))") }
        decoder.pointee.thread_count = 1
        decoder.pointee.pkt_timebase = st.pointee.time_base
        var options: OpaquePointer? = nil
        av_dict_set(&options, "codec_whitelist", VideoWhitelist.codecOption, 0)
        status = avcodec_open2(decoder, codec, &options)
        av_dict_free(&options)
        guard status >= 0 else { throw VideoError(.corrupt, "the \(codecName) decoder does not open: \(avMessage(status))") }
        info = Self.info(format, st, codec: codecName, demuxer: input.demuxer)
    }

    deinit { grey.free() }

    /// The video stream to read: FFmpeg's best, not a cover picture (an M4A's artwork).
    private static func videoStream(_ format: UnsafeMutablePointer<AVFormatContext>) throws(VideoError) -> Int32 {
        var kinds: [String] = []
        let best = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        var candidates = best >= 0 ? [best] : []
        candidates += (0..<Int32(format.pointee.nb_streams)).filter { $0 != best }
        for index in candidates {
            let st = format.pointee.streams[Int(index)]!
            let params = st.pointee.codecpar!.pointee
            if params.codec_type == AVMEDIA_TYPE_VIDEO && st.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 { return index }
            let type = av_get_media_type_string(params.codec_type).map { String(cString: $0) } ?? "unknown"
            kinds.append("\(type) (\(String(cString: avcodec_get_name(params.codec_id))))")
        }
        let held = kinds.isEmpty ? "no stream" : kinds.sorted().joined(separator: ", ")
        throw VideoError(.notVideo, "no video stream: the file holds \(held)")
    }

    /// What the container and the stream say.
    private static func info(
        _ format: UnsafeMutablePointer<AVFormatContext>, _ st: UnsafeMutablePointer<AVStream>, codec: String, demuxer: String
    ) -> VideoInfo {
        let params = st.pointee.codecpar.pointee
        let turn = (Int((-cav_stream_rotation(st) / 90).rounded()) % 4 + 4) % 4 * 90
        let size = turn % 180 == 0 ? (Int(params.width), Int(params.height)) : (Int(params.height), Int(params.width))
        var duration: Double? = nil
        if format.pointee.duration != cav_nopts(), format.pointee.duration > 0 {
            duration = Double(format.pointee.duration) / Double(AV_TIME_BASE)
        } else if st.pointee.duration != cav_nopts(), st.pointee.duration > 0 {
            duration = Double(st.pointee.duration) * av_q2d(st.pointee.time_base)
        }
        let rate = [st.pointee.avg_frame_rate, st.pointee.r_frame_rate].first { $0.num > 0 && $0.den > 0 }.map(av_q2d)
        let desc = av_pix_fmt_desc_get(AVPixelFormat(rawValue: params.format))
        let depth = desc.map { Int($0.pointee.comp.0.depth) } ?? (params.bits_per_raw_sample > 0 ? Int(params.bits_per_raw_sample) : 8)
        return VideoInfo(
            container: demuxer, codec: codec, width: size.0, height: size.1, rotation: turn, duration: duration, frameRate: rate, bitDepth: depth)
    }

    /// The next frame whose presentation time is at least `lastSeconds + interval` (the first
    /// frame when `lastSeconds` is nil), upright grey; nil at the end, when damage ends the
    /// reading, or once a frame at `maxSeconds` or later is reached (`capped`).
    ///
    /// Passing the last frame's time spaces samples at least `interval` apart (a 25 fps clip at
    /// 0.25: 0, 0.28, 0.56...); passing the previous due time instead (0, 0.25, 0.5...) keeps them
    /// within a frame of each multiple of `interval`.
    public func next(after lastSeconds: Double?, interval: Double) -> VideoFrame? {
        let due = lastSeconds.map { $0 + interval - 1e-6 } ?? -Double.infinity
        while !finished, let seconds = decodeFrame(due: due) {
            if seconds >= maxSeconds {
                capped = true
                finished = true
                return nil
            }
            guard seconds >= due else { continue }
            switch grey.grey(handles.frame!) {
            case .success(let image):
                defer { samples += 1 }
                return VideoFrame(image: GreyPlane.upright(image, rotation: info.rotation), seconds: seconds, index: samples)
            case .failure(let error):
                note("\(error.message) at \(Self.time(seconds))")
                finished = true
            }
        }
        return nil
    }

    /// The next decoded frame's presentation time (the frame is in `frame`), or nil when no frame
    /// is left. Packets before `due` are decoded without their non-reference frames.
    private func decodeFrame(due: Double) -> Double? {
        guard let decoder = handles.decoder, let packet = handles.packet, let frame = handles.frame else { return nil }
        while true {
            let received = avcodec_receive_frame(decoder, frame)
            if received >= 0 {
                decodeErrors = 0
                let seconds = frameSeconds(frame)
                if frame.pointee.decode_error_flags != 0 || frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 {
                    note("corrupt data at \(Self.time(seconds)): a frame decoded with errors concealed")
                }
                return seconds
            }
            if received == cav_error_eof() {
                finished = true
                if damage == nil { checkLength() }
                return nil
            }
            if received != cav_error_again() {
                note("corrupt data after \(Self.time(lastSeconds)): \(avMessage(received))")
                finished = true
                return nil
            }
            if demuxed {  // drained, yet neither a frame nor the end: stop
                finished = true
                return nil
            }
            let read = av_read_frame(input.format, packet)
            if read < 0 {
                if read != cav_error_eof() { note("corrupt data after \(Self.time(lastSeconds)): \(avMessage(read))") }
                demuxed = true
                avcodec_send_packet(decoder, nil)  // drain the frames the decoder holds
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream else { continue }
            if packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 {
                note("corrupt data after \(Self.time(lastSeconds)): a packet the demuxer found damaged")
            }
            let pts = packet.pointee.pts
            let early = skipsNonReference && pts != cav_nopts() && Double(pts - start) * timeBase < due
            decoder.pointee.skip_frame = early ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
            let sent = avcodec_send_packet(decoder, packet)
            if sent < 0 && sent != cav_error_again() {
                // A broken packet: the decoder goes on from the next one; many in a row is the end.
                decodeErrors += 1
                note("corrupt data after \(Self.time(lastSeconds)): \(avMessage(sent))")
                if decodeErrors >= 50 {
                    demuxed = true
                    finished = true
                    return nil
                }
            }
        }
    }

    /// Keeps the first damage met.
    private func note(_ message: String) {
        if damage == nil { damage = message }
    }

    /// A decoded frame's time in seconds from the stream's start: its best-effort timestamp, else
    /// one frame after the last.
    private func frameSeconds(_ frame: UnsafeMutablePointer<AVFrame>) -> Double {
        let stamp = frame.pointee.best_effort_timestamp
        let seconds: Double
        if stamp != cav_nopts() {
            seconds = Double(stamp - start) * timeBase
        } else {
            seconds = (lastSeconds ?? -1 / (info.frameRate ?? 25)) + 1 / (info.frameRate ?? 25)
        }
        lastSeconds = seconds
        return seconds
    }

    /// At a clean end: a file that stops well before the duration its header declares (the
    /// stream's, else the container's) was cut. An MPEG-TS, or an AVI without its index, declares
    /// none: one cut at a packet's end reads as whole.
    private func checkLength() {
        guard let duration = streamDuration ?? info.duration, let last = lastSeconds else { return }
        let frame = 1 / (info.frameRate ?? 25)
        if last + max(1, 3 * frame) < duration {
            damage = "the video ends after \(Self.time(last)) of the \(Self.time(duration)) it declares: truncated or corrupt"
        }
    }

    private static func time(_ seconds: Double?) -> String {
        guard let seconds else { return "the start" }
        let hundredths = Int((seconds * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) s"
    }
}

/// The decoder's context, packet and frame, each freed with FFmpeg's own function when the
/// reader lets go (or when its initialiser throws after making them).
private final class DecoderHandles {
    var decoder: UnsafeMutablePointer<AVCodecContext>?
    var packet: UnsafeMutablePointer<AVPacket>?
    var frame: UnsafeMutablePointer<AVFrame>?

    init(_ codec: UnsafePointer<AVCodec>) {
        decoder = avcodec_alloc_context3(codec)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
    }

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&decoder)
    }
}
