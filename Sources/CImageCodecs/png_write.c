#include "cic_png_write.h"
#include "cic_adler32.h"
#include "vector_state.h"

#include <isa-l/crc.h>
#include <pthread.h>
#include <isa-l/igzip_lib.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

size_t cic_png_row_bytes(cic_row_format format, uint32_t width) {
    switch (format) {
    case CIC_ROWS_RGBA8: return (size_t)width * 4;
    case CIC_ROWS_RGB8: return (size_t)width * 3;
    case CIC_ROWS_RGBA16: return (size_t)width * 8;
    case CIC_ROWS_RGB16: return (size_t)width * 6;
    case CIC_ROWS_INDEX1: return ((size_t)width + 7) / 8;
    }
    return 0;
}

/* RGBA to RGB: drops every fourth byte. The plain loop is the reference (EncoderTests round-trip
   every width against it); with SSSE3, four pixels at a time by one byte shuffle, whose 16-byte
   store runs 4 bytes into the next pixels' place (overwritten next), so it runs while at least
   two pixels follow the four. */
static void pack_rgb_row_plain(uint8_t *out, const uint8_t *in, size_t width) {
    for (size_t x = 0; x < width; x++, in += 4, out += 3) {
        out[0] = in[0];
        out[1] = in[1];
        out[2] = in[2];
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CIC_HAVE_PACK_SSSE3 1
__attribute__((target("ssse3"))) static void pack_rgb_row_ssse3(uint8_t *out, const uint8_t *in, size_t width) {
    const __m128i order = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    size_t x = 0;
    for (; x + 6 <= width; x += 4)
        _mm_storeu_si128((__m128i *)(out + 3 * x), _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 4 * x)), order));
    pack_rgb_row_plain(out + 3 * x, in + 4 * x, width - x);
}
#endif

static void pack_rgb_row(uint8_t *out, const uint8_t *in, size_t width) {
#if defined(CIC_HAVE_PACK_SSSE3)
    if (__builtin_cpu_supports("ssse3")) {
        pack_rgb_row_ssse3(out, in, width);
        return;
    }
#endif
    pack_rgb_row_plain(out, in, width);
}

/* Mask bytes (zero or not) to 1-bit pixels, the first pixel in the high bit. The plain loop is
   the reference (EncoderTests round-trip masks of every width against it); on little-endian
   machines eight bytes go at a time: a zero word packs to zero, otherwise each nonzero byte's
   high bit is set and one multiplication gathers the eight bits into a byte, byte i to bit 7 - i
   (no two partial products share a bit, so nothing carries). */
static void pack_index1_row_plain(uint8_t *out, const uint8_t *in, size_t width) {
    memset(out, 0, (width + 7) / 8);
    for (size_t x = 0; x < width; x++)
        if (in[x]) out[x >> 3] |= (uint8_t)(0x80 >> (x & 7));
}

static void pack_index1_row(uint8_t *out, const uint8_t *in, size_t width) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t high_bits = 0x8080808080808080ull, low_bits = 0x7F7F7F7F7F7F7F7Full;
    size_t x = 0;
    for (; x + 8 <= width; x += 8) {
        uint64_t bytes;
        memcpy(&bytes, in + x, 8);
        if (bytes == 0) {
            out[x >> 3] = 0;
            continue;
        }
        const uint64_t nonzero = (((bytes & low_bits) + low_bits) | bytes) & high_bits;
        out[x >> 3] = (uint8_t)(((nonzero >> 7) * 0x8040201008040201ull) >> 56);
    }
    if (x < width) pack_index1_row_plain(out + (x >> 3), in + x, width - x);
#else
    pack_index1_row_plain(out, in, width);
#endif
}

static void convert_row(const void *pixels, cic_row_format format, uint32_t width, size_t y, uint8_t *out) {
    size_t x;
    switch (format) {
    case CIC_ROWS_RGBA8:
        memcpy(out, (const uint8_t *)pixels + y * width * 4, (size_t)width * 4);
        break;
    case CIC_ROWS_RGB8:
        pack_rgb_row(out, (const uint8_t *)pixels + y * width * 4, width);
        break;
    case CIC_ROWS_RGBA16:
    case CIC_ROWS_RGB16: {
        const uint16_t *in = (const uint16_t *)pixels + y * width * 4;
        int channels = format == CIC_ROWS_RGBA16 ? 4 : 3;
        for (x = 0; x < width; x++, in += 4) {
            for (int c = 0; c < channels; c++) {
                *out++ = (uint8_t)(in[c] >> 8);
                *out++ = (uint8_t)in[c];
            }
        }
        break;
    }
    case CIC_ROWS_INDEX1:
        pack_index1_row(out, (const uint8_t *)pixels + y * width, width);
        break;
    }
}

