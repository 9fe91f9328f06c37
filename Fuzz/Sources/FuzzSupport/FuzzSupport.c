/* The declarations in FuzzSupport.h are implemented by libFuzzer (-sanitize=fuzzer). */
#include "FuzzSupport.h"
