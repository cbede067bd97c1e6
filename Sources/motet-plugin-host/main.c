/*
 * motet-plugin-host: runs one delegate plugin in a process of its own, for motet
 * (docs/ISOLATION.md). The player starts it with posix_spawn, one process per plugin instance:
 *
 *   motet-plugin-host --motet-wire=2 FILE INSTANCE HOST_VERSION ARTWORK_DIR MEMORY_LIMIT_BYTES
 *                     STATE_DIR on|off [WRITABLE...]
 *
 * with one end of a socketpair on descriptor 3 and a pipe's write end on descriptor 4 (NOTE_FD). STATE_DIR is the instance's `state_dir` ("" for
 * none). With `on` it sandboxes itself before it loads FILE (sandbox.c): writes only beneath the
 * WRITABLE paths, and it says how that went in a SANDBOX frame first. It loads FILE through libltdl exactly as the
 * player loads a plugin in its own process, sends the descriptor, calls create with the options
 * the player sends, then hands each event to on_event and forwards the plugin's send_command,
 * send_track_command and log calls to the player (plugin_wire.h). The plugin sees the same header
 * and the same calls; if it crashes, aborts, exits or hangs, only this process goes, and the
 * player reports and restarts it.
 *
 * Written in C, not Swift: it must stay small (a C plugin's process is under 3 MiB) and it must
 * not bring a Swift runtime of its own into a Swift plugin's process.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <ltdl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "plugin_wire.h"
#include "sandbox.h"

#define SOCKET_FD 3
/** A pipe to the player for the one thing a dying process can still say: "M", its memory limit
 *  was reached (written from the fatal signal's handler, where the socket's framing cannot be). */
#define NOTE_FD 4
/** How long a send_command waits for the player's answer before it says REFUSED. */
#define ANSWER_WAIT_SECONDS 10
/** A log message longer than this is cut here (the player cuts at 2000 bytes anyway). */
#define LOG_MAX 4096

static motet_wire_connection connection;

/* ---- Frames waiting for the delivery thread (events, stop) ---- */

typedef struct frame {
    uint32_t kind;
    uint8_t *payload;
    uint32_t length;
    struct frame *next;
} frame;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static frame *first, *last;

/* ---- send_command calls waiting for their answer ---- */

typedef struct waiter {
    uint64_t request;
    int32_t answer;
    int answered;
    struct waiter *next;
} waiter;

static waiter *waiters;
static uint64_t next_request = 1;

static void fail(int status, const char *what) {
    /* The player reads the end of the connection; this line is for a person running it by hand. */
    if (what) fprintf(stderr, "motet-plugin-host: %s\n", what);
    _exit(status);
}

static void send_load_failure(uint32_t why, const char *detail) {
    motet_wire_buffer b;
    motet_wire_buffer_init(&b, MOTET_WIRE_LOAD_FAILED);
    motet_wire_put_u32(&b, why);
    motet_wire_put_string(&b, detail);
    motet_wire_send(&connection, &b);
    motet_wire_buffer_free(&b);
    _exit(0);
}

/* dlopen's messages start with the path, which the player's line already names. */
static const char *without_path(const char *file, const char *text) {
    size_t n = strlen(file);
    return (strncmp(text, file, n) == 0 && strncmp(text + n, ": ", 2) == 0) ? text + n + 2 : text;
}

/* A Swift plugin finds the Swift runtime through its RUNPATH; in motet's own process it was
 * already loaded. When it cannot find a runtime library here, the player's own (the directory in
 * MOTET_SWIFT_RUNTIME) is loaded first, as in motet's process. True when one was loaded. */
static int load_players_swift_library(const char *error) {
    const char *dir = getenv("MOTET_SWIFT_RUNTIME");
    const char *name = strstr(error, "libswift");
    if (!dir || !*dir || !name) return 0;
    size_t length = strcspn(name, ": ");
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%.*s", dir, (int)length, name) >= (int)sizeof path) return 0;
    return dlopen(path, RTLD_NOW | RTLD_GLOBAL) != NULL;
}

/* Opens FILE as the player does (PluginLibrary.swift): dlopen(RTLD_NOW | RTLD_LOCAL) first for
 * the real error (libltdl binds lazily), then libltdl with local binding. */
