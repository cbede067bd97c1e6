/*
 * libpulse and alsa-lib, loaded only when an output needs them.
 *
 * Linking them at start-up costs ~3 MiB of resident memory (libpulse alone brings libX11,
 * libsndfile, libsystemd, … ; bench/RESULTS.md) even when the output is null or a WAV file.
 * Instead, every pa_* / snd_* function the outputs call is a two-instruction trampoline
 * (trampolines.S) that jumps through a pointer; the pointers are filled by the loaders below.
 * Call the loader before the first pa_* / snd_* call: a trampoline whose library is not loaded
 * jumps to a stub that aborts with a clear message.
 */
#ifndef MOTET_AUDIO_LIBRARIES_H
#define MOTET_AUDIO_LIBRARIES_H

/** Loads libpulse.so.0 (once; thread-safe). Returns 0, or -1 with the reason in `motet_audio_library_error`. */
int motet_load_pulse(void);

/** Loads libasound.so.2 (once; thread-safe). Returns 0, or -1 with the reason in `motet_audio_library_error`. */
int motet_load_alsa(void);

/** Why the last failed load failed (dlerror's text), or "" when none failed. */
const char *motet_audio_library_error(void);

#endif
