#include "cic_magick.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* ImageMagick 6's MagickWand, Q16 (Debian, Ubuntu) or Q16 HDRI (other distributions): the
 * pixel export the decoder uses does not depend on the build's sample type. */
static const char *const library_names[] = {
#if defined(__APPLE__)
    "libMagickWand-6.Q16.dylib", "libMagickWand-6.Q16HDRI.dylib",
#else
    "libMagickWand-6.Q16.so.6", "libMagickWand-6.Q16HDRI.so.6",
#endif
};

/* Opaque MagickCore types. */
typedef struct image_info image_info;
typedef struct image image;
typedef struct exception_info exception_info;

static struct {
    void (*MagickWandGenesis)(void);
    exception_info *(*AcquireExceptionInfo)(void);
    exception_info *(*DestroyExceptionInfo)(exception_info *);
    int (*SetMagickSecurityPolicy)(const char *, exception_info *);
    image_info *(*AcquireImageInfo)(void);
    image_info *(*DestroyImageInfo)(image_info *);
    void (*SetImageInfoBlob)(image_info *, const void *, size_t);
    int (*SetImageInfo)(image_info *, unsigned int, exception_info *);
    image *(*AcquireImage)(const image_info *);
    image *(*DestroyImage)(image *);
    const char *(*GetMagickProperty)(const image_info *, image *, const char *);
    cic_magick_wand *(*NewMagickWand)(void);
    cic_magick_wand *(*DestroyMagickWand)(cic_magick_wand *);
    int (*MagickSetFilename)(cic_magick_wand *, const char *);
    int (*MagickSetFormat)(cic_magick_wand *, const char *);
    int (*MagickReadImageBlob)(cic_magick_wand *, const void *, size_t);
    int (*MagickPingImageBlob)(cic_magick_wand *, const void *, size_t);
    char *(*MagickGetException)(const cic_magick_wand *, int *);
    void (*MagickSetFirstIterator)(cic_magick_wand *);
    size_t (*MagickGetImageWidth)(cic_magick_wand *);
    size_t (*MagickGetImageHeight)(cic_magick_wand *);
    size_t (*MagickGetImageDepth)(cic_magick_wand *);
    int (*MagickGetImageAlphaChannel)(cic_magick_wand *);
    int (*MagickGetImageColorspace)(cic_magick_wand *);
    int (*MagickTransformImageColorspace)(cic_magick_wand *, int);
    int (*MagickExportImagePixels)(cic_magick_wand *, ssize_t, ssize_t, size_t, size_t, const char *, int, void *);
    unsigned long long (*MagickGetResourceLimit)(int);
    int (*MagickSetResourceLimit)(int, unsigned long long);
    void *(*MagickRelinquishMemory)(void *);
} magick;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_failure[512];

static int resolve(void *handle, void **function, const char *name) {
    *function = dlsym(handle, name);
    if (*function) return 1;
    snprintf(load_failure, sizeof load_failure, "the MagickWand library found lacks %s (ImageMagick 6 is needed)", name);
    return 0;
}

#define RESOLVE(name) resolve(handle, (void **)&magick.name, #name)

static void load(void) {
    void *handle = NULL;
    char first_error[256] = "";
    for (size_t i = 0; i < sizeof library_names / sizeof *library_names && !handle; i++) {
        handle = dlopen(library_names[i], RTLD_NOW | RTLD_LOCAL);
        const char *error = handle ? NULL : dlerror();
        if (i == 0 && error) snprintf(first_error, sizeof first_error, "%s", error);
    }
    if (!handle) {
        snprintf(load_failure, sizeof load_failure,
                 "ImageMagick could not be loaded (%s); install ImageMagick 6's MagickWand "
                 "(Debian, Ubuntu: apt-get install libmagickwand-6.q16-6)",
                 first_error[0] ? first_error : library_names[0]);
        return;
    }
    if (!(RESOLVE(MagickWandGenesis) && RESOLVE(AcquireExceptionInfo) && RESOLVE(DestroyExceptionInfo) &&
          RESOLVE(SetMagickSecurityPolicy) && RESOLVE(AcquireImageInfo) && RESOLVE(DestroyImageInfo) &&
          RESOLVE(SetImageInfoBlob) && RESOLVE(SetImageInfo) && RESOLVE(AcquireImage) && RESOLVE(DestroyImage) &&
          RESOLVE(GetMagickProperty) && RESOLVE(NewMagickWand) && RESOLVE(DestroyMagickWand) &&
          RESOLVE(MagickSetFilename) && RESOLVE(MagickSetFormat) && RESOLVE(MagickReadImageBlob) &&
          RESOLVE(MagickPingImageBlob) && RESOLVE(MagickGetException) && RESOLVE(MagickSetFirstIterator) &&
          RESOLVE(MagickGetImageWidth) && RESOLVE(MagickGetImageHeight) && RESOLVE(MagickGetImageDepth) &&
          RESOLVE(MagickGetImageAlphaChannel) && RESOLVE(MagickGetImageColorspace) &&
          RESOLVE(MagickTransformImageColorspace) && RESOLVE(MagickExportImagePixels) &&
          RESOLVE(MagickGetResourceLimit) && RESOLVE(MagickSetResourceLimit) && RESOLVE(MagickRelinquishMemory)))
        return;
    magick.MagickWandGenesis();
    loaded = 1;
}

