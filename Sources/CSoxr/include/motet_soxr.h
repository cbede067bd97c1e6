/*
 * libsoxr, loaded only when --output-rate is given (Resampler.swift).
 *
 * Linking libsoxr at start-up maps it and libgomp into every run, also the runs that resample
 * nothing, and their relocations cost instructions at each start (bench/instructions.sh).
 * Instead `motet_soxr_load` dlopens libsoxr.so.0 on first use. The header is Debian's
 * libsoxr-dev one, for the types and constants only: never call a soxr_* function directly (it
 * is not linked).
 */
#ifndef MOTET_SOXR_H
#define MOTET_SOXR_H

#include <soxr.h>

/** Loads libsoxr.so.0 (once; thread-safe). 0, or -1 with the reason in `motet_soxr_error`. */
int motet_soxr_load(void);
/** Why loading failed (dlerror's text), or "". */
const char *motet_soxr_error(void);

/** soxr_create for interleaved 32-bit float in and out, high quality (SOXR_HQ). */
soxr_t motet_soxr_create_hq_float(double input_rate, double output_rate, unsigned channels, soxr_error_t *error);
soxr_error_t motet_soxr_process(
    soxr_t resampler, const float *input, size_t input_frames, size_t *consumed, float *output, size_t output_frames,
    size_t *produced);
soxr_error_t motet_soxr_clear(soxr_t resampler);
void motet_soxr_delete(soxr_t resampler);

#endif