/* PNG's Up filter: each byte minus the one above it. */
#define PNG_FILTER_UP 2

/* Filtered rows handed to the compressor at a time: large enough to amortise each call. */
#define FILTERED_CHUNK_BYTES (256u << 10)

/* Zeroed bytes kept past the end of the filtered-row chunk and of the level buffer (see
   cic_png_deflater_new). */
#define CHUNK_SLACK 4096

static const uint32_t level_buffer_sizes[] = {
    ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};

/* A stored (uncompressed, not final) deflate block of one byte: header bits 000 padded to a
   byte, LEN = 1, NLEN = ~1, then the byte. */
#define ONE_BYTE_BLOCK_SIZE 6
static void write_one_byte_block(uint8_t *out, uint8_t byte) {
    const uint8_t block[ONE_BYTE_BLOCK_SIZE] = {0x00, 0x01, 0x00, 0xFE, 0xFF, byte};
    memcpy(out, block, sizeof block);
}

/* Compresses `length` bytes; the stream ends (or sync-flushes) when `last` is set. */
static int compress_chunk(struct isal_zstream *stream, uint8_t *bytes, size_t length, int last, int final) {
    stream->next_in = bytes;
    stream->avail_in = (uint32_t)length;
    stream->end_of_stream = last && final;
    stream->flush = last && !final ? SYNC_FLUSH : NO_FLUSH;
    int ok = isal_deflate(stream) == COMP_OK && stream->avail_in == 0;
    cic_clear_upper_vector_state();
    return ok;
}

struct cic_png_deflater {
    cic_row_format format;
    uint32_t width;
    int level;
    size_t row_bytes;
    size_t rows_per_chunk;
    size_t capacity;
    uint8_t *previous;
    uint8_t *current;
    uint8_t *chunk;
    uint8_t *level_buffer;
    uint8_t *out;
    struct isal_zstream stream;
};

/* igzip picks its kernels for this CPU on the first call of each. Made once, on one thread,
   before any two deflaters can run at once: the first calls never race. */
static void warm_up_igzip(void) {
    static uint8_t input[4096], output[8192];
    for (int level = 0; level <= 3; level++) {
        static uint8_t level_buffer[ISAL_DEF_LVL3_DEFAULT];
        struct isal_zstream stream;
        isal_deflate_init(&stream);
        stream.level = (uint32_t)level;
        stream.level_buf = level_buffer;
        stream.level_buf_size = level_buffer_sizes[level];
        stream.next_in = input;
        stream.avail_in = sizeof input;
        stream.next_out = output;
        stream.avail_out = sizeof output;
        stream.end_of_stream = 1;
        isal_deflate(&stream);
    }
    cic_clear_upper_vector_state();
}

cic_png_deflater *cic_png_deflater_new(cic_row_format format, uint32_t width, uint32_t max_rows, int level) {
    if (level < 0 || level > 3) return NULL;
    static pthread_once_t warmed_up = PTHREAD_ONCE_INIT;
    pthread_once(&warmed_up, warm_up_igzip);
    cic_png_deflater *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->format = format;
    d->width = width;
    d->level = level;
    d->row_bytes = cic_png_row_bytes(format, width);
    const size_t filtered_row_bytes = d->row_bytes + 1;
    d->rows_per_chunk = filtered_row_bytes >= FILTERED_CHUNK_BYTES ? 1 : FILTERED_CHUNK_BYTES / filtered_row_bytes;
    /* Untouched pages cost nothing, so the bound is generous: fixed Huffman codes expand by at most 1/8. */
    const size_t filtered_total = filtered_row_bytes * (size_t)max_rows;
    d->capacity = filtered_total + filtered_total / 4 + (64u << 10);
    /* The rows start zeroed (the row above the first is zero), and the input chunk keeps zeroed
       slack past its end: igzip's vector loops read a little beyond what they are given, and
       the bytes must never depend on what the heap held before. igzip writes the level buffer
       before it reads it (see cic_png_deflater_run) and the output is read only where written,
       so those two are left as the heap gives them: a calloc from the heap clears them, about
       1.5 MB for every band of a blend. */
    d->previous = calloc(d->row_bytes ? d->row_bytes : 1, 1);
    d->current = calloc(d->row_bytes ? d->row_bytes : 1, 1);
    d->chunk = calloc(filtered_row_bytes * d->rows_per_chunk + CHUNK_SLACK, 1);
    d->level_buffer = malloc(level_buffer_sizes[level] + CHUNK_SLACK);
    d->out = malloc(d->capacity);
    if (!d->previous || !d->current || !d->chunk || !d->level_buffer || !d->out || d->capacity > UINT32_MAX) {
        cic_png_deflater_free(d);
        return NULL;
    }
    return d;
}

