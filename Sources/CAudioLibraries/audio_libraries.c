/* Loads libpulse / alsa-lib on demand and points the trampolines at their functions. */
#include "audio_libraries.h"
#include "symbols.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Called through a trampoline whose library was never loaded: a bug in Motet, said plainly. */
static void motet_unloaded_audio_function(void) {
    fputs("motet: internal error: an audio library function was called before its library was loaded\n", stderr);
    abort();
}

/* One pointer per function, read by the trampolines (hidden: only this executable uses them). */
#define MOTET_DEFINE_POINTER(name) \
    __attribute__((visibility("hidden"))) void *motet_lazy_##name = (void *)motet_unloaded_audio_function;
MOTET_PULSE_SYMBOLS(MOTET_DEFINE_POINTER)
MOTET_ALSA_SYMBOLS(MOTET_DEFINE_POINTER)

static char failure[512];

static int resolve(void *handle, const char *name, void **slot) {
    void *address = dlsym(handle, name);
    if (!address) {
        snprintf(failure, sizeof failure, "the library has no function %s (too old?)", name);
        return -1;
    }
    __atomic_store_n(slot, address, __ATOMIC_RELEASE);
    return 0;
}

static int load(const char *soname, int (*fill)(void *)) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);  /* never closed */
    if (!handle) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "%s", why ? why : soname);
        return -1;
    }
    return fill(handle);
}

#define MOTET_RESOLVE(name) if (resolve(handle, #name, &motet_lazy_##name) != 0) return -1;
static int fill_pulse(void *handle) { MOTET_PULSE_SYMBOLS(MOTET_RESOLVE) return 0; }
static int fill_alsa(void *handle) { MOTET_ALSA_SYMBOLS(MOTET_RESOLVE) return 0; }

static pthread_once_t pulse_once = PTHREAD_ONCE_INIT, alsa_once = PTHREAD_ONCE_INIT;
static int pulse_status = -1, alsa_status = -1;
static void load_pulse_once(void) { pulse_status = load("libpulse.so.0", fill_pulse); }
static void load_alsa_once(void) { alsa_status = load("libasound.so.2", fill_alsa); }

int motet_load_pulse(void) {
    pthread_once(&pulse_once, load_pulse_once);
    return pulse_status;
}

int motet_load_alsa(void) {
    pthread_once(&alsa_once, load_alsa_once);
    return alsa_status;
}

const char *motet_audio_library_error(void) { return failure; }
