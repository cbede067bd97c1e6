/* Loads libcurl on demand and calls it through typed, non-variadic wrappers (motet_curl.h). */
#include "motet_curl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} lib;

static char failure[512];
static int status = -1;
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define RESOLVE(field, name) \
    if (!(*(void **)&lib.field = dlsym(handle, name))) { \
        snprintf(failure, sizeof failure, "libcurl.so.4 has no function %s (too old?)", name); \
        return; \
    }

static void load_once(void) {
    void *handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);  /* never closed */
    if (!handle) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "%s", why ? why : "libcurl.so.4 cannot be loaded");
        return;
    }
    RESOLVE(global_init, "curl_global_init")
    RESOLVE(easy_init, "curl_easy_init")
    RESOLVE(easy_cleanup, "curl_easy_cleanup")
    RESOLVE(easy_perform, "curl_easy_perform")
    RESOLVE(easy_strerror, "curl_easy_strerror")
    RESOLVE(easy_setopt, "curl_easy_setopt")
    RESOLVE(easy_getinfo, "curl_easy_getinfo")
    RESOLVE(slist_append, "curl_slist_append")
    RESOLVE(slist_free_all, "curl_slist_free_all")
    if (lib.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(failure, sizeof failure, "curl_global_init failed");
        return;
    }
    status = 0;
}

int motet_curl_load(void) {
    pthread_once(&once, load_once);
    return status;
}

const char *motet_curl_error(void) { return failure; }

CURL *motet_curl_easy_init(void) { return lib.easy_init(); }
void motet_curl_easy_cleanup(CURL *handle) { lib.easy_cleanup(handle); }
CURLcode motet_curl_easy_perform(CURL *handle) { return lib.easy_perform(handle); }
const char *motet_curl_easy_strerror(CURLcode code) { return lib.easy_strerror(code); }
struct curl_slist *motet_curl_slist_append(struct curl_slist *list, const char *text) { return lib.slist_append(list, text); }
void motet_curl_slist_free_all(struct curl_slist *list) { lib.slist_free_all(list); }

CURLcode motet_curl_setopt_long(CURL *h, CURLoption o, long v) { return lib.easy_setopt(h, o, v); }
CURLcode motet_curl_setopt_offset(CURL *h, CURLoption o, curl_off_t v) { return lib.easy_setopt(h, o, v); }
CURLcode motet_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return lib.easy_setopt(h, o, v); }
CURLcode motet_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return lib.easy_setopt(h, o, v); }
CURLcode motet_curl_setopt_write_function(CURL *h, CURLoption o, curl_write_callback f) { return lib.easy_setopt(h, o, f); }
CURLcode motet_curl_setopt_xferinfo_function(CURL *h, curl_xferinfo_callback f) {
    return lib.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f);
}

CURLcode motet_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return lib.easy_getinfo(h, i, v); }
CURLcode motet_curl_getinfo_string(CURL *h, CURLINFO i, const char **v) { return lib.easy_getinfo(h, i, v); }
CURLcode motet_curl_getinfo_offset(CURL *h, CURLINFO i, curl_off_t *v) { return lib.easy_getinfo(h, i, v); }
