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

/* __builtin_cpu_supports reads the CPU model the runtime fills in before main: no state here. */
static inline void cic_clear_upper_vector_state(void) {
    if (__builtin_cpu_supports("avx")) cic_zero_upper_avx();
}
#else
static inline void cic_clear_upper_vector_state(void) {}
#endif

#endif
