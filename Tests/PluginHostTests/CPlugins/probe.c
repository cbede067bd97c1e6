/*
 * probe.c — the test plugin of PluginHostTests. It writes one line per call it receives to the
 * file given as option `out=PATH`, so that tests can check what crossed the ABI and when.
 *
 * Options (at create):
 *   out=PATH            where to write (required for tests that read it)
 *   sleep_ms=N          sleep N ms in every on_event call (a slow plugin)
 *   gate=PATH           on the first event, wait until PATH exists (a stuck plugin, released by the test)
 *   hang_on_shutdown=yes never return from the MOTET_EVENT_SHUTDOWN call
 *   fail_create=yes     log why, then return MOTET_ERROR from create
 *   senders=N, sends=M  start N threads at create that each send M SEEK_RELATIVE commands with
 *                       argument thread * 1000000 + i; destroy joins them. sends=-1: until
 *                       destroy (a flood); send_code=C sends command C (argument 0) instead,
 *                       and the answers are counted ("answers accepted=A refused=R busy=B" at shutdown)
 *   quit_after_ms=N     a thread that sleeps N ms, writes "quit sent", and sends MOTET_COMMAND_QUIT
 *   script=MS/CODE/ARG;… a thread that sends command CODE with argument ARG at MS milliseconds after
 *                       create, for each step in order, and writes "script CODE answer A" for each
 *   send_unknown=yes    send command 999 at create and write the answer
 *   hostile_log=yes     log a message full of control characters at create
 *   send_all=yes        send every command of ABI 1.0 once at create (SEEK_RELATIVE -5000000,
 *                       SEEK_ABSOLUTE -1, SET_VOLUME 150: edge values) and write the answers
 *   create_sleep_ms=N   sleep N ms in create before answering
 *   send_11=yes         (ABI 1.1) at create, send SET_LOOP 1 and SET_SHUFFLE 1 with send_command, then
 *                       LIKE for track 5 and OPEN_URI "/music/x.ogg" with send_track_command, and
 *                       write the answers ("answer CODE A"); built against 1.0 it sends SET_VOLUME
 *                       150 with send_command only
 *   open_uri=PATH       (ABI 1.1) on the first now-playing of a track, send OPEN_URI PATH once and
 *                       write "open-uri answer=A"
 *   like_each=yes       (ABI 1.1) send LIKE for the track of every now-playing that has one, naming
 *                       it, and write "like track=T answer=A"
 *   like_stale=yes      (ABI 1.1) on every now-playing of a new track, send LIKE naming the previous
 *                       track, and write "stale-like track=T answer=A"
 *   like_track=N        (ABI 1.1) on the first now-playing of a track, send LIKE naming track N once,
 *                       and write "like-track track=N answer=A"
 *   like_on_shutdown=yes (ABI 1.1) on the shutdown event, send LIKE naming the last track it was
 *                       told about, and write "shutdown-like track=T answer=A"
 *   crash=WHERE         crash in create, on the first track-finished event (finished), or in
 *                       destroy: a NULL write (SIGSEGV), or with crash_kind=trap __builtin_trap()
 *                       (SIGILL), or crash_kind=stack unbounded recursion (stack overflow)
 *
 * Compile-time variants (-D): PROBE_ABI_MAJOR, PROBE_ABI_MINOR, PROBE_MIN_HOST_MINOR,
 * PROBE_DECLINE (entry returns NULL), PROBE_NO_ENTRY (the entry has the wrong name),
 * PROBE_UNRESOLVED (calls a function nothing defines; built without -z defs),
 * PROBE_SWIFT_TOOLCHAIN="6.3" (stamps the descriptor as a Swift plugin's kit would),
 * PROBE_STRUCT_SIZE (the descriptor size it declares, e.g. 72u for a 1.0-baseline plugin),
 * PROBE_DESCRIBED_OPTIONS (ABI 1.1: the descriptor describes the options above).
 *
 * It builds against the current header and against the frozen ABI 1.0 copy in abi-1.0/ (the
 * ABI 1.1 parts are under `#if MOTET_ABI_MINOR >= 1`). Built against 1.1 it also writes the ABI 1.1
 * events and fields: "started ...", "finished-track ...", "lost count=N", "seeked ...".
 */
