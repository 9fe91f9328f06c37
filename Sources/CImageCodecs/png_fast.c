#include "cic_png_fast.h"
#include "cic_adler32.h"
#include "vector_state.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define CIC_HAVE_AVX2_KERNELS 1
#endif

static uint32_t read_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

cic_fast_status cic_png_fast_probe(const uint8_t *data, size_t size, cic_png_fast_info *info) {
    if (size < 8 + 8 + 13 + 4 || memcmp(data, png_signature, 8) != 0) return CIC_FAST_NOT_ELIGIBLE;
    if (read_be32(data + 8) != 13 || memcmp(data + 12, "IHDR", 4) != 0) return CIC_FAST_NOT_ELIGIBLE;
    const uint8_t *ihdr = data + 16;
    uint32_t width = read_be32(ihdr), height = read_be32(ihdr + 4);
    int depth = ihdr[8], colour = ihdr[9], compression = ihdr[10], filter = ihdr[11], interlace = ihdr[12];
    if (depth != 8 || (colour != 2 && colour != 6) || compression != 0 || filter != 0 || interlace != 0)
        return CIC_FAST_NOT_ELIGIBLE;
    if (width == 0 || height == 0 || width > 0x7FFFFFFF || height > 0x7FFFFFFF) return CIC_FAST_NOT_ELIGIBLE;
    int channels = colour == 6 ? 4 : 3;
    size_t pixels = (size_t)width * height;
    if (pixels / width != height || pixels > ((size_t)1 << 40)) return CIC_FAST_NOT_ELIGIBLE;
    info->width = width;
    info->height = height;
    info->channels = channels;
    return CIC_FAST_OK;
}

static cic_fast_status fail(char *message, size_t message_size, const char *text) {
    if (message && message_size) snprintf(message, message_size, "%s", text);
    return CIC_FAST_ERROR;
}

/* ---- unfiltering -------------------------------------------------------------------- */

static inline uint8_t paeth(int a, int b, int c) {
    int p = b - c, q = a - c;
    int pa = p < 0 ? -p : p, pb = q < 0 ? -q : q, pc = (p + q) < 0 ? -(p + q) : p + q;
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    return (uint8_t)(pb <= pc ? b : c);
}

void cic_png_unfilter_row_scalar(int filter, uint8_t *out, const uint8_t *in, const uint8_t *previous,
                                 size_t length, int bpp) {
    size_t i;
    for (i = 0; i < length; i++) {
        int left = i >= (size_t)bpp ? out[i - bpp] : 0, up = previous ? previous[i] : 0;
        int corner = (previous && i >= (size_t)bpp) ? previous[i - bpp] : 0;
        int predictor = 0;
        switch (filter) {
        case 1: predictor = left; break;
        case 2: predictor = up; break;
        case 3: predictor = (left + up) >> 1; break;
        case 4: predictor = paeth(left, up, corner); break;
        default: break;
        }
        out[i] = (uint8_t)(in[i] + predictor);
    }
}

#if defined(__SSE2__)
static inline __m128i load4(const void *p) {
    int32_t v;
    memcpy(&v, p, 4);
    return _mm_cvtsi32_si128(v);
}

static inline void store4(void *p, __m128i v) {
    int32_t x = _mm_cvtsi128_si32(v);
    memcpy(p, &x, 4);
}

/* Each kernel reads a block of `in` before it writes the same block of `out`, so `out` may
 * sit at or below `in` (rows are unfiltered and moved down over their filter bytes at once). */

/* Sub, 4 bytes a pixel: a prefix sum over the four pixels of a 16-byte block. */
static void sub4_sse2(uint8_t *out, const uint8_t *in, size_t length) {
    __m128i carry = _mm_setzero_si128();
    size_t i = 0;
    for (; i + 16 <= length; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(in + i));
        x = _mm_add_epi8(x, _mm_slli_si128(x, 4));
        x = _mm_add_epi8(x, _mm_slli_si128(x, 8));
        x = _mm_add_epi8(x, carry);
        _mm_storeu_si128((__m128i *)(out + i), x);
        carry = _mm_shuffle_epi32(x, _MM_SHUFFLE(3, 3, 3, 3));
    }
    for (; i < length; i += 4) {
        __m128i x = _mm_add_epi8(load4(in + i), carry);
        store4(out + i, x);
        carry = x;
    }
}

static void up_sse2(uint8_t *out, const uint8_t *in, const uint8_t *previous, size_t length) {
    size_t i = 0;
    for (; i + 16 <= length; i += 16) {
        __m128i x = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(in + i)),
                                 _mm_loadu_si128((const __m128i *)(previous + i)));
        _mm_storeu_si128((__m128i *)(out + i), x);
    }
    for (; i < length; i++) out[i] = (uint8_t)(in[i] + previous[i]);
}

static void avg4_sse2(uint8_t *out, const uint8_t *in, const uint8_t *previous, size_t length) {
    __m128i a = _mm_setzero_si128(), one = _mm_set1_epi8(1);
    for (size_t i = 0; i < length; i += 4) {
        __m128i b = load4(previous + i);
        __m128i average = _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), one));
        a = _mm_add_epi8(load4(in + i), average);
        store4(out + i, a);
    }
}

/* Moves a vector up (toward the high bytes) or down by whole 4-byte lanes. */
static inline __m128i lanes_up(__m128i v, int lanes) {
    switch (lanes) {
    case 0: return v;
    case 1: return _mm_slli_si128(v, 4);
    case 2: return _mm_slli_si128(v, 8);
    default: return _mm_slli_si128(v, 12);
    }
}

static inline __m128i lanes_down(__m128i v, int lanes) {
    switch (lanes) {
    case 0: return v;
    case 1: return _mm_srli_si128(v, 4);
    case 2: return _mm_srli_si128(v, 8);
    default: return _mm_srli_si128(v, 12);
    }
}

static inline __m128i select_if(__m128i condition, __m128i yes, __m128i no) {
    return _mm_or_si128(_mm_and_si128(condition, yes), _mm_andnot_si128(condition, no));
}

