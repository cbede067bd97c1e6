/* The framing between motet and a plugin host process: see include/plugin_wire.h. */
#include "plugin_wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEADER_SIZE 8u

/* ---- Writing ---- */

static void reserve(motet_wire_buffer *b, size_t more) {
    if (b->failed) return;
    if (more > MOTET_WIRE_MAX_FRAME || b->length + more > (size_t)MOTET_WIRE_MAX_FRAME + HEADER_SIZE) {
        b->failed = 1;
        return;
    }
    if (b->length + more <= b->capacity) return;
    size_t capacity = b->capacity ? b->capacity : 256;
    while (capacity < b->length + more) capacity *= 2;
    uint8_t *bytes = realloc(b->bytes, capacity);
    if (!bytes) {
        b->failed = 1;
        return;
    }
    b->bytes = bytes;
    b->capacity = capacity;
}

static void put(motet_wire_buffer *b, const void *data, size_t size) {
    reserve(b, size);
    if (b->failed) return;
    if (size) memcpy(b->bytes + b->length, data, size);
    b->length += size;
}

void motet_wire_buffer_init(motet_wire_buffer *b, uint32_t kind) {
    memset(b, 0, sizeof *b);
    uint32_t header[2] = {0, kind};
    put(b, header, sizeof header);
}

void motet_wire_buffer_free(motet_wire_buffer *b) {
    free(b->bytes);
    memset(b, 0, sizeof *b);
}

void motet_wire_put_u32(motet_wire_buffer *b, uint32_t v) { put(b, &v, sizeof v); }
void motet_wire_put_u64(motet_wire_buffer *b, uint64_t v) { put(b, &v, sizeof v); }
static void put_i64(motet_wire_buffer *b, int64_t v) { put(b, &v, sizeof v); }
static void put_double(motet_wire_buffer *b, double v) { put(b, &v, sizeof v); }

void motet_wire_put_string(motet_wire_buffer *b, const char *s) {
    if (!s) {
        motet_wire_put_u32(b, 0);
        return;
    }
    size_t length = strlen(s) + 1;
    if (length > MOTET_WIRE_MAX_FRAME) {
        b->failed = 1;
        return;
    }
    motet_wire_put_u32(b, (uint32_t)length);
    put(b, s, length);
}

static void put_bytes(motet_wire_buffer *b, const uint8_t *data, uint64_t size) {
    if (size > MOTET_WIRE_MAX_FRAME) {
        b->failed = 1;
        return;
    }
    motet_wire_put_u64(b, size);
    put(b, data, (size_t)size);
}

void motet_wire_connection_init(motet_wire_connection *c, int fd) {
    c->fd = fd;
    pthread_mutex_init(&c->write_lock, NULL);
}

