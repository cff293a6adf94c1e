// FFmpeg 5.1's C API (Debian 12's libavformat-dev, libavcodec-dev, libswscale-dev, libavutil-dev)
// for VideoBridge, and what Swift cannot import of it: the error macros (AVERROR, AVERROR_EOF),
// AV_NOPTS_VALUE, the stream's display rotation, and the AVFrame's planes handed to libswscale.
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/mem.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

static inline int cav_error_again(void) { return AVERROR(EAGAIN); }
static inline int cav_error_eof(void) { return AVERROR_EOF; }
static inline int cav_error_invalid_data(void) { return AVERROR_INVALIDDATA; }
static inline int cav_error_io(void) { return AVERROR(EIO); }
static inline int cav_error_nomem(void) { return AVERROR(ENOMEM); }
static inline int cav_error_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int64_t cav_nopts(void) { return AV_NOPTS_VALUE; }

/// The counter-clockwise rotation (degrees) of the stream's display matrix, else its "rotate"
/// tag read as clockwise (negated), else 0.
static inline double cav_stream_rotation(const AVStream *stream) {
    size_t size = 0;
    const uint8_t *matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (matrix && size >= 9 * sizeof(int32_t)) {
        double theta = av_display_rotation_get((const int32_t *)matrix);
        if (!isnan(theta)) return theta;
    }
    const AVDictionaryEntry *tag = av_dict_get(stream->metadata, "rotate", NULL, 0);
    if (tag && tag->value) return -strtod(tag->value, NULL);
    return 0;
}

/// The frame as 8-bit grey through libswscale (pixel formats whose luma is not a plain plane).
/// `context` is kept between calls (sws_getCachedContext). Returns the height written or < 0.
static inline int cav_frame_to_gray8(struct SwsContext **context, const AVFrame *frame, uint8_t *out, int outStride) {
    *context = sws_getCachedContext(*context, frame->width, frame->height, (enum AVPixelFormat)frame->format, frame->width,
                                    frame->height, AV_PIX_FMT_GRAY8, SWS_BILINEAR, NULL, NULL, NULL);
    if (!*context) return AVERROR(EINVAL);
    uint8_t *planes[4] = {out, NULL, NULL, NULL};
    int strides[4] = {outStride, 0, 0, 0};
    return sws_scale(*context, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
}
static inline int cav_error_permission(void) { return AVERROR(EPERM); }