int cic_magick_load(const char **reason) {
    pthread_once(&load_once, load);
    if (!loaded && reason) *reason = load_failure;
    return loaded;
}

int cic_magick_set_security_policy(const char *policy) {
    exception_info *exception = magick.AcquireExceptionInfo();
    if (!exception) return 0;
    int accepted = magick.SetMagickSecurityPolicy(policy, exception) == CIC_MAGICK_TRUE;
    magick.DestroyExceptionInfo(exception);
    return accepted;
}

void cic_magick_identify(const void *blob, size_t length, char *format, size_t format_size) {
    if (format_size) format[0] = 0;
    image_info *info = magick.AcquireImageInfo();
    exception_info *exception = magick.AcquireExceptionInfo();
    if (info && exception) {
        magick.SetImageInfoBlob(info, blob, length);
        magick.SetImageInfo(info, 0, exception);
        /* The detected format is ImageInfo's `magick`; an image made from the info carries it,
         * and its "magick" property reads it without depending on the structure's layout. */
        image *probe = magick.AcquireImage(info);
        if (probe) {
            const char *detected = magick.GetMagickProperty(info, probe, "magick");
            if (detected && format_size) snprintf(format, format_size, "%s", detected);
            magick.DestroyImage(probe);
        }
    }
    if (exception) magick.DestroyExceptionInfo(exception);
    if (info) magick.DestroyImageInfo(info);
}

cic_magick_wand *cic_magick_new_wand(void) { return magick.NewMagickWand(); }
void cic_magick_destroy_wand(cic_magick_wand *wand) { magick.DestroyMagickWand(wand); }
int cic_magick_set_filename(cic_magick_wand *wand, const char *filename) { return magick.MagickSetFilename(wand, filename); }
int cic_magick_set_format(cic_magick_wand *wand, const char *format) { return magick.MagickSetFormat(wand, format); }
int cic_magick_read_image_blob(cic_magick_wand *wand, const void *blob, size_t length) {
    return magick.MagickReadImageBlob(wand, blob, length);
}
int cic_magick_ping_image_blob(cic_magick_wand *wand, const void *blob, size_t length) {
    return magick.MagickPingImageBlob(wand, blob, length);
}
char *cic_magick_get_exception(cic_magick_wand *wand, int *severity) { return magick.MagickGetException(wand, severity); }
void cic_magick_set_first_iterator(cic_magick_wand *wand) { magick.MagickSetFirstIterator(wand); }
size_t cic_magick_get_image_width(cic_magick_wand *wand) { return magick.MagickGetImageWidth(wand); }
size_t cic_magick_get_image_height(cic_magick_wand *wand) { return magick.MagickGetImageHeight(wand); }
size_t cic_magick_get_image_depth(cic_magick_wand *wand) { return magick.MagickGetImageDepth(wand); }
int cic_magick_get_image_alpha_channel(cic_magick_wand *wand) { return magick.MagickGetImageAlphaChannel(wand); }
int cic_magick_get_image_colorspace(cic_magick_wand *wand) { return magick.MagickGetImageColorspace(wand); }
int cic_magick_transform_image_colorspace(cic_magick_wand *wand, int colorspace) {
    return magick.MagickTransformImageColorspace(wand, colorspace);
}
int cic_magick_export_image_pixels(cic_magick_wand *wand, ssize_t x, ssize_t y, size_t columns, size_t rows,
                                   const char *map, int storage, void *pixels) {
    return magick.MagickExportImagePixels(wand, x, y, columns, rows, map, storage, pixels);
}
unsigned long long cic_magick_get_resource_limit(int resource) { return magick.MagickGetResourceLimit(resource); }
int cic_magick_set_resource_limit(int resource, unsigned long long limit) {
    return magick.MagickSetResourceLimit(resource, limit);
}
void cic_magick_relinquish_memory(void *memory) { magick.MagickRelinquishMemory(memory); }
