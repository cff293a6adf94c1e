// libjpeg-turbo decoding to grey, with libjpeg's longjmp error handling kept inside this file:
// each entry point sets its jump, and every error or warning libjpeg raises comes back here and
// is returned as a status and a message.
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "cjpeg.h"

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int status;
    char message[JMSG_LENGTH_MAX];
} cj_error;

typedef struct {
    struct jpeg_progress_mgr pub;
    int max_scans;
} cj_progress;

static void cj_error_exit(j_common_ptr c) {
    cj_error *e = (cj_error *)c->err;
    (*c->err->format_message)(c, e->message);
    e->status = CJPEG_ERROR;
    longjmp(e->jump, 1);
}

// Warnings (level -1) stop the decode: the caller falls back to a decoder that keeps them.
// Trace messages (level >= 0) are ignored.
static void cj_emit_message(j_common_ptr c, int level) {
    if (level >= 0) return;
    cj_error *e = (cj_error *)c->err;
    (*c->err->format_message)(c, e->message);
    e->status = CJPEG_WARNING;
    longjmp(e->jump, 1);
}

// A progressive file of thousands of tiny scans costs a full pass over the image per scan.
static void cj_progress_monitor(j_common_ptr c) {
    j_decompress_ptr d = (j_decompress_ptr)c;
    cj_progress *p = (cj_progress *)c->progress;
    if (p->max_scans > 0 && d->input_scan_number > p->max_scans) {
        cj_error *e = (cj_error *)c->err;
        snprintf(e->message, sizeof e->message, "more than %d progressive scans", p->max_scans);
        e->status = CJPEG_UNSUPPORTED;
        longjmp(e->jump, 1);
    }
}

static void cj_copy_message(const char *from, char *to, size_t size) {
    if (to == NULL || size == 0) return;
    snprintf(to, size, "%s", from);
}

// Whether this path decodes the file whose header `d` holds; the reason in e->message if not.
static int cj_supported(j_decompress_ptr d, cj_error *e) {
    if (d->data_precision != 8) {
        snprintf(e->message, sizeof e->message, "%d-bit samples", d->data_precision);
        return CJPEG_UNSUPPORTED;
    }
    if (d->arith_code) {
        snprintf(e->message, sizeof e->message, "arithmetic coding");
        return CJPEG_UNSUPPORTED;
    }
    int grey = d->jpeg_color_space == JCS_GRAYSCALE && d->num_components == 1;
    int ycc = d->jpeg_color_space == JCS_YCbCr && d->num_components == 3;
    if (!grey && !ycc) {
        snprintf(e->message, sizeof e->message, "colour space %d with %d components", (int)d->jpeg_color_space,
                 d->num_components);
        return CJPEG_UNSUPPORTED;
    }
    return CJPEG_OK;
}

static void cj_setup(j_decompress_ptr d, cj_error *e) {
    memset(d, 0, sizeof *d);
    d->err = jpeg_std_error(&e->pub);
    e->pub.error_exit = cj_error_exit;
    e->pub.emit_message = cj_emit_message;
    e->status = CJPEG_OK;
    e->message[0] = 0;
}

// Reads the header, checks it and sets grey output at 1/scale_denom. Returns a status.
static int cj_start(j_decompress_ptr d, cj_error *e, const unsigned char *data, size_t size, int scale_denom) {
    jpeg_create_decompress(d);
    jpeg_mem_src(d, data, (unsigned long)size);
    if (jpeg_read_header(d, TRUE) != JPEG_HEADER_OK) {
        snprintf(e->message, sizeof e->message, "no image in the stream (tables only)");
        return CJPEG_UNSUPPORTED;
    }
    int status = cj_supported(d, e);
    if (status != CJPEG_OK) return status;
    d->out_color_space = JCS_GRAYSCALE;
    // ImageMagick 6's JPEG coder decodes with the float IDCT: the same Y as its decode had.
    d->dct_method = JDCT_FLOAT;
    d->scale_num = 1;
    d->scale_denom = (unsigned int)scale_denom;
    jpeg_calc_output_dimensions(d);
    return CJPEG_OK;
}

static int cj_valid_scale(int scale_denom) {
    return scale_denom >= 1 && scale_denom <= 16;
}