/* The Paeth predictor on bytes, sixteen at a time, without widening: pa = |b - c| and
 * pb = |a - c| by saturated subtraction both ways, and pc = |(a - c) + (b - c)| is their sum
 * when a - c and b - c have the same sign, else their difference. A sum past 255 saturates; it
 * then still compares as the largest, which is all pc is used for. */
static inline __m128i paeth_predict_u8(__m128i a, __m128i b, __m128i c) {
    const __m128i zero = _mm_setzero_si128();
    __m128i c_over_b = _mm_subs_epu8(c, b), c_over_a = _mm_subs_epu8(c, a);
    __m128i pa = _mm_or_si128(_mm_subs_epu8(b, c), c_over_b);
    __m128i pb = _mm_or_si128(_mm_subs_epu8(a, c), c_over_a);
    __m128i opposite = _mm_xor_si128(_mm_cmpeq_epi8(c_over_b, zero), _mm_cmpeq_epi8(c_over_a, zero));
    __m128i difference = _mm_or_si128(_mm_subs_epu8(pa, pb), _mm_subs_epu8(pb, pa));
    __m128i pc = select_if(opposite, difference, _mm_adds_epu8(pa, pb));
    __m128i smallest = _mm_min_epu8(_mm_min_epu8(pa, pb), pc);
    __m128i nearest = select_if(_mm_cmpeq_epi8(smallest, pb), b, c);
    return select_if(_mm_cmpeq_epi8(smallest, pa), a, nearest);
}

/* The Average predictor on bytes, (a + b) >> 1 without widening: the rounded-up mean less
 * the bit that rounding added. */
static inline __m128i average_predict_u8(__m128i a, __m128i b) {
    return _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), _mm_set1_epi8(1)));
}

/* The predictor of a run of rows each filtered by Average or Paeth: Average in the lanes set
 * in `average_lanes`, Paeth in the others. `mixed` is a constant, 0 when every row is Paeth. */
static inline __attribute__((always_inline)) __m128i predict_u8(__m128i a, __m128i b, __m128i c,
                                                                __m128i average_lanes, int mixed) {
    __m128i paeth = paeth_predict_u8(a, b, c);
    return mixed ? select_if(average_lanes, average_predict_u8(a, b), paeth) : paeth;
}

/* The 4x4 transpose of 32-bit lanes: four rows of four pixels become four steps of four rows. */
static inline void transpose4(__m128i *v) {
    __m128i t0 = _mm_unpacklo_epi32(v[0], v[1]), t1 = _mm_unpacklo_epi32(v[2], v[3]);
    __m128i t2 = _mm_unpackhi_epi32(v[0], v[1]), t3 = _mm_unpackhi_epi32(v[2], v[3]);
    v[0] = _mm_unpacklo_epi64(t0, t1);
    v[1] = _mm_unpackhi_epi64(t0, t1);
    v[2] = _mm_unpacklo_epi64(t2, t3);
    v[3] = _mm_unpackhi_epi64(t2, t3);
}

/* One to four consecutive Paeth rows (4 bytes a pixel) in one register: lane r holds row r,
 * which runs one pixel behind row r - 1, so at each step a row's "up" and "upper-left" are the
 * row above's last two results, and all four serial chains advance together. Rows are
 * `out_stride` apart in `out`, their filtered bytes (the filter byte skipped) `in_stride` apart
 * in `in`. Where every row is inside its pixels, four steps are loaded and stored at a time
 * through a transpose; the steps at either end go lane by lane. Lanes of rows not yet started
 * are kept zero, which is what their first pixel's "left" and "upper-left" must be. With one
 * row, `out` may sit at or below `in`: each block is read before it is written. Average rows
 * chain the same way, so with `mixed` the rows whose lanes are set in `average_lanes` take
 * the Average predictor instead. */
static inline __attribute__((always_inline)) void paeth4_rows_sse2(uint8_t *out, size_t out_stride, const uint8_t *in,
                                                                   size_t in_stride, const uint8_t *previous,
                                                                   size_t length, int count, __m128i average_lanes,
                                                                   int mixed) {
    const __m128i zero = _mm_setzero_si128(), first_lane = _mm_cvtsi32_si128(-1);
    const size_t pixels = length / 4, steps = pixels + (size_t)count - 1;
    __m128i result = zero, up = zero;
    size_t step = 0;
    while (step < steps) {
        if (step + 1 >= (size_t)count && step + 4 <= pixels) {
            __m128i raw[4], rows[4];
            for (int row = 0; row < 4; row++) {
                int source = row < count ? row : count - 1;
                raw[row] = _mm_loadu_si128((const __m128i *)(in + (size_t)source * in_stride + (step - (size_t)source) * 4));
            }
            transpose4(raw);
            __m128i above = _mm_loadu_si128((const __m128i *)(previous + step * 4));
            __m128i above_lane[4] = {_mm_and_si128(above, first_lane), _mm_and_si128(_mm_srli_si128(above, 4), first_lane),
                                     _mm_and_si128(_mm_srli_si128(above, 8), first_lane), _mm_srli_si128(above, 12)};
            for (int k = 0; k < 4; k++) {
                __m128i b = _mm_or_si128(_mm_slli_si128(result, 4), above_lane[k]);
                result = _mm_add_epi8(raw[k], predict_u8(result, b, up, average_lanes, mixed));
                up = b;
                rows[k] = result;
            }
            transpose4(rows);
            for (int row = 0; row < count; row++)
                _mm_storeu_si128((__m128i *)(out + (size_t)row * out_stride + (step - (size_t)row) * 4), rows[row]);
            step += 4;
            continue;
        }
        __m128i raw = zero, live = zero;
        for (int row = 0; row < count; row++) {
            if (step < (size_t)row || step - (size_t)row >= pixels) continue;
            __m128i lane = load4(in + (size_t)row * in_stride + (step - (size_t)row) * 4);
            raw = _mm_or_si128(raw, lanes_up(lane, row));
            live = _mm_or_si128(live, lanes_up(first_lane, row));
        }
        __m128i above = step < pixels ? load4(previous + step * 4) : zero;
        __m128i b = _mm_or_si128(_mm_slli_si128(result, 4), above);
        result = _mm_and_si128(_mm_add_epi8(raw, predict_u8(result, b, up, average_lanes, mixed)), live);
        up = b;
        for (int row = 0; row < count; row++) {
            if (step < (size_t)row || step - (size_t)row >= pixels) continue;
            store4(out + (size_t)row * out_stride + (step - (size_t)row) * 4, lanes_down(result, row));
        }
        step++;
    }
}

