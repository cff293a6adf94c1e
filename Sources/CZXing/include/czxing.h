#ifndef CZXING_H
#define CZXING_H
// Plain C face of zxing-cpp (Debian's libzxing, 1.4): a luma buffer in, an array of results
// out. No C++ type crosses this header; every call allocates and frees its own reader state.
#ifdef __cplusplus
extern "C" {
#endif

// zxing-cpp's BarcodeFormat bits for the families CodeSweep asks it for.
enum {
    CZX_AZTEC = 1 << 0,
    CZX_DATAMATRIX = 1 << 7,
    CZX_PDF417 = 1 << 12,
    CZX_QRCODE = 1 << 13,
};

// Status of czx_read.
enum {
    CZX_OK = 0,
    CZX_EXCEPTION = 1,   // a C++ exception escaped the reader: no results
    CZX_ABORTED = 2,     // the reader called abort() (a failed assertion): caught, no results
    CZX_BAD_ARGUMENT = 3,
};

typedef struct czx_result {
    int format;               // one CZX_* bit
    unsigned char *bytes;     // the payload bytes (malloc'd; freed by czx_free)
    int length;
    int gs1;                  // 1 when the content is GS1 element strings (FNC1 first)
    double x[4], y[4];        // corners: top-left, top-right, bottom-right, bottom-left of the code
    int orientation;          // degrees, as zxing-cpp reports it
    char symbology_id[8];     // AIM identifier, e.g. "]d2"
    unsigned char *raw;       // Aztec only: the error-corrected data bits, MSB first (malloc'd; freed by czx_free), else NULL
    int raw_bits;             // how many bits of `raw` are data
} czx_result;

// Test hooks (CODESWEEP_TEST_SECOND_DECODER): what czx_read does instead of reading.
enum { CZX_FAULT_NONE = 0, CZX_FAULT_ABORT = 1, CZX_FAULT_CRASH = 2, CZX_FAULT_HANG = 3, CZX_FAULT_ABORT_UNGUARDED = 4 };

// Reads the codes of the given formats in an 8-bit grey image (row stride in bytes).
// try_harder: zxing-cpp's tryHarder + tryRotate. guard_abort: catch an abort() inside the reader
// (SIGABRT on this thread) and return CZX_ABORTED instead of ending the process.
// On CZX_OK, *out holds *count results (NULL when 0), to be released with czx_free.
int czx_read(const unsigned char *luma, int width, int height, int stride, int formats,
             int try_harder, int guard_abort, int fault, czx_result **out, int *count);
void czx_free(czx_result *results, int count);
// "1.4.0": the library version the headers declare.
const char *czx_version(void);

#ifdef __cplusplus
}
#endif
#endif
