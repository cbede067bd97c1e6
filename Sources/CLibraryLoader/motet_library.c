/* Loads a shared library on first use (motet_library.h). */
#include "motet_library.h"

#include <dlfcn.h>
#include <stdio.h>

enum { NOT_TRIED = 0, LOADED = 1, FAILED = 2 };

/* The one attempt, under the library's lock: LOADED, or FAILED with `failure` written. */
static int load(motet_library *library) {
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);  /* never closed: the slots point into it */
    if (!handle) {
        const char *why = dlerror();
        if (why) snprintf(library->failure, sizeof library->failure, "%s", why);
        else snprintf(library->failure, sizeof library->failure, "%s cannot be loaded", library->soname);
        return FAILED;
    }
    for (size_t i = 0; i < library->symbol_count; i++) {
        const motet_library_symbol *symbol = &library->symbols[i];
        void *address = dlsym(handle, symbol->name);
        if (!address) {
            snprintf(library->failure, sizeof library->failure, "%s has no function %s (too old?)", library->soname,
                     symbol->name);
            return FAILED;
        }
        __atomic_store_n(symbol->slot, address, __ATOMIC_RELEASE);
    }
    const char *why = library->after_loading ? library->after_loading() : NULL;
    if (why) {
        snprintf(library->failure, sizeof library->failure, "%s", why);
        return FAILED;
    }
    return LOADED;
}

int motet_library_load(motet_library *library) {
    int state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
    if (state == NOT_TRIED) {
        pthread_mutex_lock(&library->lock);
        state = library->state;  /* another thread may have loaded it while this one waited */
        if (state == NOT_TRIED) {
            state = load(library);
            __atomic_store_n(&library->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&library->lock);
    }
    return state == LOADED ? 0 : -1;
}

const char *motet_library_error(const motet_library *library) { return library->failure; }
