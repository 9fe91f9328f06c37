#include "build_info.h"

#ifndef IMGDIFF_COMMIT
#define IMGDIFF_COMMIT "unknown"
#endif

const char *imgdiff_build_commit(void) { return IMGDIFF_COMMIT; }