static motet_plugin_entry_fn open_plugin(const char *file) {
    for (int tries = 0;; tries++) {
        dlerror();
        if (dlopen(file, RTLD_NOW | RTLD_LOCAL)) break;
        const char *error = dlerror();
        if (!error) error = "unknown dlopen error";
        if (tries < 8 && strstr(error, "cannot open shared object file") && load_players_swift_library(error)) continue;
        const char *text = without_path(file, error);
        if (strstr(text, "undefined symbol")) send_load_failure(MOTET_WIRE_FAILED_UNRESOLVED_SYMBOL, text);
        if (strstr(text, "invalid ELF header") || strstr(text, "file too short") || strstr(text, "wrong ELF class")
            || strstr(text, "ELF file"))
            send_load_failure(MOTET_WIRE_FAILED_NOT_SHARED_OBJECT, text);
        send_load_failure(MOTET_WIRE_FAILED_LOADER, text);
    }
    if (lt_dlinit() != 0) send_load_failure(MOTET_WIRE_FAILED_LOADER, "lt_dlinit failed");
    lt_dladvise advise;
    if (lt_dladvise_init(&advise) != 0) send_load_failure(MOTET_WIRE_FAILED_LOADER, "lt_dladvise_init failed");
    lt_dladvise_local(&advise);
    lt_dlhandle handle = lt_dlopenadvise(file, advise);
    lt_dladvise_destroy(&advise);
    if (!handle) {
        const char *error = lt_dlerror();
        send_load_failure(MOTET_WIRE_FAILED_LOADER, without_path(file, error ? error : "unknown libltdl error"));
    }
    void *symbol = lt_dlsym(handle, MOTET_PLUGIN_ENTRY_SYMBOL);
    if (!symbol) send_load_failure(MOTET_WIRE_FAILED_NO_ENTRY, NULL);
    motet_plugin_entry_fn entry;
    memcpy(&entry, &symbol, sizeof entry);
    return entry;
}

/* ---- The host table the plugin gets ---- */

