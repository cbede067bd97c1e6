/* Loads libsoxr on demand and calls it through the wrappers of motet_soxr.h. */
#include "motet_soxr.h"

#include "motet_library.h"

/* Every libsoxr function called below: its return type, name and parameters. The pointers and the
 * loader's table are both made from this one list. */
#define SOXR_FUNCTIONS(X) \
    X(soxr_t, soxr_create, (double, double, unsigned, soxr_error_t *, soxr_io_spec_t const *, \
                            soxr_quality_spec_t const *, soxr_runtime_spec_t const *)) \
    X(soxr_error_t, soxr_process, (soxr_t, soxr_in_t, size_t, size_t *, soxr_out_t, size_t, size_t *)) \
    X(soxr_error_t, soxr_clear, (soxr_t)) \
    X(void, soxr_delete, (soxr_t)) \
    X(soxr_io_spec_t, soxr_io_spec, (soxr_datatype_t, soxr_datatype_t)) \
    X(soxr_quality_spec_t, soxr_quality_spec, (unsigned long, unsigned long))

#define POINTER(result, name, parameters) result(*name) parameters;
static struct { SOXR_FUNCTIONS(POINTER) } lib;
#define ENTRY(result, name, parameters) MOTET_LIBRARY_SYMBOL(#name, lib.name),
static const motet_library_symbol symbols[] = {SOXR_FUNCTIONS(ENTRY)};

static motet_library soxr = MOTET_LIBRARY("libsoxr.so.0", symbols, NULL);

int motet_soxr_load(void) { return motet_library_load(&soxr); }

const char *motet_soxr_error(void) { return motet_library_error(&soxr); }

soxr_t motet_soxr_create_hq_float(double input_rate, double output_rate, unsigned channels, soxr_error_t *error) {
    soxr_io_spec_t io = lib.soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I);
    soxr_quality_spec_t quality = lib.soxr_quality_spec(SOXR_HQ, 0);
    return lib.soxr_create(input_rate, output_rate, channels, error, &io, &quality, NULL);
}

soxr_error_t motet_soxr_process(
    soxr_t resampler, const float *input, size_t input_frames, size_t *consumed, float *output, size_t output_frames,
    size_t *produced) {
    return lib.soxr_process(resampler, input, input_frames, consumed, output, output_frames, produced);
}

soxr_error_t motet_soxr_clear(soxr_t resampler) { return lib.soxr_clear(resampler); }

void motet_soxr_delete(soxr_t resampler) { lib.soxr_delete(resampler); }
