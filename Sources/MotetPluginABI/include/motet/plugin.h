/*
 * motet/plugin.h — the Motet delegate plugin ABI.
 *
 * This header is the whole contract between the Motet player (the "host") and a delegate plugin.
 * Read it top to bottom: it is the plugin author's manual. PLUGINS.md has worked examples.
 *
 * A delegate is told what is playing (title, artist, album, duration, elapsed time, playback rate,
 * artwork, and the like / dislike / next-track states) and the player's lifecycle (track finished,
 * decode error, interruption began / ended). It may send remote commands back (play, pause, next,
 * like, dislike, ...).
 *
 * ---------------------------------------------------------------------------------------------
 * Versioning
 *   MOTET_ABI_MAJOR changes only when something in this header changes incompatibly; the host
 *   refuses a plugin whose major differs. Within a major, the header only grows: new event types,
 *   new commands, new fields appended at the end of a struct. Every struct that crosses the
 *   boundary starts with `struct_size`; a reader uses a field past a struct's frozen baseline
 *   (MOTET_*_SIZE_1_0 below) only when `struct_size` covers it. Unknown event types must be ignored.
 *   A plugin declares in its descriptor the oldest host minor it needs (`min_host_minor`); the
 *   host refuses a plugin that needs a newer minor than it has.
 *
 * Types
 *   Fixed-width integers, doubles, pointers and function pointers only. Values that look like
 *   enums are uint32_t with named constants; no bitfields, no varargs.
 *
 * Ownership
 *   Everything the host passes is borrowed for the duration of the call: copy what you keep.
 *   Strings are UTF-8 (invalid sequences already replaced by U+FFFD), NUL-terminated and never
 *   contain NUL. Byte buffers come with an explicit length. Nothing allocated on one side is freed
 *   on the other.
 *
 * Threading (each function below carries one of these tags)
 *   [plugin-thread]  called by the host on this plugin instance's own serial queue: never two
 *                    calls at once for one instance, never from the audio thread. Different
 *                    instances run on different threads.
 *   [thread-safe]    the plugin may call it from any thread, at any time between create and the
 *                    return of destroy. It only enqueues work and never calls back into the plugin
 *                    synchronously.
 *   A slow plugin delays only itself. What is queued for it, and what may be dropped, is said
 *   under "Events" below: track-level events are never dropped silently.
 *
 * Lifecycle
 *   motet_plugin_entry -> descriptor->create -> descriptor->on_event ... -> MOTET_EVENT_SHUTDOWN
 *   -> descriptor->destroy. destroy must join every thread the plugin started. Plugins are never
 *   unloaded (the host does not dlclose), but a plugin may be created several times (several
 *   instances with different options), and `motet --list-plugins` calls motet_plugin_entry without
 *   creating anything: keep the entry function free of side effects.
 *   create runs on the instance's own queue and never holds up playback: events that happen
 *   meanwhile wait in the instance's queue (bounded, see "Events") and are delivered once create
 *   returns MOTET_OK; if it fails they are dropped with the instance. At exit the host delivers
 *   what is still queued for each instance, then the shutdown event and destroy, all instances at
 *   once, for as long as the instance keeps taking events: it gives up on an instance that takes
 *   no event for MOTET_SHUTDOWN_STALL_MS, and on any after MOTET_SHUTDOWN_WAIT_MS in all, then
 *   names the plugins it gave up on with how many tracks' events they did not get, and exits
 *   anyway. Keep on_event fast (a scrobbler queues its network work on a thread of its own).
 *
 * Building and loading
 *   cc -shared -fPIC -fvisibility=hidden -Wl,-z,defs $(pkg-config --cflags motet-plugin) ...
 *   Export only motet_plugin_entry (-fvisibility=hidden plus a visibility("default") entry) and
 *   link with -Wl,-z,defs so that a missing symbol fails your build, not the user's player.
 *   The host loads with local symbol binding (RTLD_LOCAL): plugins never see each other's symbols.
 *   It refuses a file, or its directory, that group or others may write, or that a user other
 *   than root or the current user owns. PLUGINS.md describes the search path.
 * ---------------------------------------------------------------------------------------------
 */
#ifndef MOTET_PLUGIN_H
#define MOTET_PLUGIN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MOTET_ABI_MAJOR 1u
#define MOTET_ABI_MINOR 3u

