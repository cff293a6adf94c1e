/* zlib (Debian zlib1g-dev): deflate streams and CRC-32, for the PNG files `generate` writes. */
#include <zlib.h>
