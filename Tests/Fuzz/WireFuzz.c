/* libFuzzer target: the framing between motet and a plugin host process (plugin_wire.h), which
 * both ends read as hostile input. The first byte chooses what the rest is: 0 an event frame's
 * payload, 1 a descriptor's, 2 a stream of whole frames read from a pipe. Every field that a
 * reader accepts must lie inside the payload (AddressSanitizer checks), and every count within its
 * bound. */
#include "plugin_wire.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void check_string(const char *s, const uint8_t *payload, size_t length) {
    if (!s) return;
    assert((const uint8_t *)s >= payload && (const uint8_t *)s + strlen(s) < payload + length);
}

static void decode_event(const uint8_t *payload, size_t length) {
    static motet_wire_event out;
    motet_wire_reader r;
    motet_wire_reader_init(&r, payload, length);
    (void)motet_wire_get_u64(&r);
    if (motet_wire_decode_event(&r, &out) != MOTET_WIRE_OK) return;
    if (out.event.base.type == MOTET_EVENT_NOW_PLAYING) {
        const motet_now_playing *e = &out.event.now_playing;
        check_string(e->title, payload, length);
        check_string(e->artwork_mime, payload, length);
        assert(e->artist_count <= MOTET_WIRE_MAX_ARTISTS);
        for (uint32_t i = 0; i < e->artist_count; i++) check_string(e->artists[i], payload, length);
        if (e->artwork_data) assert(e->artwork_data + e->artwork_size <= payload + length);
    }
    if (out.event.base.type == MOTET_EVENT_TRACK_STARTED || out.event.base.type == MOTET_EVENT_TRACK_FINISHED) {
        assert(out.track.artist_count <= MOTET_WIRE_MAX_ARTISTS);
        check_string(out.track.title, payload, length);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const uint8_t *rest = data + 1;
    size_t length = size - 1;
    switch (data[0] % 3) {
    case 0:
        decode_event(rest, length);
        break;
    case 1: {
        const motet_plugin_descriptor *d = motet_wire_decode_descriptor(rest, length);
        if (d && d->option_count) assert(d->options && d->option_count <= MOTET_WIRE_MAX_OPTIONS);
        break; /* a descriptor is kept for the process's life, by design: not freed here either */
    }
    case 2: {
        int fds[2];
        if (length > 60000 || pipe(fds) != 0) return 0;
        if (write(fds[1], rest, length) != (ssize_t)length) abort();
        close(fds[1]);
        uint32_t kind, frame_length;
        uint8_t *payload;
        while (motet_wire_read_frame(fds[0], &kind, &payload, &frame_length) == MOTET_WIRE_OK) {
            assert(frame_length <= MOTET_WIRE_MAX_FRAME);
            if (kind == MOTET_WIRE_EVENT) decode_event(payload, frame_length);
            free(payload);
        }
        close(fds[0]);
        break;
    }
    }
    return 0;
}