#include <motet/plugin.h>

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef PROBE_ABI_MAJOR
#define PROBE_ABI_MAJOR MOTET_ABI_MAJOR
#endif
#ifndef PROBE_ABI_MINOR
#define PROBE_ABI_MINOR MOTET_ABI_MINOR
#endif
#ifndef PROBE_MIN_HOST_MINOR
#define PROBE_MIN_HOST_MINOR 0u
#endif

#ifdef PROBE_UNRESOLVED
extern int motet_probe_symbol_nobody_defines(void);
#endif

#define MAX_SENDERS 16

struct probe;
typedef struct sender_arg {
    struct probe *p;
    int index;
} sender_arg;

typedef struct probe {
    const motet_host *host;
    int fd;
    long sleep_ms;
    char gate[512];
    int gate_passed;
    int hang_on_shutdown;
    int sender_count;
    long sends;
    uint32_t send_code;
    volatile int flooding;
    long answers[4];
    pthread_mutex_t answers_lock;
    long quit_after_ms;
    pthread_t quitter;
    char script[512];
    pthread_t scripter;
    pthread_t senders[MAX_SENDERS];
    sender_arg sender_args[MAX_SENDERS];
    char crash_where[16];
    char crash_kind[16];
    int like_each;
    int like_stale;
    uint64_t like_track;
    int like_on_shutdown;
    uint64_t last_track;
    char open_uri[512];
} probe;

/* Recurses until the stack is gone (the limit is never reached); the array defeats tail calls. */
__attribute__((noinline)) static int overflow(volatile long depth) {
    volatile char frame[1024];
    frame[depth % 1024] = (char)depth;
    if (depth == -1) return frame[0];
    return overflow(depth + 1) + frame[0];
}

/* The instance that crashed: never destroyed, kept reachable so LeakSanitizer does not count it. */
static const probe *volatile crashed_instance;

static void crash_if(const probe *p, const char *where) {
    if (strcmp(p->crash_where, where) != 0) return;
    crashed_instance = p;
    if (!strcmp(p->crash_kind, "trap")) __builtin_trap();
    if (!strcmp(p->crash_kind, "stack")) (void)overflow(0);
    *(volatile int *)0 = 1;
}

static long long now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void out(probe *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(probe *p, const char *fmt, ...) {
    if (p->fd < 0) return;
    char line[4096];
    int n = snprintf(line, sizeof line, "%lld %s ", now_us(), p->host->instance_name);
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof line - 2) n = (int)sizeof line - 2;
    line[n++] = '\n';
    ssize_t w = write(p->fd, line, (size_t)n); /* O_APPEND: one write per line, whole lines */
    (void)w;
}

static const char *s(const char *v) { return v ? v : "(null)"; }

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {}
}

static void *sender(void *arg) {
    sender_arg *a = arg;
    probe *p = a->p;
    if (p->send_code != 0) {
        long answers[4] = {0, 0, 0, 0};
        for (long i = 0; p->sends < 0 ? __atomic_load_n(&p->flooding, __ATOMIC_ACQUIRE) : i < p->sends; i++) {
            int32_t answer = p->host->send_command(p->host, p->send_code, 0);
            answers[answer >= 0 && answer < 4 ? answer : 3]++;
        }
        pthread_mutex_lock(&p->answers_lock);
        for (int i = 0; i < 4; i++) p->answers[i] += answers[i];
        pthread_mutex_unlock(&p->answers_lock);
        return NULL;
    }
    for (long i = 0; i < p->sends; i++) {
        p->host->send_command(p->host, MOTET_COMMAND_SEEK_RELATIVE, (int64_t)a->index * 1000000 + i);
    }
    return NULL;
}

static void *quitter(void *arg) {
    probe *p = arg;
    sleep_ms(p->quit_after_ms);
    out(p, "quit sent");
    out(p, "quit answer %d", p->host->send_command(p->host, MOTET_COMMAND_QUIT, 0));
    return NULL;
}

/* Runs the `script` option: each "MS/CODE/ARG" step at MS after create (',' and ':' separate options). */
static void *scripter(void *arg) {
    probe *p = arg;
    long elapsed = 0;
    for (const char *step = p->script; *step;) {
        char *end;
        long at = strtol(step, &end, 10);
        uint32_t code = (uint32_t)strtoul(end + (*end == '/'), &end, 10);
        int64_t argument = strtoll(end + (*end == '/'), &end, 10);
        if (at > elapsed) sleep_ms(at - elapsed);
        elapsed = at > elapsed ? at : elapsed;
        out(p, "script %u answer %d", code, p->host->send_command(p->host, code, argument));
        if (*end != ';') break;
        step = end + 1;
    }
    return NULL;
}

