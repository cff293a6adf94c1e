#ifndef CPNG_H
#define CPNG_H
// Plain C face of libpng 1.6 (Debian's libpng-dev): a PNG's bytes in, 8-bit grey out. libpng
// reports errors by longjmp; the setjmp and every longjmp stay inside cpng.c, so no jump crosses
// a Swift frame. Every call makes and frees its own reader.
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    CPNG_OK = 0,
    CPNG_ERROR = 1,        // libpng stopped with an error or a warning (message set)
    CPNG_UNSUPPORTED = 2,  // a PNG this path does not decode (an animated PNG): not an error in the file
    CPNG_BAD_ARGUMENT = 3,
};

// Reads the header: the size, and whether cpng_decode_grey decodes this file.
int cpng_inspect(const unsigned char *data, size_t size, int *width, int *height, char *message, size_t message_size);

// Decodes the whole image to 8-bit grey into out (width * height bytes), row by row (an
// interlaced image whole): 8-bit samples as stored (palette and low bit depths expanded, tRNS
// as alpha, 16 bits cut to 8; no gamma applied, as MagickWand's export), alpha composed over
// white, grey = (19595 R + 38470 G + 7471 B + 32768) >> 16, as RGBImage.luma. A libpng error
// (its longjmp stays in this call) or any warning gives CPNG_ERROR: the caller decodes another way.
int cpng_decode_grey(const unsigned char *data, size_t size, unsigned char *out, size_t out_size,
                     char *message, size_t message_size);

#ifdef __cplusplus
}
#endif
#endif
