/*
 * plugin_guard.h — runs a plugin's create, on_event and destroy under a crash guard.
 *
 * A plugin is code the host did not write. When a call into it raises SIGSEGV, SIGBUS, SIGILL,
 * SIGFPE or SIGTRAP on the calling thread, the guard jumps back out of the plugin, records the
 * signal in the latch, wakes whoever waits on the latch's condition variable, and parks the
 * calling thread for good: after a crash the thread's state (locks the plugin held, Swift's
 * per-thread bookkeeping of the frames that were skipped) cannot be trusted, so it never runs
 * host code again. The host reads the latch under its own mutex and stops using the instance.
 *
 * What it does not catch: crashes on threads the plugin started itself, in its library's
 * constructors (inside dlopen) or in motet_plugin_entry, and SIGABRT (glibc's abort() holds a
 * lock that a jump out of it would leave held). A signal that is not a guarded call's goes to
 * whatever handler was there before (the Swift runtime's backtracer, a sanitizer), or kills the
 * process as it would have.
 */
#ifndef MOTET_PLUGIN_GUARD_H
#define MOTET_PLUGIN_GUARD_H

#include <motet/plugin.h>
#include <pthread.h>
#include <stdint.h>

/** Where a guarded call reports a crash. The host owns it; the pointers must outlive the call. */
typedef struct motet_crash_latch {
    /** The host's mutex and condition variable: the crash is recorded with the mutex held, then
     *  the condition is broadcast. */
    pthread_mutex_t *mutex;
    pthread_cond_t *condition;
    /** 0, or the signal the plugin raised. Written with `mutex` held. */
    int32_t signal;
    /** The call that crashed: 1 create, 2 on_event, 3 destroy. Written with `mutex` held. */
    int32_t call;
    /** The MOTET_EVENT_* type on_event was handling, 0 for create and destroy. */
    uint32_t event_type;
} motet_crash_latch;

#define MOTET_GUARDED_CREATE 1
#define MOTET_GUARDED_ON_EVENT 2
#define MOTET_GUARDED_DESTROY 3

/** Calls descriptor->create; returns its status. Does not return if the plugin crashes. */
int32_t motet_guarded_create(motet_crash_latch *latch, const motet_plugin_descriptor *descriptor,
                             const motet_host *host, const motet_option *options,
                             uint32_t option_count, void **instance);

/** Calls descriptor->on_event. Does not return if the plugin crashes. */
void motet_guarded_on_event(motet_crash_latch *latch, const motet_plugin_descriptor *descriptor,
                            void *instance, const motet_event *event);

/** Calls descriptor->destroy. Does not return if the plugin crashes. */
void motet_guarded_destroy(motet_crash_latch *latch, const motet_plugin_descriptor *descriptor,
                           void *instance);

/** "SIGSEGV (segmentation fault)" and so on, for a message; NULL for a signal it does not name. */
const char *motet_guard_signal_name(int32_t signal);

#endif
