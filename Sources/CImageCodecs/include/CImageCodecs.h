#ifndef CIMAGECODECS_H
#define CIMAGECODECS_H

/*
 * A thin C layer over libpng and libjpeg. Both libraries report errors with longjmp, which
 * Swift cannot survive; every call here sets its own setjmp and turns a library error into a
 * status code plus a message copied into the caller's buffer.
 *
 * Decoding happens in two steps so that the caller can allocate the final pixel buffer once:
 * `*_open` reads the header and fills `cic_image_info`, `*_read` decodes every row straight
 * into the caller's buffer (RGBA, `width * 4` samples a row, no padding), `*_close` frees.
 * The input bytes must stay valid until `*_close`.
 */

#include <stddef.h>
#include <stdint.h>

#include "cic_png_fast.h"
#include "cic_png_write.h"
#include "cic_adler32.h"
#include "cic_magick.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CIC_OK = 0,
    /* The library rejected the data; the message says why. */
    CIC_ERROR = 1,
    /* Valid data this layer does not decode (a CMYK or YCCK JPEG). */
    CIC_UNSUPPORTED = 2,
    CIC_OUT_OF_MEMORY = 3,
    /* The data asks for more than the caller's limits allow (see cic_decode_limits). */
    CIC_LIMIT_EXCEEDED = 4,
} cic_status;

/*
 * What a decode may cost. Sizes are checked by the caller from the header as well; these are
 * the libraries' own limits, a second line of defence and a bound on their working memory.
 */
typedef struct {
    /* libpng's user limits on IHDR width and height (at most 2^31 - 1). */
    uint32_t max_width;
    uint32_t max_height;
    /* JPEG: the most bytes for the caller's output buffer (width * height * 4) and libjpeg's
     * whole-image coefficient buffers (progressive JPEGs) together; cic_jpeg_open returns
     * CIC_LIMIT_EXCEEDED, with *info filled in, for a JPEG that needs more. */
    size_t max_memory;
    /* The most scans a progressive JPEG may have (each scan rereads the whole image). */
    uint32_t max_scans;
} cic_decode_limits;

typedef struct {
    uint32_t width;
    uint32_t height;
    /* Bits per output sample: 8, or 16 for 16-bit PNGs (native-endian uint16 samples). */
    int bit_depth;
    /* 1 when the source has an alpha channel or a tRNS chunk; otherwise A is opaque. */
    int has_alpha;
} cic_image_info;

typedef struct cic_png_decoder cic_png_decoder;
typedef struct cic_jpeg_decoder cic_jpeg_decoder;

/* PNG: every colour type and bit depth, interlaced or not; no gamma or ICC conversion.
 * Ancillary chunks other than tRNS are skipped unread (no text or ICC decompression). */
cic_status cic_png_open(const uint8_t *data, size_t size, const cic_decode_limits *limits,
                        cic_png_decoder **decoder, cic_image_info *info,
                        char *message, size_t message_size);
/* `pixels` holds `size` bytes: height * width * 4 * (bit_depth / 8). Missing rows, a missing
 * IEND and a palette index outside the palette are errors. */
cic_status cic_png_read(cic_png_decoder *decoder, void *pixels, size_t size,
                        char *message, size_t message_size);
void cic_png_close(cic_png_decoder *decoder);

/* JPEG: islow IDCT, fancy upsampling, output RGBA with A = 255. CMYK/YCCK → CIC_UNSUPPORTED. */
cic_status cic_jpeg_open(const uint8_t *data, size_t size, const cic_decode_limits *limits,
                         cic_jpeg_decoder **decoder, cic_image_info *info,
                         char *message, size_t message_size);
cic_status cic_jpeg_read(cic_jpeg_decoder *decoder, uint8_t *pixels, size_t size,
                         char *message, size_t message_size);
void cic_jpeg_close(cic_jpeg_decoder *decoder);

/* Frees a buffer this layer allocated (the PNG writer's compressed bands). */
void cic_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
