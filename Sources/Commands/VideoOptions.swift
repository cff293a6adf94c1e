import ArgumentParser
import CodeSweep

/// How `scan` reads videos (MP4, MOV, M4V, Matroska, WebM, AVI, MPEG-TS): on by default, a few
/// samples a second, a cap on the time read.
struct VideoOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Read videos (MP4, MOV, M4V, Matroska, WebM, AVI, MPEG-TS; H.264, HEVC, VP8, VP9, AV1, MPEG-4): each code once for each span it is on screen, with \"seconds\": [first, last]. 'none': videos are not read (a walked one is not recorded).",
            valueName: "all|none"))
    var videos: ContainerOptions.Mode = .all

    @Option(
        help:
            "Frames sampled a second of video: at the default 4, a code on screen for 0.5 s is seen twice. A sample unchanged since the last one read is not read again."
    )
    var videoFps: Double = 4

    @Option(
        help:
            "Seconds of one video read at most (the default fits a 3-hour film); a capped record says so. --timeout applies to each second of video read, so a long film is not stopped as a hang, and this cap bounds it."
    )
    var maxVideoSeconds: Double = 10_800

    func validate() throws {
        if !(videoFps > 0 && videoFps <= 120) { throw ValidationError("--video-fps takes samples a second, more than 0 and at most 120") }
        if !(maxVideoSeconds > 0) { throw ValidationError("--max-video-seconds must be a positive number of seconds") }
    }

    var settings: VideoSettings {
        var s = VideoSettings()
        s.enabled = videos == .all
        s.samplesPerSecond = videoFps
        s.maxSeconds = maxVideoSeconds
        return s
    }
}
