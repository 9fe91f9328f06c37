#include "cic_png_write.h"

#include <libdeflate.h>
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

static void convert_row(const void *pixels, cic_row_format format, uint32_t width, size_t y, uint8_t *out) {
    size_t x;
    switch (format) {
    case CIC_ROWS_RGBA8:
        memcpy(out, (const uint8_t *)pixels + y * width * 4, (size_t)width * 4);
        break;
    case CIC_ROWS_RGB8: {
        const uint8_t *in = (const uint8_t *)pixels + y * width * 4;
        for (x = 0; x < width; x++, in += 4, out += 3) {
            out[0] = in[0];
            out[1] = in[1];
            out[2] = in[2];
        }
        break;
    }
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
    case CIC_ROWS_INDEX1: {
        const uint8_t *in = (const uint8_t *)pixels + y * width;
        memset(out, 0, ((size_t)width + 7) / 8);
        for (x = 0; x < width; x++)
            if (in[x]) out[x >> 3] |= (uint8_t)(0x80 >> (x & 7));
        break;
    }
    }
}

int cic_png_deflate_band(const void *pixels, cic_row_format format, uint32_t width,
                         uint32_t first_row, uint32_t row_count, int level, int final,
                         uint8_t **output, size_t *output_size, uint32_t *adler, size_t *filtered_size) {
    const size_t row_bytes = cic_png_row_bytes(format, width);
    uint8_t *previous = calloc(row_bytes ? row_bytes : 1, 1);
    uint8_t *current = malloc(row_bytes ? row_bytes : 1);
    uint8_t *filtered = malloc(row_bytes + 1);
    size_t capacity = deflateBound(NULL, (row_bytes + 1) * (size_t)row_count) + 64;
    uint8_t *out = malloc(capacity);
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    int ok = previous && current && filtered && out &&
             deflateInit2(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK;
    if (!ok) {
        free(previous);
        free(current);
        free(filtered);
        free(out);
        return 0;
    }
    /* The Up filter looks at the row above, which belongs to the previous band. */
    if (first_row > 0) convert_row(pixels, format, width, first_row - 1, previous);

    uint32_t checksum = 1;
    stream.next_out = out;
    stream.avail_out = (uInt)capacity;
    for (uint32_t r = 0; r < row_count && ok; r++) {
        convert_row(pixels, format, width, (size_t)first_row + r, current);
        filtered[0] = 2;
        for (size_t i = 0; i < row_bytes; i++) filtered[i + 1] = (uint8_t)(current[i] - previous[i]);
        checksum = libdeflate_adler32(checksum, filtered, row_bytes + 1);
        stream.next_in = filtered;
        stream.avail_in = (uInt)(row_bytes + 1);
        int last = r + 1 == row_count;
        int flush = last ? (final ? Z_FINISH : Z_SYNC_FLUSH) : Z_NO_FLUSH;
        int result = deflate(&stream, flush);
        ok = (result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR) && stream.avail_in == 0;
        uint8_t *swap = previous;
        previous = current;
        current = swap;
    }
    if (row_count == 0 && ok) {
        int result = deflate(&stream, final ? Z_FINISH : Z_SYNC_FLUSH);
        ok = result == Z_OK || result == Z_STREAM_END;
    }
    size_t produced = capacity - stream.avail_out;
    deflateEnd(&stream);
    free(previous);
    free(current);
    free(filtered);
    if (!ok) {
        free(out);
        return 0;
    }
    *output = out;
    *output_size = produced;
    *adler = checksum;
    *filtered_size = (row_bytes + 1) * (size_t)row_count;
    return 1;
}

uint32_t cic_adler32_combine(uint32_t first, uint32_t second, size_t second_length) {
    return (uint32_t)adler32_combine(first, second, (z_off_t)second_length);
}

uint32_t cic_crc32(uint32_t crc, const uint8_t *bytes, size_t length) {
    return libdeflate_crc32(crc, bytes, length);
}
