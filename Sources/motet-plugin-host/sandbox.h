/* The sandbox of a plugin host process: see sandbox.c. */
#ifndef MOTET_PLUGIN_HOST_SANDBOX_H
#define MOTET_PLUGIN_HOST_SANDBOX_H

#include <stddef.h>
#include <sys/stat.h>

/**
 * Sets no_new_privs, refuses ptrace and process_vm_* with seccomp, and confines writes to beneath
 * the `count` paths of `writable` with Landlock. Returns the Landlock ABI version applied (>= 1);
 * 0 when writes could not be confined (`problem` says why; tracing is refused all the same); -1
 * when even no_new_privs or seccomp failed (`problem` says why).
 */
int motet_sandbox_apply(const char *const *writable, int count, char *problem, size_t size);

#endif