#if defined(CIC_HAVE_AVX2_KERNELS)
#define AVX2 __attribute__((target("avx2")))

static AVX2 inline __m256i select_if_avx2(__m256i condition, __m256i yes, __m256i no) {
    return _mm256_or_si256(_mm256_and_si256(condition, yes), _mm256_andnot_si256(condition, no));
}

/* paeth_predict_u8 on 32 bytes. */
static AVX2 inline __m256i paeth_predict_u8_avx2(__m256i a, __m256i b, __m256i c) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i c_over_b = _mm256_subs_epu8(c, b), c_over_a = _mm256_subs_epu8(c, a);
    __m256i pa = _mm256_or_si256(_mm256_subs_epu8(b, c), c_over_b);
    __m256i pb = _mm256_or_si256(_mm256_subs_epu8(a, c), c_over_a);
    __m256i opposite = _mm256_xor_si256(_mm256_cmpeq_epi8(c_over_b, zero), _mm256_cmpeq_epi8(c_over_a, zero));
    __m256i difference = _mm256_or_si256(_mm256_subs_epu8(pa, pb), _mm256_subs_epu8(pb, pa));
    __m256i pc = select_if_avx2(opposite, difference, _mm256_adds_epu8(pa, pb));
    __m256i smallest = _mm256_min_epu8(_mm256_min_epu8(pa, pb), pc);
    __m256i nearest = select_if_avx2(_mm256_cmpeq_epi8(smallest, pb), b, c);
    return select_if_avx2(_mm256_cmpeq_epi8(smallest, pa), a, nearest);
}

/* average_predict_u8 and predict_u8 on 32 bytes. */
static AVX2 inline __m256i average_predict_u8_avx2(__m256i a, __m256i b) {
    return _mm256_sub_epi8(_mm256_avg_epu8(a, b), _mm256_and_si256(_mm256_xor_si256(a, b), _mm256_set1_epi8(1)));
}

static AVX2 inline __attribute__((always_inline)) __m256i predict_u8_avx2(__m256i a, __m256i b, __m256i c,
                                                                          __m256i average_lanes, int mixed) {
    __m256i paeth = paeth_predict_u8_avx2(a, b, c);
    return mixed ? _mm256_blendv_epi8(paeth, average_predict_u8_avx2(a, b), average_lanes) : paeth;
}

/* The 8x8 transpose of 32-bit lanes: eight rows of eight pixels become eight steps of eight rows. */
static AVX2 inline void transpose8(__m256i *v) {
    __m256i t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_epi32(v[i], v[i + 1]);
        t[i + 1] = _mm256_unpackhi_epi32(v[i], v[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
        u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
        u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
        u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (int i = 0; i < 4; i++) {
        v[i] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x20);
        v[i + 4] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x31);
    }
}

/* paeth4_rows_sse2 for eight rows in a 256-bit register, blocks of eight steps. The steps at
 * either end go lane by lane through memory. */
static AVX2 inline __attribute__((always_inline)) void paeth4_rows8_avx2(uint8_t *out, size_t out_stride,
                                                                         const uint8_t *in, size_t in_stride,
                                                                         const uint8_t *previous, size_t length,
                                                                         __m256i average_lanes, int mixed) {
    const size_t pixels = length / 4, steps = pixels + 7;
    const __m256i shift_up = _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6);
    __m256i result = _mm256_setzero_si256(), up = _mm256_setzero_si256();
    size_t step = 0;
    while (step < steps) {
        if (step >= 7 && step + 8 <= pixels) {
            __m256i raw[8], rows[8];
            for (int row = 0; row < 8; row++)
                raw[row] = _mm256_loadu_si256((const __m256i *)(in + (size_t)row * in_stride + (step - (size_t)row) * 4));
            transpose8(raw);
            __m256i above = _mm256_loadu_si256((const __m256i *)(previous + step * 4));
            for (int k = 0; k < 8; k++) {
                __m256i above_k = _mm256_permutevar8x32_epi32(above, _mm256_set1_epi32(k));
                __m256i b = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(result, shift_up), above_k, 0x01);
                result = _mm256_add_epi8(raw[k], predict_u8_avx2(result, b, up, average_lanes, mixed));
                up = b;
                rows[k] = result;
            }
            transpose8(rows);
            for (int row = 0; row < 8; row++)
                _mm256_storeu_si256((__m256i *)(out + (size_t)row * out_stride + (step - (size_t)row) * 4), rows[row]);
            step += 8;
            continue;
        }
        uint32_t lanes[8] = {0}, live[8] = {0};
        for (int row = 0; row < 8; row++) {
            if (step < (size_t)row || step - (size_t)row >= pixels) continue;
            memcpy(&lanes[row], in + (size_t)row * in_stride + (step - (size_t)row) * 4, 4);
            live[row] = 0xFFFFFFFFu;
        }
        uint32_t above_pixel = 0;
        if (step < pixels) memcpy(&above_pixel, previous + step * 4, 4);
        __m256i raw = _mm256_loadu_si256((const __m256i *)lanes);
        __m256i b = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(result, shift_up),
                                       _mm256_set1_epi32((int32_t)above_pixel), 0x01);
        result = _mm256_and_si256(_mm256_add_epi8(raw, predict_u8_avx2(result, b, up, average_lanes, mixed)),
                                  _mm256_loadu_si256((const __m256i *)live));
        up = b;
        _mm256_storeu_si256((__m256i *)lanes, result);
        for (int row = 0; row < 8; row++) {
            if (step < (size_t)row || step - (size_t)row >= pixels) continue;
            memcpy(out + (size_t)row * out_stride + (step - (size_t)row) * 4, &lanes[row], 4);
        }
        step++;
    }
}

