/* libc first: MagickCore's headers use fd_set, pthread and friends without including them. */
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>
#include <sys/select.h>
#include <pthread.h>
/* SwiftPM drops pkg-config's -D flags, so define what Debian's Q16 non-HDRI build expects. */
#ifndef MAGICKCORE_QUANTUM_DEPTH
#define MAGICKCORE_QUANTUM_DEPTH 16
#endif
#ifndef MAGICKCORE_HDRI_ENABLE
#define MAGICKCORE_HDRI_ENABLE 0
#endif
#include <wand/MagickWand.h>
