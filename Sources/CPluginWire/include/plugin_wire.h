/*
 * plugin_wire.h — the framing between motet and a plugin host process (motet-plugin-host).
 *
 * An isolated plugin runs in a process of its own (docs/ISOLATION.md). The player and that
 * process talk over one socketpair in frames:
 *
 *     uint32 length | uint32 kind | `length` bytes of payload        (host byte order: both ends
 *                                                                      run on the same machine)
 *
 * A payload is a sequence of fields: integers of 4 or 8 bytes, doubles, strings (uint32 length
 * counting the terminating NUL, then the bytes; length 0 is NULL) and byte buffers (uint64 length
 * then the bytes). Every reader treats what it reads as hostile: a frame longer than
 * MOTET_WIRE_MAX_FRAME, a field that runs past the payload, a string without its NUL or with one
 * inside, a count past its bound or bytes left over is an error, never a crash.
 *
 * The version is in the host process's first argument (MOTET_WIRE_VERSION_ARGUMENT); a host
 * process of another version refuses to start.
 */
#ifndef MOTET_PLUGIN_WIRE_H
#define MOTET_PLUGIN_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <motet/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MOTET_WIRE_VERSION_ARGUMENT "--motet-wire=2" /* 2: ABI 1.3's next_disabled_reason */
/** Largest payload either side accepts (artwork is the largest thing that crosses). */
#define MOTET_WIRE_MAX_FRAME (32u * 1024u * 1024u)
/** Most artists a track carries across, and most options a descriptor or a create carries. */
#define MOTET_WIRE_MAX_ARTISTS 256u
#define MOTET_WIRE_MAX_OPTIONS 256u

/* Frame kinds, player -> host process. */
#define MOTET_WIRE_CREATE 1u   /* u32 count, then count x (string key, string value) */
#define MOTET_WIRE_EVENT 2u    /* u64 sequence, then the event (motet_wire_encode_event) */
#define MOTET_WIRE_STOP 3u     /* nothing: deliver MOTET_EVENT_SHUTDOWN, destroy, DONE, exit */
#define MOTET_WIRE_ANSWER 4u   /* u64 request, i32 answer of send_command */
/* Frame kinds, host process -> player. */
#define MOTET_WIRE_DESCRIPTOR 10u  /* the plugin's descriptor (motet_wire_encode_descriptor) */
#define MOTET_WIRE_LOAD_FAILED 11u /* u32 MOTET_WIRE_FAILED_*, string detail */
#define MOTET_WIRE_CREATED 12u     /* i32 status of create */
#define MOTET_WIRE_TAKEN 13u       /* u64 sequence: on_event returned for that event */
#define MOTET_WIRE_COMMAND 14u     /* u64 request, u32 command, u64 track, i64 argument, string */
#define MOTET_WIRE_LOG 15u         /* u32 level, string message */
#define MOTET_WIRE_DONE 16u        /* destroy returned */
#define MOTET_WIRE_SANDBOX 17u     /* i32 Landlock ABI applied (0: writes not confined, -1: no sandbox at all), string problem */

/* Why the host process could not load the plugin (MOTET_WIRE_LOAD_FAILED). */
#define MOTET_WIRE_FAILED_NOT_SHARED_OBJECT 1u
#define MOTET_WIRE_FAILED_UNRESOLVED_SYMBOL 2u
#define MOTET_WIRE_FAILED_LOADER 3u
#define MOTET_WIRE_FAILED_NO_ENTRY 4u
#define MOTET_WIRE_FAILED_DECLINED 5u

/* Results of the readers. */
#define MOTET_WIRE_OK 0
#define MOTET_WIRE_CLOSED 1     /* end of file before a frame began */
#define MOTET_WIRE_IO_ERROR 2   /* read or write failed (errno kept) */
#define MOTET_WIRE_MALFORMED 3  /* a frame or a field that breaks the rules above */

