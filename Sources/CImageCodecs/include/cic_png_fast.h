#ifndef CIC_PNG_FAST_H
#define CIC_PNG_FAST_H

/*
 * The fast path for the PNGs screenshots are made of: 8-bit RGB or RGBA, not interlaced.
 * A row stream: ISA-L inflates the IDAT data a cache-sized chunk at a time (or libdeflate all
 * of it at once, cic_png_stream_inflate_whole), the rows are
 * unfiltered (SSE2 where available) and spread to RGBA into the caller's rows, so a caller can
 * decode a whole image or a band at a time without holding it. Every other PNG goes to libpng
 * (cic_png_*).
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CIC_FAST_OK = 0,
    /* Valid or not, this PNG is not for the fast path: decode it with libpng. */
    CIC_FAST_NOT_ELIGIBLE = 1,
    /* The PNG is broken; the message says how. */
    CIC_FAST_ERROR = 2,
} cic_fast_status;

typedef struct {
    uint32_t width;
    uint32_t height;
    /* 3 (RGB) or 4 (RGBA) bytes a pixel in the file. */
    int channels;
} cic_png_fast_info;

typedef struct cic_png_stream cic_png_stream;

/* Reads the IHDR and decides whether the fast path applies. */
cic_fast_status cic_png_fast_probe(const uint8_t *data, size_t size, cic_png_fast_info *info);

/* Opens a row stream over the PNG in `data`, which must outlive it. Checks every chunk's CRC
 * and the chunk order first; CIC_FAST_NOT_ELIGIBLE for a PNG the fast path does not take. */
cic_fast_status cic_png_stream_open(const uint8_t *data, size_t size, cic_png_stream **stream, char *message,
                                    size_t message_size);
/* Inflates the whole image data at once with libdeflate, when its filtered rows take at most
 * `max_bytes`: on the flat, long-matched streams of screenshots several times as fast as the
 * chunked ISA-L inflate, at the cost of holding those rows. Call before the first read; returns
 * 1 when the stream now reads from them. A stream that is corrupt, truncated or holds data after
 * its rows stays with the chunked inflate, which reports what is wrong as before. */
int cic_png_stream_inflate_whole(cic_png_stream *stream, size_t max_bytes);
/* Decodes the next `row_count` rows as RGBA into `rgba` (row_count * width * 4 bytes). After
 * the last row, also checks that the zlib stream ends and its Adler-32. */
cic_fast_status cic_png_stream_read_rows(cic_png_stream *stream, uint8_t *rgba, uint32_t row_count, char *message,
                                         size_t message_size);
/* Whether the stream holds its inflated rows (cic_png_stream_inflate_whole took it and its
 * last row has not been read), so that cic_png_stream_reread_rows can decode rows again. */
int cic_png_stream_holds_inflated_rows(const cic_png_stream *stream);
/* Decodes the first `row_count` rows again, as RGBA, from the held inflated rows, without
 * moving the stream: what a fresh stream would read, without inflating again. */
cic_fast_status cic_png_stream_reread_rows(cic_png_stream *stream, uint8_t *rgba, uint32_t row_count, char *message,
                                           size_t message_size);
void cic_png_stream_close(cic_png_stream *stream);

/* Checks a PNG's structure without decoding its pixels: signature, IHDR first, every chunk
 * within the data with a correct CRC (critical chunks), image data, and IEND; the header's
 * colour type, bit depth and methods, a palette where one is needed (and none in grayscale), no
 * unknown critical chunk, and the zlib header of the image data. Truncated or corrupt
 * compressed data, bad filter bytes and palette indices out of range are found only by
 * inflating, which this leaves out. */
cic_fast_status cic_png_check_structure(const uint8_t *data, size_t size, char *message, size_t message_size);

/* Unfilters one row from `in` to `out` with the plain scalar code (the reference the SIMD path
 * is tested against, and the path on other CPUs). `out` may equal `in`, or sit below it;
 * `previous` is the unfiltered row above, NULL for the first row. */
void cic_png_unfilter_row_scalar(int filter, uint8_t *out, const uint8_t *in, const uint8_t *previous,
                                 size_t length, int bpp);
/* The same, with the SSE2 kernels where they exist. Returns 0 for an unknown filter type. */
int cic_png_unfilter_row(int filter, uint8_t *out, const uint8_t *in, const uint8_t *previous, size_t length,
                         int bpp);

/* Unfilters `row_count` consecutive rows: filtered rows (filter byte, then `length` bytes)
 * `in_stride` apart, into `out` rows `out_stride` apart; `previous` is the unfiltered row above
 * the first, NULL at the top of the image. Runs of Paeth rows go through a kernel that takes
 * eight at once in an AVX2 register (where the CPU has AVX2), or two to four in an SSE2
 * register. Returns 0 for an unknown filter type. */
int cic_png_unfilter_rows(uint8_t *out, size_t out_stride, const uint8_t *in, size_t in_stride,
                          const uint8_t *previous, size_t row_count, size_t length, int bpp);

/* Asks Linux for transparent huge pages over the whole 2-MiB pages within a large, not yet
 * touched span: far fewer page faults when it is first written. A hint; returns 1 when some
 * span was advised and the kernel took the advice, 0 otherwise (and always elsewhere). */
int cic_advise_huge_pages(void *pointer, size_t length);

#ifdef __cplusplus
}
#endif

#endif
