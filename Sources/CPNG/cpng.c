#include "cpng.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

static void say(char *message, size_t size, const char *text) {
    if (message && size > 0) {
        strncpy(message, text, size - 1);
        message[size - 1] = 0;
    }
}

// An acTL chunk before the first IDAT: an animated PNG, whose frames libpng does not read.
static int animated(const unsigned char *data, size_t size) {
    size_t at = 8;
    while (at + 8 <= size) {
        size_t length = ((size_t)data[at] << 24) | ((size_t)data[at + 1] << 16) | ((size_t)data[at + 2] << 8) | data[at + 3];
        const unsigned char *type = data + at + 4;
        if (memcmp(type, "acTL", 4) == 0) return 1;
        if (memcmp(type, "IDAT", 4) == 0) return 0;
        if (length > size - at - 12) return 0;
        at += 12 + length;
    }
    return 0;
}

static int begin(png_image *image, const unsigned char *data, size_t size, char *message, size_t message_size) {
    memset(image, 0, sizeof *image);
    image->version = PNG_IMAGE_VERSION;
    if (!data || size < 8) {
        say(message, message_size, "no PNG data");
        return CPNG_BAD_ARGUMENT;
    }
    if (animated(data, size)) {
        say(message, message_size, "an animated PNG (acTL): its frames are read elsewhere");
        return CPNG_UNSUPPORTED;
    }
    if (!png_image_begin_read_from_memory(image, data, size)) {
        say(message, message_size, image->message);
        png_image_free(image);
        return CPNG_ERROR;
    }
    if (image->warning_or_error) {
        say(message, message_size, image->message);
        png_image_free(image);
        return CPNG_ERROR;
    }
    return CPNG_OK;
}

int cpng_inspect(const unsigned char *data, size_t size, int *width, int *height, char *message, size_t message_size) {
    png_image image;
    int status = begin(&image, data, size, message, message_size);
    if (status != CPNG_OK) return status;
    if (width) *width = (int)image.width;
    if (height) *height = (int)image.height;
    png_image_free(&image);
    return CPNG_OK;
}

typedef struct {
    const unsigned char *data;
    size_t size, at;
    int warned;
    char *message;
    size_t message_size;
} source;

static void read_bytes(png_structp png, png_bytep out, png_size_t n) {
    source *s = png_get_io_ptr(png);
    if (n > s->size - s->at) png_error(png, "the PNG data ends early");
    memcpy(out, s->data + s->at, n);
    s->at += n;
}

static void on_error(png_structp png, png_const_charp text) {
    source *s = png_get_error_ptr(png);
    say(s->message, s->message_size, text);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    source *s = png_get_error_ptr(png);
    if (!s->warned) say(s->message, s->message_size, text);
    s->warned = 1;
}

static inline unsigned char grey(unsigned r, unsigned g, unsigned b, unsigned a) {
    if (a != 255) {
        // Over white, rounded as MagickWand's alpha removal composes.
        r = (r * a + 255 * (255 - a) + 127) / 255;
        g = (g * a + 255 * (255 - a) + 127) / 255;
        b = (b * a + 255 * (255 - a) + 127) / 255;
    }
    return (unsigned char)((r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16);
}

static void grey_row(const unsigned char *row, int channels, size_t w, unsigned char *out) {
    switch (channels) {
    case 1: memcpy(out, row, w); break;
    case 2: for (size_t x = 0; x < w; x++) out[x] = grey(row[2 * x], row[2 * x], row[2 * x], row[2 * x + 1]); break;
    case 3: for (size_t x = 0; x < w; x++) out[x] = grey(row[3 * x], row[3 * x + 1], row[3 * x + 2], 255); break;
    default: for (size_t x = 0; x < w; x++) out[x] = grey(row[4 * x], row[4 * x + 1], row[4 * x + 2], row[4 * x + 3]); break;
    }
}

int cpng_decode_grey(const unsigned char *data, size_t size, unsigned char *out, size_t out_size,
                     char *message, size_t message_size) {
    if (!data || size < 8 || !out) {
        say(message, message_size, "no PNG data");
        return CPNG_BAD_ARGUMENT;
    }
    if (animated(data, size)) {
        say(message, message_size, "an animated PNG (acTL): its frames are read elsewhere");
        return CPNG_UNSUPPORTED;
    }
    source src = {data, size, 0, 0, message, message_size};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, on_error, on_warning);
    if (!png) return CPNG_ERROR;
    png_infop info = png_create_info_struct(png);
    // volatile: set after setjmp and freed after a longjmp back to it.
    unsigned char *volatile rows = NULL;
    png_bytep *volatile pointers = NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        free(rows);
        free(pointers);
        return CPNG_ERROR;
    }
    png_set_read_fn(png, &src, read_bytes);
    png_read_info(png, info);
    // 8-bit samples: palettes and low bit depths expanded, tRNS as alpha, 16 bits scaled to 8.
    png_set_expand(png);
#ifdef PNG_READ_SCALE_16_TO_8_SUPPORTED
    png_set_scale_16(png);
#else
    png_set_strip_16(png);
#endif
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    int channels = png_get_channels(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    if (w == 0 || h == 0 || out_size != w * h || channels < 1 || channels > 4 || rowbytes < w * (size_t)channels) {
        png_destroy_read_struct(&png, &info, NULL);
        say(message, message_size, "output buffer does not fit the image");
        return CPNG_BAD_ARGUMENT;
    }
    if (passes > 1) {
        // Interlaced: every pass fills the whole image, kept whole until the last.
        rows = malloc(rowbytes * h);
        pointers = malloc(sizeof(png_bytep) * h);
        if (!rows || !pointers) png_error(png, "out of memory");
        for (size_t y = 0; y < h; y++) pointers[y] = rows + rowbytes * y;
        png_read_image(png, pointers);
        for (size_t y = 0; y < h; y++) grey_row(pointers[y], channels, w, out + y * w);
    } else {
        rows = malloc(rowbytes);
        if (!rows) png_error(png, "out of memory");
        for (size_t y = 0; y < h; y++) {
            png_read_row(png, rows, NULL);
            grey_row(rows, channels, w, out + y * w);
        }
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    free(pointers);
    return src.warned ? CPNG_ERROR : CPNG_OK;
}