int cjpeg_inspect(const unsigned char *data, size_t size, int scale_denom, cjpeg_header *header,
                  char *message, size_t message_size) {
    if (data == NULL || size == 0 || header == NULL || !cj_valid_scale(scale_denom)) return CJPEG_BAD_ARGUMENT;
    struct jpeg_decompress_struct d;
    cj_error e;
    cj_setup(&d, &e);
    if (setjmp(e.jump)) {
        jpeg_destroy_decompress(&d);
        cj_copy_message(e.message, message, message_size);
        return e.status;
    }
    int status = cj_start(&d, &e, data, size, scale_denom);
    memset(header, 0, sizeof *header);
    header->width = (int)d.image_width;
    header->height = (int)d.image_height;
    header->components = d.num_components;
    header->color_space = (int)d.jpeg_color_space;
    header->precision = d.data_precision;
    header->progressive = d.progressive_mode ? 1 : 0;
    header->arithmetic = d.arith_code ? 1 : 0;
    if (status == CJPEG_OK) {
        header->output_width = (int)d.output_width;
        header->output_height = (int)d.output_height;
    }
    jpeg_destroy_decompress(&d);
    cj_copy_message(e.message, message, message_size);
    return status;
}

// Reads rows [y, y + h) of the started decode into out (w bytes a row); `row` is a buffer of the
// cropped width when the columns are cropped (x0: the column it starts at), NULL when not.
static void cj_read_rows(j_decompress_ptr d, int x0, int x, int y, int w, int h, unsigned char *row,
                         unsigned char *out) {
    if (y > 0) jpeg_skip_scanlines(d, (JDIMENSION)y);
    while ((int)d->output_scanline < y + h) {
        int r = (int)d->output_scanline - y;
        if (row != NULL) {
            JSAMPROW rows[1] = {row};
            if (jpeg_read_scanlines(d, rows, 1) != 1) break;
            memcpy(out + (size_t)r * (size_t)w, row + (x - x0), (size_t)w);
        } else {
            JSAMPROW rows[16];
            int n = y + h - (int)d->output_scanline;
            if (n > 16) n = 16;
            for (int i = 0; i < n; i++) rows[i] = out + (size_t)(r + i) * (size_t)w;
            if (jpeg_read_scanlines(d, rows, (JDIMENSION)n) == 0) break;
        }
    }
}

int cjpeg_decode_grey(const unsigned char *data, size_t size, int scale_denom, int x, int y, int w, int h,
                      unsigned char *out, size_t out_size, long max_memory, int max_scans, char *message,
                      size_t message_size) {
    if (data == NULL || size == 0 || out == NULL || !cj_valid_scale(scale_denom) || x < 0 || y < 0 || w < 0 || h < 0)
        return CJPEG_BAD_ARGUMENT;
    struct jpeg_decompress_struct d;
    cj_error e;
    cj_progress p;
    unsigned char *volatile row = NULL;
    cj_setup(&d, &e);
    if (setjmp(e.jump)) {
        jpeg_destroy_decompress(&d);
        free(row);
        cj_copy_message(e.message, message, message_size);
        return e.status;
    }
    int status = cj_start(&d, &e, data, size, scale_denom);
    if (status == CJPEG_OK) {
        int ow = (int)d.output_width, oh = (int)d.output_height;
        if (w == 0 || h == 0) {
            x = 0; y = 0; w = ow; h = oh;
        }
        if ((long)x + w > ow || (long)y + h > oh || (size_t)w * (size_t)h > out_size) {
            snprintf(e.message, sizeof e.message, "region %dx%d at %d,%d is not within %dx%d or the buffer", w, h, x, y,
                     ow, oh);
            status = CJPEG_BAD_ARGUMENT;
        }
    }
    if (status != CJPEG_OK) {
        jpeg_destroy_decompress(&d);
        cj_copy_message(e.message, message, message_size);
        return status;
    }
    if (max_memory > 0) d.mem->max_memory_to_use = max_memory;
    p.pub.progress_monitor = cj_progress_monitor;
    p.max_scans = max_scans;
    d.progress = &p.pub;
    jpeg_start_decompress(&d);
    JDIMENSION x0 = (JDIMENSION)x, cropped = (JDIMENSION)w;
    if (w < (int)d.output_width) {
        jpeg_crop_scanline(&d, &x0, &cropped);
        row = malloc(cropped);
        if (row == NULL) {
            snprintf(e.message, sizeof e.message, "out of memory for a row of %u pixels", cropped);
            e.status = CJPEG_ERROR;
            longjmp(e.jump, 1);
        }
    }
    cj_read_rows(&d, (int)x0, x, y, w, h, row, out);
    if ((int)d.output_scanline < y + h) {
        snprintf(e.message, sizeof e.message, "the decoder stopped at row %u of %d", d.output_scanline, y + h);
        e.status = CJPEG_ERROR;
        longjmp(e.jump, 1);
    }
    if (d.output_scanline == d.output_height) {
        jpeg_finish_decompress(&d);  // reads to the end: a warning there still declines the decode
    } else {
        jpeg_abort_decompress(&d);
    }
    jpeg_destroy_decompress(&d);
    free(row);
    cj_copy_message(e.message, message, message_size);
    return CJPEG_OK;
}

int cjpeg_version(void) { return LIBJPEG_TURBO_VERSION_NUMBER; }
