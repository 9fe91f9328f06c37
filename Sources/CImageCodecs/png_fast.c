#include "cic_png_fast.h"

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
    /* RGBA: the filtered rows are one byte longer than the pixels. RGB: they fit below. */
    info->buffer_size = pixels * 4 + height + 64;
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

static inline __m128i abs_epi16(__m128i x) {
    __m128i negative = _mm_srai_epi16(x, 15);
    return _mm_sub_epi16(_mm_xor_si128(x, negative), negative);
}

static inline __m128i select_if(__m128i condition, __m128i yes, __m128i no) {
    return _mm_or_si128(_mm_and_si128(condition, yes), _mm_andnot_si128(condition, no));
}

/* Paeth, 4 bytes a pixel, one pixel at a time in 16-bit lanes (libpng's approach). */
static void paeth4_sse2(uint8_t *out, const uint8_t *in, const uint8_t *previous, size_t length) {
    __m128i zero = _mm_setzero_si128();
    __m128i a = zero, b = zero, c, d = zero;
    for (size_t i = 0; i < length; i += 4) {
        c = b;
        b = _mm_unpacklo_epi8(load4(previous + i), zero);
        a = d;
        d = _mm_unpacklo_epi8(load4(in + i), zero);
        __m128i pa = _mm_sub_epi16(b, c), pb = _mm_sub_epi16(a, c);
        __m128i pc = abs_epi16(_mm_add_epi16(pa, pb));
        pa = abs_epi16(pa);
        pb = abs_epi16(pb);
        __m128i smallest = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
        __m128i nearest = select_if(_mm_cmpeq_epi16(smallest, pb), b, c);
        nearest = select_if(_mm_cmpeq_epi16(smallest, pa), a, nearest);
        d = _mm_and_si128(_mm_add_epi16(d, nearest), _mm_set1_epi16(0xFF));
        store4(out + i, _mm_packus_epi16(d, d));
    }
}
#endif

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
            paeth4_sse2(out, in, previous, length);
            return 1;
        }
    }
#endif
    cic_png_unfilter_row_scalar(filter, out, in, previous, length, bpp);
    return 1;
}

void cic_advise_huge_pages(void *pointer, size_t length) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t start = ((uintptr_t)pointer + huge - 1) & ~(huge - 1);
    uintptr_t end = ((uintptr_t)pointer + length) & ~(huge - 1);
    if (end > start) madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)pointer;
    (void)length;
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
static int next_chunk(const uint8_t *data, size_t size, size_t *position, png_chunk *chunk,
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
    if (libdeflate_crc32(0, type, 4 + (size_t)length) != read_be32(type + 4 + length) && is_critical(type)) {
        fail(message, message_size, "CRC error in a critical chunk");
        return -1;
    }
    chunk->type = type;
    chunk->payload = type + 4;
    chunk->length = length;
    *position += 12 + (size_t)length;
    return 1;
}

cic_fast_status cic_png_check_structure(const uint8_t *data, size_t size, char *message, size_t message_size) {
    if (size < 8 || memcmp(data, png_signature, 8) != 0) return fail(message, message_size, "not a PNG");
    size_t position = 8;
    png_chunk chunk;
    int seen_idat = 0, first = 1, step;
    while ((step = next_chunk(data, size, &position, &chunk, message, message_size)) == 1) {
        if (first && memcmp(chunk.type, "IHDR", 4) != 0) return fail(message, message_size, "IHDR is not first");
        first = 0;
        if (memcmp(chunk.type, "IDAT", 4) == 0) seen_idat = 1;
        if (memcmp(chunk.type, "IEND", 4) == 0)
            return seen_idat ? CIC_FAST_OK : fail(message, message_size, "no image data (IDAT)");
    }
    return step < 0 ? CIC_FAST_ERROR : fail(message, message_size, "unexpected end of data (no IEND)");
}