/** How long, in milliseconds, the host waits at most at exit for all plugins to take what is
 *  still queued for them, the shutdown event and destroy (hosts before isolation: 5000). */
#define MOTET_SHUTDOWN_WAIT_MS 10000u
/** At exit, an instance that takes no event for this many milliseconds is given up on. */
#define MOTET_SHUTDOWN_STALL_MS 2000u

/* ---- Status codes (returned as int32_t) ---------------------------------------------------- */
#define MOTET_OK 0
#define MOTET_ERROR (-1)

/* ---- Log levels (uint32_t) ----------------------------------------------------------------- */
#define MOTET_LOG_DEBUG 0u
#define MOTET_LOG_INFO 1u
#define MOTET_LOG_WARNING 2u
#define MOTET_LOG_ERROR 3u

/* ---- Remote commands (uint32_t) a plugin may send -------------------------------------------- */
#define MOTET_COMMAND_PLAY 1u
#define MOTET_COMMAND_PAUSE 2u
#define MOTET_COMMAND_TOGGLE 3u
#define MOTET_COMMAND_NEXT 4u
#define MOTET_COMMAND_PREVIOUS 5u
#define MOTET_COMMAND_STOP 6u
#define MOTET_COMMAND_LIKE 7u
#define MOTET_COMMAND_DISLIKE 8u
#define MOTET_COMMAND_UNLIKE 9u
/** argument: offset in microseconds, may be negative. */
#define MOTET_COMMAND_SEEK_RELATIVE 10u
/** argument: position in microseconds from the start of the track. */
#define MOTET_COMMAND_SEEK_ABSOLUTE 11u
/** argument: volume in percent, 0 to 100. */
#define MOTET_COMMAND_SET_VOLUME 12u
/** Ask the player to stop and exit (MPRIS Quit). */
#define MOTET_COMMAND_QUIT 13u
/* Added in ABI 1.1 (an ABI 1.0 host answers MOTET_COMMAND_UNSUPPORTED): */
/** argument: MOTET_LOOP_NONE or MOTET_LOOP_PLAYLIST (MPRIS LoopStatus). */
#define MOTET_COMMAND_SET_LOOP 14u
/** argument: 1 to play the queue in a random order, 0 for the order given (MPRIS Shuffle). */
#define MOTET_COMMAND_SET_SHUFFLE 15u
/** The string argument (send_track_command only) is a file path or a file:// URI: appended to
 *  the queue and played at once (MPRIS OpenUri). */
#define MOTET_COMMAND_OPEN_URI 16u

/* ---- Answers of send_command (int32_t) ---------------------------------------------------- */
/** Queued; the player will act on it. The outcome shows up in later events. */
#define MOTET_COMMAND_ACCEPTED 0
/** Known but not allowed now: remote commands are off (`remote-commands = no`), no skip is left,
 *  there is no next track, ... The host logs why. */
#define MOTET_COMMAND_REFUSED 1
/** This host does not know the command (a newer plugin on an older host). */
#define MOTET_COMMAND_UNSUPPORTED 2
/** ABI 1.1: the instance's command queue is full (a flood); nothing was queued: try again later.
 *  The queue holds MOTET_COMMAND_QUEUE_SIZE commands, the last two places kept for QUIT and
 *  STOP, which therefore always get through. Plugins built against ABI 1.0 get
 *  MOTET_COMMAND_REFUSED instead. */
#define MOTET_COMMAND_BUSY 3
#define MOTET_COMMAND_QUEUE_SIZE 64u

/* ---- The host table ------------------------------------------------------------------------- */

/**
 * What the host gives each plugin instance (one table per instance). Valid from create until
 * destroy returns; the plugin keeps the pointer, never copies the struct, and never writes to it.
 * Its strings live as long as the table.
 */
