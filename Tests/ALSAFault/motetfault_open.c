/*
 * motetfault's configuration and open function (see motetfault.h): the fields of its ALSA
 * configuration, and the plugin's entry point, the one symbol (with its version) it exports.
 */
#include "motetfault.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

static const char *const fault_names[FAULTS] = { "stall_at", "xrun_at", "suspend_at", "unplug_at" };

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
