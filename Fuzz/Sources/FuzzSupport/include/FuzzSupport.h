#ifndef FUZZ_SUPPORT_H
#define FUZZ_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's driver (compiler-rt), for executables whose `main` is not libFuzzer's own:
 * SwiftPM names an executable's entry point <Module>_main, and each harness's calls this. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