/* Eight rows filtered by Average or Paeth, bit r of `averages` set when row r is Average. */
static AVX2 void predicted4_rows8_avx2(uint8_t *out, size_t out_stride, const uint8_t *in, size_t in_stride,
                                       const uint8_t *previous, size_t length, unsigned averages) {
    const __m256i bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    __m256i average_lanes = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)averages), bits), bits);
    if (averages == 0)
        paeth4_rows8_avx2(out, out_stride, in, in_stride, previous, length, average_lanes, 0);
    else
        paeth4_rows8_avx2(out, out_stride, in, in_stride, previous, length, average_lanes, 1);
}
#endif

/* paeth4_rows_sse2 for two to four rows, `count` and `mixed` made constants. */
static inline __attribute__((always_inline)) void paeth4_rows_of_count_sse2(uint8_t *out, size_t out_stride,
                                                                           const uint8_t *in, size_t in_stride,
                                                                           const uint8_t *previous, size_t length,
                                                                           int count, __m128i average_lanes, int mixed) {
    switch (count) {
    case 4: paeth4_rows_sse2(out, out_stride, in, in_stride, previous, length, 4, average_lanes, mixed); break;
    case 3: paeth4_rows_sse2(out, out_stride, in, in_stride, previous, length, 3, average_lanes, mixed); break;
    default: paeth4_rows_sse2(out, out_stride, in, in_stride, previous, length, 2, average_lanes, mixed); break;
    }
}

/* Two to four rows filtered by Average or Paeth, bit r of `averages` set when row r is Average. */
static void predicted4_rows_sse2(uint8_t *out, size_t out_stride, const uint8_t *in, size_t in_stride,
                                 const uint8_t *previous, size_t length, int count, unsigned averages) {
    const __m128i bits = _mm_setr_epi32(1, 2, 4, 8);
    __m128i average_lanes = _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int)averages), bits), bits);
    if (averages == 0)
        paeth4_rows_of_count_sse2(out, out_stride, in + 1, in_stride, previous, length, count, average_lanes, 0);
    else
        paeth4_rows_of_count_sse2(out, out_stride, in + 1, in_stride, previous, length, count, average_lanes, 1);
}
#endif

int cic_png_unfilter_rows(uint8_t *out, size_t out_stride, const uint8_t *in, size_t in_stride,
                          const uint8_t *previous, size_t row_count, size_t length, int bpp) {
    size_t row = 0;
    while (row < row_count) {
        const uint8_t *above = row == 0 ? previous : out + (row - 1) * out_stride;
#if defined(__SSE2__)
        /* Average and Paeth chain each pixel to the one before it, so consecutive rows of
         * either are unfiltered together: eight at a time with AVX2, else up to four, never
         * leaving a single one behind. */
        int run = 0;
        unsigned averages = 0;
        while (run < 10 && row + (size_t)run < row_count) {
            uint8_t filter = in[(row + (size_t)run) * in_stride];
            if (filter != 3 && filter != 4) break;
            averages |= (unsigned)(filter == 3) << run;
            run++;
        }
#if defined(CIC_HAVE_AVX2_KERNELS)
        if (bpp == 4 && length % 4 == 0 && above && (run == 8 || run == 10) && __builtin_cpu_supports("avx2")) {
            predicted4_rows8_avx2(out + row * out_stride, out_stride, in + row * in_stride + 1, in_stride, above, length,
                                  averages & 0xFF);
            row += 8;
            continue;
        }
#endif
        run = run == 5 ? 3 : run > 4 ? 4 : run;
        if (bpp == 4 && length % 4 == 0 && above && run >= 2) {
            predicted4_rows_sse2(out + row * out_stride, out_stride, in + row * in_stride, in_stride, above, length, run,
                                 averages & ((1u << run) - 1));
            row += (size_t)run;
            continue;
        }
#endif
        const uint8_t *filtered = in + row * in_stride;
        if (!cic_png_unfilter_row(filtered[0], out + row * out_stride, filtered + 1, above, length, bpp)) return 0;
        row++;
    }
    return 1;
}

int cic_png_unfilter_row(int filter, uint8_t *out, const uint8_t *in, const uint8_t *previous, size_t length,
                         int bpp) {
    if (filter < 0 || filter > 4) return 0;
    if (filter == 0 || (filter == 2 && !previous)) {
        if (out != in) memmove(out, in, length);
        return 1;
    }
#if defined(__SSE2__)
    if (filter == 2) {
        up_sse2(out, in, previous, length);
        return 1;
    }
    if (bpp == 4 && length % 4 == 0) {
        if (filter == 1 || (filter == 4 && !previous)) {
            sub4_sse2(out, in, length);
            return 1;
        }
        if (filter == 3 && previous) {
            avg4_sse2(out, in, previous, length);
            return 1;
        }
        if (filter == 4) {
            paeth4_rows_sse2(out, 0, in, 0, previous, length, 1, _mm_setzero_si128(), 0);
            return 1;
        }
    }
#endif
    cic_png_unfilter_row_scalar(filter, out, in, previous, length, bpp);
    return 1;
}

int cic_advise_huge_pages(void *pointer, size_t length) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t start = ((uintptr_t)pointer + huge - 1) & ~(huge - 1);
    uintptr_t end = ((uintptr_t)pointer + length) & ~(huge - 1);
    return end > start && madvise((void *)start, end - start, MADV_HUGEPAGE) == 0;
#else
    (void)pointer;
    (void)length;
    return 0;
#endif
}

/* ---- chunks and inflate ------------------------------------------------------------- */

static int is_critical(const uint8_t *type) { return (type[0] & 0x20) == 0; }

typedef struct {
    const uint8_t *type;
    const uint8_t *payload;
    uint32_t length;
} png_chunk;

/* The chunk at *position: 1 and the chunk, 0 at the end of the data, -1 for a chunk that
 * runs past the end or a critical chunk whose CRC is wrong (libpng only warns for ancillary
 * ones). */
