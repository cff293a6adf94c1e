/* libqrencode (Debian libqrencode-dev): QR Code encoder. */
#include <qrencode.h>
