#ifndef CIC_ADLER32_H
#define CIC_ADLER32_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The Adler-32 checksum of zlib streams, continued over `length` more bytes (start from 1).
 * The AVX2 kernel where the CPU has it, else the plain loop. */
uint32_t cic_adler32(uint32_t adler, const uint8_t *data, size_t length);
/* The plain loop: the reference the AVX2 kernel is tested against. */
uint32_t cic_adler32_scalar(uint32_t adler, const uint8_t *data, size_t length);

#ifdef __cplusplus
}
#endif

#endif
