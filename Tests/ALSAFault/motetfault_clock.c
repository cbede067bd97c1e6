/*
 * motetfault's clock (see motetfault.h): the run-wide counters, the log, the hardware pointer that
 * follows CLOCK_MONOTONIC and plays what it passes into the capture, the period ticks, and the
 * faults that fire when the pointer reaches their frame.
 */
#include "motetfault.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

/* Frames played across reopens within one process (the player reopens after losing the device). */
static uint64_t run_total;
static int fired[FAULTS][MAX_CUES];
/* Frames given by the application across reopens, and whether unplug_after_write has fired. */
uint64_t run_written;
int unplug_after_write_fired;

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void log_event(fault_t *f, const char *event, const char *fmt, ...)
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

void clock_rebase(fault_t *f, int running)
{
	f->clock_start_ns = now_ns();
	f->played_at_start = f->played;
	f->clock_running = running;
}

/* With tick_before_queued: the next tick comes tick_early_us before the queue falls to that many
 * frames, then one every period. With the lock. */
void rephase_ticks(fault_t *f)
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
void fire(fault_t *f, int kind, long long late_us)
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
void arm_for_next_cue(fault_t *f)
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
void advance(fault_t *f)
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
