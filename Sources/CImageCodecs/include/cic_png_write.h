#ifndef CIC_PNG_WRITE_H
#define CIC_PNG_WRITE_H

/*
 * The PNG writer's heavy part, one band of rows at a time so that bands can be deflated on
 * separate cores and their streams joined (each band but the last ends with a deflate sync
 * flush, so the pieces concatenate into one valid stream, as pigz does).
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    /* 8-bit RGBA in, RGBA out. */
    CIC_ROWS_RGBA8 = 0,
    /* 8-bit RGBA in, RGB out (alpha dropped). */
    CIC_ROWS_RGB8 = 1,
    /* native-endian 16-bit RGBA in, big-endian RGBA out. */
    CIC_ROWS_RGBA16 = 2,
    /* native-endian 16-bit RGBA in, big-endian RGB out. */
    CIC_ROWS_RGB16 = 3,
    /* one byte a pixel (0 or not) in, 1-bit palette indices out. */
    CIC_ROWS_INDEX1 = 4,
} cic_row_format;

/* Bytes of one output row (without the filter byte). */
size_t cic_png_row_bytes(cic_row_format format, uint32_t width);

/*
 * Converts rows [first_row, first_row + row_count) of `pixels` (`width` pixels a row, in the
 * input layout of `format`), filters each with the Up filter and deflates them with ISA-L's
 * igzip at `level` (0 … 3) as raw deflate data. `final` ends the stream; otherwise it ends
 * with a sync flush. On success *output is a malloc'd buffer (free with cic_free) of *output_size
 * bytes, and *adler / *filtered_size describe the filtered bytes, for the zlib trailer.
 */
int cic_png_deflate_band(const void *pixels, cic_row_format format, uint32_t width,
                         uint32_t first_row, uint32_t row_count, int level, int final,
                         uint8_t **output, size_t *output_size, uint32_t *adler, size_t *filtered_size);

/*
 * The same, with its scratch buffers kept from band to band (for a writer that deflates many
 * small bands as they arrive): created for bands of up to `max_rows` rows; NULL when out of
 * memory or for a level outside 0 … 3. *output points into the deflater and stays valid until
 * its next run.
 */
typedef struct cic_png_deflater cic_png_deflater;
cic_png_deflater *cic_png_deflater_new(cic_row_format format, uint32_t width, uint32_t max_rows, int level);
int cic_png_deflater_run(cic_png_deflater *deflater, const void *pixels, uint32_t first_row, uint32_t row_count,
                         int final, const uint8_t **output, size_t *output_size, uint32_t *adler,
                         size_t *filtered_size);
void cic_png_deflater_free(cic_png_deflater *deflater);

/* zlib's adler32_combine, and its initial value. */
uint32_t cic_adler32_combine(uint32_t first, uint32_t second, size_t second_length);
uint32_t cic_crc32(uint32_t crc, const uint8_t *bytes, size_t length);

#ifdef __cplusplus
}
#endif

#endif
