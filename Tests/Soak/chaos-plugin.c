/*
 * chaos-plugin.c — the soak test's delegate (bench/soak.sh, Tests/IntegrationTests/SoakTests.swift).
 *
 * Two jobs, both optional, chosen by options at create:
 *
 * 1. Chaos: `threads=N` starts N threads in create. Each sends random remote commands through the
 *    host's send_command at random short intervals, until the shutdown event or destroy (which
 *    joins them). Commands and weights (out of 60): play 10, pause 6, toggle 6, next 8,
 *    previous 2, stop 2, like 6, dislike 3, unlike 4, seek-relative 4 (-300..+300 ms),
 *    seek-absolute 3 (0..400 ms), set-volume 6 (0..100 %). Never quit.
 *    Progress rule: playback must keep moving, so a thread that sends a command that can leave
 *    the player paused or stopped (pause, toggle, stop) sends play itself after a random
 *    0..`resume_us` microseconds, before anything else. Commands from one thread reach the player
 *    in the order they were sent (the ABI promises it), so the last pausing command of the whole
 *    run is always followed by a play: the player is never left paused for longer than about
 *    `resume_us` plus the other threads' pauses that overlap it.
 *
 * 2. Recorder: `out=PATH` writes one line per event it receives, one write(2) per line (so a crash
 *    loses nothing already received), in the order received:
 *      create threads=N seed=S
 *      np track=ID present=0xP rate=R file=PATH title=TITLE
 *      state state=N volume=V
 *      finished track=ID reason=R ok=K file=PATH title=TITLE
 *      decode-error code=C track=ID position=US file=PATH message=TEXT
 *      interruption-began reason=R / interruption-ended reason=R
 *      shutdown
 *      destroy sent=N accepted=N refused=N unsupported=N max_send_us=N sent_CMD=N ...
 *    Text fields are last on their line; control characters in them are written as '?'.
 *
 * Options: out=PATH, threads=N (0..16, default 0), seed=S (default 1: the same run twice sends the
 * same commands at the same moments per thread), min_us=N and max_us=N (the pause between two
 * commands of one thread, default 1000..10000), resume_us=N (default 2000).
 *
 * Build: cc -shared -fPIC -fvisibility=hidden -Wl,-z,defs -I Sources/MotetPluginABI/include
 *        -o chaos.so Tests/Soak/chaos-plugin.c -lpthread
 */
#include <motet/plugin.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 16
#define COMMAND_SLOTS ((int)MOTET_COMMAND_QUIT + 1)

struct chaos;

/** One sending thread and what it did (touched only by that thread until it is joined). */
typedef struct sender {
    struct chaos *owner;
    pthread_t thread;
    uint64_t rng;
    long sent[COMMAND_SLOTS];
    long answers[3]; /* ACCEPTED, REFUSED, UNSUPPORTED */
    long max_send_us;
} sender;

typedef struct chaos {
    const motet_host *host;
    int fd;
    int thread_count;
    int threads_started;
    uint64_t seed;
    long min_us, max_us, resume_us;
    atomic_int stopping;
    sender senders[MAX_THREADS];
} chaos;

static long long now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void sleep_us(long us) {
    if (us <= 0) return;
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000L};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {}
}