typedef struct motet_host {
    uint32_t struct_size;      /**< sizeof(motet_host) as the host was built. */
    uint32_t abi_major;        /**< MOTET_ABI_MAJOR of the host. */
    uint32_t abi_minor;        /**< MOTET_ABI_MINOR of the host. */
    uint32_t reserved;         /**< zero. */
    const char *host_name;     /**< "motet". */
    const char *host_version;  /**< e.g. "0.1.0". */
    /** The instance name the user gave (the plugin name, or NAME from `[plugin NAME]`). */
    const char *instance_name;
    /** Directory where the host caches artwork files (see motet_now_playing.artwork_path). */
    const char *artwork_cache_dir;
    /** Host-private; do not touch. */
    void *host_data;

    /**
     * Ask the player to do something. [thread-safe]
     * Enqueues the command and returns at once with MOTET_COMMAND_ACCEPTED, _REFUSED,
     * _UNSUPPORTED or (to a plugin built against ABI 1.1) _BUSY when the instance's queue is full.
     * `argument` is 0 unless the command's documentation says otherwise.
     * Commands sent from one thread reach the player in the order they were sent. The host never
     * calls the plugin from inside send_command, so it may be called from on_event, from create,
     * or from the plugin's own threads. With `remote-commands = no` every command is answered
     * MOTET_COMMAND_REFUSED and dropped. Each instance has its own bounded queue (see
     * MOTET_COMMAND_BUSY): one plugin's flood delays neither another plugin's commands nor a key.
     */
    int32_t (*send_command)(const struct motet_host *host, uint32_t command, int64_t argument);

    /**
     * Write one line to the host's log, prefixed with the instance name. [thread-safe]
     * `message` is borrowed for the call; control characters are escaped by the host and
     * messages longer than 2000 bytes are cut. The host may hide MOTET_LOG_DEBUG lines (Motet
     * does by default).
     */
    void (*log)(const struct motet_host *host, uint32_t level, const char *message);

    /* ---- ABI 1.1 (present when struct_size >= MOTET_HOST_SIZE_1_1) ---- */

    /**
     * Like send_command, for a given track. [thread-safe]
     * `track_id` names the track the command is meant for (a track_id from a track or now-playing
     * event; 0 means "whatever is current when the player acts on it"). A command for a track that
     * is no longer current is answered MOTET_COMMAND_REFUSED (stale) and dropped, as is one for an
     * id that never named a track (no such track); if the track changes while the command waits
     * in the queue, the player drops it then. Answers as send_command's. Once the player has
     * stopped (at exit, while plugins get their last events and MOTET_EVENT_SHUTDOWN), every
     * command is answered MOTET_COMMAND_REFUSED: nothing would act on it, so a plugin that wants
     * a late like kept must keep it itself. `string_argument`
     * is NULL except for commands documented to take one (MOTET_COMMAND_OPEN_URI); it is copied.
     * Liking a liked track (or disliking a disliked one, unliking a track with no rating) changes
     * nothing and sends no event.
     */
    int32_t (*send_track_command)(const struct motet_host *host, uint32_t command, uint64_t track_id,
                                  int64_t argument, const char *string_argument);

    /* ---- ABI 1.2 (present when struct_size >= MOTET_HOST_SIZE_1_2) ---- */

    /**
     * A directory of the instance's own, created by the host before create:
     * `$XDG_STATE_HOME/motet/plugins/INSTANCE` (default `~/.local/state/motet/plugins/INSTANCE`).
     * Keep what must survive a restart here (a scrobbler's unsent tracks). A sandboxed plugin may
     * write here, in `artwork_cache_dir`, and in the directories of its MOTET_OPTION_OUTPUT_PATH
     * options, and nowhere else (PLUGINS.md, "Isolation and the sandbox"). NULL only when the host
     * could not create it (it said why in its log).
     */
    const char *state_dir;
} motet_host;

/* ---- Events ------------------------------------------------------------------------------- */

#define MOTET_EVENT_NOW_PLAYING 1u
#define MOTET_EVENT_PLAYBACK_STATE 2u
#define MOTET_EVENT_TRACK_FINISHED 3u
#define MOTET_EVENT_DECODE_ERROR 4u
#define MOTET_EVENT_INTERRUPTION_BEGAN 5u
#define MOTET_EVENT_INTERRUPTION_ENDED 6u
/** The last event an instance receives before destroy. */
#define MOTET_EVENT_SHUTDOWN 7u
/* Added in ABI 1.1, sent only to plugins whose descriptor says abi_minor >= 1: */
#define MOTET_EVENT_TRACK_STARTED 8u
#define MOTET_EVENT_TRACKS_LOST 9u
#define MOTET_EVENT_SEEKED 10u

