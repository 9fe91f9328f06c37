#ifndef CIC_VECTOR_STATE_H
#define CIC_VECTOR_STATE_H

/*
 * ISA-L's AVX2 / AVX-512 kernels can return with the upper halves of the vector registers
 * dirty. The SSE2 code that runs next (the unfilter and filter kernels, and the Swift
 * comparison) then pays a false dependency on every instruction: measured here, it doubled
 * the time of PNG unfiltering. vzeroupper after each ISA-L call clears that state, on CPUs
 * that have AVX.
 */

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

__attribute__((target("avx"))) static inline void cic_zero_upper_avx(void) { _mm256_zeroupper(); }

static inline void cic_clear_upper_vector_state(void) {
    static int has_avx = -1;
    if (has_avx < 0) has_avx = __builtin_cpu_supports("avx") ? 1 : 0;
    if (has_avx) cic_zero_upper_avx();
}
#else
static inline void cic_clear_upper_vector_state(void) {}
#endif

#endif
