/* The floor under an isolated plugin's delivery latency (bench/isolation.sh): the time for one
 * event to cross the same hand-offs with nothing else in the way, on this machine. An event every
 * 100 ms, as in the benchmark (the cores go idle in between, as they do while music plays).
 *
 *   hops 1   a thread wakes another through a condition variable (an in-process plugin's queue)
 *   hops 3   condition variable, then a socketpair to a second process whose reading thread
 *            wakes a third thread through a condition variable (an isolated plugin's path:
 *            the instance's thread, the host process's reader, its main thread)
 *   hops 2   the same without the last hand-off (the reader calls the plugin itself)
 *
 * Prints "hops median_us p99_us". cc -O2 -pthread hops.c -o hops && ./hops 3 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EVENTS 150
static long long now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}
typedef struct { pthread_mutex_t m; pthread_cond_t c; long long value; int ready; } slot;
static void put(slot *s, long long v) { pthread_mutex_lock(&s->m); s->value = v; s->ready = 1; pthread_cond_signal(&s->c); pthread_mutex_unlock(&s->m); }
static long long take(slot *s) { pthread_mutex_lock(&s->m); while (!s->ready) pthread_cond_wait(&s->c, &s->m); s->ready = 0; long long v = s->value; pthread_mutex_unlock(&s->m); return v; }
static slot a = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0}, b = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
static int fds[2], result[2], hops;
static void *forward(void *unused) { (void)unused; for (;;) { long long t = take(&a); if (write(fds[0], &t, sizeof t) != sizeof t) exit(1); } }
static void *last(void *unused) { (void)unused; for (;;) { long long t = take(&b); long long d = now_us() - t; if (write(result[1], &d, sizeof d) != sizeof d) exit(1); } }
static int cmp(const void *x, const void *y) { long long p = *(const long long *)x, q = *(const long long *)y; return p < q ? -1 : p > q; }
int main(int argc, char **argv) {
    hops = argc > 1 ? atoi(argv[1]) : 3;
    long long d[EVENTS];
    if (hops == 1) {
        if (pipe(result) != 0) return 1;
        pthread_t t; pthread_create(&t, NULL, last, NULL);
        for (int i = 0; i < EVENTS; i++) { usleep(100000); put(&b, now_us()); if (read(result[0], &d[i], sizeof d[i]) != sizeof d[i]) return 1; }
    } else {
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0 || pipe(result) != 0) return 1;
        if (fork() == 0) { /* the "host process": its reader thread */
            pthread_t t; if (hops == 3) pthread_create(&t, NULL, last, NULL);
            for (long long v; read(fds[1], &v, sizeof v) == sizeof v;) {
                if (hops == 3) put(&b, v);
                else { long long x = now_us() - v; if (write(result[1], &x, sizeof x) != sizeof x) exit(1); }
            }
            _exit(0);
        }
        pthread_t t; pthread_create(&t, NULL, forward, NULL);
        for (int i = 0; i < EVENTS; i++) { usleep(100000); put(&a, now_us()); if (read(result[0], &d[i], sizeof d[i]) != sizeof d[i]) return 1; }
    }
    qsort(d, EVENTS, sizeof d[0], cmp);
    printf("%d %lld %lld\n", hops, d[EVENTS / 2], d[EVENTS * 99 / 100 - 1]);
    return 0;
}
