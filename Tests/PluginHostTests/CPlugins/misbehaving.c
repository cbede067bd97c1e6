/*
 * misbehaving.c — a third-party plugin that does what isolation must survive (IsolationTests).
 * It writes one line per track-level event to `out=PATH` ("<instance> started TITLE reason R",
 * "finished TITLE"), then misbehaves as `do=` says, `after_ms=N` after create (default 300):
 *
 *   do=abort        abort() on a thread of its own
 *   do=exit         exit(3) on a thread of its own
 *   do=segv         a NULL write on a thread of its own
 *   do=spin         spin forever in on_event, from the first event after after_ms
 *   do=hog          allocate and touch memory without bound on a thread of its own
 *   do=close        close every descriptor from 3 up (the host's socket among them)
 *   do=garbage      write garbage into descriptor 3 (the host's socket)
 *   once=PATH       misbehave only in the instance that creates PATH first (later ones behave)
 *   append=PATH     at create, try to append a line to PATH (say ~/.bashrc) and write
 *                   "append written" or "append <strerror>" (the sandbox must refuse it)
 *   peek=yes        at create, read a byte of its parent's memory with process_vm_readv and
 *                   write "peek read" or "peek <strerror>" (the sandbox must refuse it)
 *
 * Built with -DMISBEHAVE_IN_CONSTRUCTOR it segfaults in a constructor, when it is loaded.
 */
#define _GNU_SOURCE /* process_vm_readv */
#include <motet/plugin.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

typedef struct plugin {
    int fd;
    char what[16];
    long after_ms;
    int armed;
    struct timespec created;
} plugin;

#ifdef MISBEHAVE_IN_CONSTRUCTOR
__attribute__((constructor)) static void crash_when_loaded(void) { *(volatile int *)0 = 1; }
#endif

/* One line to `out`: WHAT, then TITLE when there is one, then " reason R" when R >= 0. */
static void line(plugin *p, const char *what, const char *title, long reason) {
    char text[600];
    int n = snprintf(text, sizeof text, "%s%s%s", what, title ? " " : "", title ? title : "");
    if (reason >= 0 && n > 0 && n < (int)sizeof text) n += snprintf(text + n, sizeof text - (size_t)n, " reason %ld", reason);
    if (n > 0 && n < (int)sizeof text - 1) text[n++] = '\n';
    if (p->fd >= 0 && n > 0) { ssize_t w = write(p->fd, text, (size_t)n); (void)w; }
}

static void misbehave(plugin *p) {
    if (!strcmp(p->what, "abort")) abort();
    if (!strcmp(p->what, "exit")) exit(3);
    if (!strcmp(p->what, "segv")) *(volatile int *)0 = 1;
    if (!strcmp(p->what, "hog")) {
        for (;;) {
            char *block = malloc(1 << 20); /* NULL at the limit: written anyway, as careless code does */
            memset(block, 1, 1 << 20);
        }
    }
    if (!strcmp(p->what, "close")) {
        for (int fd = 3; fd < 1024; fd++) if (fd != p->fd) close(fd);
    }
    if (!strcmp(p->what, "garbage")) {
        static const char junk[] = "\xff\xff\xff\x7f garbage from a plugin";
        for (int i = 0; i < 4; i++) { ssize_t w = write(3, junk, sizeof junk); (void)w; }
    }
}

static void *later(void *arg) {
    plugin *p = arg;
    struct timespec ts = {p->after_ms / 1000, (p->after_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    misbehave(p);
    return NULL;
}

static long elapsed_ms(const plugin *p) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - p->created.tv_sec) * 1000 + (now.tv_nsec - p->created.tv_nsec) / 1000000;
}

