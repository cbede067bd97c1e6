/* libsoxr (Debian's libsoxr-dev): the resampler behind --output-rate (Resampler.swift). */
#include <soxr.h>
