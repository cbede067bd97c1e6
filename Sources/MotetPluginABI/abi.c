/* Compile-time checks that the ABI 1.0 baseline layout never changes by accident. */
#include <stddef.h>
#include "motet/plugin.h"

_Static_assert(sizeof(motet_host) == MOTET_HOST_SIZE_1_0, "motet_host 1.0 layout changed");
_Static_assert(sizeof(motet_now_playing) == MOTET_NOW_PLAYING_SIZE_1_0, "motet_now_playing 1.0 layout changed");
_Static_assert(sizeof(motet_playback_state) == MOTET_PLAYBACK_STATE_SIZE_1_0, "motet_playback_state 1.0 layout changed");
_Static_assert(sizeof(motet_track_finished) == MOTET_TRACK_FINISHED_SIZE_1_0, "motet_track_finished 1.0 layout changed");
_Static_assert(sizeof(motet_decode_error) == MOTET_DECODE_ERROR_SIZE_1_0, "motet_decode_error 1.0 layout changed");
_Static_assert(sizeof(motet_interruption) == MOTET_INTERRUPTION_SIZE_1_0, "motet_interruption 1.0 layout changed");
_Static_assert(offsetof(motet_plugin_descriptor, swift_toolchain) == MOTET_DESCRIPTOR_SIZE_1_0, "motet_plugin_descriptor 1.0 layout changed");
_Static_assert(sizeof(motet_plugin_descriptor) == MOTET_DESCRIPTOR_SIZE_SWIFT_TOOLCHAIN, "motet_plugin_descriptor layout changed");
_Static_assert(offsetof(motet_now_playing, track_id) == 136, "motet_now_playing.track_id moved");
