#ifndef CIC_MAGICK_H
#define CIC_MAGICK_H

/*
 * ImageMagick 6 (MagickWand), loaded on first use with dlopen. Linking it would load its ~30
 * shared libraries at every start of every process, about 5 ms, although only inputs that are
 * neither PNG nor JPEG need it. The few functions and enum values the decoder uses are declared
 * here, as MagickWand 6's ABI has them; a test holds the values to ImageMagick's own headers.
 *
 * Call cic_magick_load first; the other functions require it to have returned 1.
 */

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cic_magick_wand cic_magick_wand;

/* MagickBooleanType */
enum { CIC_MAGICK_FALSE = 0, CIC_MAGICK_TRUE = 1 };
/* StorageType */
enum { CIC_MAGICK_CHAR_PIXEL = 1, CIC_MAGICK_SHORT_PIXEL = 7 };
/* ColorspaceType */
enum {
    CIC_MAGICK_UNDEFINED_COLORSPACE = 0,
    CIC_MAGICK_RGB_COLORSPACE = 1,
    CIC_MAGICK_GRAY_COLORSPACE = 2,
    CIC_MAGICK_TRANSPARENT_COLORSPACE = 3,
    CIC_MAGICK_SRGB_COLORSPACE = 13,
    CIC_MAGICK_LINEAR_GRAY_COLORSPACE = 35,
};
/* ResourceType */
enum {
    CIC_MAGICK_AREA_RESOURCE = 1,
    CIC_MAGICK_DISK_RESOURCE = 2,
    CIC_MAGICK_MAP_RESOURCE = 4,
    CIC_MAGICK_MEMORY_RESOURCE = 5,
    CIC_MAGICK_WIDTH_RESOURCE = 9,
    CIC_MAGICK_HEIGHT_RESOURCE = 10,
    CIC_MAGICK_LIST_LENGTH_RESOURCE = 11,
};
/* ExceptionType: severities from here on are errors. */
enum { CIC_MAGICK_ERROR_EXCEPTION = 400 };

/* Loads MagickWand once per process and starts it (MagickWandGenesis). Returns 1, or 0 with
 * *reason set to a static message saying what is missing and what to install. Thread-safe. */
int cic_magick_load(const char **reason);

/* Installs a security policy (policy.xml text); 1 if ImageMagick accepted it. */
int cic_magick_set_security_policy(const char *policy);

/* The format ImageMagick detects from the leading bytes of `blob` without decoding it (as
 * SetImageInfo does for a blob with no file name), copied into `format`; empty when none. */
void cic_magick_identify(const void *blob, size_t length, char *format, size_t format_size);

cic_magick_wand *cic_magick_new_wand(void);
void cic_magick_destroy_wand(cic_magick_wand *wand);
int cic_magick_set_filename(cic_magick_wand *wand, const char *filename);
int cic_magick_set_format(cic_magick_wand *wand, const char *format);
int cic_magick_read_image_blob(cic_magick_wand *wand, const void *blob, size_t length);
int cic_magick_ping_image_blob(cic_magick_wand *wand, const void *blob, size_t length);
/* The wand's exception text (free it with cic_magick_relinquish_memory) and its severity. */
char *cic_magick_get_exception(cic_magick_wand *wand, int *severity);
void cic_magick_set_first_iterator(cic_magick_wand *wand);
size_t cic_magick_get_image_width(cic_magick_wand *wand);
size_t cic_magick_get_image_height(cic_magick_wand *wand);
size_t cic_magick_get_image_depth(cic_magick_wand *wand);
int cic_magick_get_image_alpha_channel(cic_magick_wand *wand);
int cic_magick_get_image_colorspace(cic_magick_wand *wand);
int cic_magick_transform_image_colorspace(cic_magick_wand *wand, int colorspace);
int cic_magick_export_image_pixels(cic_magick_wand *wand, ssize_t x, ssize_t y, size_t columns, size_t rows,
                                   const char *map, int storage, void *pixels);
unsigned long long cic_magick_get_resource_limit(int resource);
int cic_magick_set_resource_limit(int resource, unsigned long long limit);
void cic_magick_relinquish_memory(void *memory);

#ifdef __cplusplus
}
#endif

#endif
