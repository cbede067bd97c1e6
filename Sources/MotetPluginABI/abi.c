/* Compile-time checks that the ABI baseline layouts never change by accident: each struct's size
 * is its newest baseline, and every 1.0 field stays where 1.0 put it. */
#include <stddef.h>
#include "motet/plugin.h"

_Static_assert(offsetof(motet_host, send_track_command) == MOTET_HOST_SIZE_1_0, "motet_host 1.0 layout changed");
_Static_assert(offsetof(motet_host, state_dir) == MOTET_HOST_SIZE_1_1, "motet_host 1.1 layout changed");
_Static_assert(sizeof(motet_host) == MOTET_HOST_SIZE_1_2, "motet_host 1.2 layout changed");
_Static_assert(offsetof(motet_now_playing, url) == MOTET_NOW_PLAYING_SIZE_1_0, "motet_now_playing 1.0 layout changed");
_Static_assert(offsetof(motet_now_playing, next_disabled_reason) == MOTET_NOW_PLAYING_SIZE_1_1,
               "motet_now_playing 1.1 layout changed");
_Static_assert(sizeof(motet_now_playing) == MOTET_NOW_PLAYING_SIZE_1_3, "motet_now_playing 1.3 layout changed");
_Static_assert(offsetof(motet_now_playing, track_id) == 136, "motet_now_playing.track_id moved");
_Static_assert(offsetof(motet_playback_state, stalled_reason) == MOTET_PLAYBACK_STATE_SIZE_1_0,
               "motet_playback_state 1.0 layout changed");
_Static_assert(sizeof(motet_playback_state) == MOTET_PLAYBACK_STATE_SIZE_1_1, "motet_playback_state 1.1 layout changed");
_Static_assert(offsetof(motet_track_finished, track) == MOTET_TRACK_FINISHED_SIZE_1_0,
               "motet_track_finished 1.0 layout changed");
_Static_assert(sizeof(motet_track_finished) == MOTET_TRACK_FINISHED_SIZE_1_1, "motet_track_finished 1.1 layout changed");
_Static_assert(sizeof(motet_decode_error) == MOTET_DECODE_ERROR_SIZE_1_0, "motet_decode_error 1.0 layout changed");
_Static_assert(sizeof(motet_interruption) == MOTET_INTERRUPTION_SIZE_1_0, "motet_interruption 1.0 layout changed");
_Static_assert(offsetof(motet_plugin_descriptor, swift_toolchain) == MOTET_DESCRIPTOR_SIZE_1_0,
               "motet_plugin_descriptor 1.0 layout changed");
_Static_assert(sizeof(motet_plugin_descriptor) == MOTET_DESCRIPTOR_SIZE_1_1, "motet_plugin_descriptor 1.1 layout changed");
_Static_assert(sizeof(motet_track) == MOTET_TRACK_SIZE_1_1, "motet_track 1.1 layout changed");
_Static_assert(sizeof(motet_track_started) == MOTET_TRACK_STARTED_SIZE_1_1, "motet_track_started 1.1 layout changed");
_Static_assert(sizeof(motet_tracks_lost) == MOTET_TRACKS_LOST_SIZE_1_1, "motet_tracks_lost 1.1 layout changed");
_Static_assert(sizeof(motet_seeked) == MOTET_SEEKED_SIZE_1_1, "motet_seeked 1.1 layout changed");
_Static_assert(sizeof(motet_option_description) == MOTET_OPTION_DESCRIPTION_SIZE_1_1,
               "motet_option_description 1.1 layout changed");
