/* OpenSSL 3's libcrypto (Debian libssl-dev; libssl3 at run time): its EVP message digests, for Digests. */
#include <openssl/evp.h>
