/*
 * motetfault: an ALSA playback device for tests, written with alsa-lib's I/O plugin API.
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
#include <alsa/asoundlib.h>
#include <alsa/pcm_external.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define MAX_CUES 16

enum fault { STALL, XRUN, SUSPEND, UNPLUG, FAULTS };
static const char *const fault_names[FAULTS] = { "stall_at", "xrun_at", "suspend_at", "unplug_at" };

/* Frames played across reopens within one process (the player reopens after losing the device). */
static uint64_t run_total;
static int fired[FAULTS][MAX_CUES];
/* Frames given by the application across reopens, and whether unplug_after_write has fired. */
static uint64_t run_written;
static int unplug_after_write_fired;

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

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void log_event(fault_t *f, const char *event, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void log_event(fault_t *f, const char *event, const char *fmt, ...)
{
	if (!f->log)
		return;
	fprintf(f->log, "%s total=%llu us=%lld", event, (unsigned long long)run_total,
		(long long)(now_ns() / 1000));
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		fputc(' ', f->log);
		vfprintf(f->log, fmt, ap);
		va_end(ap);
	}
	fputc('\n', f->log);
	fflush(f->log);
}

static void clock_rebase(fault_t *f, int running)
{
	f->clock_start_ns = now_ns();
	f->played_at_start = f->played;
	f->clock_running = running;
}

/* With tick_before_queued: the next tick comes tick_early_us before the queue falls to that many
 * frames, then one every period. With the lock. */
static void rephase_ticks(fault_t *f)
{
	uint64_t queued = f->written - f->played;
	if (f->tick_before_queued <= 0 || !f->clock_running || queued <= (uint64_t)f->tick_before_queued)
		return;
	int64_t period_ns = (int64_t)((double)f->io.period_size * 1e9 / f->io.rate);
	int64_t first = (int64_t)((double)(queued - (uint64_t)f->tick_before_queued) * 1e9 / f->io.rate) -
		f->tick_early_us * 1000;
	if (first < 1)
		first = 1;
	struct itimerspec tick = { { period_ns / 1000000000, period_ns % 1000000000 },
				   { first / 1000000000, first % 1000000000 } };
	timerfd_settime(f->io.poll_fd, 0, &tick, NULL);
}

/* Plays frames [played, played + n): appends them to the capture. */
static void play(fault_t *f, uint64_t n)
{
	while (n > 0) {
		uint64_t at = f->played % f->buffer_frames;
		uint64_t chunk = f->buffer_frames - at;
		if (chunk > n)
			chunk = n;
		if (f->capture_fd >= 0) {
			const unsigned char *p = f->ring + at * f->frame_bytes;
			size_t left = chunk * f->frame_bytes;
			while (left > 0) {
				ssize_t w = write(f->capture_fd, p, left);
				if (w <= 0)
					break;
				p += w;
				left -= (size_t)w;
			}
		}
		f->played += chunk;
		run_total += chunk;
		n -= chunk;
	}
}

/* The first cue of `kind` not yet fired, or UINT64_MAX. */
static uint64_t next_cue(fault_t *f, int kind, int *index)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < f->cue_count[kind]; i++)
		if (!fired[kind][i] && f->cues[kind][i] < best) {
			best = f->cues[kind][i];
			*index = i;
		}
	return best;
}

/* Fires fault `kind`, whose frame the pointer reached `late_us` ago: a fault is only seen when
 * someone looks (the poller, woken by arm_for_next_cue, or any call that moves the pointer), and
 * the device stops where the fault was, so a fault seen late costs that much more time. */