static int32_t probe_create(const motet_host *host, const motet_option *options, uint32_t count, void **out_instance) {
    probe *p = calloc(1, sizeof *p);
    if (!p) return MOTET_ERROR;
    p->host = host;
    p->fd = -1;
    int fail = 0, unknown = 0, hostile = 0, send_all = 0, send_11 = 0;
    long create_sleep = 0;
    for (uint32_t i = 0; i < count; i++) {
        const char *k = options[i].key, *v = options[i].value;
        if (!strcmp(k, "out")) p->fd = open(v, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        else if (!strcmp(k, "sleep_ms")) p->sleep_ms = atol(v);
        else if (!strcmp(k, "gate")) snprintf(p->gate, sizeof p->gate, "%s", v);
        else if (!strcmp(k, "hang_on_shutdown")) p->hang_on_shutdown = !strcmp(v, "yes");
        else if (!strcmp(k, "fail_create")) fail = !strcmp(v, "yes");
        else if (!strcmp(k, "senders")) p->sender_count = atoi(v) > MAX_SENDERS ? MAX_SENDERS : atoi(v);
        else if (!strcmp(k, "sends")) p->sends = atol(v);
        else if (!strcmp(k, "send_code")) p->send_code = (uint32_t)atol(v);
        else if (!strcmp(k, "quit_after_ms")) p->quit_after_ms = atol(v);
        else if (!strcmp(k, "script")) snprintf(p->script, sizeof p->script, "%s", v);
        else if (!strcmp(k, "send_unknown")) unknown = !strcmp(v, "yes");
        else if (!strcmp(k, "hostile_log")) hostile = !strcmp(v, "yes");
        else if (!strcmp(k, "send_all")) send_all = !strcmp(v, "yes");
        else if (!strcmp(k, "send_11")) send_11 = !strcmp(v, "yes");
        else if (!strcmp(k, "create_sleep_ms")) create_sleep = atol(v);
        else if (!strcmp(k, "crash")) snprintf(p->crash_where, sizeof p->crash_where, "%s", v);
        else if (!strcmp(k, "crash_kind")) snprintf(p->crash_kind, sizeof p->crash_kind, "%s", v);
        else if (!strcmp(k, "like_each")) p->like_each = !strcmp(v, "yes");
        else if (!strcmp(k, "like_stale")) p->like_stale = !strcmp(v, "yes");
        else if (!strcmp(k, "like_track")) p->like_track = strtoull(v, NULL, 10);
        else if (!strcmp(k, "like_on_shutdown")) p->like_on_shutdown = !strcmp(v, "yes");
        else if (!strcmp(k, "open_uri")) snprintf(p->open_uri, sizeof p->open_uri, "%s", v);
    }
    out(p, "create abi=%u.%u host=%s version=%s cache=%s options=%u", host->abi_major, host->abi_minor,
        s(host->host_name), s(host->host_version), s(host->artwork_cache_dir), count);
    for (uint32_t i = 0; i < count; i++) out(p, "option %s=%s", options[i].key, options[i].value);
#ifdef PROBE_UNRESOLVED
    if (motet_probe_symbol_nobody_defines()) return MOTET_ERROR;
#endif
    if (fail) {
        host->log(host, MOTET_LOG_ERROR, "probe refuses to start: fail_create=yes");
        if (p->fd >= 0) close(p->fd);
        free(p);
        return MOTET_ERROR;
    }
    if (hostile) host->log(host, MOTET_LOG_WARNING, "red\x1b[31m alert\nsecond line\r\x7f end");
    if (unknown) out(p, "answer 999 %d", host->send_command(host, 999u, 0));
    if (send_all) {
        for (uint32_t c = MOTET_COMMAND_PLAY; c <= MOTET_COMMAND_QUIT; c++) {
            int64_t argument = c == MOTET_COMMAND_SEEK_RELATIVE ? -5000000
                               : c == MOTET_COMMAND_SEEK_ABSOLUTE ? -1
                               : c == MOTET_COMMAND_SET_VOLUME ? 150 : 0;
            out(p, "answer %u %d", c, host->send_command(host, c, argument));
        }
    }
    if (send_11) {
#if MOTET_ABI_MINOR >= 1
        out(p, "answer %u %d", MOTET_COMMAND_SET_LOOP, host->send_command(host, MOTET_COMMAND_SET_LOOP, MOTET_LOOP_PLAYLIST));
        out(p, "answer %u %d", MOTET_COMMAND_SET_SHUFFLE, host->send_command(host, MOTET_COMMAND_SET_SHUFFLE, 1));
        out(p, "answer %u %d", MOTET_COMMAND_LIKE, host->send_track_command(host, MOTET_COMMAND_LIKE, 5, 0, NULL));
        out(p, "answer %u %d", MOTET_COMMAND_OPEN_URI,
            host->send_track_command(host, MOTET_COMMAND_OPEN_URI, 0, 0, "/music/x.ogg"));
#else
        out(p, "answer %u %d", MOTET_COMMAND_SET_VOLUME, host->send_command(host, MOTET_COMMAND_SET_VOLUME, 150));
#endif
    }
    if (create_sleep > 0) sleep_ms(create_sleep);
    crash_if(p, "create");
    pthread_mutex_init(&p->answers_lock, NULL);
    p->flooding = 1;
    if (p->quit_after_ms > 0) pthread_create(&p->quitter, NULL, quitter, p);
    if (p->script[0]) pthread_create(&p->scripter, NULL, scripter, p);
    for (int i = 0; i < p->sender_count; i++) {
        p->sender_args[i].p = p;
        p->sender_args[i].index = i;
        pthread_create(&p->senders[i], NULL, sender, &p->sender_args[i]);
    }
    *out_instance = p;
    return MOTET_OK;
}

#if MOTET_ABI_MINOR >= 1
/* One line for a motet_track: "id=.. title=.. artists=A|B album=.. duration=.. file=.. url=.. station=.. art=..
 * desc=.. genre=.. home=..". */
static void describe_track(const motet_track *t, char *buffer, size_t size) {
    char artists[1024] = "";
    size_t used = 0;
    for (uint32_t i = 0; i < t->artist_count && used < sizeof artists - 1; i++)
        used += (size_t)snprintf(artists + used, sizeof artists - used, "%s%s", i ? "|" : "", t->artists[i]);
    snprintf(buffer, size,
             "id=%llu title=%s artist=%s artists=%s album=%s duration=%lld file=%s url=%s station=%s art=%s "
             "desc=%s genre=%s home=%s",
             (unsigned long long)t->track_id, s(t->title), s(t->artist), artists, s(t->album),
             (t->present & MOTET_TRACK_HAS_DURATION) ? (long long)t->duration_us : -1LL, s(t->file_path), s(t->url),
             s(t->station), s(t->artwork_id), s(t->station_description), s(t->station_genre), s(t->station_url));
}
#endif

static void probe_event(void *instance, const motet_event *event) {
    probe *p = instance;
    if (p->gate[0] && !p->gate_passed) {
        while (access(p->gate, F_OK) != 0) sleep_ms(5);
        p->gate_passed = 1;
    }
    if (p->sleep_ms > 0) sleep_ms(p->sleep_ms);
    switch (event->type) {
    case MOTET_EVENT_NOW_PLAYING: {
        const motet_now_playing *e = (const motet_now_playing *)event;
        char artists[1024] = "";
        size_t used = 0;
        for (uint32_t i = 0; i < e->artist_count && used < sizeof artists - 1; i++)
            used += (size_t)snprintf(artists + used, sizeof artists - used, "%s%s", i ? "|" : "", e->artists[i]);
        out(p,
            "np size=%u present=0x%x flags=0x%x title=%s artist=%s artists=%u:%s album=%s duration=%lld "
            "elapsed=%lld at=%lld rate=%.2f art=%llu:%s:%s:%s file=%s track=%llu",
            e->struct_size, e->present, e->flags, s(e->title), s(e->artist), e->artist_count, artists, s(e->album),
            (long long)e->duration_us, (long long)e->elapsed_us, (long long)e->elapsed_at_us, e->rate,
            (unsigned long long)e->artwork_size, s(e->artwork_mime), s(e->artwork_id), s(e->artwork_path),
            s(e->file_path), (unsigned long long)e->track_id);
        if (e->artwork_data && e->artwork_size >= 2)
            out(p, "art-bytes %u %u", e->artwork_data[0], e->artwork_data[e->artwork_size - 1]);
#if MOTET_ABI_MINOR >= 1
        if (e->struct_size >= MOTET_NOW_PLAYING_SIZE_1_1 && (e->url || e->station))
            out(p, "np-stream url=%s station=%s desc=%s genre=%s home=%s", s(e->url), s(e->station),
                s(e->station_description), s(e->station_genre), s(e->station_url));
#if MOTET_ABI_MINOR >= 3
        if (e->struct_size >= MOTET_NOW_PLAYING_SIZE_1_3 && e->next_disabled_reason)
            out(p, "np-next-disabled %s", e->next_disabled_reason);
#endif
        if (e->track_id != 0 && p->host->struct_size >= MOTET_HOST_SIZE_1_1) {
            if (p->like_stale && p->last_track != 0 && e->track_id != p->last_track)
                out(p, "stale-like track=%llu answer=%d", (unsigned long long)p->last_track,
                    p->host->send_track_command(p->host, MOTET_COMMAND_LIKE, p->last_track, 0, NULL));
            if (p->open_uri[0]) {
                out(p, "open-uri answer=%d",
                    p->host->send_track_command(p->host, MOTET_COMMAND_OPEN_URI, 0, 0, p->open_uri));
                p->open_uri[0] = 0;
            }
            if (p->like_each)
                out(p, "like track=%llu answer=%d", (unsigned long long)e->track_id,
                    p->host->send_track_command(p->host, MOTET_COMMAND_LIKE, e->track_id, 0, NULL));
            if (p->like_track != 0) {
                out(p, "like-track track=%llu answer=%d", (unsigned long long)p->like_track,
                    p->host->send_track_command(p->host, MOTET_COMMAND_LIKE, p->like_track, 0, NULL));
                p->like_track = 0;
            }
        }
#endif
        if (e->track_id != 0) p->last_track = e->track_id;
        break;
    }
#if MOTET_ABI_MINOR >= 1
    case MOTET_EVENT_TRACK_STARTED: {
        const motet_track_started *e = (const motet_track_started *)event;
        char track[2048];
        describe_track(e->track, track, sizeof track);
        out(p, "started reason=%u at=%lld %s", e->reason, (long long)e->started_at_unix_us, track);
        break;
    }
    case MOTET_EVENT_TRACKS_LOST:
        out(p, "lost count=%u", ((const motet_tracks_lost *)event)->count);
        break;
    case MOTET_EVENT_SEEKED: {
        const motet_seeked *e = (const motet_seeked *)event;
        out(p, "seeked track=%llu position=%lld", (unsigned long long)e->track_id, (long long)e->position_us);
        break;
    }
#endif
    case MOTET_EVENT_PLAYBACK_STATE: {
        const motet_playback_state *e = (const motet_playback_state *)event;
        out(p, "state state=%u volume=%u shuffle=%u loop=%u seek=%u remote=%u", e->state, e->volume_percent,
            e->shuffle, e->loop, e->can_seek, e->remote_commands);
        break;
    }
    case MOTET_EVENT_TRACK_FINISHED: {
        const motet_track_finished *e = (const motet_track_finished *)event;
        out(p, "finished ok=%u reason=%u track=%llu file=%s title=%s", e->successfully, e->reason,
            (unsigned long long)e->track_id, s(e->file_path), s(e->title));
#if MOTET_ABI_MINOR >= 1
        if (e->struct_size >= MOTET_TRACK_FINISHED_SIZE_1_1) {
            char track[2048];
            describe_track(e->track, track, sizeof track);
            out(p, "finished-track heard=%lld position=%lld first=%lld %s", (long long)e->heard_us,
                (long long)e->position_us, (long long)e->first_heard_unix_us, track);
        }
#endif
        crash_if(p, "finished");
        break;
    }
    case MOTET_EVENT_DECODE_ERROR: {
        const motet_decode_error *e = (const motet_decode_error *)event;
        out(p, "decode-error code=%d message=%s file=%s position=%lld track=%llu", e->code, s(e->message),
            s(e->file_path), (long long)e->position_us, (unsigned long long)e->track_id);
        break;
    }
    case MOTET_EVENT_INTERRUPTION_BEGAN:
        out(p, "interruption-began reason=%u", ((const motet_interruption *)event)->reason);
        break;
    case MOTET_EVENT_INTERRUPTION_ENDED:
        out(p, "interruption-ended reason=%u", ((const motet_interruption *)event)->reason);
        break;
    case MOTET_EVENT_SHUTDOWN:
        out(p, "shutdown");
#if MOTET_ABI_MINOR >= 1
        if (p->like_on_shutdown && p->last_track != 0 && p->host->struct_size >= MOTET_HOST_SIZE_1_1)
            out(p, "shutdown-like track=%llu answer=%d", (unsigned long long)p->last_track,
                p->host->send_track_command(p->host, MOTET_COMMAND_LIKE, p->last_track, 0, NULL));
#endif
        while (p->hang_on_shutdown) sleep_ms(1000);
        break;
    default:
        out(p, "unknown-event %u", event->type);
        break;
    }
}

static void probe_destroy(void *instance) {
    probe *p = instance;
    __atomic_store_n(&p->flooding, 0, __ATOMIC_RELEASE);
    for (int i = 0; i < p->sender_count; i++) pthread_join(p->senders[i], NULL);
    if (p->send_code != 0 && p->sender_count > 0)
        out(p, "answers accepted=%ld refused=%ld unsupported=%ld busy=%ld", p->answers[0], p->answers[1], p->answers[2],
            p->answers[3]);
    if (p->quit_after_ms > 0) pthread_join(p->quitter, NULL);
    if (p->script[0]) pthread_join(p->scripter, NULL);
    out(p, "destroy");
    crash_if(p, "destroy");
    if (p->fd >= 0) close(p->fd);
    free(p);
}

#ifndef PROBE_STRUCT_SIZE
#define PROBE_STRUCT_SIZE sizeof(motet_plugin_descriptor)
#endif

#ifdef PROBE_DESCRIBED_OPTIONS
static const motet_option_description probe_options[] = {
    {sizeof(motet_option_description), MOTET_OPTION_OUTPUT_PATH, "out", NULL, "where to write one line per call"},
    {sizeof(motet_option_description), MOTET_OPTION_INTEGER, "sleep_ms", "0", "sleep this long in every on_event call"},
    {sizeof(motet_option_description), MOTET_OPTION_INPUT_PATH, "gate", NULL, "on the first event, wait until this file exists"},
    {sizeof(motet_option_description), MOTET_OPTION_BOOL, "hang_on_shutdown", "no", "never return from the shutdown event"},
    {sizeof(motet_option_description), MOTET_OPTION_BOOL, "fail_create", "no", "fail create"},
    {sizeof(motet_option_description), MOTET_OPTION_INTEGER, "create_sleep_ms", "0", "sleep this long in create"},
    {sizeof(motet_option_description), MOTET_OPTION_DURATION, "interval", "1", "a duration, for the tests of validation"},
    {sizeof(motet_option_description), MOTET_OPTION_STRING, "file", NULL, "a plugin option called file"},
    {sizeof(motet_option_description), MOTET_OPTION_BOOL, "like_each", "no", "like every track it is told about"},
};
#endif

__attribute__((unused)) static const motet_plugin_descriptor descriptor = {
    .struct_size = PROBE_STRUCT_SIZE,
    .abi_major = PROBE_ABI_MAJOR,
    .abi_minor = PROBE_ABI_MINOR,
    .min_host_minor = PROBE_MIN_HOST_MINOR,
    .id = "org.motet.test.probe",
    .name = "Probe",
    .version = "9.8.7",
    .description = "Writes every call it receives to a file, for the host's tests",
    .create = probe_create,
    .on_event = probe_event,
    .destroy = probe_destroy,
#ifdef PROBE_SWIFT_TOOLCHAIN
    .swift_toolchain = PROBE_SWIFT_TOOLCHAIN,
#endif
#ifdef PROBE_DESCRIBED_OPTIONS
    .options = probe_options,
    .option_count = sizeof probe_options / sizeof probe_options[0],
#endif
};

#ifdef PROBE_NO_ENTRY
#define ENTRY_NAME motet_plugin_entry_with_a_typo
#else
#define ENTRY_NAME motet_plugin_entry
#endif

__attribute__((visibility("default"))) const motet_plugin_descriptor *ENTRY_NAME(uint32_t host_major, uint32_t host_minor) {
    (void)host_minor;
#ifdef PROBE_DECLINE
    (void)host_major;
    return NULL;
#else
    return host_major == MOTET_ABI_MAJOR ? &descriptor : NULL;
#endif
}