/** xorshift64*: small, fast, and the same sequence for the same seed everywhere. */
static uint64_t next_random(uint64_t *state) {
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static long random_between(uint64_t *state, long low, long high) {
    if (high <= low) return low;
    return low + (long)(next_random(state) % (uint64_t)(high - low + 1));
}

static void out(chaos *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(chaos *c, const char *fmt, ...) {
    if (c->fd < 0) return;
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (n > (int)sizeof line - 2) n = (int)sizeof line - 2;
    line[n++] = '\n';
    size_t done = 0;
    while (done < (size_t)n) {
        ssize_t w = write(c->fd, line + done, (size_t)n - done);
        if (w < 0) {
            if (errno == EINTR) continue;
            return;
        }
        done += (size_t)w;
    }
}

/** A text field for one line: NULL as "(null)", control characters as '?', at most 1000 bytes. */
static const char *text(const char *value, char *buffer, size_t size) {
    if (!value) return "(null)";
    size_t i = 0;
    for (; value[i] && i < size - 1; i++) {
        unsigned char ch = (unsigned char)value[i];
        buffer[i] = (ch < 0x20 || ch == 0x7f) ? '?' : (char)ch;
    }
    buffer[i] = 0;
    return buffer;
}

static void send_one(sender *s, uint32_t command, int64_t argument) {
    chaos *c = s->owner;
    long long before = now_us();
    int32_t answer = c->host->send_command(c->host, command, argument);
    long took = (long)(now_us() - before);
    if (took > s->max_send_us) s->max_send_us = took;
    if (command < (uint32_t)COMMAND_SLOTS) s->sent[command]++;
    if (answer >= 0 && answer <= 2) s->answers[answer]++;
}

static void *send_randomly(void *argument) {
    sender *s = argument;
    chaos *c = s->owner;
    while (!atomic_load(&c->stopping)) {
        sleep_us(random_between(&s->rng, c->min_us, c->max_us));
        if (atomic_load(&c->stopping)) break;
        long pick = random_between(&s->rng, 0, 59);
        int pauses = 0;
        if (pick < 10) send_one(s, MOTET_COMMAND_PLAY, 0);
        else if (pick < 16) { send_one(s, MOTET_COMMAND_PAUSE, 0); pauses = 1; }
        else if (pick < 22) { send_one(s, MOTET_COMMAND_TOGGLE, 0); pauses = 1; }
        else if (pick < 30) send_one(s, MOTET_COMMAND_NEXT, 0);
        else if (pick < 32) send_one(s, MOTET_COMMAND_PREVIOUS, 0);
        else if (pick < 34) { send_one(s, MOTET_COMMAND_STOP, 0); pauses = 1; }
        else if (pick < 40) send_one(s, MOTET_COMMAND_LIKE, 0);
        else if (pick < 43) send_one(s, MOTET_COMMAND_DISLIKE, 0);
        else if (pick < 47) send_one(s, MOTET_COMMAND_UNLIKE, 0);
        else if (pick < 51) send_one(s, MOTET_COMMAND_SEEK_RELATIVE, random_between(&s->rng, -300000, 300000));
        else if (pick < 54) send_one(s, MOTET_COMMAND_SEEK_ABSOLUTE, random_between(&s->rng, 0, 400000));
        else send_one(s, MOTET_COMMAND_SET_VOLUME, random_between(&s->rng, 0, 100));
        if (pauses) {
            /* The progress rule: never leave the player paused or stopped. Sent even when
             * stopping, so that the last pausing command of the run is always undone. */
            sleep_us(random_between(&s->rng, 0, c->resume_us));
            send_one(s, MOTET_COMMAND_PLAY, 0);
        }
    }
    return NULL;
}

static void stop_senders(chaos *c) {
    atomic_store(&c->stopping, 1);
    for (int i = 0; i < c->threads_started; i++) pthread_join(c->senders[i].thread, NULL);
    c->threads_started = 0;
}

static int32_t chaos_create(const motet_host *host, const motet_option *options, uint32_t count, void **out_instance) {
    chaos *c = calloc(1, sizeof *c);
    if (!c) return MOTET_ERROR;
    c->host = host;
    c->fd = -1;
    c->seed = 1;
    c->min_us = 1000;
    c->max_us = 10000;
    c->resume_us = 2000;
    atomic_init(&c->stopping, 0);
    for (uint32_t i = 0; i < count; i++) {
        const char *k = options[i].key, *v = options[i].value;
        if (!strcmp(k, "out")) {
            c->fd = open(v, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
            if (c->fd < 0) {
                char why[600];
                snprintf(why, sizeof why, "cannot open out=%s: %s", v, strerror(errno));
                host->log(host, MOTET_LOG_ERROR, why);
                free(c);
                return MOTET_ERROR;
            }
        } else if (!strcmp(k, "threads")) {
            int n = atoi(v);
            c->thread_count = n < 0 ? 0 : n > MAX_THREADS ? MAX_THREADS : n;
        } else if (!strcmp(k, "seed")) c->seed = strtoull(v, NULL, 10);
        else if (!strcmp(k, "min_us")) c->min_us = atol(v);
        else if (!strcmp(k, "max_us")) c->max_us = atol(v);
        else if (!strcmp(k, "resume_us")) c->resume_us = atol(v);
        else {
            char why[300];
            snprintf(why, sizeof why, "ignoring unknown option '%.200s'", k);
            host->log(host, MOTET_LOG_WARNING, why);
        }
    }
    out(c, "create threads=%d seed=%llu", c->thread_count, (unsigned long long)c->seed);
    for (int i = 0; i < c->thread_count; i++) {
        sender *s = &c->senders[i];
        s->owner = c;
        s->rng = (c->seed + 1) * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(i + 1) * 0xD1B54A32D192ED03ULL;
        if (s->rng == 0) s->rng = 1;
        if (pthread_create(&s->thread, NULL, send_randomly, s) != 0) {
            host->log(host, MOTET_LOG_ERROR, "cannot start a sender thread");
            stop_senders(c);
            if (c->fd >= 0) close(c->fd);
            free(c);
            return MOTET_ERROR;
        }
        c->threads_started++;
    }
    *out_instance = c;
    return MOTET_OK;
}

static void chaos_event(void *instance, const motet_event *event) {
    chaos *c = instance;
    char t1[1024], t2[1024];
    switch (event->type) {
    case MOTET_EVENT_NOW_PLAYING: {
        const motet_now_playing *e = (const motet_now_playing *)event;
        out(c, "np track=%llu present=0x%x rate=%.1f file=%s title=%s", (unsigned long long)e->track_id, e->present,
            e->rate, text(e->file_path, t1, sizeof t1), text(e->title, t2, sizeof t2));
        break;
    }
    case MOTET_EVENT_PLAYBACK_STATE: {
        const motet_playback_state *e = (const motet_playback_state *)event;
        out(c, "state state=%u volume=%u", e->state, e->volume_percent);
        break;
    }
    case MOTET_EVENT_TRACK_FINISHED: {
        const motet_track_finished *e = (const motet_track_finished *)event;
        out(c, "finished track=%llu reason=%u ok=%u file=%s title=%s", (unsigned long long)e->track_id, e->reason,
            e->successfully, text(e->file_path, t1, sizeof t1), text(e->title, t2, sizeof t2));
        break;
    }
    case MOTET_EVENT_DECODE_ERROR: {
        const motet_decode_error *e = (const motet_decode_error *)event;
        out(c, "decode-error code=%d track=%llu position=%lld file=%s message=%s", e->code,
            (unsigned long long)e->track_id, (long long)e->position_us, text(e->file_path, t1, sizeof t1),
            text(e->message, t2, sizeof t2));
        break;
    }
    case MOTET_EVENT_INTERRUPTION_BEGAN:
        out(c, "interruption-began reason=%u", ((const motet_interruption *)event)->reason);
        break;
    case MOTET_EVENT_INTERRUPTION_ENDED:
        out(c, "interruption-ended reason=%u", ((const motet_interruption *)event)->reason);
        break;
    case MOTET_EVENT_SHUTDOWN:
        out(c, "shutdown");
        /* The player has stopped: no more commands (destroy joins the threads). */
        atomic_store(&c->stopping, 1);
        break;
    default:
        out(c, "unknown-event %u", event->type);
        break;
    }
}

static const char *const command_names[COMMAND_SLOTS] = {
    "none", "play", "pause", "toggle", "next", "previous", "stop", "like", "dislike", "unlike",
    "seek_relative", "seek_absolute", "set_volume", "quit",
};

static void chaos_destroy(void *instance) {
    chaos *c = instance;
    stop_senders(c);
    long sent[COMMAND_SLOTS] = {0}, answers[3] = {0}, total = 0, max_send_us = 0;
    for (int i = 0; i < c->thread_count; i++) {
        sender *s = &c->senders[i];
        for (int k = 0; k < COMMAND_SLOTS; k++) {
            sent[k] += s->sent[k];
            total += s->sent[k];
        }
        for (int k = 0; k < 3; k++) answers[k] += s->answers[k];
        if (s->max_send_us > max_send_us) max_send_us = s->max_send_us;
    }
    char detail[1024] = "";
    size_t used = 0;
    for (int k = 1; k < COMMAND_SLOTS && used < sizeof detail; k++)
        used += (size_t)snprintf(detail + used, sizeof detail - used, " sent_%s=%ld", command_names[k], sent[k]);
    out(c, "destroy sent=%ld accepted=%ld refused=%ld unsupported=%ld max_send_us=%ld%s", total, answers[0], answers[1],
        answers[2], max_send_us, detail);
    if (c->fd >= 0) close(c->fd);
    free(c);
}

static const motet_plugin_descriptor descriptor = {
    .struct_size = sizeof(motet_plugin_descriptor),
    .abi_major = MOTET_ABI_MAJOR,
    .abi_minor = MOTET_ABI_MINOR,
    .min_host_minor = 0u,
    .id = "org.motet.test.chaos",
    .name = "Chaos",
    .version = "1.0.0",
    .description = "Sends random remote commands from several threads and records every event (soak test)",
    .create = chaos_create,
    .on_event = chaos_event,
    .destroy = chaos_destroy,
};

__attribute__((visibility("default"))) const motet_plugin_descriptor *motet_plugin_entry(uint32_t host_major,
                                                                                      uint32_t host_minor) {
    (void)host_minor;
    return host_major == MOTET_ABI_MAJOR ? &descriptor : NULL;
}