static int next_chunk(const uint8_t *data, size_t size, size_t *position, png_chunk *chunk, int verify,
                      char *message, size_t message_size) {
    if (*position + 12 > size) {
        if (*position == size) return 0;
        fail(message, message_size, "unexpected end of data (truncated chunk)");
        return -1;
    }
    uint32_t length = read_be32(data + *position);
    const uint8_t *type = data + *position + 4;
    if (length > 0x7FFFFFFF || *position + 12 + (size_t)length > size) {
        fail(message, message_size, "unexpected end of data (truncated chunk)");
        return -1;
    }
    if (verify && is_critical(type)) {
        int corrupt = crc32_gzip_refl(0, type, 4 + (uint64_t)length) != read_be32(type + 4 + length);
        cic_clear_upper_vector_state();
        if (corrupt) {
            fail(message, message_size, "CRC error in a critical chunk");
            return -1;
        }
    }
    chunk->type = type;
    chunk->payload = type + 4;
    chunk->length = length;
    *position += 12 + (size_t)length;
    return 1;
}

/* Whether a chunk type is four ASCII letters, as PNG 5.4 requires and libpng checks. */
static int has_letter_type(const uint8_t *type) {
    for (int i = 0; i < 4; i++) {
        const uint8_t c = type[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return 0;
    }
    return 1;
}

/* Walks every chunk: the signature, IHDR first, every chunk within the data with a correct CRC
 * (critical chunks), the IDAT chunks one run, image data, and IEND. With `first_idat`, also
 * decides whether the fast path takes the PNG (CIC_FAST_NOT_ELIGIBLE for tRNS or a critical
 * chunk other than IHDR, PLTE, IDAT and IEND) and leaves *first_idat at the first IDAT chunk. */
static cic_fast_status walk_chunks(const uint8_t *data, size_t size, size_t *first_idat, char *message,
                                   size_t message_size) {
    if (size < 8 || memcmp(data, png_signature, 8) != 0) return fail(message, message_size, "not a PNG");
    size_t position = 8;
    int seen_idat = 0, idat_ended = 0, first = 1, seen_palette = 0, colour = 0, step;
    png_chunk chunk;
    while ((step = next_chunk(data, size, &position, &chunk, 1, message, message_size)) == 1) {
        const uint8_t *type = chunk.type;
        /* What libpng refuses in any chunk sequence: a type that is not four ASCII letters, a
         * second header and a second palette. */
        if (!has_letter_type(type)) return fail(message, message_size, "invalid chunk type");
        if (first && memcmp(type, "IHDR", 4) != 0) return fail(message, message_size, "IHDR is not first");
        if (!first && memcmp(type, "IHDR", 4) == 0) return fail(message, message_size, "a second IHDR");
        if (first && chunk.length >= 10) colour = (chunk.payload[9] & 2) != 0;
        if (memcmp(type, "PLTE", 4) == 0) {
            if (seen_palette) return fail(message, message_size, "a second palette (PLTE)");
            /* libpng ignores a grayscale image's palette, but no colour image's may be empty. */
            if (colour && chunk.length == 0) return fail(message, message_size, "an empty palette (PLTE)");
            seen_palette = 1;
        }
        first = 0;
        if (memcmp(type, "IDAT", 4) == 0) {
            if (idat_ended) return fail(message, message_size, "IDAT chunks are not consecutive");
            if (!seen_idat && first_idat) *first_idat = (size_t)(type - 4 - data);
            seen_idat = 1;
            continue;
        }
        if (seen_idat) idat_ended = 1;
        if (memcmp(type, "IEND", 4) == 0)
            return seen_idat ? CIC_FAST_OK : fail(message, message_size, "no image data (IDAT)");
        if (first_idat && (memcmp(type, "tRNS", 4) == 0 ||
                           (is_critical(type) && memcmp(type, "IHDR", 4) != 0 && memcmp(type, "PLTE", 4) != 0)))
            return CIC_FAST_NOT_ELIGIBLE;
    }
    if (step < 0) return CIC_FAST_ERROR;
    return seen_idat ? fail(message, message_size, "unexpected end of data (no IEND)")
                     : fail(message, message_size, "no image data (IDAT)");
}

/* Whether a PNG colour type allows a bit depth (PNG 11.2.2). */
static int allows_bit_depth(uint8_t colour_type, uint8_t bit_depth) {
    switch (colour_type) {
    case 0: return bit_depth == 1 || bit_depth == 2 || bit_depth == 4 || bit_depth == 8 || bit_depth == 16;
    case 3: return bit_depth == 1 || bit_depth == 2 || bit_depth == 4 || bit_depth == 8;
    case 2: case 4: case 6: return bit_depth == 8 || bit_depth == 16;
    default: return 0;
    }
}

cic_fast_status cic_png_check_structure(const uint8_t *data, size_t size, char *message, size_t message_size) {
    cic_fast_status status = walk_chunks(data, size, NULL, message, message_size);
    if (status != CIC_FAST_OK) return status;
    /* What a decoder refuses from the chunks alone, without inflating: the header's fields, a
     * palette where the colour type needs or forbids one, a critical chunk no decoder knows,
     * and the zlib header of the image data. */
    size_t position = 8;
    png_chunk chunk;
    uint8_t colour_type = 0;
    int seen_palette = 0, seen_idat = 0;
    while (next_chunk(data, size, &position, &chunk, 0, NULL, 0) == 1) {
        const uint8_t *type = chunk.type;
        if (memcmp(type, "IHDR", 4) == 0) {
            if (chunk.length != 13) return fail(message, message_size, "IHDR has a wrong length");
            const uint8_t *h = chunk.payload;
            colour_type = h[9];
            if (!allows_bit_depth(h[9], h[8])) return fail(message, message_size, "invalid colour type or bit depth in IHDR");
            if (h[10] != 0 || h[11] != 0 || h[12] > 1)
                return fail(message, message_size, "unknown compression, filter or interlace method in IHDR");
        } else if (memcmp(type, "PLTE", 4) == 0) {
            /* As libpng: a palette in a grayscale image, and a suggested palette of a wrong
             * length in a truecolour one, are ignored; only an indexed image needs a valid one. */
            if (colour_type != 3) continue;
            if (chunk.length == 0 || chunk.length % 3 != 0 || chunk.length > 768)
                return fail(message, message_size, "PLTE has a wrong length");
            seen_palette = 1;
        } else if (memcmp(type, "IDAT", 4) == 0) {
            if (!seen_idat) {
                if (colour_type == 3 && !seen_palette) return fail(message, message_size, "no palette (PLTE) before the image data");
                if (chunk.length >= 2) {
                    const uint8_t cmf = chunk.payload[0], flg = chunk.payload[1];
                    if ((cmf & 0x0F) != 8 || (cmf >> 4) > 7 || ((cmf << 8) | flg) % 31 != 0 || (flg & 0x20))
                        return fail(message, message_size, "incorrect zlib header in the image data");
                }
            }
            seen_idat = 1;
        } else if (is_critical(type) && memcmp(type, "IEND", 4) != 0) {
            return fail(message, message_size, "unknown critical chunk");
        }
    }
    return CIC_FAST_OK;
}

/* ---- the row stream ------------------------------------------------------------------ */

/* Filtered bytes inflated at a time: the rows in flight stay in the core's cache. */
#define INFLATE_CHUNK_BYTES (256u << 10)

struct cic_png_stream {
    const uint8_t *data;
    size_t size;
    /* Where the next IDAT chunk is looked for, and whether the last one was seen. */
    size_t position;
    int idat_done;
    /* The zlib wrapper is read here, not by ISA-L, which inflates raw deflate data: its
     * Adler-32 is four times slower than cic_adler32. */
    int header_read;
    uint32_t adler;
    cic_png_fast_info info;
    size_t row_bytes;
    uint32_t rows_read;
    struct inflate_state inflater;
    /* Filtered rows, inflated a chunk at a time; 4 KiB of slack to place them (see below). */
    uint8_t *filtered;
    size_t filtered_capacity;
    /* The last unfiltered row as RGBA, for the filters that look up. */
    uint8_t *previous;
    /* RGB files: the filtered rows of a chunk spread to four bytes a pixel, each row after its
     * filter byte, so that they unfilter with the RGBA kernels. */
    uint8_t *spread;
    /* Every filtered row, inflated at once by libdeflate (cic_png_stream_inflate_whole); NULL
     * when the stream inflates a chunk at a time. */
    uint8_t *whole;
};

cic_fast_status cic_png_stream_open(const uint8_t *data, size_t size, cic_png_stream **stream, char *message,
                                    size_t message_size) {
    *stream = NULL;
    cic_png_fast_info info;
    cic_fast_status status = cic_png_fast_probe(data, size, &info);
    if (status != CIC_FAST_OK) return status;
    size_t first_idat = 0;
    status = walk_chunks(data, size, &first_idat, message, message_size);
    if (status != CIC_FAST_OK) return status;
    cic_png_stream *s = calloc(1, sizeof *s);
    if (!s) return fail(message, message_size, "out of memory");
    s->data = data;
    s->size = size;
    s->position = first_idat;
    s->info = info;
    s->row_bytes = (size_t)info.width * (size_t)info.channels;
    const size_t rgba_row_bytes = (size_t)info.width * 4;
    s->previous = malloc(rgba_row_bytes);
    s->filtered_capacity = s->row_bytes + 1 > INFLATE_CHUNK_BYTES ? s->row_bytes + 1
                                                                  : INFLATE_CHUNK_BYTES / (s->row_bytes + 1) * (s->row_bytes + 1);
    s->filtered = malloc(s->filtered_capacity + 4096);
    s->spread = info.channels == 3 ? malloc(s->filtered_capacity / (s->row_bytes + 1) * (rgba_row_bytes + 1) + 4096) : NULL;
    if (!s->previous || !s->filtered || (info.channels == 3 && !s->spread)) {
        cic_png_stream_close(s);
        return fail(message, message_size, "out of memory");
    }
    isal_inflate_init(&s->inflater);
    s->inflater.crc_flag = ISAL_DEFLATE;
    s->adler = 1;
    *stream = s;
    return CIC_FAST_OK;
}

void cic_png_stream_close(cic_png_stream *stream) {
    if (!stream) return;
    free(stream->whole);
    free(stream->previous);
    free(stream->spread);
    free(stream->filtered);
    free(stream);
}

/* A buffer for every filtered row, with slack past the last one, as the chunk buffer has, for
 * the kernels' wide loads. A large one is put on huge pages where the kernel gives them: a fresh
 * buffer of many pages faults in far slower a 4 KiB page at a time than libdeflate fills it. */
static uint8_t *allocate_whole_rows(size_t total) {
    const size_t huge = (size_t)2 << 20, size = total + 4096;
    if (total < huge) return malloc(size);
    void *allocated = NULL;
    if (posix_memalign(&allocated, huge, size) != 0) return NULL;
    (void)cic_advise_huge_pages(allocated, size);
    return allocated;
}

int cic_png_stream_inflate_whole(cic_png_stream *s, size_t max_bytes) {
    if (s->whole) return 1;
    const size_t stride = s->row_bytes + 1, height = s->info.height;
    if (s->rows_read > 0 || s->header_read || height == 0 || stride > max_bytes / height) return 0;
    const size_t total = stride * height;
    /* The IDAT payloads, one after the other (they were checked when the stream opened). */
    size_t position = s->position, compressed = 0, idat_count = 0;
    const uint8_t *single = NULL;
    png_chunk chunk;
    while (next_chunk(s->data, s->size, &position, &chunk, 0, NULL, 0) == 1 && memcmp(chunk.type, "IDAT", 4) == 0) {
        compressed += chunk.length;
        single = chunk.payload;
        idat_count++;
    }
    uint8_t *joined = NULL;
    if (idat_count > 1) {
        joined = malloc(compressed ? compressed : 1);
        if (!joined) return 0;
        size_t offset = 0;
        position = s->position;
        while (next_chunk(s->data, s->size, &position, &chunk, 0, NULL, 0) == 1 && memcmp(chunk.type, "IDAT", 4) == 0) {
            memcpy(joined + offset, chunk.payload, chunk.length);
            offset += chunk.length;
        }
    }
    uint8_t *rows = allocate_whole_rows(total);
    struct libdeflate_decompressor *decompressor = rows ? libdeflate_alloc_decompressor() : NULL;
    /* Only a stream that holds exactly the rows, ends, and whose Adler-32 matches is taken;
     * anything else (corrupt, truncated, data after the rows) is left to the chunked inflate,
     * which tells what is wrong or reads what libpng reads. */
    int taken = decompressor && libdeflate_zlib_decompress(decompressor, joined ? joined : single, compressed, rows,
                                                           total, NULL) == LIBDEFLATE_SUCCESS;
    cic_clear_upper_vector_state();
    libdeflate_free_decompressor(decompressor);
    free(joined);
    if (!taken) {
        free(rows);
        return 0;
    }
    s->whole = rows;
    return 1;
}

/* Hands the inflater the next IDAT chunk's payload; 0 when there is none. The chunks were
 * checked when the stream opened. */
static int feed_next_idat(cic_png_stream *s) {
    if (s->idat_done) return 0;
    png_chunk chunk;
    if (next_chunk(s->data, s->size, &s->position, &chunk, 0, NULL, 0) != 1 || memcmp(chunk.type, "IDAT", 4) != 0) {
        s->idat_done = 1;
        return 0;
    }
    s->inflater.next_in = (uint8_t *)chunk.payload;
    s->inflater.avail_in = chunk.length;
    return 1;
}

/* Takes the next `count` bytes of the zlib stream that follow what ISA-L consumed (its wrapper:
 * the header before the deflate data, the Adler-32 after it), across IDAT chunks; 0 when the
 * image data ends first. */
static int take_stream_bytes(cic_png_stream *s, uint8_t *out, size_t count) {
    /* After the last block, ISA-L may hold the bytes that follow it in its bit buffer: they
     * start at the next byte boundary. */
    if (s->inflater.block_state == ISAL_BLOCK_FINISH && s->inflater.read_in_length > 0) {
        s->inflater.read_in >>= s->inflater.read_in_length % 8;
        s->inflater.read_in_length -= s->inflater.read_in_length % 8;
        for (; count > 0 && s->inflater.read_in_length >= 8; count--) {
            *out++ = (uint8_t)s->inflater.read_in;
            s->inflater.read_in >>= 8;
            s->inflater.read_in_length -= 8;
        }
    }
    while (count > 0) {
        if (s->inflater.avail_in == 0 && !feed_next_idat(s)) return 0;
        size_t n = count < s->inflater.avail_in ? count : s->inflater.avail_in;
        memcpy(out, s->inflater.next_in, n);
        s->inflater.next_in += n;
        s->inflater.avail_in -= (uint32_t)n;
        out += n;
        count -= n;
    }
    return 1;
}

/* The two-byte zlib header: deflate, a window of at most 32 KiB, no preset dictionary, and
 * its check bits. */
static cic_fast_status read_zlib_header(cic_png_stream *s, char *message, size_t message_size) {
    uint8_t header[2];
    if (!take_stream_bytes(s, header, 2)) return fail(message, message_size, "unexpected end of image data (truncated zlib stream)");
    if ((header[0] & 0x0F) != 8 || (header[0] >> 4) > 7 || (header[1] & 0x20) || ((header[0] << 8) | header[1]) % 31 != 0)
        return fail(message, message_size, "corrupt zlib data in IDAT");
    s->header_read = 1;
    return CIC_FAST_OK;
}

/* One inflate step, feeding the next IDAT chunk when the input ran out. ISA-L may hold decoded
 * bytes back, so running out of input is an error only once a step makes no progress. */
static cic_fast_status inflate_step(cic_png_stream *s, char *message, size_t message_size) {
    if (!s->header_read) {
        cic_fast_status status = read_zlib_header(s, message, message_size);
        if (status != CIC_FAST_OK) return status;
    }
    if (s->inflater.avail_in == 0) feed_next_idat(s);
    uint32_t space = s->inflater.avail_out, input = s->inflater.avail_in;
    int result = isal_inflate(&s->inflater);
    cic_clear_upper_vector_state();
    if (result < 0) return fail(message, message_size, "corrupt zlib data in IDAT");
    if (s->inflater.avail_out == space && s->inflater.avail_in == input && s->inflater.block_state != ISAL_BLOCK_FINISH)
        return fail(message, message_size, "unexpected end of image data (truncated zlib stream)");
    return CIC_FAST_OK;
}

/* Inflates exactly `length` bytes into `out`. */
static cic_fast_status inflate_exactly(cic_png_stream *s, uint8_t *out, size_t length, char *message,
                                       size_t message_size) {
    s->inflater.next_out = out;
    s->inflater.avail_out = (uint32_t)length;
    while (s->inflater.avail_out > 0) {
        if (s->inflater.block_state == ISAL_BLOCK_FINISH) return fail(message, message_size, "not enough image data");
        cic_fast_status status = inflate_step(s, message, message_size);
        if (status != CIC_FAST_OK) return status;
    }
    s->adler = cic_adler32(s->adler, out, length);
    return CIC_FAST_OK;
}

/* After the last row: the zlib stream must end, and its Adler-32 match. Data after the rows
 * is ignored, as libpng does (with a warning). */
static cic_fast_status finish_stream(cic_png_stream *s, char *message, size_t message_size) {
    uint8_t spare[256];
    while (s->inflater.block_state != ISAL_BLOCK_FINISH) {
        s->inflater.next_out = spare;
        s->inflater.avail_out = sizeof spare;
        cic_fast_status status = inflate_step(s, message, message_size);
        if (status != CIC_FAST_OK) return status;
        if (s->inflater.avail_out < sizeof spare) return CIC_FAST_OK;
    }
    uint8_t trailer[4];
    if (!take_stream_bytes(s, trailer, 4)) return fail(message, message_size, "unexpected end of image data (truncated zlib stream)");
    if (read_be32(trailer) != s->adler) return fail(message, message_size, "incorrect Adler-32 checksum of the image data");
    return CIC_FAST_OK;
}

/* Every filter works on each byte of a pixel apart from the others, so an RGB row unfilters
 * exactly as an RGBA row whose alpha bytes are ignored: the filtered rows are spread to four
 * bytes a pixel (alpha 0, filter bytes kept) and the RGBA kernels run on them. */
#if defined(CIC_HAVE_AVX2_KERNELS)
__attribute__((target("ssse3"))) static void spread_rgb_row_ssse3(uint8_t *out, const uint8_t *in, size_t width) {
    const __m128i order = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    size_t x = 0;
    for (; x + 6 <= width; x += 4) /* 16 bytes read: 4 pixels and 4 bytes of the next two */
        _mm_storeu_si128((__m128i *)(out + 4 * x), _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 3 * x)), order));
    for (; x < width; x++) {
        memcpy(out + 4 * x, in + 3 * x, 3);
        out[4 * x + 3] = 0;
    }
}
#endif