static void fire(fault_t *f, int kind, long long late_us)
{
	snd_pcm_state_t state = f->io.state;
	uint64_t queued = f->written - f->played;
	switch (kind) {
	case STALL:
		f->stall_pending = 1;
		log_event(f, "stall", "queued=%llu late_us=%lld", (unsigned long long)queued, late_us);
		break;
	case XRUN:
		clock_rebase(f, 0);
		snd_pcm_ioplug_set_state(&f->io, SND_PCM_STATE_XRUN);
		log_event(f, "xrun", "queued=%llu late_us=%lld", (unsigned long long)queued, late_us);
		break;
	case SUSPEND:
		clock_rebase(f, 0);
		f->before_suspend = state;
		snd_pcm_ioplug_set_state(&f->io, SND_PCM_STATE_SUSPENDED);
		log_event(f, "suspend", "queued=%llu late_us=%lld", (unsigned long long)queued, late_us);
		break;
	case UNPLUG:
		clock_rebase(f, 0);
		f->unplugged = 1;
		snd_pcm_ioplug_set_state(&f->io, SND_PCM_STATE_DISCONNECTED);
		{
			/* A disconnect wakes whoever polls at once. */
			struct itimerspec now = { { 0, 0 }, { 0, 1 } };
			timerfd_settime(f->io.poll_fd, 0, &now, NULL);
		}
		if (f->gone_path) {
			int fd = open(f->gone_path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
			if (fd >= 0)
				close(fd);
		}
		log_event(f, "unplug", "queued=%llu late_us=%lld", (unsigned long long)queued, late_us);
		break;
	}
}

/* While the clock runs: makes the poll descriptor fire when the next xrun, suspend or unplug cue
 * is reached (if the queued frames reach it), unless a period tick comes first. With the lock. */
static void arm_for_next_cue(fault_t *f)
{
	snd_pcm_state_t state = f->io.state;
	if (!f->clock_running || (state != SND_PCM_STATE_RUNNING && state != SND_PCM_STATE_DRAINING))
		return;
	uint64_t cue_at = UINT64_MAX;
	for (int k = XRUN; k < FAULTS; k++) {
		int i = -1;
		uint64_t c = next_cue(f, k, &i);
		if (c < cue_at)
			cue_at = c;
	}
	if (cue_at == UINT64_MAX || cue_at < run_total || cue_at - run_total > f->written - f->played)
		return;
	/* 1 ms late, so that the pointer has surely reached the cue when the poller looks. */
	int64_t due = (int64_t)((cue_at - run_total) * 1e9 / f->io.rate) + 1000000;
	struct itimerspec current;
	if (timerfd_gettime(f->io.poll_fd, &current) < 0)
		return;
	int64_t left = (int64_t)current.it_value.tv_sec * 1000000000 + current.it_value.tv_nsec;
	if (left != 0 && left <= due)
		return;
	struct itimerspec at = { current.it_interval, { due / 1000000000, due % 1000000000 } };
	timerfd_settime(f->io.poll_fd, 0, &at, NULL);
}

/* An application pointer moved back (snd_pcm_rewind) takes back what lay past it: logged once,
 * and the device's end of data follows it. Never before what was played (a rewind into played
 * frames would be the application's bug; alsa-lib's rewindable stops at the hardware pointer).
 * Called with the lock. */
static void follow_appl_ptr(fault_t *f)
{
	uint64_t appl = f->io.appl_ptr; /* far below the boundary in a test run */
	if (appl >= f->written || f->written == f->played)
		return;
	if (appl < f->played)
		appl = f->played;
	log_event(f, "rewind", "frames=%llu queued=%llu", (unsigned long long)(f->written - appl),
		  (unsigned long long)(appl - f->played));
	f->written = appl;
}

/* Moves the hardware pointer to now; fires faults whose frame is reached. Called with the lock. */
static void advance(fault_t *f)
{
	follow_appl_ptr(f);
	while (f->clock_running) {
		snd_pcm_state_t state = f->io.state;
		if (state != SND_PCM_STATE_RUNNING && state != SND_PCM_STATE_DRAINING)
			return;
		uint64_t target = f->played_at_start +
			(uint64_t)((now_ns() - f->clock_start_ns) * (double)f->io.rate / 1e9);
		int kind = -1, index = -1;
		uint64_t cue_at = UINT64_MAX;
		for (int k = 0; k < FAULTS; k++) {
			int i = -1;
			uint64_t c = next_cue(f, k, &i);
			if (c < cue_at) {
				cue_at = c;
				kind = k;
				index = i;
			}
		}
		uint64_t stop = target;
		if (stop > f->written)
			stop = f->written;
		int cue_hit = 0;
		if (cue_at != UINT64_MAX && run_total + (stop - f->played) >= cue_at) {
			stop = f->played + (cue_at > run_total ? cue_at - run_total : 0);
			cue_hit = 1;
		}
		if (stop > f->played)
			play(f, stop - f->played);
		if (cue_hit) {
			fired[kind][index] = 1;
			/* When the pointer reached the cue, on the clock that moved it there. */
			int64_t reached_ns = f->clock_start_ns +
				(int64_t)((double)(f->played - f->played_at_start) * 1e9 / f->io.rate);
			fire(f, kind, (now_ns() - reached_ns) / 1000);
			continue;
		}
		if (target >= f->written) {
			if (state == SND_PCM_STATE_RUNNING) {
				clock_rebase(f, 0);
				snd_pcm_ioplug_set_state(&f->io, SND_PCM_STATE_XRUN);
				log_event(f, "underrun", "late_us=%lld",
					  (long long)((target - f->written) * 1000000 / f->io.rate));
			}
			/* DRAINING: all played; alsa-lib stops the stream when avail reaches the buffer. */
		}
		arm_for_next_cue(f);
		return;
	}
}

static int f_start(snd_pcm_ioplug_t *io)
{
	fault_t *f = io->private_data;
	pthread_mutex_lock(&f->lock);
	int err = 0;
	if (f->unplugged)
		err = -ENODEV;
	else {
		clock_rebase(f, 1);
		log_event(f, "start", "queued=%llu", (unsigned long long)(f->written - f->played));
		rephase_ticks(f);
		arm_for_next_cue(f);
	}
	pthread_mutex_unlock(&f->lock);
	return err;
}

static int f_stop(snd_pcm_ioplug_t *io)
{
	fault_t *f = io->private_data;
	pthread_mutex_lock(&f->lock);
	advance(f);
	clock_rebase(f, 0);
	log_event(f, "stop", "dropped=%llu", (unsigned long long)(f->written - f->played));
	f->written = f->played;
	pthread_mutex_unlock(&f->lock);
	return 0;
}

static snd_pcm_sframes_t f_pointer(snd_pcm_ioplug_t *io)
{
	fault_t *f = io->private_data;
	pthread_mutex_lock(&f->lock);
	advance(f);
	snd_pcm_sframes_t hw = (snd_pcm_sframes_t)f->played; /* far below the boundary in a test run */
	pthread_mutex_unlock(&f->lock);
	return hw;
}

static snd_pcm_sframes_t f_transfer(snd_pcm_ioplug_t *io, const snd_pcm_channel_area_t *areas,
				    snd_pcm_uframes_t offset, snd_pcm_uframes_t size)
{
	fault_t *f = io->private_data;
	pthread_mutex_lock(&f->lock);
	int stall = f->stall_pending;
	f->stall_pending = 0;
	pthread_mutex_unlock(&f->lock);
	if (stall)
		usleep(f->stall_ms == (unsigned)-1 ? (unsigned)((uint64_t)f->buffer_frames * 1000000 / io->rate) + 150000
							 : f->stall_ms * 1000);  /* the application is late; the device clock runs on */

	pthread_mutex_lock(&f->lock);
	/* As the kernel's write does: a stream that has stopped (an underrun, possibly during the
	 * stall, a glitch, a suspend, an unplug) takes nothing more, even within one snd_pcm_writei
	 * that alsa-lib splits into several transfers. */
	advance(f);
	int refused = f->unplugged ? -ENODEV
		: io->state == SND_PCM_STATE_XRUN ? -EPIPE
		: io->state == SND_PCM_STATE_SUSPENDED ? -ESTRPIPE : 0;
	if (refused) {
		pthread_mutex_unlock(&f->lock);
		return refused;
	}
	/* The transfer lands at the application pointer (advance followed a rewind to it). Frames
	 * that would land before the hardware pointer (only a rewind past it could ask for that)
	 * are late: taken and never played. */
	uint64_t at = f->io.appl_ptr;
	snd_pcm_uframes_t late = 0;
	if (at < f->played) {
		late = f->played - at < size ? (snd_pcm_uframes_t)(f->played - at) : size;
		at = f->played;
	}
	f->written = at;
	log_event(f, "write", "queued=%llu frames=%lu running=%d", (unsigned long long)(f->written - f->played),
		  (unsigned long)size, f->clock_running);
	const unsigned char *src = (const unsigned char *)areas[0].addr +
		(areas[0].first + offset * areas[0].step) / 8;
	snd_pcm_uframes_t room = f->buffer_frames - (snd_pcm_uframes_t)(f->written - f->played);
	if (size > room + late)
		size = room + late;
	for (snd_pcm_uframes_t done = late; done < size;) {
		uint64_t ring_at = f->written % f->buffer_frames;
		snd_pcm_uframes_t chunk = f->buffer_frames - ring_at;
		if (chunk > size - done)
			chunk = size - done;
		memcpy(f->ring + ring_at * f->frame_bytes, src + done * f->frame_bytes, chunk * f->frame_bytes);
		f->written += chunk;
		done += chunk;
	}
	run_written += size;
	if (f->unplug_after_write && !unplug_after_write_fired && run_written >= f->unplug_after_write) {
		unplug_after_write_fired = 1;
		fire(f, UNPLUG, 0);
	}
	rephase_ticks(f);
	arm_for_next_cue(f);
	pthread_mutex_unlock(&f->lock);
	return (snd_pcm_sframes_t)size;
}

static int f_prepare(snd_pcm_ioplug_t *io)
{
	fault_t *f = io->private_data;
	pthread_mutex_lock(&f->lock);
	int err = 0;
	if (f->unplugged) {
		err = -ENODEV;
		log_event(f, "prepare", "refused=ENODEV");
	} else {
		log_event(f, "prepare", "dropped=%llu", (unsigned long long)(f->written - f->played));
		f->written = f->played = 0;
		clock_rebase(f, 0);
	}
	pthread_mutex_unlock(&f->lock);
	return err;
}

static int f_pause(snd_pcm_ioplug_t *io, int enable)
{
	fault_t *f = io->private_data;
	pthread_mutex_lock(&f->lock);
	advance(f);
	clock_rebase(f, !enable);
	log_event(f, enable ? "pause" : "unpause", NULL);
	arm_for_next_cue(f);
	pthread_mutex_unlock(&f->lock);
	return 0;
}

static int f_resume(snd_pcm_ioplug_t *io)
{
	fault_t *f = io->private_data;
	pthread_mutex_lock(&f->lock);
	if (io->state == SND_PCM_STATE_SUSPENDED) {
		snd_pcm_state_t back = f->before_suspend;
		snd_pcm_ioplug_set_state(io, back);
		clock_rebase(f, back == SND_PCM_STATE_RUNNING || back == SND_PCM_STATE_DRAINING);
		log_event(f, "resume", "state=%s queued=%llu", snd_pcm_state_name(back),
			  (unsigned long long)(f->written - f->played));
		arm_for_next_cue(f);
	}
	pthread_mutex_unlock(&f->lock);
	return 0;
}

static int f_hw_params(snd_pcm_ioplug_t *io, snd_pcm_hw_params_t *params)
{
	(void)params;
	fault_t *f = io->private_data;
	pthread_mutex_lock(&f->lock);
	f->frame_bytes = io->channels * 2;
	f->buffer_frames = io->buffer_size;
	free(f->ring);
	f->ring = calloc(f->buffer_frames, f->frame_bytes);
	f->written = f->played = 0;
	long period_ns = (long)((double)io->period_size * 1e9 / io->rate);
	struct itimerspec tick = { { period_ns / 1000000000, period_ns % 1000000000 },
				   { period_ns / 1000000000, period_ns % 1000000000 } };
	timerfd_settime(io->poll_fd, 0, &tick, NULL);
	log_event(f, "params", "rate=%u channels=%u period=%lu buffer=%lu", io->rate, io->channels,
		  (unsigned long)io->period_size, (unsigned long)io->buffer_size);
	pthread_mutex_unlock(&f->lock);
	return f->ring ? 0 : -ENOMEM;
}

static int f_poll_revents(snd_pcm_ioplug_t *io, struct pollfd *pfds, unsigned int nfds,
			  unsigned short *revents)
{
	fault_t *f = io->private_data;
	uint64_t ticks;
	(void)nfds;
	if (read(io->poll_fd, &ticks, sizeof ticks) < 0) {
		/* not due yet */
	}
	pthread_mutex_lock(&f->lock);
	advance(f);
	snd_pcm_state_t state = io->state;
	pthread_mutex_unlock(&f->lock);
	if (state == SND_PCM_STATE_XRUN || state == SND_PCM_STATE_SUSPENDED ||
	    state == SND_PCM_STATE_DISCONNECTED)
		*revents = POLLERR;
	else
		*revents = (pfds[0].revents & POLLIN) ? POLLOUT : 0;
	return 0;
}

static int f_close(snd_pcm_ioplug_t *io)
{
	fault_t *f = io->private_data;
	log_event(f, "close", NULL);
	if (io->poll_fd >= 0)
		close(io->poll_fd);
	if (f->capture_fd >= 0)
		close(f->capture_fd);
	if (f->log)
		fclose(f->log);
	free(f->gone_path);
	free(f->ring);
	pthread_mutex_destroy(&f->lock);
	free(f);
	return 0;
}

static const snd_pcm_ioplug_callback_t callbacks_with_resume = {
	.start = f_start, .stop = f_stop, .pointer = f_pointer, .transfer = f_transfer,
	.close = f_close, .hw_params = f_hw_params, .prepare = f_prepare, .pause = f_pause,
	.resume = f_resume, .poll_revents = f_poll_revents,
};

static const snd_pcm_ioplug_callback_t callbacks_without_resume = {
	.start = f_start, .stop = f_stop, .pointer = f_pointer, .transfer = f_transfer,
	.close = f_close, .hw_params = f_hw_params, .prepare = f_prepare, .pause = f_pause,
	.poll_revents = f_poll_revents,
};

static int parse_cues(fault_t *f, int kind, snd_config_t *n)
{
	char *text = NULL;
	if (snd_config_get_ascii(n, &text) < 0)
		return -EINVAL;
	char *p = text;
	while (*p) {
		char *end;
		unsigned long long v = strtoull(p, &end, 10);
		if (end == p)
			break;
		if (f->cue_count[kind] < MAX_CUES)
			f->cues[kind][f->cue_count[kind]++] = v;
		p = end;
		while (*p == ' ' || *p == ',')
			p++;
	}
	free(text);
	return 0;
}

SND_PCM_PLUGIN_DEFINE_FUNC(motetfault)
{
	snd_config_iterator_t i, next;
	const char *capture = NULL, *log = NULL, *gone = NULL;
	int resume = 0;
	long stall_ms = -1;
	int err;

	(void)root;
	if (stream != SND_PCM_STREAM_PLAYBACK)
		return -EINVAL;
	fault_t *f = calloc(1, sizeof *f);
	if (!f)
		return -ENOMEM;
	pthread_mutex_init(&f->lock, NULL);
	f->capture_fd = -1;
	snd_config_for_each(i, next, conf) {
		snd_config_t *n = snd_config_iterator_entry(i);
		const char *id;
		if (snd_config_get_id(n, &id) < 0)
			continue;
		if (!strcmp(id, "comment") || !strcmp(id, "type") || !strcmp(id, "hint"))
			continue;
		if (!strcmp(id, "capture")) {
			snd_config_get_string(n, &capture);
			continue;
		}
		if (!strcmp(id, "log")) {
			snd_config_get_string(n, &log);
			continue;
		}
		if (!strcmp(id, "gone")) {
			snd_config_get_string(n, &gone);
			continue;
		}
		if (!strcmp(id, "resume")) {
			resume = snd_config_get_bool(n) > 0;
			continue;
		}
		if (!strcmp(id, "unplug_after_write")) {
			char *text = NULL;
			if (snd_config_get_ascii(n, &text) >= 0)
				f->unplug_after_write = strtoull(text, NULL, 10);
			free(text);
			continue;
		}
		if (!strcmp(id, "stall_ms")) {
			snd_config_get_integer(n, &stall_ms);
			continue;
		}
		if (!strcmp(id, "tick_before_queued")) {
			snd_config_get_integer(n, &f->tick_before_queued);
			continue;
		}
		if (!strcmp(id, "tick_early_us")) {
			snd_config_get_integer(n, &f->tick_early_us);
			continue;
		}
		int known = 0;
		for (int k = 0; k < FAULTS; k++)
			if (!strcmp(id, fault_names[k])) {
				parse_cues(f, k, n);
				known = 1;
			}
		if (!known) {
			SNDERR("motetfault: unknown field %s", id);
			free(f);
			return -EINVAL;
		}
	}
	f->supports_resume = resume;
	f->stall_ms = (unsigned)stall_ms;
	if (log)
		f->log = fopen(log, "ae");
	if (gone)
		f->gone_path = strdup(gone);
	if (gone && access(gone, F_OK) == 0) {
		log_event(f, "open-refused", "reason=gone");
		if (f->log)
			fclose(f->log);
		free(f->gone_path);
		free(f);
		return -ENODEV;
	}
	if (capture)
		f->capture_fd = open(capture, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	f->io.version = SND_PCM_IOPLUG_VERSION;
	f->io.name = "Motet fault-injecting test device";
	f->io.callback = resume ? &callbacks_with_resume : &callbacks_without_resume;
	f->io.private_data = f;
	f->io.flags = SND_PCM_IOPLUG_FLAG_BOUNDARY_WA | SND_PCM_IOPLUG_FLAG_MONOTONIC;
	f->io.poll_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	f->io.poll_events = POLLIN;
	f->io.mmap_rw = 0;

	err = snd_pcm_ioplug_create(&f->io, name, stream, mode);
	if (err < 0) {
		f_close(&f->io);
		return err;
	}
	static const unsigned int access_list[] = { SND_PCM_ACCESS_RW_INTERLEAVED };
	static const unsigned int format_list[] = { SND_PCM_FORMAT_S16_LE };
	if ((err = snd_pcm_ioplug_set_param_list(&f->io, SND_PCM_IOPLUG_HW_ACCESS, 1, access_list)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_list(&f->io, SND_PCM_IOPLUG_HW_FORMAT, 1, format_list)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(&f->io, SND_PCM_IOPLUG_HW_CHANNELS, 1, 8)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(&f->io, SND_PCM_IOPLUG_HW_RATE, 8000, 192000)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(&f->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, 64, 1 << 20)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(&f->io, SND_PCM_IOPLUG_HW_PERIODS, 2, 64)) < 0 ||
	    (err = snd_pcm_ioplug_set_param_minmax(&f->io, SND_PCM_IOPLUG_HW_BUFFER_BYTES, 128, 4 << 20)) < 0) {
		snd_pcm_ioplug_delete(&f->io);
		return err;
	}
	log_event(f, "open", "resume=%s", resume ? "yes" : "no");
	*pcmp = f->io.pcm;
	return 0;
}

SND_PCM_PLUGIN_SYMBOL(motetfault);