/*
 * What a plugin's queue keeps (the host never waits for a plugin):
 *   - Track-level events (track started, track finished) are never coalesced: every track the
 *     queue sees gets its start and its finish, in order, each carrying the whole track. A 1.0
 *     plugin gets at least the first now-playing of every track, and its track-finished.
 *   - Updates within a track coalesce: a waiting now-playing is replaced by a newer one of the
 *     same track (latest wins), a waiting playback state by a newer one.
 *   - At most MOTET_QUEUE_TRACKS tracks wait at once. Past that the host drops the oldest track's
 *     events, sends MOTET_EVENT_TRACKS_LOST with how many tracks were dropped before the next event,
 *     and says so once in the log. Other events (decode errors, interruptions) keep their order;
 *     past MOTET_QUEUE_TRACKS of them the oldest is dropped.
 */
#define MOTET_QUEUE_TRACKS 256u

/*
 * Crossfade (the host's --crossfade; no struct changes): while two tracks sound at once, a plugin
 * still sees one track at a time. In the middle of the fade the outgoing track's
 * MOTET_EVENT_TRACK_FINISHED comes (reason COMPLETED, or SKIPPED for a skip that crossfades), its
 * heard_us and position_us counting its whole fade (the second half plays under the next track),
 * then the incoming track's MOTET_EVENT_TRACK_STARTED and its now-playing, whose elapsed time is
 * already half the fade: the order above holds. Elapsed time is always what has been heard.
 */

/**
 * Every event starts with these two fields; switch on `type`, ignore types you do not know.
 * Before reading a field past the event's ABI 1.0 baseline (MOTET_*_SIZE_1_0), check that
 * `struct_size` covers it: an older host sends the smaller struct.
 */
typedef struct motet_event {
    uint32_t struct_size; /**< size of the whole event struct as the host filled it. */
    uint32_t type;        /**< MOTET_EVENT_*. */
} motet_event;

/* Bits of motet_now_playing.present: which optional values are valid. */
#define MOTET_NP_HAS_TRACK 0x1u    /**< Something is playing. Clear: "nothing playing", clear your display. */
#define MOTET_NP_HAS_DURATION 0x2u
#define MOTET_NP_HAS_ELAPSED 0x4u
#define MOTET_NP_HAS_ARTWORK 0x8u

/* Bits of motet_now_playing.flags: the feedback buttons. */
#define MOTET_NP_LIKE_ACTIVE 0x1u
#define MOTET_NP_DISLIKE_ACTIVE 0x2u
#define MOTET_NP_NEXT_ENABLED 0x4u
#define MOTET_NP_PREVIOUS_ENABLED 0x8u

/**
 * MOTET_EVENT_NOW_PLAYING: what is playing now, in full (not a diff). Sent when a track starts,
 * at each link of a chained file, when the feedback state changes, after a seek, and when the
 * rate changes (pause: 0.0, play: 1.0). When `present` lacks MOTET_NP_HAS_TRACK nothing is
 * playing: every pointer is NULL, `flags` is 0, and the delegate must clear what it shows. The
 * player sends "nothing playing" when the queue ends.
 * A change of state comes first, then the now-playing with the new rate: a plugin that writes
 * both out at each event may take the rate from the state (1.0 only in MOTET_STATE_PLAYING) until
 * the now-playing arrives, so that it never shows "playing" at rate 0.
 * Queued now-playing events of the same track coalesce: a plugin that is slow sees the first
 * one of every track at least, and then the latest (see "What a plugin's queue keeps").
 * Every pointer, including the artwork bytes, lives until on_event returns.
 */
