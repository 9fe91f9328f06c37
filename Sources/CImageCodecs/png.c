#include "CImageCodecs.h"

#include <stdint.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where libpng's error text goes: the caller's buffer of the call in progress. */
typedef struct {
    char *text;
    size_t size;
} message_target;

struct cic_png_decoder {
    message_target target;
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    size_t row_bytes;
    /* Bytes per row of the caller's RGBA buffer (row_bytes, except for palette indices). */
    size_t stride;
    uint32_t width;
    uint32_t height;
    /* Palette images are read as one index byte a pixel and expanded here, so that an index
     * outside the palette is an error rather than libpng's silent black. */
    int palette_entries;
    png_byte palette_rgba[256][4];
};

/* The most bytes libpng may allocate for one ancillary chunk, and the most ancillary chunks it
 * keeps; libpng's own defaults are 8,000,000 and 1,000. */
enum { max_ancillary_chunk_bytes = 8000000, max_cached_chunks = 128 };

/* Ancillary chunks nothing here uses: skipped without being read (zTXt, iTXt and iCCP are
 * compressed; none of them can inflate). tRNS is kept. */
static const png_byte skipped_chunks[] =
    "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0"
    "tEXt\0tIME\0zTXt\0";

static int is_little_endian(void) {
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

static void set_message(message_target *target, const char *text) {
    if (target->text != NULL && target->size > 0) {
        snprintf(target->text, target->size, "%s", text);
    }
}

static void on_error(png_structp png, png_const_charp text) {
    set_message(png_get_error_ptr(png), text);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void read_from_memory(png_structp png, png_bytep out, size_t length) {
    cic_png_decoder *decoder = png_get_io_ptr(png);
    if (length > decoder->size - decoder->offset) {
        png_error(png, "unexpected end of data");
    }
    memcpy(out, decoder->data + decoder->offset, length);
    decoder->offset += length;
}

void cic_png_close(cic_png_decoder *decoder) {
    if (decoder == NULL) return;
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder);
}

/* Reads the palette and tRNS into RGBA entries and asks libpng for unpacked indices. */
static void prepare_palette(cic_png_decoder *decoder) {
    png_colorp palette = NULL;
    int entries = 0;
    if (png_get_PLTE(decoder->png, decoder->info, &palette, &entries) == 0 || entries <= 0) {
        png_error(decoder->png, "missing PLTE");
    }
    png_bytep trans_alpha = NULL;
    int trans_entries = 0;
    if (png_get_tRNS(decoder->png, decoder->info, &trans_alpha, &trans_entries, NULL) == 0) {
        trans_entries = 0;
    }
    for (int i = 0; i < entries && i < 256; i++) {
        decoder->palette_rgba[i][0] = palette[i].red;
        decoder->palette_rgba[i][1] = palette[i].green;
        decoder->palette_rgba[i][2] = palette[i].blue;
        decoder->palette_rgba[i][3] = i < trans_entries ? trans_alpha[i] : 255;
    }
    decoder->palette_entries = entries < 256 ? entries : 256;
    png_set_packing(decoder->png); /* 1, 2 and 4-bit indices → one byte each */
}

cic_status cic_png_open(const uint8_t *data, size_t size, const cic_decode_limits *limits,
                        cic_png_decoder **result, cic_image_info *info,
                        char *message, size_t message_size) {
    *result = NULL;
    cic_png_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return CIC_OUT_OF_MEMORY;
    decoder->target = (message_target){message, message_size};
    decoder->data = data;
    decoder->size = size;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &decoder->target,
                                          on_error, on_warning);
    if (decoder->png != NULL) decoder->info = png_create_info_struct(decoder->png);
    if (decoder->info == NULL) {
        cic_png_close(decoder);
        return CIC_OUT_OF_MEMORY;
    }
    png_structp png = decoder->png;
    png_infop png_info = decoder->info;
    if (setjmp(png_jmpbuf(png))) {
        cic_png_close(decoder);
        return CIC_ERROR;
    }
    if (limits != NULL) {
        png_set_user_limits(png, limits->max_width < PNG_UINT_31_MAX ? limits->max_width : PNG_UINT_31_MAX,
                            limits->max_height < PNG_UINT_31_MAX ? limits->max_height : PNG_UINT_31_MAX);
    }
    png_set_chunk_malloc_max(png, max_ancillary_chunk_bytes);
    png_set_chunk_cache_max(png, max_cached_chunks);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, skipped_chunks,
                                (int)(sizeof skipped_chunks - 1) / 5);
    png_set_read_fn(png, decoder, read_from_memory);
    png_read_info(png, png_info);

    int color_type = png_get_color_type(png, png_info);
    int bit_depth = png_get_bit_depth(png, png_info);
    int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 ||
                    png_get_valid(png, png_info, PNG_INFO_tRNS) != 0;
    int channels = 4;
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        prepare_palette(decoder);
        channels = 1;
    } else {
        png_set_expand(png); /* gray 1/2/4 → 8, tRNS → alpha */
        if ((color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
        if (!has_alpha) png_set_filler(png, 0xffff, PNG_FILLER_AFTER);
        if (bit_depth == 16 && is_little_endian()) png_set_swap(png);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, png_info);

    uint32_t width = png_get_image_width(png, png_info);
    uint32_t height = png_get_image_height(png, png_info);
    int output_depth = bit_depth == 16 ? 16 : 8;
    size_t row_bytes = png_get_rowbytes(png, png_info);
    if (png_get_channels(png, png_info) != channels ||
        png_get_bit_depth(png, png_info) != output_depth ||
        row_bytes != (size_t)width * (size_t)channels * (size_t)(output_depth / 8)) {
        png_error(png, "unexpected row layout after transformations");
    }
    decoder->row_bytes = row_bytes;
    decoder->stride = (size_t)width * 4 * (size_t)(output_depth / 8);
    decoder->width = width;
    decoder->height = height;
    *info = (cic_image_info){width, height, output_depth, has_alpha};
    *result = decoder;
    return CIC_OK;
}

/* Replaces each row's leading index bytes with the RGBA entries they name, right to left
 * (the RGBA pixel x ends at or after index x). */
static int expand_palette(cic_png_decoder *decoder, png_bytep pixels, size_t stride) {
    const int entries = decoder->palette_entries;
    for (uint32_t y = 0; y < decoder->height; y++) {
        png_bytep row = pixels + (size_t)y * stride;
        for (size_t x = decoder->width; x-- > 0;) {
            png_byte index = row[x];
            if (index >= entries) {
                char text[96];
                snprintf(text, sizeof text, "palette index %d at %zu,%u is outside the %d-entry palette",
                         index, x, y, entries);
                set_message(&decoder->target, text);
                return 0;
            }
            memcpy(row + x * 4, decoder->palette_rgba[index], 4);
        }
    }
    return 1;
}

cic_status cic_png_read(cic_png_decoder *decoder, void *pixels, size_t size,
                        char *message, size_t message_size) {
    decoder->target = (message_target){message, message_size};
    size_t stride = decoder->stride;
    if (decoder->height == 0 || size / decoder->height < stride) {
        set_message(&decoder->target, "output buffer too small");
        return CIC_ERROR;
    }
    png_bytep *rows = malloc(sizeof(png_bytep) * decoder->height);
    if (rows == NULL) return CIC_OUT_OF_MEMORY;
    for (uint32_t y = 0; y < decoder->height; y++) {
        rows[y] = (png_bytep)pixels + (size_t)y * stride;
    }
    png_structp png = decoder->png;
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        return CIC_ERROR;
    }
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    if (decoder->palette_entries > 0 && !expand_palette(decoder, pixels, stride)) return CIC_ERROR;
    return CIC_OK;
}

void cic_free(void *pointer) {
    free(pointer);
}