void cic_png_deflater_free(cic_png_deflater *d) {
    if (!d) return;
    free(d->previous);
    free(d->current);
    free(d->chunk);
    free(d->level_buffer);
    free(d->out);
    free(d);
}

int cic_png_deflater_run(cic_png_deflater *d, const void *pixels, uint32_t first_row, uint32_t row_count, int final,
                         const uint8_t **output, size_t *output_size, uint32_t *adler, size_t *filtered_size) {
    const size_t row_bytes = d->row_bytes, filtered_row_bytes = row_bytes + 1;
    const size_t filtered_total = filtered_row_bytes * (size_t)row_count;
    if (filtered_total + filtered_total / 4 + (64u << 10) > d->capacity) return 0;
    struct isal_zstream *stream = &d->stream;
    isal_deflate_init(stream);
    /* The level buffer is not cleared: igzip sets its hash table up itself (for the dictionary
       below) and writes the rest before reading it. Filled with other bytes, every output of
       the fixture and bench-batch suites came out the same. */
    stream->level = (uint32_t)d->level;
    stream->level_buf = d->level_buffer;
    stream->level_buf_size = level_buffer_sizes[d->level];
    stream->next_out = d->out;
    stream->avail_out = (uint32_t)d->capacity;
    /* igzip's level 1-2 kernels (igzip_icf_body_h1_gr_bt.asm, ISA-L 2.30 up to its current
       source) hash the third byte of a stream that has no history from the stream struct's
       own address rather than from the data, so the bytes would change with where the heap
       put the struct. A stream that starts with history never takes that path. Every piece
       starts with its first row's filter-type byte: it goes out first as a one-byte stored
       block, and igzip compresses the rest with that byte as its history (a valid back
       reference, since the inflater has just written it). */
    size_t skip = 0;
    if (row_count > 0) {
        write_one_byte_block(d->out, PNG_FILTER_UP);
        stream->next_out += ONE_BYTE_BLOCK_SIZE;
        stream->avail_out -= ONE_BYTE_BLOCK_SIZE;
        uint8_t history = PNG_FILTER_UP;
        if (isal_deflate_set_dict(stream, &history, 1) != COMP_OK) return 0;
        skip = 1;
    }
    /* The Up filter looks at the row above, which belongs to the previous band. */
    if (first_row > 0)
        convert_row(pixels, d->format, d->width, first_row - 1, d->previous);
    else
        memset(d->previous, 0, row_bytes);
    uint8_t *previous = d->previous, *current = d->current;
    uint32_t checksum = 1;
    size_t filled = 0;
    int ok = 1;
    for (uint32_t r = 0; r < row_count && ok; r++) {
        convert_row(pixels, d->format, d->width, (size_t)first_row + r, current);
        uint8_t *filtered = d->chunk + filled;
        filtered[0] = PNG_FILTER_UP;
        for (size_t i = 0; i < row_bytes; i++) filtered[i + 1] = (uint8_t)(current[i] - previous[i]);
        filled += filtered_row_bytes;
        int last = r + 1 == row_count;
        if (last || filled == filtered_row_bytes * d->rows_per_chunk) {
            memset(d->chunk + filled, 0, filtered_row_bytes * d->rows_per_chunk - filled);
            checksum = cic_adler32(checksum, d->chunk, filled);
            ok = compress_chunk(stream, d->chunk + skip, filled - skip, last, final);
            filled = 0;
            skip = 0;
        }
        uint8_t *swap = previous;
        previous = current;
        current = swap;
    }
    if (row_count == 0 && ok) ok = compress_chunk(stream, d->chunk, 0, 1, final);
    if (!ok) return 0;
    *output = d->out;
    *output_size = d->capacity - stream->avail_out;
    *adler = checksum;
    *filtered_size = filtered_total;
    return 1;
}

int cic_png_deflate_band(const void *pixels, cic_row_format format, uint32_t width,
                         uint32_t first_row, uint32_t row_count, int level, int final,
                         uint8_t **output, size_t *output_size, uint32_t *adler, size_t *filtered_size) {
    cic_png_deflater *d = cic_png_deflater_new(format, width, row_count, level);
    if (!d) return 0;
    const uint8_t *bytes;
    int ok = cic_png_deflater_run(d, pixels, first_row, row_count, final, &bytes, output_size, adler, filtered_size);
    if (ok) {
        *output = d->out;
        d->out = NULL;
    }
    cic_png_deflater_free(d);
    return ok;
}

uint32_t cic_adler32_combine(uint32_t first, uint32_t second, size_t second_length) {
    return (uint32_t)adler32_combine(first, second, (z_off_t)second_length);
}

uint32_t cic_crc32(uint32_t crc, const uint8_t *bytes, size_t length) {
    return crc32_gzip_refl(crc, bytes, length);
}