typedef struct motet_now_playing {
    uint32_t struct_size;
    uint32_t type;                 /**< MOTET_EVENT_NOW_PLAYING */
    uint32_t present;              /**< MOTET_NP_HAS_* bits */
    uint32_t flags;                /**< MOTET_NP_*_ACTIVE / _ENABLED bits */
    const char *title;             /**< the TITLE tag, else the file's name without .ogg/.oga; NULL when neither. */
    const char *artist;            /**< All artists joined with ", "; NULL when none. */
    const char *album;             /**< NULL when none. */
    const char *const *artists;    /**< `artist_count` separate artist names. */
    uint32_t artist_count;
    uint32_t reserved0;
    int64_t duration_us;           /**< valid with MOTET_NP_HAS_DURATION. */
    int64_t elapsed_us;            /**< what has been heard, valid with MOTET_NP_HAS_ELAPSED. */
    int64_t elapsed_at_us;         /**< CLOCK_MONOTONIC time (us) when elapsed_us was sampled. */
    double rate;                   /**< 1.0 playing, 0.0 paused or stopped. */
    const uint8_t *artwork_data;   /**< valid with MOTET_NP_HAS_ARTWORK: the image bytes. */
    uint64_t artwork_size;
    const char *artwork_mime;      /**< e.g. "image/png". */
    const char *artwork_id;        /**< stable: same id means same bytes (a hash of them). */
    const char *artwork_path;      /**< a file holding the same bytes (for URIs), or NULL. */
    const char *file_path;         /**< the file being played, or NULL. */
    uint64_t track_id;             /**< changes whenever a (new or repeated) track starts. */
    /* ABI 1.1 (check struct_size >= MOTET_NOW_PLAYING_SIZE_1_1): */
    const char *url;               /**< the URL being played (a stream), or NULL for a local file. */
    const char *station;           /**< the station's name (a stream's icy-name), or NULL. */
    const char *station_description; /**< the station's icy-description, or NULL. */
    const char *station_genre;     /**< the station's icy-genre, or NULL. */
    const char *station_url;       /**< the station's home page (icy-url; not the stream), or NULL. */
    /* ABI 1.3 (check struct_size >= MOTET_NOW_PLAYING_SIZE_1_3): */
    /** Why MOTET_NP_NEXT_ENABLED is clear, as one human line to show beside a disabled next button
     *  ("no skip left (--skip-limit)", "there is no next track"); NULL while next is enabled and
     *  when nothing plays. The host's wording: show it as it is, do not match on it. */
    const char *next_disabled_reason;
} motet_now_playing;

/* Values of motet_playback_state.state. */
#define MOTET_STATE_STOPPED 0u
#define MOTET_STATE_LOADING 1u
#define MOTET_STATE_PLAYING 2u
#define MOTET_STATE_PAUSED 3u
#define MOTET_STATE_STALLED 4u     /**< output starved or device lost; will resume by itself. */
#define MOTET_STATE_COMPLETE 5u    /**< the queue has ended. */
#define MOTET_STATE_INTERRUPTED 6u /**< paused by the sound server (see interruption events). */

/* Values of motet_playback_state.loop. */
#define MOTET_LOOP_NONE 0u
#define MOTET_LOOP_PLAYLIST 1u

/** MOTET_EVENT_PLAYBACK_STATE: the transport state and the player-wide settings. */
typedef struct motet_playback_state {
    uint32_t struct_size;
    uint32_t type;                 /**< MOTET_EVENT_PLAYBACK_STATE */
    uint32_t state;                /**< MOTET_STATE_* */
    uint32_t volume_percent;       /**< 0 to 100. */
    uint32_t shuffle;              /**< 0 or 1. */
    uint32_t loop;                 /**< MOTET_LOOP_* */
    uint32_t can_seek;             /**< 0 or 1. */
    uint32_t remote_commands;      /**< 0 when `remote-commands = no`: commands will be refused. */
    /* ABI 1.1 (check struct_size >= MOTET_PLAYBACK_STATE_SIZE_1_1): */
    uint32_t stalled_reason;       /**< MOTET_STALLED_*: why, while state is MOTET_STATE_STALLED. */
    uint32_t reserved0;
} motet_playback_state;

/* Values of motet_playback_state.stalled_reason (ABI 1.1). */
#define MOTET_STALLED_NONE 0u        /**< not stalled. */
#define MOTET_STALLED_BUFFERING 1u   /**< waiting for data (the decoder, a slow disk, the network). */
#define MOTET_STALLED_DEVICE_LOST 2u /**< the sound server or device went away; resumes when back. */

/* Values of motet_track_finished.reason. */
#define MOTET_FINISH_COMPLETED 0u
#define MOTET_FINISH_SKIPPED 1u
#define MOTET_FINISH_STOPPED 2u
#define MOTET_FINISH_FAILED 3u

/* Bits of motet_track.present (ABI 1.1). */
#define MOTET_TRACK_HAS_DURATION 0x1u

/**
 * One track, as the ABI 1.1 track events describe it (ABI 1.1): everything a scrobbler submits,
 * without having to remember a now-playing. Each link of a chained file or stream is its own
 * track. Borrowed for the call, like the event that points to it.
 */
