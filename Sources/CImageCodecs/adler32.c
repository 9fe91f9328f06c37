#include "cic_adler32.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define CIC_HAVE_AVX2_ADLER 1
#endif

enum { adler_base = 65521, adler_nmax = 5552 };

uint32_t cic_adler32_scalar(uint32_t adler, const uint8_t *data, size_t length) {
    uint32_t s1 = adler & 0xFFFF, s2 = adler >> 16;
    while (length > 0) {
        size_t n = length < adler_nmax ? length : adler_nmax;
        length -= n;
        while (n--) {
            s1 += *data++;
            s2 += s1;
        }
        s1 %= adler_base;
        s2 %= adler_base;
    }
    return s2 << 16 | s1;
}

#if defined(CIC_HAVE_AVX2_ADLER)
/* 32 bytes a step: s1 gains their sum, s2 gains 32 times s1 before the step (kept as the sum
 * of the s1 vectors, multiplied at the end) plus the bytes weighted 32 down to 1. Lanes hold
 * at most 1024 steps (32 KiB) before they are reduced, well within 32 bits. */
__attribute__((target("avx2"))) static uint32_t adler32_avx2(uint32_t adler, const uint8_t *data, size_t length) {
    uint32_t s1 = adler & 0xFFFF, s2 = adler >> 16;
    const __m256i weights = _mm256_setr_epi8(32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14,
                                             13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
    const __m256i ones = _mm256_set1_epi16(1), zero = _mm256_setzero_si256();
    while (length >= 32) {
        size_t steps = length / 32 < 1024 ? length / 32 : 1024;
        __m256i sums = zero, weighted = zero, earlier = zero;
        for (size_t step = 0; step < steps; step++) {
            __m256i bytes = _mm256_loadu_si256((const __m256i *)(data + step * 32));
            earlier = _mm256_add_epi32(earlier, sums);
            sums = _mm256_add_epi32(sums, _mm256_sad_epu8(bytes, zero));
            weighted = _mm256_add_epi32(weighted, _mm256_madd_epi16(_mm256_maddubs_epi16(bytes, weights), ones));
        }
        uint32_t lanes[8];
        uint64_t byte_sum = 0, earlier_sum = 0, weighted_sum = 0;
        _mm256_storeu_si256((__m256i *)lanes, sums);
        for (int k = 0; k < 8; k++) byte_sum += lanes[k];
        _mm256_storeu_si256((__m256i *)lanes, earlier);
        for (int k = 0; k < 8; k++) earlier_sum += lanes[k];
        _mm256_storeu_si256((__m256i *)lanes, weighted);
        for (int k = 0; k < 8; k++) weighted_sum += lanes[k];
        size_t consumed = steps * 32;
        uint64_t new_s2 = s2 + (uint64_t)s1 * consumed + 32 * earlier_sum + weighted_sum;
        s1 = (uint32_t)((s1 + byte_sum) % adler_base);
        s2 = (uint32_t)(new_s2 % adler_base);
        data += consumed;
        length -= consumed;
    }
    _mm256_zeroupper();
    return cic_adler32_scalar(s2 << 16 | s1, data, length);
}
#endif

uint32_t cic_adler32(uint32_t adler, const uint8_t *data, size_t length) {
#if defined(CIC_HAVE_AVX2_ADLER)
    if (length >= 64 && __builtin_cpu_supports("avx2")) return adler32_avx2(adler, data, length);
#endif
    return cic_adler32_scalar(adler, data, length);
}
