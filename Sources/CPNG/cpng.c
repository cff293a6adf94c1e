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

int cpng_decode_grey(const unsigned char *data, size_t size, unsigned char *out, size_t out_size,
                     char *message, size_t message_size) {
    png_image image;
    int status = begin(&image, data, size, message, message_size);
    if (status != CPNG_OK) return status;
    size_t w = image.width, h = image.height;
    if (!out || w == 0 || h == 0 || out_size != w * h || w > (size_t)1 << 20) {
        png_image_free(&image);
        say(message, message_size, "output buffer does not fit the image");
        return CPNG_BAD_ARGUMENT;
    }
    // Whole RGBA rows, then grey over white in place, row by row into out.
    image.format = PNG_FORMAT_RGBA;
    unsigned char *rgba = malloc(PNG_IMAGE_SIZE(image));
    if (!rgba) {
        png_image_free(&image);
        say(message, message_size, "out of memory");
        return CPNG_ERROR;
    }
    if (!png_image_finish_read(&image, NULL, rgba, 0, NULL) || image.warning_or_error) {
        say(message, message_size, image.message);
        png_image_free(&image);
        free(rgba);
        return CPNG_ERROR;
    }
    for (size_t i = 0; i < w * h; i++) {
        const unsigned char *p = rgba + 4 * i;
        unsigned a = p[3];
        unsigned r = p[0], g = p[1], b = p[2];
        if (a != 255) {
            // Over white, rounded as MagickWand's alpha removal composes.
            r = (r * a + 255 * (255 - a) + 127) / 255;
            g = (g * a + 255 * (255 - a) + 127) / 255;
            b = (b * a + 255 * (255 - a) + 127) / 255;
        }
        out[i] = (unsigned char)((r * 77 + g * 150 + b * 29 + 128) >> 8);
    }
    free(rgba);
    png_image_free(&image);
    return CPNG_OK;
}