static int32_t send_track_command(const motet_host *host, uint32_t command, uint64_t track, int64_t argument,
                                  const char *string) {
    (void)host;
    waiter me = {0};
    pthread_mutex_lock(&lock);
    me.request = next_request++;
    me.next = waiters;
    waiters = &me;
    pthread_mutex_unlock(&lock);

    motet_wire_buffer b;
    motet_wire_buffer_init(&b, MOTET_WIRE_COMMAND);
    motet_wire_put_u64(&b, me.request);
    motet_wire_put_u32(&b, command);
    motet_wire_put_u64(&b, track);
    motet_wire_put_u64(&b, (uint64_t)argument);
    motet_wire_put_string(&b, string);
    int sent = motet_wire_send(&connection, &b) == MOTET_WIRE_OK;
    motet_wire_buffer_free(&b);

    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += ANSWER_WAIT_SECONDS;
    pthread_mutex_lock(&lock);
    while (sent && !me.answered) {
        if (pthread_cond_timedwait(&changed, &lock, &deadline) == ETIMEDOUT) break;
    }
    for (waiter **p = &waiters; *p; p = &(*p)->next) {
        if (*p == &me) {
            *p = me.next;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    return me.answered ? me.answer : MOTET_COMMAND_REFUSED;
}

static int32_t send_command(const motet_host *host, uint32_t command, int64_t argument) {
    return send_track_command(host, command, 0, argument, NULL);
}

static void host_log(const motet_host *host, uint32_t level, const char *message) {
    (void)host;
    char cut[LOG_MAX];
    if (message && strlen(message) >= LOG_MAX) {
        memcpy(cut, message, LOG_MAX - 1);
        cut[LOG_MAX - 1] = 0;
        message = cut;
    }
    motet_wire_buffer b;
    motet_wire_buffer_init(&b, MOTET_WIRE_LOG);
    motet_wire_put_u32(&b, level);
    motet_wire_put_string(&b, message ? message : "");
    motet_wire_send(&connection, &b);
    motet_wire_buffer_free(&b);
}

/* ---- The reader thread: every frame from the player ---- */

static void *read_frames(void *unused) {
    (void)unused;
    for (;;) {
        uint32_t kind, length;
        uint8_t *payload;
        int result = motet_wire_read_frame(SOCKET_FD, &kind, &payload, &length);
        if (result == MOTET_WIRE_CLOSED) fail(0, NULL); /* the player is gone, or done with us */
        if (result != MOTET_WIRE_OK) fail(2, "the connection to motet broke");
        if (kind == MOTET_WIRE_ANSWER) {
            motet_wire_reader r;
            motet_wire_reader_init(&r, payload, length);
            uint64_t request = motet_wire_get_u64(&r);
            int32_t answer = (int32_t)motet_wire_get_u32(&r);
            free(payload);
            if (motet_wire_reader_finish(&r) != MOTET_WIRE_OK) fail(2, "motet sent a malformed answer");
            pthread_mutex_lock(&lock);
            for (waiter *w = waiters; w; w = w->next) {
                if (w->request == request) {
                    w->answer = answer;
                    w->answered = 1;
                }
            }
            pthread_cond_broadcast(&changed);
            pthread_mutex_unlock(&lock);
            continue;
        }
        if (kind != MOTET_WIRE_EVENT && kind != MOTET_WIRE_STOP) fail(2, "motet sent a frame of an unknown kind");
        frame *f = malloc(sizeof *f);
        if (!f) fail(2, "out of memory");
        *f = (frame){kind, payload, length, NULL};
        pthread_mutex_lock(&lock);
        if (last) last->next = f; else first = f;
        last = f;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static frame *next_frame(void) {
    pthread_mutex_lock(&lock);
    while (!first) pthread_cond_wait(&changed, &lock);
    frame *f = first;
    first = f->next;
    if (!first) last = NULL;
    pthread_mutex_unlock(&lock);
    return f;
}

/* A fatal signal under a memory limit: when not even 1 MiB more can be mapped, the limit is what
 * killed it; say so on the note pipe, then die of the signal as before. */
static void on_fatal_signal(int signal_number) {
    void *more = mmap(NULL, 1u << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (more == MAP_FAILED) {
        ssize_t w = write(NOTE_FD, "M", 1);
        (void)w;
    } else {
        munmap(more, 1u << 20);
    }
    raise(signal_number); /* SA_RESETHAND: the default action now */
}

static void watch_memory_limit(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_fatal_signal;
    action.sa_flags = (int)(SA_RESETHAND | SA_NODEFER);
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, NULL);
    sigaction(SIGBUS, &action, NULL);
    sigaction(SIGABRT, &action, NULL);
}

/* ---- Start-up: load, describe, create ---- */

/* The options of the CREATE frame, which must come first; they point into `*payload`. */
static uint32_t read_create(motet_option *options, uint8_t **payload) {
    uint32_t kind, length;
    if (motet_wire_read_frame(SOCKET_FD, &kind, payload, &length) != MOTET_WIRE_OK) fail(0, NULL);
    if (kind != MOTET_WIRE_CREATE) fail(2, "motet sent something else than create first");
    motet_wire_reader r;
    motet_wire_reader_init(&r, *payload, length);
    uint32_t count = motet_wire_get_u32(&r);
    if (count > MOTET_WIRE_MAX_OPTIONS) fail(2, "too many options");
    for (uint32_t i = 0; i < count; i++) {
        options[i].key = motet_wire_get_string(&r);
        options[i].value = motet_wire_get_string(&r);
        if (!options[i].key || !options[i].value) r.failed = 1;
    }
    if (motet_wire_reader_finish(&r) != MOTET_WIRE_OK) fail(2, "motet sent malformed options");
    return count;
}

int main(int argc, char **argv) {
    if (argc < 9 || strcmp(argv[1], MOTET_WIRE_VERSION_ARGUMENT) != 0) {
        fprintf(stderr, "motet-plugin-host: this program is started by motet to run one plugin (%s)\n",
                argc > 1 && strncmp(argv[1], "--motet-wire=", 13) == 0 ? "another version of motet started it"
                                                                       : "not meant to be run by hand");
        return 64;
    }
    const char *file = argv[2];
    /* Only the standard streams and the socket: whatever else the player had open stays there. */
    close_range(NOTE_FD + 1, ~0u, 0);
    signal(SIGPIPE, SIG_IGN);
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    unsigned long long limit = strtoull(argv[6], NULL, 10);
    if (limit > 0) {
        struct rlimit memory = {(rlim_t)limit, (rlim_t)limit};
        setrlimit(RLIMIT_AS, &memory);
        watch_memory_limit();
    }
    motet_wire_connection_init(&connection, SOCKET_FD);
    motet_wire_buffer b;

    if (strcmp(argv[8], "on") == 0) {
        char problem[300];
        int applied = motet_sandbox_apply((const char *const *)argv + 9, argc - 9, problem, sizeof problem);
        motet_wire_buffer_init(&b, MOTET_WIRE_SANDBOX);
        motet_wire_put_u32(&b, (uint32_t)applied);
        motet_wire_put_string(&b, problem[0] ? problem : NULL);
        if (motet_wire_send(&connection, &b) != MOTET_WIRE_OK) fail(0, NULL);
        motet_wire_buffer_free(&b);
    }

    motet_plugin_entry_fn entry = open_plugin(file);
    const motet_plugin_descriptor *d = entry(MOTET_ABI_MAJOR, MOTET_ABI_MINOR);
    if (!d) send_load_failure(MOTET_WIRE_FAILED_DECLINED, NULL);
    motet_wire_buffer_init(&b, MOTET_WIRE_DESCRIPTOR);
    motet_wire_encode_descriptor(&b, d);
    if (motet_wire_send(&connection, &b) != MOTET_WIRE_OK) fail(0, NULL);
    motet_wire_buffer_free(&b);

    static motet_host host;
    host.struct_size = sizeof host;
    host.abi_major = MOTET_ABI_MAJOR;
    host.abi_minor = MOTET_ABI_MINOR;
    host.host_name = "motet";
    host.host_version = argv[4];
    host.instance_name = argv[3];
    host.artwork_cache_dir = argv[5];
    host.send_command = send_command;
    host.log = host_log;
    host.send_track_command = send_track_command;
    host.state_dir = argv[7][0] ? argv[7] : NULL;

    /* create's frame is read here; then the reader thread takes the socket over, before create
     * runs: create may call send_command and wait for its answer. */
    static motet_option options[MOTET_WIRE_MAX_OPTIONS];
    uint8_t *options_payload;
    uint32_t count = read_create(options, &options_payload);
    pthread_t reader;
    if (pthread_create(&reader, NULL, read_frames, NULL) != 0) fail(2, "cannot start a thread");
    void *instance = NULL;
    int32_t status = d->create(&host, count ? options : NULL, count, &instance);
    free(options_payload); /* options are borrowed for the call only */
    motet_wire_buffer_init(&b, MOTET_WIRE_CREATED);
    motet_wire_put_u32(&b, (uint32_t)status);
    motet_wire_send(&connection, &b);
    motet_wire_buffer_free(&b);
    if (status != MOTET_OK) _exit(0);

    static motet_wire_event decoded;
    for (;;) {
        frame *f = next_frame();
        if (f->kind == MOTET_WIRE_STOP) {
            motet_event shutdown = {sizeof shutdown, MOTET_EVENT_SHUTDOWN};
            d->on_event(instance, &shutdown);
            d->destroy(instance);
            motet_wire_buffer_init(&b, MOTET_WIRE_DONE);
            motet_wire_send(&connection, &b);
            _exit(0);
        }
        motet_wire_reader r;
        motet_wire_reader_init(&r, f->payload, f->length);
        uint64_t sequence = motet_wire_get_u64(&r);
        if (motet_wire_decode_event(&r, &decoded) != MOTET_WIRE_OK) fail(2, "motet sent a malformed event");
        d->on_event(instance, &decoded.event.base);
        free(f->payload);
        free(f);
        motet_wire_buffer_init(&b, MOTET_WIRE_TAKEN);
        motet_wire_put_u64(&b, sequence);
        motet_wire_send(&connection, &b);
        motet_wire_buffer_free(&b);
    }
}
