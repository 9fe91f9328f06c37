#include "CImageCodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

struct cic_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr error_manager;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    char *message;
    size_t message_size;
    int created;
    /* Set when a limit rather than the data stopped the decode. */
    int limit_exceeded;
    uint32_t max_scans;
    size_t max_memory;
};

static void fail_with(cic_jpeg_decoder *decoder, const char *text) {
    if (decoder->message != NULL && decoder->message_size > 0) {
        snprintf(decoder->message, decoder->message_size, "%s", text);
    }
    longjmp(decoder->jump, 1);
}

static void fail(j_common_ptr cinfo) {
    cic_jpeg_decoder *decoder = (cic_jpeg_decoder *)cinfo;
    /* With no backing store, libjpeg asks for one when its buffers exceed max_memory_to_use. */
    if (cinfo->err->msg_code == JERR_NO_BACKING_STORE) {
        decoder->limit_exceeded = 1;
        fail_with(decoder, "needs more working memory than the memory limit allows");
    }
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    fail_with(decoder, text);
}

/* Called between passes and scans: a progressive JPEG of thousands of tiny scans would
 * otherwise reread the whole image for each. */
static void check_scan_count(j_common_ptr cinfo) {
    cic_jpeg_decoder *decoder = (cic_jpeg_decoder *)cinfo;
    if (decoder->max_scans > 0 && decoder->cinfo.input_scan_number > (int)decoder->max_scans) {
        char text[96];
        snprintf(text, sizeof text, "more than %u scans", decoder->max_scans);
        fail_with(decoder, text);
    }
}

/* Warnings are ignored, except running out of data, at the end of the file or of a segment (a
 * marker where entropy-coded data should go on): libjpeg would pad the image with grey. */
static void on_message(j_common_ptr cinfo, int level) {
    if (level < 0 && (cinfo->err->msg_code == JWRN_JPEG_EOF || cinfo->err->msg_code == JWRN_HIT_MARKER)) fail(cinfo);
}

/* The whole-image coefficient buffers a multi-scan (progressive) JPEG needs: 64 coefficients of
 * 2 bytes per 8x8 block of each component, rows and columns rounded up to whole MCUs; 0 for a
 * single-scan JPEG, which is decoded a row of blocks at a time. libjpeg-turbo before 3.0 ignores
 * max_memory_to_use, so this is checked here. */
static size_t coefficient_buffer_size(j_decompress_ptr cinfo) {
    if (!jpeg_has_multiple_scans(cinfo)) return 0;
    size_t total = 0;
    for (int i = 0; i < cinfo->num_components; i++) {
        const jpeg_component_info *component = &cinfo->comp_info[i];
        size_t h = (size_t)component->h_samp_factor, v = (size_t)component->v_samp_factor;
        size_t columns = ((size_t)component->width_in_blocks + h - 1) / h * h;
        size_t rows = ((size_t)component->height_in_blocks + v - 1) / v * v;
        total += columns * rows * DCTSIZE2 * sizeof(JCOEF);
    }
    return total;
}

void cic_jpeg_close(cic_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->created) jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder);
}

cic_status cic_jpeg_open(const uint8_t *data, size_t size, const cic_decode_limits *limits,
                         cic_jpeg_decoder **result, cic_image_info *info,
                         char *message, size_t message_size) {
    *result = NULL;
    cic_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return CIC_OUT_OF_MEMORY;
    decoder->message = message;
    decoder->message_size = message_size;
    decoder->cinfo.err = jpeg_std_error(&decoder->error_manager);
    decoder->error_manager.error_exit = fail;
    decoder->error_manager.emit_message = on_message;
    if (limits != NULL) {
        decoder->max_scans = limits->max_scans;
        decoder->max_memory = limits->max_memory;
    }
    if (setjmp(decoder->jump)) {
        cic_jpeg_close(decoder);
        return CIC_ERROR;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->created = 1;
    decoder->progress.progress_monitor = check_scan_count;
    decoder->cinfo.progress = &decoder->progress;
    jpeg_mem_src(&decoder->cinfo, data, (unsigned long)size);
    jpeg_read_header(&decoder->cinfo, TRUE);
    if (decoder->cinfo.jpeg_color_space == JCS_CMYK ||
        decoder->cinfo.jpeg_color_space == JCS_YCCK) {
        cic_jpeg_close(decoder);
        return CIC_UNSUPPORTED;
    }
    decoder->cinfo.dct_method = JDCT_ISLOW;
    decoder->cinfo.do_fancy_upsampling = TRUE;
#ifdef JCS_ALPHA_EXTENSIONS
    decoder->cinfo.out_color_space = JCS_EXT_RGBA;
#else
    decoder->cinfo.out_color_space = JCS_RGB;
#endif
    jpeg_calc_output_dimensions(&decoder->cinfo);
    *info = (cic_image_info){decoder->cinfo.output_width, decoder->cinfo.output_height, 8, 0};
    if (decoder->max_memory > 0) {
        size_t output = (size_t)decoder->cinfo.output_width * decoder->cinfo.output_height * 4;
        size_t working = output < decoder->max_memory ? decoder->max_memory - output : 0;
        if (output > decoder->max_memory || coefficient_buffer_size(&decoder->cinfo) > working) {
            cic_jpeg_close(decoder);
            return CIC_LIMIT_EXCEEDED;
        }
        /* libjpeg-turbo 3 honours this too (0 would mean no limit). */
        decoder->cinfo.mem->max_memory_to_use = (long)(working > 0 ? working : 1);
    }
    *result = decoder;
    return CIC_OK;
}

cic_status cic_jpeg_read(cic_jpeg_decoder *decoder, uint8_t *pixels, size_t size,
                         char *message, size_t message_size) {
    decoder->message = message;
    decoder->message_size = message_size;
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    size_t row_bytes = (size_t)cinfo->output_width * 4;
    if (cinfo->output_height == 0 || size / cinfo->output_height < row_bytes) {
        snprintf(message, message_size, "output buffer too small");
        return CIC_ERROR;
    }
    if (setjmp(decoder->jump)) return decoder->limit_exceeded ? CIC_LIMIT_EXCEEDED : CIC_ERROR;
    jpeg_start_decompress(cinfo);
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW rows[8];
        JDIMENSION first = cinfo->output_scanline;
        JDIMENSION count = cinfo->output_height - first < 8 ? cinfo->output_height - first : 8;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = pixels + (size_t)(first + i) * row_bytes;
        JDIMENSION read = jpeg_read_scanlines(cinfo, rows, count);
#ifndef JCS_ALPHA_EXTENSIONS
        for (JDIMENSION i = 0; i < read; i++) {
            uint8_t *row = rows[i];
            for (size_t x = cinfo->output_width; x-- > 0;) {
                row[x * 4 + 3] = 255;
                row[x * 4 + 2] = row[x * 3 + 2];
                row[x * 4 + 1] = row[x * 3 + 1];
                row[x * 4] = row[x * 3];
            }
        }
#endif
        if (read == 0) {
            snprintf(message, message_size, "no scanlines decoded");
            return CIC_ERROR;
        }
    }
    jpeg_finish_decompress(cinfo);
    return CIC_OK;
}