static void spread_rgb_rows(uint8_t *out, size_t out_stride, const uint8_t *in, size_t in_stride, size_t rows,
                            size_t width) {
#if defined(CIC_HAVE_AVX2_KERNELS)
    int ssse3 = __builtin_cpu_supports("ssse3");
#endif
    for (size_t row = 0; row < rows; row++) {
        const uint8_t *from = in + row * in_stride;
        uint8_t *to = out + row * out_stride;
        to[0] = from[0];
#if defined(CIC_HAVE_AVX2_KERNELS)
        if (ssse3) {
            spread_rgb_row_ssse3(to + 1, from + 1, width);
            continue;
        }
#endif
        for (size_t x = 0; x < width; x++) {
            memcpy(to + 1 + 4 * x, from + 1 + 3 * x, 3);
            to[1 + 4 * x + 3] = 0;
        }
    }
}

static void make_opaque(uint8_t *rgba, size_t length) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (size_t i = 0; i + 4 <= length; i += 4) {
        uint32_t pixel;
        memcpy(&pixel, rgba + i, 4);
        pixel |= 0xFF000000u;
        memcpy(rgba + i, &pixel, 4);
    }
#else
    for (size_t i = 3; i < length; i += 4) rgba[i] = 255;
#endif
}

int cic_png_stream_holds_inflated_rows(const cic_png_stream *s) { return s->whole != NULL; }

