#ifndef CIC_PNG_FAST_H
#define CIC_PNG_FAST_H

/*
 * The fast path for the PNGs screenshots are made of: 8-bit RGB or RGBA, not interlaced.
 * The zlib stream is inflated by libdeflate straight into the caller's pixel buffer and the
 * rows are unfiltered in place (SSE2 where available), then spread to RGBA; no other copy of
 * the image is made. Every other PNG goes to libpng (cic_png_*).
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
    /* The pixel buffer cic_png_fast_decode needs: width * height * 4 plus room to inflate
     * the filtered rows in place. */
    size_t buffer_size;
} cic_png_fast_info;

/* Reads the IHDR and decides whether the fast path applies. */
cic_fast_status cic_png_fast_probe(const uint8_t *data, size_t size, cic_png_fast_info *info);

/* Decodes into `pixels` (info->buffer_size bytes); on success the first
 * width * height * 4 bytes are RGBA. Verifies every chunk CRC, the zlib stream and its
 * Adler-32, and the amount of image data. */
cic_fast_status cic_png_fast_decode(const uint8_t *data, size_t size, const cic_png_fast_info *info,
                                    uint8_t *pixels, char *message, size_t message_size);

/* Checks a PNG's structure without decoding its pixels: signature, IHDR first, every chunk
 * within the data with a correct CRC (critical chunks), image data, and IEND. */
cic_fast_status cic_png_check_structure(const uint8_t *data, size_t size, char *message, size_t message_size);

/* Unfilters one row from `in` to `out` with the plain scalar code (the reference the SIMD path
 * is tested against, and the path on other CPUs). `out` may equal `in`, or sit below it;
 * `previous` is the unfiltered row above, NULL for the first row. */
void cic_png_unfilter_row_scalar(int filter, uint8_t *out, const uint8_t *in, const uint8_t *previous,
                                 size_t length, int bpp);
/* The same, with the SSE2 kernels where they exist. Returns 0 for an unknown filter type. */
int cic_png_unfilter_row(int filter, uint8_t *out, const uint8_t *in, const uint8_t *previous, size_t length,
                         int bpp);

/* Asks Linux for transparent huge pages over a large, not yet touched buffer: far fewer page
 * faults when it is first written. A hint; does nothing elsewhere. */
void cic_advise_huge_pages(void *pointer, size_t length);

#ifdef __cplusplus
}
#endif

#endif
