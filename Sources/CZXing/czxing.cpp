// The C face of zxing-cpp. Exceptions never leave this file; an abort() inside the reader
// (Debian's 1.4 is built with assertions on) is caught on the calling thread when asked.
#include "czxing.h"

#define ZX_USE_UTF8 1

#include <ZXing/ReadBarcode.h>
#include <ZXing/ZXVersion.h>

#include <csetjmp>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace {

// The jump buffer of the czx_read running on this thread, if any. abort() raises SIGABRT on
// the calling thread, so the handler jumps back into the czx_read that was reading.
thread_local sigjmp_buf *activeJump = nullptr;
struct sigaction previousAbort;
std::once_flag installOnce;

void onAbort(int sig, siginfo_t *info, void *context) {
    if (sigjmp_buf *jump = activeJump) {
        activeJump = nullptr;
        siglongjmp(*jump, 1);
    }
    // Not ours: what was there before (the Swift runtime's backtracer, or the default).
    if (previousAbort.sa_flags & SA_SIGINFO) {
        if (previousAbort.sa_sigaction) { previousAbort.sa_sigaction(sig, info, context); return; }
    } else if (previousAbort.sa_handler != SIG_DFL && previousAbort.sa_handler != SIG_IGN) {
        previousAbort.sa_handler(sig);
        return;
    }
    signal(SIGABRT, SIG_DFL);
    raise(SIGABRT);
}

void installAbortHandler() {
    std::call_once(installOnce, [] {
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = onAbort;
        sa.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGABRT, &sa, &previousAbort);
    });
}

int readInto(const unsigned char *luma, int width, int height, int stride, int formats, int tryHarder,
             int fault, czx_result **out, int *count) {
    if (fault == CZX_FAULT_ABORT || fault == CZX_FAULT_ABORT_UNGUARDED) abort();
    if (fault == CZX_FAULT_CRASH) raise(SIGKILL);
    if (fault == CZX_FAULT_HANG) for (;;) sleep(1000);
    try {
        ZXing::DecodeHints hints;
        hints.setFormats(ZXing::BarcodeFormats(static_cast<ZXing::BarcodeFormat>(formats)));
        hints.setTryHarder(tryHarder != 0);
        hints.setTryRotate(tryHarder != 0);
        hints.setTryDownscale(tryHarder != 0);
        ZXing::ImageView view(luma, width, height, ZXing::ImageFormat::Lum, stride);
        ZXing::Results results = ZXing::ReadBarcodes(view, hints);
        int n = 0;
        for (auto &r : results) if (r.isValid()) n++;
        if (n == 0) return CZX_OK;
        auto *res = static_cast<czx_result *>(std::calloc(n, sizeof(czx_result)));
        if (!res) return CZX_EXCEPTION;
        int i = 0;
        for (auto &r : results) {
            if (!r.isValid()) continue;
            czx_result &o = res[i++];
            o.format = static_cast<int>(r.format());
            const auto &b = r.bytes();
            o.length = static_cast<int>(b.size());
            o.bytes = static_cast<unsigned char *>(std::malloc(b.size() > 0 ? b.size() : 1));
            if (o.bytes && !b.empty()) std::memcpy(o.bytes, b.data(), b.size());
            if (!o.bytes) o.length = 0;
            o.gs1 = r.contentType() == ZXing::ContentType::GS1 ? 1 : 0;
            const auto &p = r.position();
            for (int k = 0; k < 4; k++) { o.x[k] = p[k].x; o.y[k] = p[k].y; }
            o.orientation = r.orientation();
            if (r.format() == ZXing::BarcodeFormat::Aztec) {
                // The data bits as the error correction left them, so the caller can check the
                // bytes 1.4's Aztec decoder made of them (it reads past their end on some codes).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
                const auto &raw = r.rawBytes();
                int bits = r.numBits();
#pragma GCC diagnostic pop
                if (bits > 0 && static_cast<size_t>(bits) <= raw.size() * 8) {
                    o.raw = static_cast<unsigned char *>(std::malloc(raw.size()));
                    if (o.raw) { std::memcpy(o.raw, raw.data(), raw.size()); o.raw_bits = bits; }
                }
            }
            std::string si = r.symbologyIdentifier();
            std::strncpy(o.symbology_id, si.c_str(), sizeof o.symbology_id - 1);
        }
        *out = res;
        *count = n;
        return CZX_OK;
    } catch (...) {
        return CZX_EXCEPTION;
    }
}

} // namespace

extern "C" int czx_read(const unsigned char *luma, int width, int height, int stride, int formats,
                        int try_harder, int guard_abort, int fault, czx_result **out, int *count) {
    if (!out || !count) return CZX_BAD_ARGUMENT;
    *out = nullptr;
    *count = 0;
    if (!luma || width <= 0 || height <= 0 || stride < width) return CZX_BAD_ARGUMENT;
    if (!guard_abort || fault == CZX_FAULT_ABORT_UNGUARDED)
        return readInto(luma, width, height, stride, formats, try_harder, fault, out, count);
    installAbortHandler();
    sigjmp_buf jump;
    if (sigsetjmp(jump, 1) != 0) {
        // Back from abort(): whatever the reader held is leaked (no destructors ran); the
        // results of this call, if any were being built, are lost.
        return CZX_ABORTED;
    }
    activeJump = &jump;
    int status = readInto(luma, width, height, stride, formats, try_harder, fault, out, count);
    activeJump = nullptr;
    return status;
}

extern "C" void czx_free(czx_result *results, int count) {
    if (!results) return;
    for (int i = 0; i < count; i++) { std::free(results[i].bytes); std::free(results[i].raw); }
    std::free(results);
}

#define CZX_STR2(x) #x
#define CZX_STR(x) CZX_STR2(x)
extern "C" const char *czx_version(void) {
    return CZX_STR(ZXING_VERSION_MAJOR) "." CZX_STR(ZXING_VERSION_MINOR) "." CZX_STR(ZXING_VERSION_PATCH);
}
