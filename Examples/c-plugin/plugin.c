/*
 * hello-delegate — a complete Motet delegate plugin in plain C.
 *
 * It prints what the player tells it (one line per event) to stderr, or to the file given with
 * the option `out=PATH`, and, with the option `like=yes`, sends the "like" command back once when
 * a track starts. Build it the way any third party would, against the installed header:
 *
 *     make                      # uses pkg-config motet-plugin
 *     motet --plugin ./hello.so:like=yes,out=/tmp/hello.log music.ogg
 *
 * Everything it relies on is documented in <motet/plugin.h>.
 */
#include <motet/plugin.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One instance (the host may create several, with different options). */
typedef struct hello {
    const motet_host *host; /* valid until destroy returns; never copied */
    FILE *out;              /* stderr, or the file named by `out=` */
    int like;               /* option like=yes */
    uint64_t liked_track;   /* the track we already liked (track ids change when a track starts) */
} hello;

/* Prints one line. Only ever called on this instance's queue: no locking needed. */
static void say(hello *h, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(h->out, "hello[%s]: ", h->host->instance_name);
    vfprintf(h->out, fmt, ap);
    fputc('\n', h->out);
    fflush(h->out);
    va_end(ap);
}

static const char *or_none(const char *s) { return s ? s : "(none)"; }

/* [plugin-thread] */
static int32_t hello_create(const motet_host *host, const motet_option *options, uint32_t option_count,
                            void **out_instance) {
    hello *h = calloc(1, sizeof *h);
    if (!h) return MOTET_ERROR;
    h->host = host;
    h->out = stderr;
    for (uint32_t i = 0; i < option_count; i++) {
        /* Options are borrowed for this call: use or copy them now. */
        if (strcmp(options[i].key, "like") == 0) {
            h->like = strcmp(options[i].value, "yes") == 0;
        } else if (strcmp(options[i].key, "out") == 0) {
            FILE *f = fopen(options[i].value, "a");
            if (!f) {
                char message[512];
                snprintf(message, sizeof message, "cannot open out=%s", options[i].value);
                host->log(host, MOTET_LOG_ERROR, message); /* say why, then fail */
                free(h);
                return MOTET_ERROR;
            }
            h->out = f;
        } else {
            char message[256];
            snprintf(message, sizeof message, "ignoring unknown option %s", options[i].key);
            host->log(host, MOTET_LOG_WARNING, message);
        }
    }
    say(h, "created by %s %s (ABI %u.%u)", host->host_name, host->host_version, host->abi_major, host->abi_minor);
    *out_instance = h;
    return MOTET_OK;
}

static void on_now_playing(hello *h, const motet_now_playing *np) {
    if (!(np->present & MOTET_NP_HAS_TRACK)) {
        say(h, "nothing playing");
        return;
    }
    say(h, "now playing: title=%s artist=%s album=%s rate=%.1f liked=%s", or_none(np->title), or_none(np->artist),
        or_none(np->album), np->rate, (np->flags & MOTET_NP_LIKE_ACTIVE) ? "yes" : "no");
    if (np->present & MOTET_NP_HAS_DURATION) say(h, "  duration %.1f s", np->duration_us / 1e6);
    if (np->present & MOTET_NP_HAS_ARTWORK)
        say(h, "  artwork %s, %llu bytes, id %s", or_none(np->artwork_mime), (unsigned long long)np->artwork_size,
            or_none(np->artwork_id));
    if (h->like && np->track_id != h->liked_track && !(np->flags & MOTET_NP_LIKE_ACTIVE)) {
        h->liked_track = np->track_id;
        /* send_command only enqueues: the outcome arrives as a later now-playing event. */
        int32_t answer = h->host->send_command(h->host, MOTET_COMMAND_LIKE, 0);
        say(h, "sent like: %s", answer == MOTET_COMMAND_ACCEPTED ? "accepted"
                                : answer == MOTET_COMMAND_REFUSED ? "refused" : "unsupported");
    }
}

/* [plugin-thread] The event is borrowed for this call. */
static void hello_on_event(void *instance, const motet_event *event) {
    hello *h = instance;
    switch (event->type) {
    case MOTET_EVENT_NOW_PLAYING:
        on_now_playing(h, (const motet_now_playing *)event);
        break;
    case MOTET_EVENT_PLAYBACK_STATE: {
        static const char *names[] = {"stopped", "loading", "playing", "paused", "stalled", "complete", "interrupted"};
        const motet_playback_state *s = (const motet_playback_state *)event;
        say(h, "state: %s, volume %u%%", s->state < 7 ? names[s->state] : "unknown", s->volume_percent);
        break;
    }
    case MOTET_EVENT_TRACK_FINISHED: {
        const motet_track_finished *f = (const motet_track_finished *)event;
        say(h, "finished: %s (%s)", or_none(f->title), f->successfully ? "successfully" : "with an error");
        break;
    }
    case MOTET_EVENT_DECODE_ERROR: {
        const motet_decode_error *e = (const motet_decode_error *)event;
        say(h, "decode error %d: %s", e->code, e->message);
        break;
    }
    case MOTET_EVENT_INTERRUPTION_BEGAN:
        say(h, "interrupted");
        break;
    case MOTET_EVENT_INTERRUPTION_ENDED:
        say(h, "interruption ended");
        break;
    case MOTET_EVENT_SHUTDOWN:
        say(h, "shutting down");
        break;
    default:
        break; /* a newer host's event: ignore it */
    }
}

/* [plugin-thread] Free everything; this plugin started no threads. */
static void hello_destroy(void *instance) {
    hello *h = instance;
    if (h->out != stderr) fclose(h->out);
    free(h);
}

static const motet_plugin_descriptor descriptor = {
    .struct_size = sizeof(motet_plugin_descriptor),
    .abi_major = MOTET_ABI_MAJOR,
    .abi_minor = MOTET_ABI_MINOR,
    .min_host_minor = 0, /* needs nothing newer than ABI 1.0 */
    .id = "org.example.hello",
    .name = "hello",
    .version = "1.0.0",
    .description = "Prints what the player tells it; option like=yes likes each new track",
    .create = hello_create,
    .on_event = hello_on_event,
    .destroy = hello_destroy,
};

/* The one exported symbol. Decline a host of another major. */
__attribute__((visibility("default"))) const motet_plugin_descriptor *motet_plugin_entry(uint32_t host_abi_major,
                                                                                        uint32_t host_abi_minor) {
    (void)host_abi_minor;
    return host_abi_major == MOTET_ABI_MAJOR ? &descriptor : NULL;
}
