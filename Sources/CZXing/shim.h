// zxing-cpp 3.1.1's own C API (ZXingC.h), from the static build scripts/build-zxing.sh makes
// (pkg-config codesweep-zxing). No C++ of ours: the library catches its exceptions itself.
#include <ZXing/ZXingC.h>
