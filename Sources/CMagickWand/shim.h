/* pkg-config's -D flags are dropped by SwiftPM ("prohibited flags"); MagickCore requires them. */
#ifndef MAGICKCORE_QUANTUM_DEPTH
#define MAGICKCORE_QUANTUM_DEPTH 16
#endif
#ifndef MAGICKCORE_HDRI_ENABLE
#define MAGICKCORE_HDRI_ENABLE 0
#endif

/* magick-baseconfig.h defines _GNU_SOURCE; the C library headers must come first so that their
   declarations match Swift's Glibc module (otherwise fd_set and friends conflict). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>
#include <sys/select.h>
#include <unistd.h>

#include <wand/MagickWand.h>
