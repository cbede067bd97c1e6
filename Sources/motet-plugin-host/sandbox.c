/*
 * The sandbox of a plugin host process (docs/ISOLATION.md, "Sandbox"): no_new_privs, a seccomp
 * filter that refuses ptrace and process_vm_readv/writev, and a Landlock ruleset under which the
 * process may write only beneath the directories it is given. Reads stay open: plugins read
 * artwork, their configuration, certificates. Unprivileged: nothing here needs root.
 */
#define _GNU_SOURCE
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* What writing means, by Landlock ABI version: every right that changes the file system. */
static __u64 write_rights(int abi) {
    __u64 rights = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE
                   | LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG
                   | LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK
                   | LANDLOCK_ACCESS_FS_MAKE_SYM;
#ifdef LANDLOCK_ACCESS_FS_REFER
    if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
    if (abi >= 3) rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
    return rights;
}

static int refuse_tracing(char *problem, size_t size) {
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (!filter) {
        snprintf(problem, size, "seccomp_init failed");
        return -1;
    }
    int failed = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ptrace), 0)
                 || seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(process_vm_readv), 0)
                 || seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(process_vm_writev), 0);
    if (!failed) failed = seccomp_load(filter);
    seccomp_release(filter);
    if (failed) snprintf(problem, size, "the seccomp filter could not be loaded (%s)", strerror(-failed));
    return failed ? -1 : 0;
}

int motet_sandbox_apply(const char *const *writable, int count, char *problem, size_t size) {
    problem[0] = 0;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        snprintf(problem, size, "no_new_privs could not be set (%s)", strerror(errno));
        return -1;
    }
    if (refuse_tracing(problem, size) != 0) return -1;
    int abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) {
        snprintf(problem, size, "this kernel has no Landlock (%s)", strerror(errno));
        return 0; /* tracing is refused; writes are not confined: the player says so */
    }
    struct landlock_ruleset_attr attributes = {.handled_access_fs = write_rights(abi)};
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0);
    if (ruleset < 0) {
        snprintf(problem, size, "the Landlock ruleset could not be made (%s)", strerror(errno));
        return 0;
    }
    for (int i = 0; i < count; i++) {
        int fd = open(writable[i], O_PATH | O_CLOEXEC);
        if (fd < 0) continue; /* a directory that does not exist: nothing to allow beneath it */
        struct stat info;
        __u64 allowed = write_rights(abi);
        /* A file (such as /dev/null) takes only the rights that apply to a file. */
        if (fstat(fd, &info) == 0 && !S_ISDIR(info.st_mode)) {
            allowed = LANDLOCK_ACCESS_FS_WRITE_FILE;
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
            if (abi >= 3) allowed |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
        }
        struct landlock_path_beneath_attr beneath = {.allowed_access = allowed, .parent_fd = fd};
        syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
        close(fd);
    }
    int restricted = (int)syscall(SYS_landlock_restrict_self, ruleset, 0);
    close(ruleset);
    if (restricted != 0) {
        snprintf(problem, size, "Landlock could not be applied (%s)", strerror(errno));
        return 0;
    }
    return abi;
}
