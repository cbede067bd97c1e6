/* libvorbisfile's header defines static callback tables unless told not to; Swift cannot use them
 * and they trigger unused-variable warnings in every importer. */
#define OV_EXCLUDE_STATIC_CALLBACKS
#include <vorbis/vorbisfile.h>
#include <vorbis/codec.h>
