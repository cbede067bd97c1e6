/* Loads libpulse / alsa-lib on demand and points the trampolines at their functions. */
#include "audio_libraries.h"
#include "motet_library.h"
#include "symbols.h"

#include <stdio.h>
#include <stdlib.h>

/* Called through a trampoline whose library was never loaded: a bug in Motet, said plainly. */
static void motet_unloaded_audio_function(void) {
    fputs("motet: internal error: an audio library function was called before its library was loaded\n", stderr);
    abort();
}

/* One pointer per function, read by the trampolines (hidden: only this executable uses them).
 * motet_library_load stores each with release order, as the trampolines read them with no lock. */
#define MOTET_DEFINE_POINTER(name) \
    __attribute__((visibility("hidden"))) void *motet_lazy_##name = (void *)motet_unloaded_audio_function;
MOTET_PULSE_SYMBOLS(MOTET_DEFINE_POINTER)
MOTET_ALSA_SYMBOLS(MOTET_DEFINE_POINTER)

/* The loaders' tables: the same X-macro lists as the trampolines, so neither can miss a function. */
#define MOTET_TABLE_ENTRY(name) MOTET_LIBRARY_SYMBOL(#name, motet_lazy_##name),
static const motet_library_symbol pulse_symbols[] = {MOTET_PULSE_SYMBOLS(MOTET_TABLE_ENTRY)};
static const motet_library_symbol alsa_symbols[] = {MOTET_ALSA_SYMBOLS(MOTET_TABLE_ENTRY)};

static motet_library pulse = MOTET_LIBRARY("libpulse.so.0", pulse_symbols, NULL);
static motet_library alsa = MOTET_LIBRARY("libasound.so.2", alsa_symbols, NULL);

/* The failure text of whichever library failed last (a loader's own buffer), or NULL. */
static const char *last_failure;

static int load(motet_library *library) {
    if (motet_library_load(library) == 0) return 0;
    __atomic_store_n(&last_failure, motet_library_error(library), __ATOMIC_RELEASE);
    return -1;
}

int motet_load_pulse(void) { return load(&pulse); }

int motet_load_alsa(void) { return load(&alsa); }

const char *motet_audio_library_error(void) {
    const char *failure = __atomic_load_n(&last_failure, __ATOMIC_ACQUIRE);
    return failure ? failure : "";
}