cic_fast_status cic_png_fast_decode(const uint8_t *data, size_t size, const cic_png_fast_info *info,
                                    uint8_t *pixels, char *message, size_t message_size) {
    const size_t channels = (size_t)info->channels;
    const size_t row_bytes = (size_t)info->width * channels;
    const size_t stride = row_bytes + 1;
    const size_t filtered_size = stride * info->height;

    /* Gather the IDAT payload; every CRC is checked on the way. */
    size_t position = 8, idat_size = 0, idat_capacity = 0;
    uint8_t *idat = NULL;
    int seen_iend = 0, seen_idat = 0, idat_ended = 0, step;
    cic_fast_status status = CIC_FAST_OK;
    png_chunk chunk;
    while ((step = next_chunk(data, size, &position, &chunk, message, message_size)) == 1) {
        const uint8_t *type = chunk.type;
        uint32_t length = chunk.length;
        if (memcmp(type, "IDAT", 4) == 0) {
            if (idat_ended) {
                status = fail(message, message_size, "IDAT chunks are not consecutive");
                goto done;
            }
            seen_idat = 1;
            if (idat_size + length > idat_capacity) {
                size_t wanted = idat_capacity ? idat_capacity * 2 : (size > 1024 ? size : 1024);
                while (wanted < idat_size + length) wanted *= 2;
                uint8_t *grown = realloc(idat, wanted);
                if (!grown) {
                    status = fail(message, message_size, "out of memory");
                    goto done;
                }
                idat = grown;
                idat_capacity = wanted;
            }
            memcpy(idat + idat_size, chunk.payload, length);
            idat_size += length;
        } else {
            if (seen_idat) idat_ended = 1;
            if (memcmp(type, "IEND", 4) == 0) {
                seen_iend = 1;
                break;
            }
            if (memcmp(type, "tRNS", 4) == 0 || (is_critical(type) && memcmp(type, "IHDR", 4) != 0 &&
                                                 memcmp(type, "PLTE", 4) != 0)) {
                status = CIC_FAST_NOT_ELIGIBLE;
                goto done;
            }
        }
    }
    if (step < 0) {
        status = CIC_FAST_ERROR;
        goto done;
    }
    if (!seen_idat) {
        status = fail(message, message_size, "no image data (IDAT)");
        goto done;
    }
    if (!seen_iend) {
        status = fail(message, message_size, "unexpected end of data (no IEND)");
        goto done;
    }

    /* Inflate where the rows can be unfiltered and spread without another buffer. */
    uint8_t *filtered = channels == 4 ? pixels : pixels + (info->buffer_size - filtered_size);
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    if (!inflater) {
        status = fail(message, message_size, "out of memory");
        goto done;
    }
    size_t produced = 0;
    enum libdeflate_result result =
        libdeflate_zlib_decompress(inflater, idat, idat_size, filtered, filtered_size, &produced);
    libdeflate_free_decompressor(inflater);
    if (result == LIBDEFLATE_INSUFFICIENT_SPACE) {
        /* More data than the rows need: libpng accepts it too, with a warning. Redo with the
         * stream's own length is not possible in one call, so hand the file to libpng. */
        status = CIC_FAST_NOT_ELIGIBLE;
        goto done;
    }
    if (result != LIBDEFLATE_SUCCESS) {
        status = fail(message, message_size, result == LIBDEFLATE_BAD_DATA
                                                 ? "corrupt or truncated zlib data in IDAT"
                                                 : "corrupt zlib data in IDAT");
        goto done;
    }
    if (produced != filtered_size) {
        status = fail(message, message_size, "not enough image data");
        goto done;
    }

    /* RGBA rows are unfiltered straight to their final place, over the filter bytes; RGB rows
     * in place, then spread to RGBA below. */
    const uint8_t *previous = NULL;
    for (size_t y = 0; y < info->height; y++) {
        const uint8_t *row = filtered + y * stride;
        uint8_t *destination = channels == 4 ? pixels + y * row_bytes : (uint8_t *)row + 1;
        if (!cic_png_unfilter_row(row[0], destination, row + 1, previous, row_bytes, (int)channels)) {
            status = fail(message, message_size, "bad adaptive filter value");
            goto done;
        }
        previous = destination;
    }

    if (channels == 3) {
        size_t out = 0;
        for (size_t y = 0; y < info->height; y++) {
            const uint8_t *source = filtered + y * stride + 1;
            for (size_t x = 0; x < info->width; x++, source += 3, out += 4) {
                uint8_t r = source[0], g = source[1], b = source[2];
                pixels[out] = r;
                pixels[out + 1] = g;
                pixels[out + 2] = b;
                pixels[out + 3] = 255;
            }
        }
    }

done:
    free(idat);
    return status;
}
