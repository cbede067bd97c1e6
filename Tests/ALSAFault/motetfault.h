/*
 * motetfault: an ALSA playback device for tests, written with alsa-lib's I/O plugin API.
 *
 * This private header holds the device's state and what its files share: motetfault_clock.c (the
 * clock, playing, fault firing), motetfault_callbacks.c (the ioplug callbacks) and
 * motetfault_open.c (the configuration and the plugin's open function). Only the plugin's entry
 * point is exported from the .so: everything declared here is hidden.
 *
 * It behaves like a real-time sound card without one:
 *   - its hardware pointer advances with CLOCK_MONOTONIC at the configured rate while RUNNING or
 *     DRAINING, and stands still otherwise (paused, suspended, stopped);
 *   - like the kernel, it stops with an underrun (state XRUN) when the pointer reaches the
 *     application pointer (the buffer ran dry) while RUNNING;
 *   - every frame the pointer passes is "played": appended to the capture file (raw interleaved
 *     S16_LE). Frames given to the device and dropped unplayed (prepare, drop) are NOT captured:
 *     the capture is what a listener would have heard, without the silences;
 *   - it is a ring, as a sound card's buffer is: a transfer lands where alsa-lib's application
 *     pointer (io->appl_ptr, counted from the prepare as the hardware pointer is) says, and the
 *     pointer plays up to the application pointer only. alsa-lib's ioplug has no rewind callback:
 *     snd_pcm_rewind just moves io->appl_ptr back, so the device notices it when it next looks
 *     (a transfer, the pointer, poll), logs `rewind` (frames= taken back, queued= what is left
 *     ahead of the hardware pointer) and forgets the frames taken back; what is written next
 *     overwrites them. Run dry after a rewind, it underruns at the new end;
 *   - its poll descriptor is a timerfd ticking once per period, so waiting costs one wake-up per
 *     period, as with a sound card's period interrupt (alsa-lib does not look at avail_min for
 *     an I/O plugin: the application sees POLLOUT every period);
 *   - like a driver that stops the stream on a glitch, a suspend or a disconnect (which wakes
 *     whoever polls at once), the descriptor also fires when the next xrun, suspend or unplug cue
 *     is due, so a fault is seen when it happens, not up to a period later.
 *
 * Faults, each at a frame count of the whole run (frames played since the device was first
 * opened, across reopens of this process); each fires once:
 *   stall_at N    an application that was late: the next write after frame N sleeps stall_ms
 *                 (default: the buffer time + 150) inside alsa-lib, while the clock runs on, so
 *                 the buffer runs dry and the device underruns by itself; that write is then
 *                 refused (-EPIPE), as the kernel refuses writes to a stopped stream. Nothing
 *                 written is dropped.
 *   xrun_at N     a device that reports an underrun with data still queued (a DMA/USB glitch):
 *                 state XRUN at once; prepare then drops what was queued (logged as dropped).
 *   suspend_at N  a system suspend: state SUSPENDED, the clock stops. With `resume yes` the device
 *                 can resume (state back to what it was, nothing lost); without it, snd_pcm_resume
 *                 changes nothing (alsa-lib's ioplug returns 0) and only prepare restarts it.
 *   unplug_at N   the device disappears: state DISCONNECTED, every later prepare/start fails with
 *                 -ENODEV, and the file `gone` is created: while it exists, opening fails with
 *                 -ENODEV too. Remove it to plug the device back in.
 *   unplug_after_write N  the same, the moment the application has given the device N frames in
 *                 all (counted across reopens): right after the transfer that reaches N, which the
 *                 device takes whole and never plays. An application that measured its delay
 *                 before that write and not since counts what it wrote as heard.
 * Several positions may be given as a string: "44100 88200".
 *
 * A period clock out of step with the stream (dmix, another I/O plugin):
 *   tick_before_queued N, tick_early_us E  after each start and each write, the period ticks are
 *                 re-timed so that one comes E µs before the frames queued fall to N, and then
 *                 one every period: a poller that wants N queued or less sees a tick just too
 *                 early, and the next one a period later.
 * Each write is logged (`write`, with the frames queued before it and whether the clock ran).
 *
 * The log file gets one line per event: `<event> total=<frames played in the run> us=<monotonic
 * microseconds> [key=value...]`, events: open, open-refused, params, start, write, rewind
 * (frames=, queued=), underrun, xrun, suspend, resume, unplug, prepare (dropped=), stop (dropped=),
 * pause, unpause, close.
 *
 * pcm_type.motetfault { lib "/abs/libasound_module_pcm_motetfault.so" }
 * pcm.!default { type motetfault capture "/tmp/cap.raw" log "/tmp/fault.log" stall_at 44100 }
 */
#ifndef MOTETFAULT_H
#define MOTETFAULT_H

#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

/* Shared between the device's files, not exported from the .so. */
#define MOTETFAULT_HIDDEN __attribute__((visibility("hidden")))

#define MAX_CUES 16

enum fault { STALL, XRUN, SUSPEND, UNPLUG, FAULTS };

typedef struct {
	snd_pcm_ioplug_t io;
	pthread_mutex_t lock;
	int capture_fd;
	FILE *log;
	char *gone_path;
	int supports_resume;
	unsigned stall_ms;
	uint64_t cues[FAULTS][MAX_CUES];
	int cue_count[FAULTS];
	uint64_t unplug_after_write; /* 0: none */
	long tick_before_queued;     /* 0: ticks from hw_params */
	long tick_early_us;

	unsigned frame_bytes;
	snd_pcm_uframes_t buffer_frames;
	unsigned char *ring;       /* buffer_frames frames: what was given and not yet played */
	uint64_t written;          /* the end of what was given, since prepare (io->appl_ptr once seen) */
	uint64_t played;           /* frames played since prepare (the hardware pointer) */
	int64_t clock_start_ns;    /* when `played` was last re-based while the clock runs */
	uint64_t played_at_start;
	int clock_running;
	int stall_pending;
	int unplugged;
	snd_pcm_state_t before_suspend;
} fault_t;

/* motetfault_clock.c: the run-wide counters and the device's clock. */
/* Frames given by the application across reopens, and whether unplug_after_write has fired. */
extern MOTETFAULT_HIDDEN uint64_t run_written;
extern MOTETFAULT_HIDDEN int unplug_after_write_fired;
MOTETFAULT_HIDDEN void log_event(fault_t *f, const char *event, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
MOTETFAULT_HIDDEN void clock_rebase(fault_t *f, int running);
MOTETFAULT_HIDDEN void rephase_ticks(fault_t *f);
MOTETFAULT_HIDDEN void fire(fault_t *f, int kind, long long late_us);
MOTETFAULT_HIDDEN void arm_for_next_cue(fault_t *f);
MOTETFAULT_HIDDEN void advance(fault_t *f);

/* motetfault_callbacks.c: the ioplug callbacks. */
MOTETFAULT_HIDDEN int f_close(snd_pcm_ioplug_t *io);
extern MOTETFAULT_HIDDEN const snd_pcm_ioplug_callback_t callbacks_with_resume;
extern MOTETFAULT_HIDDEN const snd_pcm_ioplug_callback_t callbacks_without_resume;

#endif