/** A growing buffer for one outgoing frame. */
typedef struct motet_wire_buffer {
    uint8_t *bytes;
    size_t length;
    size_t capacity;
    int failed; /* allocation failed: the frame is not sent */
} motet_wire_buffer;

void motet_wire_buffer_init(motet_wire_buffer *b, uint32_t kind);
void motet_wire_buffer_free(motet_wire_buffer *b);
void motet_wire_put_u32(motet_wire_buffer *b, uint32_t v);
void motet_wire_put_u64(motet_wire_buffer *b, uint64_t v);
void motet_wire_put_string(motet_wire_buffer *b, const char *s);

/** One end of the socket: writes from several threads are whole frames, one at a time. */
typedef struct motet_wire_connection {
    int fd;
    pthread_mutex_t write_lock;
} motet_wire_connection;

void motet_wire_connection_init(motet_wire_connection *c, int fd);
/** Fills in the frame's length and writes it whole; MOTET_WIRE_OK or MOTET_WIRE_IO_ERROR. */
int motet_wire_send(motet_wire_connection *c, motet_wire_buffer *b);

/**
 * Reads one whole frame (blocking). On MOTET_WIRE_OK `*payload` is malloc'd (free it) with
 * `*length` bytes, and `*kind` is set.
 */
int motet_wire_read_frame(int fd, uint32_t *kind, uint8_t **payload, uint32_t *length);

/** A cursor over one payload. Any read past the end or malformed field sets `failed`. */
typedef struct motet_wire_reader {
    const uint8_t *bytes;
    size_t length;
    size_t offset;
    int failed;
} motet_wire_reader;

void motet_wire_reader_init(motet_wire_reader *r, const uint8_t *bytes, size_t length);
uint32_t motet_wire_get_u32(motet_wire_reader *r);
uint64_t motet_wire_get_u64(motet_wire_reader *r);
/** A pointer into the payload (NUL-terminated, no NUL inside), or NULL for a NULL string. */
const char *motet_wire_get_string(motet_wire_reader *r);
/** MOTET_WIRE_OK when nothing failed and every byte was read. */
int motet_wire_reader_finish(const motet_wire_reader *r);

/* ---- Events ---- */

/** Appends `event` (any type of motet/plugin.h; unknown types carry only their type). */
void motet_wire_encode_event(motet_wire_buffer *b, const motet_event *event);

/** An event rebuilt from a payload: the C structs a plugin receives, pointing into the payload. */
typedef struct motet_wire_event {
    union {
        motet_event base;
        motet_now_playing now_playing;
        motet_playback_state playback_state;
        motet_track_finished track_finished;
        motet_decode_error decode_error;
        motet_interruption interruption;
        motet_track_started track_started;
        motet_tracks_lost tracks_lost;
        motet_seeked seeked;
    } event;
    motet_track track;
    const char *artists[MOTET_WIRE_MAX_ARTISTS];
    const char *track_artists[MOTET_WIRE_MAX_ARTISTS];
} motet_wire_event;

/** Rebuilds the event `r` holds into `out`; MOTET_WIRE_OK or MOTET_WIRE_MALFORMED. */
int motet_wire_decode_event(motet_wire_reader *r, motet_wire_event *out);

/* ---- Descriptors ---- */

/** Appends what the host needs of a plugin's descriptor (read as the plugin's struct_size allows). */
void motet_wire_encode_descriptor(motet_wire_buffer *b, const motet_plugin_descriptor *d);

/**
 * Rebuilds a descriptor the player can check exactly as it checks one it loaded itself: the same
 * struct_size, versions, strings and options; its functions are placeholders that are never
 * called (the plugin's code runs in the host process). Allocated once and never freed, like a
 * plugin's own descriptor; NULL when the payload is malformed.
 */
const motet_plugin_descriptor *motet_wire_decode_descriptor(const uint8_t *payload, size_t length);

#ifdef __cplusplus
}
#endif

#endif