static int32_t create(const motet_host *host, const motet_option *options, uint32_t count, void **out) {
    (void)host;
    plugin *p = calloc(1, sizeof *p);
    if (!p) return MOTET_ERROR;
    p->fd = -1;
    p->after_ms = 300;
    const char *once = NULL, *append = NULL;
    int peek = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (!strcmp(options[i].key, "out")) p->fd = open(options[i].value, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        else if (!strcmp(options[i].key, "do")) snprintf(p->what, sizeof p->what, "%s", options[i].value);
        else if (!strcmp(options[i].key, "after_ms")) p->after_ms = atol(options[i].value);
        else if (!strcmp(options[i].key, "once")) once = options[i].value;
        else if (!strcmp(options[i].key, "append")) append = options[i].value;
        else if (!strcmp(options[i].key, "peek")) peek = !strcmp(options[i].value, "yes");
    }
    clock_gettime(CLOCK_MONOTONIC, &p->created);
    p->armed = p->what[0] && (!once || open(once, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600) >= 0);
    line(p, "create", NULL, -1);
    if (append) {
        int fd = open(append, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        ssize_t w = fd >= 0 ? write(fd, "echo pwned\n", 11) : -1;
        line(p, "append", w == 11 ? "written" : strerror(errno), -1);
        if (fd >= 0) close(fd);
    }
    if (peek) {
        /* Its own process's parent is motet when isolated: another process's memory. */
        static char byte, *where = &byte;
        struct iovec local = {&byte, 1}, remote = {where, 1};
        ssize_t n = process_vm_readv(getppid(), &local, 1, &remote, 1, 0);
        line(p, "peek", n == 1 || errno == EFAULT ? "read" : strerror(errno), -1);
    }
    if (p->armed && strcmp(p->what, "spin") != 0) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, later, p) == 0) pthread_detach(thread);
    }
    *out = p;
    return MOTET_OK;
}

static void on_event(void *instance, const motet_event *event) {
    plugin *p = instance;
    if (event->type == MOTET_EVENT_TRACK_STARTED) {
        const motet_track_started *e = (const motet_track_started *)event;
        line(p, "started", e->track->title, e->reason);
    } else if (event->type == MOTET_EVENT_TRACK_FINISHED) {
        line(p, "finished", ((const motet_track_finished *)event)->title, -1);
    } else if (event->type == MOTET_EVENT_NOW_PLAYING) {
        const motet_now_playing *e = (const motet_now_playing *)event;
        if (e->present & MOTET_NP_HAS_TRACK) line(p, "now-playing", e->title, -1);
    }
    if (p->armed && !strcmp(p->what, "spin") && elapsed_ms(p) >= p->after_ms) {
        for (volatile int spin = 1; spin;) {}
    }
}

static void destroy(void *instance) {
    plugin *p = instance;
    line(p, "destroy", NULL, -1);
    if (p->fd >= 0) close(p->fd);
    free(p);
}

/* Described, so that its process is sandboxed: it may write in the directories of out and once. */
static const motet_option_description described[] = {
    {sizeof(motet_option_description), MOTET_OPTION_OUTPUT_PATH, "out", NULL, "where the lines go"},
    {sizeof(motet_option_description), MOTET_OPTION_STRING, "do", NULL, "what to do wrong"},
    {sizeof(motet_option_description), MOTET_OPTION_INTEGER, "after_ms", "300", "when"},
    {sizeof(motet_option_description), MOTET_OPTION_OUTPUT_PATH, "once", NULL, "misbehave only where this is made first"},
    {sizeof(motet_option_description), MOTET_OPTION_STRING, "append", NULL, "a file it has no business writing"},
    {sizeof(motet_option_description), MOTET_OPTION_BOOL, "peek", "no", "read motet's memory"},
};

static const motet_plugin_descriptor descriptor = {
    .struct_size = sizeof(motet_plugin_descriptor),
    .abi_major = MOTET_ABI_MAJOR,
    .abi_minor = MOTET_ABI_MINOR,
    .min_host_minor = 0,
    .id = "org.example.misbehaving",
    .name = "misbehaving",
    .version = "1.0",
    .description = "does what isolation must survive",
    .create = create,
    .on_event = on_event,
    .destroy = destroy,
    .options = described,
    .option_count = sizeof described / sizeof described[0],
};

__attribute__((visibility("default"))) const motet_plugin_descriptor *motet_plugin_entry(uint32_t major, uint32_t minor) {
    (void)major, (void)minor;
    return &descriptor;
}