typedef struct motet_track {
    uint32_t struct_size;          /**< sizeof(motet_track) as the host was built. */
    uint32_t present;              /**< MOTET_TRACK_HAS_* bits */
    uint64_t track_id;             /**< >= 1; the track_id of its now-playing events. */
    const char *title;             /**< the TITLE tag, else the file's name without .ogg/.oga; NULL when neither. */
    const char *artist;            /**< All artists joined with ", "; NULL when none. */
    const char *const *artists;    /**< `artist_count` separate artist names. */
    uint32_t artist_count;
    uint32_t reserved0;
    const char *album;             /**< NULL when none. */
    int64_t duration_us;           /**< valid with MOTET_TRACK_HAS_DURATION. */
    const char *file_path;         /**< the file, or NULL for a stream. */
    const char *url;               /**< the URL, or NULL for a local file. */
    const char *station;           /**< the station's name (icy-name), or NULL. */
    const char *artwork_id;        /**< as in now-playing; NULL when the track has no artwork. */
    const char *station_description; /**< the station's icy-description, or NULL. */
    const char *station_genre;     /**< the station's icy-genre, or NULL. */
    const char *station_url;       /**< the station's home page (icy-url; not the stream), or NULL. */
} motet_track;

/* Values of motet_track_started.reason (ABI 1.1). */
#define MOTET_START_NATURAL 0u     /**< the previous track ended (or the first track of the run). */
#define MOTET_START_NEXT 1u        /**< next (or a dislike that skipped). */
#define MOTET_START_PREVIOUS 2u
#define MOTET_START_LOOP 3u        /**< the queue started again under --loop. */
/** Asked for explicitly: play after stop, a seek past the end, open URI; and the current track
 *  told again to a plugin instance the host restarted after its process failed (docs: PLUGINS.md,
 *  "Isolation and the sandbox"), with the track's original started_at_unix_us. */
#define MOTET_START_REQUEST 4u

/**
 * MOTET_EVENT_TRACK_STARTED (ABI 1.1): a track became current — also while paused (a next while
 * paused makes the new track current at once). Its now-playing events follow.
 */
typedef struct motet_track_started {
    uint32_t struct_size;
    uint32_t type;                 /**< MOTET_EVENT_TRACK_STARTED */
    uint32_t reason;               /**< MOTET_START_* */
    uint32_t reserved0;
    const motet_track *track;      /**< never NULL. */
    int64_t started_at_unix_us;    /**< wall-clock time (Unix, microseconds) it became current. */
} motet_track_started;

/** MOTET_EVENT_TRACK_FINISHED: audioPlayerDidFinishPlaying(successfully:). */
typedef struct motet_track_finished {
    uint32_t struct_size;
    uint32_t type;                 /**< MOTET_EVENT_TRACK_FINISHED */
    uint32_t successfully;         /**< 0 when decoding failed. */
    uint32_t reason;               /**< MOTET_FINISH_* */
    uint64_t track_id;
    const char *file_path;
    const char *title;             /**< as in motet_track; may be NULL. */
    /* ABI 1.1 (check struct_size >= MOTET_TRACK_FINISHED_SIZE_1_1): */
    const motet_track *track;      /**< the whole track, never NULL. */
    int64_t heard_us;              /**< how much of it was actually heard (a seek skips, a pause does not count). */
    int64_t position_us;           /**< the position reached in the track. */
    int64_t first_heard_unix_us;   /**< wall-clock time its first frame was heard, or -1 if never. */
} motet_track_finished;

/** MOTET_EVENT_TRACKS_LOST (ABI 1.1): the plugin fell MOTET_QUEUE_TRACKS tracks behind; the
 *  events of `count` tracks were dropped just before this one. */
typedef struct motet_tracks_lost {
    uint32_t struct_size;
    uint32_t type;                 /**< MOTET_EVENT_TRACKS_LOST */
    uint32_t count;
    uint32_t reserved0;
} motet_tracks_lost;

/** MOTET_EVENT_SEEKED (ABI 1.1): the user (or a plugin) asked for a seek, and the track is now
 *  at `position_us` (MPRIS Seeked). Sent for every seek, however small. */
typedef struct motet_seeked {
    uint32_t struct_size;
    uint32_t type;                 /**< MOTET_EVENT_SEEKED */
    uint64_t track_id;
    int64_t position_us;
} motet_seeked;