/* Decodes `row_count` rows from row `first_row` on as RGBA into `rgba`, `previous` being the
 * unfiltered row above them (NULL at the top). With the rows held inflated they are read from
 * there, at any `first_row`; otherwise they are inflated next, so `first_row` must be the
 * stream's position. */
static cic_fast_status decode_rows(cic_png_stream *s, uint8_t *rgba, size_t first_row, size_t row_count,
                                   const uint8_t *previous, char *message, size_t message_size) {
    const size_t channels = (size_t)s->info.channels, row_bytes = s->row_bytes, stride = row_bytes + 1;
    const size_t rows_per_chunk = s->filtered_capacity / stride;
    const size_t rgba_row_bytes = (size_t)s->info.width * 4, spread_stride = rgba_row_bytes + 1;
    size_t done = 0;
    while (done < row_count) {
        size_t rows = row_count - done < rows_per_chunk ? row_count - done : rows_per_chunk;
        uint8_t *first_out = rgba + done * rgba_row_bytes;
        /* The rows the unfilter reads, half a page apart from the rows it writes modulo 4 KiB,
         * so that a load never looks like it aliases the store just before it (both are
         * page-aligned allocations). */
        uint8_t *source = channels == 4 ? s->filtered : s->spread;
        size_t distance = ((uintptr_t)source + 1 - (uintptr_t)first_out) & 4095;
        source += (2048 - distance) & 4095;
        uint8_t *filtered = channels == 4 ? source : s->filtered;
        if (s->whole) {
            filtered = s->whole + (first_row + done) * stride;
            if (channels == 4) source = filtered;
        } else {
            cic_fast_status status = inflate_exactly(s, filtered, rows * stride, message, message_size);
            if (status != CIC_FAST_OK) return status;
        }
        if (channels == 3) spread_rgb_rows(source, spread_stride, filtered, stride, rows, s->info.width);
        if (!cic_png_unfilter_rows(first_out, rgba_row_bytes, source, channels == 4 ? stride : spread_stride,
                                   done > 0 ? first_out - rgba_row_bytes : previous, rows, rgba_row_bytes, 4))
            return fail(message, message_size, "bad adaptive filter value");
        if (channels == 3) make_opaque(first_out, rows * rgba_row_bytes);
        done += rows;
    }
    return CIC_FAST_OK;
}

