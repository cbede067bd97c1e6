/*
 * One shared library, loaded on first use: the one loader behind CNetwork (libcurl), CSoxr
 * (libsoxr) and CAudioLibraries (libpulse, alsa-lib).
 *
 * Each of those is dlopened only when a run needs it rather than linked at start-up: what that
 * saves is said in each target's header and in bench/RESULTS.md. A library is described once, as a
 * static `motet_library` (its soname and a table of the functions to look up), and loaded by
 * `motet_library_load`:
 *
 *     static struct { soxr_t (*soxr_create)(double, …); … } lib;
 *     static const motet_library_symbol symbols[] = {MOTET_LIBRARY_SYMBOL("soxr_create", lib.soxr_create), …};
 *     static motet_library soxr = MOTET_LIBRARY("libsoxr.so.0", symbols, NULL);
 *     if (motet_library_load(&soxr) != 0) fprintf(stderr, "%s\n", motet_library_error(&soxr));
 */
#ifndef MOTET_LIBRARY_H
#define MOTET_LIBRARY_H

#include <pthread.h>
#include <stddef.h>

/** A function to look up, and where its address goes. */
typedef struct {
    const char *name;
    /* Stored with release order: CAudioLibraries' trampolines read theirs with a plain load, from
     * any thread, without going through motet_library_load. */
    void **slot;
} motet_library_symbol;

/** A table entry for a typed function pointer: MOTET_LIBRARY_SYMBOL("soxr_create", lib.create). */
#define MOTET_LIBRARY_SYMBOL(name, pointer) {(name), (void **)&(pointer)}

/** One library: what to load, and (filled by motet_library_load) how that went. Define it with
 * MOTET_LIBRARY, as a static: it is loaded at most once per process, and never closed. */
typedef struct {
    const char *soname;
    const motet_library_symbol *symbols;
    size_t symbol_count;
    /* Optional: run once, after every symbol is resolved (libcurl: curl_global_init). NULL when
     * it went well, or the failure line. */
    const char *(*after_loading)(void);

    /* The one attempt's state. A mutex rather than pthread_once, whose routine takes no argument
     * (it would need one function per library). */
    pthread_mutex_t lock;
    int state;         /* 0 not tried yet, 1 loaded, 2 failed: written under `lock`, with release order */
    char failure[512]; /* why it failed, or "" */
} motet_library;

#define MOTET_LIBRARY(soname_, symbols_, after_loading_)                                       \
    {                                                                                         \
        .soname = (soname_), .symbols = (symbols_),                                           \
        .symbol_count = sizeof(symbols_) / sizeof((symbols_)[0]), .after_loading = (after_loading_), \
        .lock = PTHREAD_MUTEX_INITIALIZER, .state = 0, .failure = ""                          \
    }

/** Loads the library and fills every slot, the first time (thread-safe: every later call, from any
 * thread, gets the first one's answer without trying again). 0, or -1 with the reason in
 * `motet_library_error`: dlerror's text, "<soname> has no function <name> (too old?)", or the
 * after_loading hook's line. */
int motet_library_load(motet_library *library);

/** Why loading failed, or "" (not tried, or loaded). */
const char *motet_library_error(const motet_library *library);

#endif
