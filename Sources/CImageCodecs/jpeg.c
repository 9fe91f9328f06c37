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
    jmp_buf jump;
    char *message;
    size_t message_size;
    int created;
};

static void fail(j_common_ptr cinfo) {
    cic_jpeg_decoder *decoder = (cic_jpeg_decoder *)cinfo;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    if (decoder->message != NULL && decoder->message_size > 0) {
        snprintf(decoder->message, decoder->message_size, "%s", text);
    }
    longjmp(decoder->jump, 1);
}

/* Warnings are ignored, except running out of data: libjpeg would pad the image with grey. */
static void on_message(j_common_ptr cinfo, int level) {
    if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) fail(cinfo);
}

void cic_jpeg_close(cic_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->created) jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder);
}

cic_status cic_jpeg_open(const uint8_t *data, size_t size, cic_jpeg_decoder **result,
                         cic_image_info *info, char *message, size_t message_size) {
    *result = NULL;
    cic_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return CIC_OUT_OF_MEMORY;
    decoder->message = message;
    decoder->message_size = message_size;
    decoder->cinfo.err = jpeg_std_error(&decoder->error_manager);
    decoder->error_manager.error_exit = fail;
    decoder->error_manager.emit_message = on_message;
    if (setjmp(decoder->jump)) {
        cic_jpeg_close(decoder);
        return CIC_ERROR;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->created = 1;
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
    if (setjmp(decoder->jump)) return CIC_ERROR;
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