cic_fast_status cic_png_stream_reread_rows(cic_png_stream *s, uint8_t *rgba, uint32_t row_count, char *message,
                                           size_t message_size) {
    if (!s->whole) return fail(message, message_size, "the image data is no longer held");
    if (row_count > s->info.height) return fail(message, message_size, "read past the last row");
    return decode_rows(s, rgba, 0, row_count, NULL, message, message_size);
}

cic_fast_status cic_png_stream_read_rows(cic_png_stream *s, uint8_t *rgba, uint32_t row_count, char *message,
                                         size_t message_size) {
    if (row_count > s->info.height - s->rows_read) return fail(message, message_size, "read past the last row");
    if (row_count == 0) return CIC_FAST_OK;
    cic_fast_status status = decode_rows(s, rgba, s->rows_read, row_count, s->rows_read == 0 ? NULL : s->previous,
                                         message, message_size);
    if (status != CIC_FAST_OK) return status;
    const size_t rgba_row_bytes = (size_t)s->info.width * 4;
    memcpy(s->previous, rgba + (row_count - 1) * rgba_row_bytes, rgba_row_bytes);
    s->rows_read += row_count;
    if (s->rows_read == s->info.height && s->whole) {
        free(s->whole);
        s->whole = NULL;
        return CIC_FAST_OK;
    }
    if (s->rows_read == s->info.height) return finish_stream(s, message, message_size);
    return CIC_FAST_OK;
}
