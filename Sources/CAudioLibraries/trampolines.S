/* One trampoline per libpulse / alsa-lib function the outputs call: a jump through the pointer
 * that audio_libraries.c fills when the library is loaded. The arguments are untouched, so no
 * prototype is needed here. The trampolines are hidden: exported (as --export-dynamic would do in
 * sanitizer builds) they would interpose on the real functions for every other library in the
 * process, e.g. alsa-lib's pulse plugin calling pa_* before Motet loaded libpulse. */
#include "symbols.h"

#if defined(__x86_64__)
#define MOTET_TRAMPOLINE(name) \
    .globl name; .hidden name; .type name, @function; name: jmp *motet_lazy_##name(%rip); .size name, .-name;
#elif defined(__aarch64__)
#define MOTET_TRAMPOLINE(name) \
    .globl name; .hidden name; .type name, %function; name: adrp x16, motet_lazy_##name; \
    ldr x16, [x16, :lo12:motet_lazy_##name]; br x16; .size name, .-name;
#else
#error "trampolines.S: add this architecture's indirect jump"
#endif

    .text
MOTET_PULSE_SYMBOLS(MOTET_TRAMPOLINE)
MOTET_ALSA_SYMBOLS(MOTET_TRAMPOLINE)

    .section .note.GNU-stack, "", %progbits
