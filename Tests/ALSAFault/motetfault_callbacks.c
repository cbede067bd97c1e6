/*
 * motetfault's ioplug callbacks (see motetfault.h): start, stop, pointer, transfer, prepare, pause,
 * resume, hw_params, poll_revents and close, and the two callback tables (with and without resume).
 */
#include "motetfault.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

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

int f_close(snd_pcm_ioplug_t *io)
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

const snd_pcm_ioplug_callback_t callbacks_with_resume = {
	.start = f_start, .stop = f_stop, .pointer = f_pointer, .transfer = f_transfer,
	.close = f_close, .hw_params = f_hw_params, .prepare = f_prepare, .pause = f_pause,
	.resume = f_resume, .poll_revents = f_poll_revents,
};

const snd_pcm_ioplug_callback_t callbacks_without_resume = {
	.start = f_start, .stop = f_stop, .pointer = f_pointer, .transfer = f_transfer,
	.close = f_close, .hw_params = f_hw_params, .prepare = f_prepare, .pause = f_pause,
	.poll_revents = f_poll_revents,
};
