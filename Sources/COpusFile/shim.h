/* libopusfile (Ogg Opus): the decoder's C API. */
#include <opusfile.h>