/** MOTET_EVENT_DECODE_ERROR: audioPlayerDecodeErrorDidOccur(error:).
 *
 *  `code` is the decoding library's own (negative) code: libvorbisfile's OV_* for Ogg Vorbis,
 *  libopusfile's OP_* for Ogg Opus. The two libraries use the same numbers for the same problems:
 *  -3 hole (damaged or missing data skipped), -128 read error, -129 internal fault, -130 a feature
 *  not implemented (Opus: an unsupported channel mapping, such as more than 8 channels), -131
 *  invalid request, -132 not Vorbis / not Opus (OV_ENOTVORBIS, OP_ENOTFORMAT), -133 bad header,
 *  -134 unknown version, -135 not audio (Vorbis only), -136 bad packet, -137 bad link, -138
 *  cannot seek; libopusfile adds -139 (OP_EBADTIMESTAMP: damaged granule positions). The message
 *  names the codec. -1000 is a problem the host found itself (a missing file, not Ogg, a file cut
 *  short, more channels than Motet places…). */
typedef struct motet_decode_error {
    uint32_t struct_size;
    uint32_t type;                 /**< MOTET_EVENT_DECODE_ERROR */
    int32_t code;                  /**< libvorbisfile's OV_* or libopusfile's OP_* code (see above), or -1000 for a host-side error. */
    uint32_t reserved0;
    const char *message;           /**< one human line, never NULL. */
    const char *file_path;
    int64_t position_us;           /**< where in the track, or -1 when unknown. */
    uint64_t track_id;
} motet_decode_error;

/* Values of motet_interruption.reason. */
#define MOTET_INTERRUPTION_CORKED 0u       /**< the sound server asked us to pause (e.g. a call). */
#define MOTET_INTERRUPTION_DEVICE_LOST 1u  /**< the sound server or device went away. */

/** MOTET_EVENT_INTERRUPTION_BEGAN / _ENDED. */
typedef struct motet_interruption {
    uint32_t struct_size;
    uint32_t type;                 /**< MOTET_EVENT_INTERRUPTION_BEGAN or _ENDED */
    uint32_t reason;               /**< MOTET_INTERRUPTION_* */
    uint32_t reserved0;
} motet_interruption;

/* ---- The plugin -------------------------------------------------------------------------- */

/** One option, from `--plugin NAME:KEY=VALUE,...` or a `[plugin NAME]` config section. */
typedef struct motet_option {
    const char *key;
    const char *value;
} motet_option;

/* Values of motet_option_description.kind (ABI 1.1). */
#define MOTET_OPTION_STRING 0u
#define MOTET_OPTION_BOOL 1u         /**< yes/no, true/false, on/off, 1/0. */
#define MOTET_OPTION_INTEGER 2u      /**< a decimal integer, may be negative. */
#define MOTET_OPTION_DURATION 3u     /**< seconds, a decimal number >= 0 (e.g. "0.5"). */
#define MOTET_OPTION_INPUT_PATH 4u   /**< a file the plugin reads; "~/" is expanded by the host. */
#define MOTET_OPTION_OUTPUT_PATH 5u  /**< a file the plugin writes; "~/" is expanded by the host. */

/**
 * One option a plugin understands (ABI 1.1). The host checks every value against its kind
 * before create (an unknown key or a bad value is one line naming the plugin, the option and
 * what is allowed, and the instance is not created), lists the options in `motet --list-plugins`,
 * and hands create only keys the plugin described. Static data, like the descriptor.
 */
typedef struct motet_option_description {
    uint32_t struct_size;          /**< sizeof(motet_option_description) as the plugin was built. */
    uint32_t kind;                 /**< MOTET_OPTION_* */
    const char *name;              /**< the key: lowercase letters, digits and '-' or '_'. */
    const char *default_value;     /**< shown to the user; NULL when there is none. */
    const char *help;              /**< one line. */
} motet_option_description;

/**
 * What a plugin tells the host about itself. Returned by motet_plugin_entry; must stay valid and
 * unchanged for the life of the process (a `static const` in C).
 */
