/* Loads libcurl on demand and calls it through typed, non-variadic wrappers (motet_curl.h). */
#include "motet_curl.h"

#include "motet_library.h"

/* Every libcurl function called below: its return type, name and parameters. The pointers and the
 * loader's table are both made from this one list. */
#define CURL_FUNCTIONS(X) \
    X(CURLcode, curl_global_init, (long)) \
    X(CURL *, curl_easy_init, (void)) \
    X(void, curl_easy_cleanup, (CURL *)) \
    X(CURLcode, curl_easy_perform, (CURL *)) \
    X(const char *, curl_easy_strerror, (CURLcode)) \
    X(CURLcode, curl_easy_setopt, (CURL *, CURLoption, ...)) \
    X(CURLcode, curl_easy_getinfo, (CURL *, CURLINFO, ...)) \
    X(struct curl_slist *, curl_slist_append, (struct curl_slist *, const char *)) \
    X(void, curl_slist_free_all, (struct curl_slist *))

#define POINTER(result, name, parameters) result(*name) parameters;
static struct { CURL_FUNCTIONS(POINTER) } lib;
#define ENTRY(result, name, parameters) MOTET_LIBRARY_SYMBOL(#name, lib.name),
static const motet_library_symbol symbols[] = {CURL_FUNCTIONS(ENTRY)};

/* curl_global_init must run once, before any other libcurl call and before other threads use
 * libcurl: right after loading, which happens once, under the loader's lock. */
static const char *global_init(void) {
    return lib.curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? NULL : "curl_global_init failed";
}

static motet_library curl = MOTET_LIBRARY("libcurl.so.4", symbols, global_init);

int motet_curl_load(void) { return motet_library_load(&curl); }

const char *motet_curl_error(void) { return motet_library_error(&curl); }

CURL *motet_curl_easy_init(void) { return lib.curl_easy_init(); }
void motet_curl_easy_cleanup(CURL *handle) { lib.curl_easy_cleanup(handle); }
CURLcode motet_curl_easy_perform(CURL *handle) { return lib.curl_easy_perform(handle); }
const char *motet_curl_easy_strerror(CURLcode code) { return lib.curl_easy_strerror(code); }
struct curl_slist *motet_curl_slist_append(struct curl_slist *list, const char *text) { return lib.curl_slist_append(list, text); }
void motet_curl_slist_free_all(struct curl_slist *list) { lib.curl_slist_free_all(list); }

CURLcode motet_curl_setopt_long(CURL *h, CURLoption o, long v) { return lib.curl_easy_setopt(h, o, v); }
CURLcode motet_curl_setopt_offset(CURL *h, CURLoption o, curl_off_t v) { return lib.curl_easy_setopt(h, o, v); }
CURLcode motet_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return lib.curl_easy_setopt(h, o, v); }
CURLcode motet_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return lib.curl_easy_setopt(h, o, v); }
CURLcode motet_curl_setopt_write_function(CURL *h, CURLoption o, curl_write_callback f) { return lib.curl_easy_setopt(h, o, f); }
CURLcode motet_curl_setopt_xferinfo_function(CURL *h, curl_xferinfo_callback f) {
    return lib.curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f);
}

CURLcode motet_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return lib.curl_easy_getinfo(h, i, v); }
CURLcode motet_curl_getinfo_string(CURL *h, CURLINFO i, const char **v) { return lib.curl_easy_getinfo(h, i, v); }
CURLcode motet_curl_getinfo_offset(CURL *h, CURLINFO i, curl_off_t *v) { return lib.curl_easy_getinfo(h, i, v); }
