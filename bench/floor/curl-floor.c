/* The floor of a libcurl client: it only loads libcurl (as Motet does, with dlopen, only when an
 * input is a URL) and initialises it with curl_global_init(CURL_GLOBAL_DEFAULT), which brings in
 * the TLS stack; then prints its peak RSS and the CPU time it took (user + system, getrusage).
 * With no argument it loads nothing: the same program's own floor, to subtract.
 * Build: gcc -O2 -o curl-floor curl-floor.c -ldl */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "curl") == 0) {
        void *h = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
        if (!h) { fprintf(stderr, "curl-floor: %s\n", dlerror()); return 1; }
        int (*global_init)(long) = (int (*)(long))dlsym(h, "curl_global_init");
        if (!global_init || global_init(3L /* CURL_GLOBAL_DEFAULT */) != 0) {
            fprintf(stderr, "curl-floor: curl_global_init failed\n");
            return 1;
        }
    }
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0) { fputs(line, stdout); break; }
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("CPU-us: %ld\n", (long)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000L
                                 + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
    return 0;
}