static int write_all(int fd, const uint8_t *bytes, size_t length) {
    while (length > 0) {
        ssize_t n = write(fd, bytes, length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return MOTET_WIRE_IO_ERROR;
        bytes += n;
        length -= (size_t)n;
    }
    return MOTET_WIRE_OK;
}

int motet_wire_send(motet_wire_connection *c, motet_wire_buffer *b) {
    if (b->failed || b->length < HEADER_SIZE) return MOTET_WIRE_IO_ERROR;
    uint32_t payload = (uint32_t)(b->length - HEADER_SIZE);
    memcpy(b->bytes, &payload, sizeof payload);
    pthread_mutex_lock(&c->write_lock);
    int result = write_all(c->fd, b->bytes, b->length);
    pthread_mutex_unlock(&c->write_lock);
    return result;
}

/* ---- Reading ---- */

/* MOTET_WIRE_OK, or MOTET_WIRE_CLOSED when the end of file came before the first byte. */
static int read_all(int fd, uint8_t *bytes, size_t length, int at_frame_start) {
    size_t done = 0;
    while (done < length) {
        ssize_t n = read(fd, bytes + done, length - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return MOTET_WIRE_IO_ERROR;
        if (n == 0) return (done == 0 && at_frame_start) ? MOTET_WIRE_CLOSED : MOTET_WIRE_MALFORMED;
        done += (size_t)n;
    }
    return MOTET_WIRE_OK;
}

int motet_wire_read_frame(int fd, uint32_t *kind, uint8_t **payload, uint32_t *length) {
    uint32_t header[2];
    *payload = NULL;
    *length = 0;
    int result = read_all(fd, (uint8_t *)header, sizeof header, 1);
    if (result != MOTET_WIRE_OK) return result;
    if (header[0] > MOTET_WIRE_MAX_FRAME) return MOTET_WIRE_MALFORMED;
    uint8_t *bytes = malloc(header[0] ? header[0] : 1);
    if (!bytes) return MOTET_WIRE_IO_ERROR;
    result = read_all(fd, bytes, header[0], 0);
    if (result != MOTET_WIRE_OK) {
        free(bytes);
        return result == MOTET_WIRE_CLOSED ? MOTET_WIRE_MALFORMED : result;
    }
    *kind = header[1];
    *payload = bytes;
    *length = header[0];
    return MOTET_WIRE_OK;
}

void motet_wire_reader_init(motet_wire_reader *r, const uint8_t *bytes, size_t length) {
    r->bytes = bytes;
    r->length = length;
    r->offset = 0;
    r->failed = 0;
}

static const uint8_t *take(motet_wire_reader *r, size_t size) {
    if (r->failed || size > r->length - r->offset) {
        r->failed = 1;
        return NULL;
    }
    const uint8_t *p = r->bytes + r->offset;
    r->offset += size;
    return p;
}

uint32_t motet_wire_get_u32(motet_wire_reader *r) {
    uint32_t v = 0;
    const uint8_t *p = take(r, sizeof v);
    if (p) memcpy(&v, p, sizeof v);
    return v;
}

uint64_t motet_wire_get_u64(motet_wire_reader *r) {
    uint64_t v = 0;
    const uint8_t *p = take(r, sizeof v);
    if (p) memcpy(&v, p, sizeof v);
    return v;
}

static int64_t get_i64(motet_wire_reader *r) { return (int64_t)motet_wire_get_u64(r); }

static double get_double(motet_wire_reader *r) {
    double v = 0;
    const uint8_t *p = take(r, sizeof v);
    if (p) memcpy(&v, p, sizeof v);
    return v;
}

const char *motet_wire_get_string(motet_wire_reader *r) {
    uint32_t length = motet_wire_get_u32(r);
    if (r->failed || length == 0) return NULL;
    const uint8_t *p = take(r, length);
    if (!p) return NULL;
    /* Exactly one NUL, at the end. */
    if (p[length - 1] != 0 || memchr(p, 0, length - 1) != NULL) {
        r->failed = 1;
        return NULL;
    }
    return (const char *)p;
}

static const uint8_t *get_bytes(motet_wire_reader *r, uint64_t *size) {
    *size = motet_wire_get_u64(r);
    if (r->failed) return NULL;
    if (*size > r->length - r->offset) {
        r->failed = 1;
        return NULL;
    }
    return take(r, (size_t)*size);
}

int motet_wire_reader_finish(const motet_wire_reader *r) {
    return (!r->failed && r->offset == r->length) ? MOTET_WIRE_OK : MOTET_WIRE_MALFORMED;
}

/* ---- Events ---- */

/* Reads a field of an event struct only when the struct's struct_size covers it. */
#define COVERS(e, field) ((e)->struct_size >= offsetof(__typeof__(*(e)), field) + sizeof((e)->field))

static void put_artists(motet_wire_buffer *b, const char *const *artists, uint32_t count) {
    if (!artists) count = 0;
    if (count > MOTET_WIRE_MAX_ARTISTS) count = MOTET_WIRE_MAX_ARTISTS;
    motet_wire_put_u32(b, count);
    for (uint32_t i = 0; i < count; i++) motet_wire_put_string(b, artists[i]);
}

static uint32_t get_artists(motet_wire_reader *r, const char **into) {
    uint32_t count = motet_wire_get_u32(r);
    if (count > MOTET_WIRE_MAX_ARTISTS) {
        r->failed = 1;
        return 0;
    }
    for (uint32_t i = 0; i < count && !r->failed; i++) into[i] = motet_wire_get_string(r);
    return r->failed ? 0 : count;
}

static void put_track(motet_wire_buffer *b, const motet_track *t) {
    motet_wire_put_u32(b, t ? 1 : 0);
    if (!t) return;
    motet_wire_put_u32(b, t->present);
    motet_wire_put_u64(b, t->track_id);
    motet_wire_put_string(b, t->title);
    motet_wire_put_string(b, t->artist);
    put_artists(b, t->artists, t->artist_count);
    motet_wire_put_string(b, t->album);
    put_i64(b, t->duration_us);
    motet_wire_put_string(b, t->file_path);
    motet_wire_put_string(b, t->url);
    motet_wire_put_string(b, t->station);
    motet_wire_put_string(b, t->artwork_id);
    motet_wire_put_string(b, t->station_description);
    motet_wire_put_string(b, t->station_genre);
    motet_wire_put_string(b, t->station_url);
}

static const motet_track *get_track(motet_wire_reader *r, motet_wire_event *out) {
    if (motet_wire_get_u32(r) != 1) {
        r->failed = 1; /* every event that carries a track carries one */
        return NULL;
    }
    motet_track *t = &out->track;
    memset(t, 0, sizeof *t);
    t->struct_size = sizeof *t;
    t->present = motet_wire_get_u32(r);
    t->track_id = motet_wire_get_u64(r);
    t->title = motet_wire_get_string(r);
    t->artist = motet_wire_get_string(r);
    t->artist_count = get_artists(r, out->track_artists);
    t->artists = t->artist_count ? out->track_artists : NULL;
    t->album = motet_wire_get_string(r);
    t->duration_us = get_i64(r);
    t->file_path = motet_wire_get_string(r);
    t->url = motet_wire_get_string(r);
    t->station = motet_wire_get_string(r);
    t->artwork_id = motet_wire_get_string(r);
    t->station_description = motet_wire_get_string(r);
    t->station_genre = motet_wire_get_string(r);
    t->station_url = motet_wire_get_string(r);
    return t;
}

void motet_wire_encode_event(motet_wire_buffer *b, const motet_event *event) {
    motet_wire_put_u32(b, event->type);
    switch (event->type) {
    case MOTET_EVENT_NOW_PLAYING: {
        const motet_now_playing *e = (const motet_now_playing *)event;
        motet_wire_put_u32(b, e->present);
        motet_wire_put_u32(b, e->flags);
        motet_wire_put_string(b, e->title);
        motet_wire_put_string(b, e->artist);
        motet_wire_put_string(b, e->album);
        put_artists(b, e->artists, e->artist_count);
        put_i64(b, e->duration_us);
        put_i64(b, e->elapsed_us);
        put_i64(b, e->elapsed_at_us);
        put_double(b, e->rate);
        put_bytes(b, (e->present & MOTET_NP_HAS_ARTWORK) ? e->artwork_data : NULL,
                  (e->present & MOTET_NP_HAS_ARTWORK) && e->artwork_data ? e->artwork_size : 0);
        motet_wire_put_string(b, e->artwork_mime);
        motet_wire_put_string(b, e->artwork_id);
        motet_wire_put_string(b, e->artwork_path);
        motet_wire_put_string(b, e->file_path);
        motet_wire_put_u64(b, e->track_id);
        motet_wire_put_string(b, COVERS(e, url) ? e->url : NULL);
        motet_wire_put_string(b, COVERS(e, station) ? e->station : NULL);
        motet_wire_put_string(b, COVERS(e, station_description) ? e->station_description : NULL);
        motet_wire_put_string(b, COVERS(e, station_genre) ? e->station_genre : NULL);
        motet_wire_put_string(b, COVERS(e, station_url) ? e->station_url : NULL);
        motet_wire_put_string(b, COVERS(e, next_disabled_reason) ? e->next_disabled_reason : NULL);
        break;
    }
    case MOTET_EVENT_PLAYBACK_STATE: {
        const motet_playback_state *e = (const motet_playback_state *)event;
        motet_wire_put_u32(b, e->state);
        motet_wire_put_u32(b, e->volume_percent);
        motet_wire_put_u32(b, e->shuffle);
        motet_wire_put_u32(b, e->loop);
        motet_wire_put_u32(b, e->can_seek);
        motet_wire_put_u32(b, e->remote_commands);
        motet_wire_put_u32(b, COVERS(e, stalled_reason) ? e->stalled_reason : MOTET_STALLED_NONE);
        break;
    }
    case MOTET_EVENT_TRACK_FINISHED: {
        const motet_track_finished *e = (const motet_track_finished *)event;
        motet_wire_put_u32(b, e->successfully);
        motet_wire_put_u32(b, e->reason);
        motet_wire_put_u64(b, e->track_id);
        motet_wire_put_string(b, e->file_path);
        motet_wire_put_string(b, e->title);
        put_track(b, COVERS(e, track) ? e->track : NULL);
        put_i64(b, COVERS(e, heard_us) ? e->heard_us : 0);
        put_i64(b, COVERS(e, position_us) ? e->position_us : 0);
        put_i64(b, COVERS(e, first_heard_unix_us) ? e->first_heard_unix_us : -1);
        break;
    }
    case MOTET_EVENT_DECODE_ERROR: {
        const motet_decode_error *e = (const motet_decode_error *)event;
        motet_wire_put_u32(b, (uint32_t)e->code);
        motet_wire_put_string(b, e->message);
        motet_wire_put_string(b, e->file_path);
        put_i64(b, e->position_us);
        motet_wire_put_u64(b, e->track_id);
        break;
    }
    case MOTET_EVENT_INTERRUPTION_BEGAN:
    case MOTET_EVENT_INTERRUPTION_ENDED:
        motet_wire_put_u32(b, ((const motet_interruption *)event)->reason);
        break;
    case MOTET_EVENT_TRACK_STARTED: {
        const motet_track_started *e = (const motet_track_started *)event;
        motet_wire_put_u32(b, e->reason);
        put_track(b, e->track);
        put_i64(b, e->started_at_unix_us);
        break;
    }
    case MOTET_EVENT_TRACKS_LOST:
        motet_wire_put_u32(b, ((const motet_tracks_lost *)event)->count);
        break;
    case MOTET_EVENT_SEEKED: {
        const motet_seeked *e = (const motet_seeked *)event;
        motet_wire_put_u64(b, e->track_id);
        put_i64(b, e->position_us);
        break;
    }
    default: /* MOTET_EVENT_SHUTDOWN, and types this side does not know: the type alone */
        break;
    }
}

int motet_wire_decode_event(motet_wire_reader *r, motet_wire_event *out) {
    memset(&out->event, 0, sizeof out->event);
    uint32_t type = motet_wire_get_u32(r);
    out->event.base.type = type;
    switch (type) {
    case MOTET_EVENT_NOW_PLAYING: {
        motet_now_playing *e = &out->event.now_playing;
        e->struct_size = sizeof *e;
        e->present = motet_wire_get_u32(r);
        e->flags = motet_wire_get_u32(r);
        e->title = motet_wire_get_string(r);
        e->artist = motet_wire_get_string(r);
        e->album = motet_wire_get_string(r);
        e->artist_count = get_artists(r, out->artists);
        e->artists = e->artist_count ? out->artists : NULL;
        e->duration_us = get_i64(r);
        e->elapsed_us = get_i64(r);
        e->elapsed_at_us = get_i64(r);
        e->rate = get_double(r);
        e->artwork_data = get_bytes(r, &e->artwork_size);
        if (e->artwork_size == 0) e->artwork_data = NULL;
        e->artwork_mime = motet_wire_get_string(r);
        e->artwork_id = motet_wire_get_string(r);
        e->artwork_path = motet_wire_get_string(r);
        e->file_path = motet_wire_get_string(r);
        e->track_id = motet_wire_get_u64(r);
        e->url = motet_wire_get_string(r);
        e->station = motet_wire_get_string(r);
        e->station_description = motet_wire_get_string(r);
        e->station_genre = motet_wire_get_string(r);
        e->station_url = motet_wire_get_string(r);
        e->next_disabled_reason = motet_wire_get_string(r);
        /* The header's promises: artwork bytes only with HAS_ARTWORK, nothing without HAS_TRACK. */
        if ((e->present & MOTET_NP_HAS_ARTWORK) && !e->artwork_data) r->failed = 1;
        if (!(e->present & MOTET_NP_HAS_ARTWORK) && e->artwork_data) r->failed = 1;
        break;
    }
    case MOTET_EVENT_PLAYBACK_STATE: {
        motet_playback_state *e = &out->event.playback_state;
        e->struct_size = sizeof *e;
        e->state = motet_wire_get_u32(r);
        e->volume_percent = motet_wire_get_u32(r);
        e->shuffle = motet_wire_get_u32(r);
        e->loop = motet_wire_get_u32(r);
        e->can_seek = motet_wire_get_u32(r);
        e->remote_commands = motet_wire_get_u32(r);
        e->stalled_reason = motet_wire_get_u32(r);
        break;
    }
    case MOTET_EVENT_TRACK_FINISHED: {
        motet_track_finished *e = &out->event.track_finished;
        e->struct_size = sizeof *e;
        e->successfully = motet_wire_get_u32(r);
        e->reason = motet_wire_get_u32(r);
        e->track_id = motet_wire_get_u64(r);
        e->file_path = motet_wire_get_string(r);
        e->title = motet_wire_get_string(r);
        e->track = get_track(r, out);
        e->heard_us = get_i64(r);
        e->position_us = get_i64(r);
        e->first_heard_unix_us = get_i64(r);
        break;
    }
    case MOTET_EVENT_DECODE_ERROR: {
        motet_decode_error *e = &out->event.decode_error;
        e->struct_size = sizeof *e;
        e->code = (int32_t)motet_wire_get_u32(r);
        e->message = motet_wire_get_string(r);
        e->file_path = motet_wire_get_string(r);
        e->position_us = get_i64(r);
        e->track_id = motet_wire_get_u64(r);
        if (!e->message) r->failed = 1; /* never NULL, says the header */
        break;
    }
    case MOTET_EVENT_INTERRUPTION_BEGAN:
    case MOTET_EVENT_INTERRUPTION_ENDED:
        out->event.interruption.struct_size = sizeof out->event.interruption;
        out->event.interruption.reason = motet_wire_get_u32(r);
        break;
    case MOTET_EVENT_TRACK_STARTED: {
        motet_track_started *e = &out->event.track_started;
        e->struct_size = sizeof *e;
        e->reason = motet_wire_get_u32(r);
        e->track = get_track(r, out);
        e->started_at_unix_us = get_i64(r);
        break;
    }
    case MOTET_EVENT_TRACKS_LOST:
        out->event.tracks_lost.struct_size = sizeof out->event.tracks_lost;
        out->event.tracks_lost.count = motet_wire_get_u32(r);
        break;
    case MOTET_EVENT_SEEKED:
        out->event.seeked.struct_size = sizeof out->event.seeked;
        out->event.seeked.track_id = motet_wire_get_u64(r);
        out->event.seeked.position_us = get_i64(r);
        break;
    case MOTET_EVENT_SHUTDOWN:
        out->event.base.struct_size = sizeof out->event.base;
        break;
    default:
        r->failed = 1; /* the player sends only the types it knows */
        break;
    }
    out->event.base.type = type;
    return motet_wire_reader_finish(r);
}

/* ---- Descriptors ---- */

void motet_wire_encode_descriptor(motet_wire_buffer *b, const motet_plugin_descriptor *d) {
    uint32_t size = d->struct_size;
    motet_wire_put_u32(b, size);
    motet_wire_put_u32(b, d->abi_major);
    motet_wire_put_u32(b, d->abi_minor);
    motet_wire_put_u32(b, d->min_host_minor);
    if (size < MOTET_DESCRIPTOR_SIZE_1_0 || d->abi_major != MOTET_ABI_MAJOR) return; /* the player refuses it */
    motet_wire_put_string(b, d->id);
    motet_wire_put_string(b, d->name);
    motet_wire_put_string(b, d->version);
    motet_wire_put_string(b, d->description);
    motet_wire_put_u32(b, (d->create ? 1u : 0u) | (d->on_event ? 2u : 0u) | (d->destroy ? 4u : 0u));
    motet_wire_put_string(b, size >= MOTET_DESCRIPTOR_SIZE_1_0 + sizeof(void *) ? d->swift_toolchain : NULL);
    uint32_t count = size >= MOTET_DESCRIPTOR_SIZE_1_1 && d->options ? d->option_count : 0;
    if (count > MOTET_WIRE_MAX_OPTIONS) count = MOTET_WIRE_MAX_OPTIONS + 1; /* the reader refuses it */
    motet_wire_put_u32(b, count);
    for (uint32_t i = 0; i < count && i < MOTET_WIRE_MAX_OPTIONS; i++) {
        const motet_option_description *o = &d->options[i];
        motet_wire_put_u32(b, o->struct_size);
        int whole = o->struct_size >= MOTET_OPTION_DESCRIPTION_SIZE_1_1; /* else the player skips it */
        motet_wire_put_u32(b, whole ? o->kind : 0);
        motet_wire_put_string(b, whole ? o->name : NULL);
        motet_wire_put_string(b, whole ? o->default_value : NULL);
        motet_wire_put_string(b, whole ? o->help : NULL);
    }
}

static int32_t never_create(const motet_host *h, const motet_option *o, uint32_t n, void **out) {
    (void)h, (void)o, (void)n, (void)out;
    return MOTET_ERROR;
}
static void never_on_event(void *i, const motet_event *e) { (void)i, (void)e; }
static void never_destroy(void *i) { (void)i; }

/* A copy of a payload string that lives for the process. */
static const char *kept(const char *s) { return s ? strdup(s) : NULL; }

/* Every descriptor rebuilt, reachable for the life of the process (as a plugin's own static
 * descriptor is), so that a leak checker does not take them for lost. */
typedef struct kept_descriptor {
    motet_plugin_descriptor descriptor;
    struct kept_descriptor *next;
} kept_descriptor;
static kept_descriptor *kept_descriptors;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

const motet_plugin_descriptor *motet_wire_decode_descriptor(const uint8_t *payload, size_t length) {
    motet_wire_reader r;
    motet_wire_reader_init(&r, payload, length);
    kept_descriptor *entry = calloc(1, sizeof *entry);
    if (!entry) return NULL;
    pthread_mutex_lock(&kept_lock);
    entry->next = kept_descriptors;
    kept_descriptors = entry;
    pthread_mutex_unlock(&kept_lock);
    motet_plugin_descriptor *d = &entry->descriptor;
    uint32_t size = motet_wire_get_u32(&r);
    d->abi_major = motet_wire_get_u32(&r);
    d->abi_minor = motet_wire_get_u32(&r);
    d->min_host_minor = motet_wire_get_u32(&r);
    /* The player reads no further than the plugin's own struct_size allows, as it would in process. */
    d->struct_size = size > sizeof *d ? (uint32_t)sizeof *d : size;
    if (!r.failed && size >= MOTET_DESCRIPTOR_SIZE_1_0 && d->abi_major == MOTET_ABI_MAJOR) {
        d->id = kept(motet_wire_get_string(&r));
        d->name = kept(motet_wire_get_string(&r));
        d->version = kept(motet_wire_get_string(&r));
        d->description = kept(motet_wire_get_string(&r));
        uint32_t functions = motet_wire_get_u32(&r);
        d->create = (functions & 1u) ? never_create : NULL;
        d->on_event = (functions & 2u) ? never_on_event : NULL;
        d->destroy = (functions & 4u) ? never_destroy : NULL;
        d->swift_toolchain = kept(motet_wire_get_string(&r));
        uint32_t count = motet_wire_get_u32(&r);
        if (count > MOTET_WIRE_MAX_OPTIONS) r.failed = 1;
        if (!r.failed && count > 0) {
            motet_option_description *options = calloc(count, sizeof *options);
            if (!options) r.failed = 1;
            for (uint32_t i = 0; i < count && !r.failed; i++) {
                options[i].struct_size = motet_wire_get_u32(&r);
                options[i].kind = motet_wire_get_u32(&r);
                options[i].name = kept(motet_wire_get_string(&r));
                options[i].default_value = kept(motet_wire_get_string(&r));
                options[i].help = kept(motet_wire_get_string(&r));
            }
            d->options = options;
            d->option_count = count;
        }
    }
    if (motet_wire_reader_finish(&r) != MOTET_WIRE_OK) return NULL; /* kept all the same: once per bad plugin */
    return d;
}
