#ifndef CJPEG_H
#define CJPEG_H
// Plain C face of libjpeg-turbo (Debian's libjpeg62-turbo): a JPEG's bytes in, 8-bit grey out.
// libjpeg reports errors by longjmp; the setjmp and every longjmp stay inside cjpeg.c, so no
// jump crosses a Swift frame. Every call creates and destroys its own decompressor.
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// Status of cjpeg_inspect and cjpeg_decode_grey.
enum {
    CJPEG_OK = 0,
    CJPEG_ERROR = 1,      // libjpeg stopped with an error (message set)
    CJPEG_WARNING = 2,    // libjpeg warned (corrupt or truncated data; message set): the decode stopped there
    CJPEG_UNSUPPORTED = 3,  // a JPEG this path does not decode (message says why): not an error in the file
    CJPEG_BAD_ARGUMENT = 4,
};

// What the header says, and the size of a decode at 1/scale_denom.
typedef struct cjpeg_header {
    int width, height;       // as stored (before EXIF orientation)
    int components;
    int color_space;         // libjpeg's J_COLOR_SPACE of the file (1 grey, 3 YCbCr, 4 CMYK, 5 YCCK, 2 RGB)
    int precision;           // bits per sample
    int progressive;
    int arithmetic;
    int output_width, output_height;  // at 1/scale_denom
} cjpeg_header;

// Reads the header and says whether cjpeg_decode_grey would decode this file: CJPEG_OK for an
// 8-bit baseline or progressive Huffman-coded JPEG that is greyscale (1 component) or YCbCr
// (3 components); CJPEG_UNSUPPORTED otherwise, CJPEG_ERROR for a header libjpeg refuses.
// scale_denom: 1...16 (libjpeg's DCT scaling with scale_num 1: libjpeg-turbo decodes at the
// smallest M/8 that is at least 1/scale_denom, as for ImageMagick's jpeg:size).
int cjpeg_inspect(const unsigned char *data, size_t size, int scale_denom, cjpeg_header *header,
                  char *message, size_t message_size);

// Decodes to 8-bit grey (out_color_space JCS_GRAYSCALE: no chroma is decoded past entropy
// decoding) at 1/scale_denom, the rows [y, y + h) and columns [x, x + w) of that scaled image
// (w or h 0: the whole image), into out (w * h bytes, rows packed). Columns outside the region
// are cropped by jpeg_crop_scanline, rows above it skipped by jpeg_skip_scanlines, rows below
// it never decoded. Any libjpeg warning (corrupt data, premature end of the file) stops the
// decode with CJPEG_WARNING. max_memory: bytes libjpeg may allocate (0: no limit); max_scans:
// a progressive file's scans at most (0: no limit). inspect's checks are made again.
int cjpeg_decode_grey(const unsigned char *data, size_t size, int scale_denom,
                      int x, int y, int w, int h, unsigned char *out, size_t out_size,
                      long max_memory, int max_scans, char *message, size_t message_size);

// libjpeg-turbo's version, e.g. 2001005.
int cjpeg_version(void);

#ifdef __cplusplus
}
#endif
#endif
