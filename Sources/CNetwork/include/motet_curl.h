/*
 * libcurl, loaded only when an input is a URL.
 *
 * Linking libcurl at start-up maps it and its TLS stack (OpenSSL, nghttp2, libssh2, GSSAPI, LDAP…)
 * into every run, local playback included. Instead `motet_curl_load` dlopens libcurl.so.4 on first
 * use. curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: the
 * wrappers below take one typed argument each. The header is Debian's libcurl4-openssl-dev one, for
 * the types and constants only: never call a curl_* function directly (it is not linked).
 */
#ifndef MOTET_CURL_H
#define MOTET_CURL_H

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

/** Loads libcurl.so.4 and runs curl_global_init (once; thread-safe). 0, or -1 with the reason in
 * `motet_curl_error`. */
int motet_curl_load(void);
/** Why loading failed (dlerror's text), or "". */
const char *motet_curl_error(void);

CURL *motet_curl_easy_init(void);
void motet_curl_easy_cleanup(CURL *handle);
CURLcode motet_curl_easy_perform(CURL *handle);
const char *motet_curl_easy_strerror(CURLcode code);
struct curl_slist *motet_curl_slist_append(struct curl_slist *list, const char *text);
void motet_curl_slist_free_all(struct curl_slist *list);

CURLcode motet_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode motet_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode motet_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode motet_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode motet_curl_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback callback);
CURLcode motet_curl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback);

CURLcode motet_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode motet_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLcode motet_curl_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value);

#endif