typedef struct motet_plugin_descriptor {
    uint32_t struct_size;          /**< sizeof(motet_plugin_descriptor) as the plugin was built. */
    uint32_t abi_major;            /**< MOTET_ABI_MAJOR the plugin was built against. */
    uint32_t abi_minor;            /**< MOTET_ABI_MINOR the plugin was built against. */
    uint32_t min_host_minor;       /**< the oldest host minor this plugin works with. */
    const char *id;                /**< reverse-DNS, e.g. "org.example.scrobbler". */
    const char *name;              /**< short human name. */
    const char *version;           /**< the plugin's own version, e.g. "1.2.0". */
    const char *description;       /**< one line. */

    /**
     * Make an instance. [plugin-thread]
     * `host` lives until destroy returns. `options` are borrowed for this call (keys and values
     * in the order the user gave them; a key may repeat). Store your state in `*out_instance`.
     * Return MOTET_OK, or MOTET_ERROR after explaining why through host->log: the host then
     * reports the plugin as failed, never calls destroy for it, and plays on without it.
     */
    int32_t (*create)(const motet_host *host, const motet_option *options, uint32_t option_count,
                      void **out_instance);

    /**
     * Handle one event. [plugin-thread]
     * `event` is borrowed for this call. Cast it by `event->type`; ignore unknown types.
     */
    void (*on_event)(void *instance, const motet_event *event);

    /**
     * Free the instance and join every thread it started. [plugin-thread]
     * Called once, after MOTET_EVENT_SHUTDOWN. The host may give up waiting after a bounded time.
     */
    void (*destroy)(void *instance);

    /* ---- ABI 1.1 (read by the host when struct_size >= MOTET_DESCRIPTOR_SIZE_1_1; swift_toolchain
     *      also from the 80-byte descriptors of Swift kits built before 1.1, which end with it) ---- */

    /**
     * The Swift compiler the plugin was built with ("6.3"), or NULL for a plugin that contains no
     * Swift (C: leave it out). MotetPluginKit fills it in. A Swift plugin shares the host's one
     * Swift runtime (there is no stable Swift ABI on Linux), so the host refuses a plugin whose
     * compiler differs from its own, in one line naming both, instead of crashing later.
     */
    const char *swift_toolchain;
    /** The options the plugin understands; NULL with `option_count` 0 to leave options unchecked
     *  (every key reaches create, as in ABI 1.0). */
    const motet_option_description *options;
    uint32_t option_count;
    uint32_t reserved0;
} motet_plugin_descriptor;

/**
 * The one symbol a plugin exports. [the host's loading thread, before any instance exists]
 * Return your descriptor, or NULL to decline (for example when `host_abi_major` is not yours).
 * The host then refuses the plugin if the descriptor's abi_major differs from its own, or if its
 * min_host_minor is newer than the host's minor, naming both versions.
 */
typedef const motet_plugin_descriptor *(*motet_plugin_entry_fn)(uint32_t host_abi_major,
                                                                uint32_t host_abi_minor);
#define MOTET_PLUGIN_ENTRY_SYMBOL "motet_plugin_entry"

/* Frozen baseline sizes of ABI 1.0 on LP64 (checked by static asserts in the host). */
#define MOTET_HOST_SIZE_1_0 72u
#define MOTET_NOW_PLAYING_SIZE_1_0 144u
#define MOTET_PLAYBACK_STATE_SIZE_1_0 32u
#define MOTET_TRACK_FINISHED_SIZE_1_0 40u
#define MOTET_DECODE_ERROR_SIZE_1_0 48u
#define MOTET_INTERRUPTION_SIZE_1_0 16u
#define MOTET_DESCRIPTOR_SIZE_1_0 72u
/* ... and of ABI 1.1. */
#define MOTET_HOST_SIZE_1_1 80u
#define MOTET_NOW_PLAYING_SIZE_1_1 184u
#define MOTET_PLAYBACK_STATE_SIZE_1_1 40u
#define MOTET_TRACK_FINISHED_SIZE_1_1 72u
#define MOTET_DESCRIPTOR_SIZE_1_1 96u
#define MOTET_TRACK_SIZE_1_1 120u
#define MOTET_TRACK_STARTED_SIZE_1_1 32u
#define MOTET_TRACKS_LOST_SIZE_1_1 16u
#define MOTET_SEEKED_SIZE_1_1 24u
#define MOTET_OPTION_DESCRIPTION_SIZE_1_1 32u
/* ... and of ABI 1.2. */
#define MOTET_HOST_SIZE_1_2 88u
/* ... and of ABI 1.3. */
#define MOTET_NOW_PLAYING_SIZE_1_3 192u

#ifdef __cplusplus
}
#endif

#endif /* MOTET_PLUGIN_H */
