/* Loads libsoxr on demand and calls it through the wrappers of motet_soxr.h. */
#include "motet_soxr.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    soxr_t (*create)(double, double, unsigned, soxr_error_t *, soxr_io_spec_t const *, soxr_quality_spec_t const *,
                     soxr_runtime_spec_t const *);
    soxr_error_t (*process)(soxr_t, soxr_in_t, size_t, size_t *, soxr_out_t, size_t, size_t *);
    soxr_error_t (*clear)(soxr_t);
    void (*delete_)(soxr_t);
    soxr_io_spec_t (*io_spec)(soxr_datatype_t, soxr_datatype_t);
    soxr_quality_spec_t (*quality_spec)(unsigned long, unsigned long);
} lib;

static char failure[512];
static int status = -1;
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define RESOLVE(field, name) \
    if (!(*(void **)&lib.field = dlsym(handle, name))) { \
        snprintf(failure, sizeof failure, "libsoxr.so.0 has no function %s (too old?)", name); \
        return; \
    }

static void load_once(void) {
    void *handle = dlopen("libsoxr.so.0", RTLD_NOW | RTLD_LOCAL);  /* never closed */
    if (!handle) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "%s", why ? why : "libsoxr.so.0 cannot be loaded");
        return;
    }
    RESOLVE(create, "soxr_create")
    RESOLVE(process, "soxr_process")
    RESOLVE(clear, "soxr_clear")
    RESOLVE(delete_, "soxr_delete")
    RESOLVE(io_spec, "soxr_io_spec")
    RESOLVE(quality_spec, "soxr_quality_spec")
    status = 0;
}

int motet_soxr_load(void) {
    pthread_once(&once, load_once);
    return status;
}

const char *motet_soxr_error(void) { return failure; }

soxr_t motet_soxr_create_hq_float(double input_rate, double output_rate, unsigned channels, soxr_error_t *error) {
    soxr_io_spec_t io = lib.io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I);
    soxr_quality_spec_t quality = lib.quality_spec(SOXR_HQ, 0);
    return lib.create(input_rate, output_rate, channels, error, &io, &quality, NULL);
}

soxr_error_t motet_soxr_process(
    soxr_t resampler, const float *input, size_t input_frames, size_t *consumed, float *output, size_t output_frames,
    size_t *produced) {
    return lib.process(resampler, input, input_frames, consumed, output, output_frames, produced);
}

soxr_error_t motet_soxr_clear(soxr_t resampler) { return lib.clear(resampler); }

void motet_soxr_delete(soxr_t resampler) { lib.delete_(resampler); }
