/* plugin_guard.c — see include/plugin_guard.h. */
#include "plugin_guard.h"

#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

static const int guarded_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP};
#define GUARDED_COUNT (sizeof guarded_signals / sizeof guarded_signals[0])

/* The handlers that were installed before ours, by signal number. */
static struct sigaction previous[NSIG];
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

/* The jump buffer of the guarded call running on this thread, or NULL. */
static __thread sigjmp_buf *current_guard __attribute__((tls_model("initial-exec")));

static void on_fault(int signal, siginfo_t *info, void *context) {
    sigjmp_buf *guard = current_guard;
    if (guard != NULL) {
        current_guard = NULL;
        siglongjmp(*guard, signal);
    }
    /* Not a plugin call: hand the signal to whoever had it before. */
    const struct sigaction *before = &previous[signal];
    if ((before->sa_flags & SA_SIGINFO) && before->sa_sigaction != NULL) {
        before->sa_sigaction(signal, info, context);
        return;
    }
    if (!(before->sa_flags & SA_SIGINFO) && before->sa_handler != SIG_DFL && before->sa_handler != SIG_IGN) {
        before->sa_handler(signal);
        return;
    }
    /* The default action: restore it; a fault happens again on return and ends the process as
     * it would have; a signal sent with kill or raise is sent again. */
    sigaction(signal, before, NULL);
    if (info == NULL || info->si_code <= 0) raise(signal);
}

static void install_handlers(void) {
    struct sigaction action;
    action.sa_sigaction = on_fault;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    for (size_t i = 0; i < GUARDED_COUNT; i++) {
        sigaction(guarded_signals[i], &action, &previous[guarded_signals[i]]);
    }
}

/* A plugin that overflows its stack faults with the stack exhausted: the handler needs a stack
 * of its own. Each plugin thread gets one the first time (mmap: never freed, never a leak report). */
static void ensure_alternate_stack(void) {
    stack_t now;
    if (sigaltstack(NULL, &now) == 0 && !(now.ss_flags & SS_DISABLE)) return;
    size_t size = 64 * 1024;
    void *memory = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return;
    stack_t stack = {.ss_sp = memory, .ss_size = size, .ss_flags = 0};
    sigaltstack(&stack, NULL);
}

static void arm(void) {
    pthread_once(&install_once, install_handlers);
    ensure_alternate_stack();
}

/* After a crash: record it, wake the host, and never return. */
__attribute__((noreturn)) static void report_and_park(motet_crash_latch *latch, int signal, int32_t call,
                                                      uint32_t event_type) {
    pthread_mutex_lock(latch->mutex);
    latch->signal = signal;
    latch->call = call;
    latch->event_type = event_type;
    pthread_cond_broadcast(latch->condition);
    pthread_mutex_unlock(latch->mutex);
    for (;;) pause();
}

int32_t motet_guarded_create(motet_crash_latch *latch, const motet_plugin_descriptor *descriptor,
                             const motet_host *host, const motet_option *options,
                             uint32_t option_count, void **instance) {
    arm();
    sigjmp_buf guard;
    int signal = sigsetjmp(guard, 1);
    if (signal != 0) report_and_park(latch, signal, MOTET_GUARDED_CREATE, 0);
    current_guard = &guard;
    int32_t status = descriptor->create(host, options, option_count, instance);
    current_guard = NULL;
    return status;
}

void motet_guarded_on_event(motet_crash_latch *latch, const motet_plugin_descriptor *descriptor,
                            void *instance, const motet_event *event) {
    arm();
    sigjmp_buf guard;
    int signal = sigsetjmp(guard, 1);
    if (signal != 0) report_and_park(latch, signal, MOTET_GUARDED_ON_EVENT, event->type);
    current_guard = &guard;
    descriptor->on_event(instance, event);
    current_guard = NULL;
}

void motet_guarded_destroy(motet_crash_latch *latch, const motet_plugin_descriptor *descriptor,
                           void *instance) {
    arm();
    sigjmp_buf guard;
    int signal = sigsetjmp(guard, 1);
    if (signal != 0) report_and_park(latch, signal, MOTET_GUARDED_DESTROY, 0);
    current_guard = &guard;
    descriptor->destroy(instance);
    current_guard = NULL;
}

const char *motet_guard_signal_name(int32_t signal) {
    switch (signal) {
    case SIGSEGV: return "SIGSEGV (segmentation fault)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGILL: return "SIGILL (illegal instruction, e.g. a Swift runtime trap)";
    case SIGFPE: return "SIGFPE (arithmetic exception)";
    case SIGTRAP: return "SIGTRAP (trap)";
    case SIGABRT: return "SIGABRT (abort)";
    case SIGKILL: return "SIGKILL (killed)";
    case SIGSYS: return "SIGSYS (a forbidden system call)";
    case SIGTERM: return "SIGTERM (terminated)";
    default: return NULL;
    }
}
