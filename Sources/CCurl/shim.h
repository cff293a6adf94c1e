// libcurl's C face for CurlBridge: curl_easy_setopt and curl_easy_getinfo are variadic, which
// Swift cannot call, so each type of option has a typed inline function here; and the two
// socket-level helpers the address check needs (the bytes of the address curl is about to
// connect to, and the socket it asked for). No logic: the decisions are Swift's (LinkCheck).
#include <curl/curl.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

static inline CURLcode cs_set_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode cs_set_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode cs_set_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode cs_set_list(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode cs_set_opensocket(CURL *h, curl_opensocket_callback f) { return curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, f); }
static inline CURLcode cs_set_prereq(CURL *h, curl_prereq_callback f) { return curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, f); }
static inline CURLcode cs_set_write(CURL *h, curl_write_callback f) { return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f); }

static inline long cs_info_long(CURL *h, CURLINFO i) {
    long v = 0;
    if (curl_easy_getinfo(h, i, &v) != CURLE_OK) return -1;
    return v;
}
static inline const char *cs_info_string(CURL *h, CURLINFO i) {
    char *v = NULL;
    if (curl_easy_getinfo(h, i, &v) != CURLE_OK) return NULL;
    return v;
}

/// The first value of a response header of the last request (of the last hop curl made), or NULL.
static inline const char *cs_header(CURL *h, const char *name) {
    struct curl_header *p = NULL;
    if (curl_easy_header(h, name, 0, CURLH_HEADER, -1, &p) != CURLHE_OK || p == NULL) return NULL;
    return p->value;
}

/// The address curl is about to connect to: 4 bytes (AF_INET) or 16 (AF_INET6) into `out`,
/// their count returned; 0 for any other family.
static inline int cs_sockaddr_bytes(const struct curl_sockaddr *a, unsigned char out[16]) {
    if (a->family == AF_INET && a->addrlen >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)&a->addr;
        memcpy(out, &in->sin_addr, 4);
        return 4;
    }
    if (a->family == AF_INET6 && a->addrlen >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&a->addr;
        memcpy(out, &in6->sin6_addr, 16);
        return 16;
    }
    return 0;
}

/// The socket curl asked for (what it would have opened itself), or CURL_SOCKET_BAD.
static inline curl_socket_t cs_open_socket(const struct curl_sockaddr *a) { return socket(a->family, a->socktype, a->protocol); }
static inline curl_socket_t cs_socket_bad(void) { return CURL_SOCKET_BAD; }
static inline CURLcode cs_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }
static inline size_t cs_error_size(void) { return CURL_ERROR_SIZE; }
