// SPDX-License-Identifier: GPL-2.0-only
/*
 * scx_fifo - loader of the global-FIFO baseline scheduler (scx_fifo.bpf.c).
 *
 *   scx_fifo [-v] [--park-every N | --kick]
 *
 * loads it and runs until SIGINT/SIGTERM or until the kernel ejects it.  -v prints counters
 * every 100 ms; --park-every N is the deliberately broken mode, --kick the kernel hotplug bug's
 * reproducer (see scx_fifo.bpf.c).
 *
 * Exit status: 0 after a signal or an unregistration, 1 when the kernel ejected the scheduler
 * for an error (stall, BPF error), 2 on bad usage.  When the kernel asks for a restart (CPU
 * hotplug exits a scheduler without cpu_online/offline callbacks with SCX_ECODE_ACT_RESTART),
 * it loads the scheduler again, as the kernel's own example loaders do.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "scx_fifo.skel.h"

#define SCX_EXIT_ERROR	      1024	   /* enum scx_exit_kind */
#define SCX_ECODE_ACT_RESTART (1ull << 48) /* enum scx_exit_code */

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* Loads and attaches once; returns the exit kind/code seen, or -errno on a load failure. */
static int run_once(int verbose, unsigned park_every, bool kick, __u64 *kind, __u64 *code)
{
	struct bpf_link *link;
	struct scx_fifo *skel;
	int rc;

	skel = scx_fifo__open();
	if (!skel) {
		rc = -errno;
		fprintf(stderr, "scx_fifo: error: opening the BPF object: %s\n", strerror(errno));
		return rc;
	}
	skel->rodata->park_every = park_every;
	skel->rodata->spare_tgid = getppid();
	skel->rodata->kick_on_enqueue = kick;
	if (park_every)
		skel->struct_ops.fifo_ops->timeout_ms = 3000;
	/* one of the two ops tables is registered */
	bpf_map__set_autocreate(kick ? skel->maps.fifo_ops : skel->maps.fifo_kick_ops, false);
	rc = scx_fifo__load(skel);
	if (rc) {
		fprintf(stderr, "scx_fifo: error: loading the BPF program: %s\n", strerror(-rc));
		scx_fifo__destroy(skel);
		return rc;
	}
	link = bpf_map__attach_struct_ops(kick ? skel->maps.fifo_kick_ops : skel->maps.fifo_ops);
	if (!link) {
		rc = -errno;
		fprintf(stderr, "scx_fifo: error: attaching: %s\n", strerror(errno));
		scx_fifo__destroy(skel);
		return rc;
	}
	fprintf(stderr, "scx_fifo: attached\n");
	while (!stop_requested && !__atomic_load_n(&skel->bss->gb_exit_kind, __ATOMIC_ACQUIRE)) {
		usleep(100 * 1000);
		if (verbose)
			fprintf(stderr, "scx_fifo: direct %llu queued %llu parked %llu\n",
				(unsigned long long)skel->bss->nr_direct,
				(unsigned long long)skel->bss->nr_queued,
				(unsigned long long)skel->bss->nr_parked);
	}
	bpf_link__destroy(link);
	*kind = skel->bss->gb_exit_kind;
	*code = skel->bss->gb_exit_code;
	fprintf(stderr, "scx_fifo: exit kind %llu code %#llx: %s\n", (unsigned long long)*kind,
		(unsigned long long)*code, skel->bss->gb_exit_msg);
	scx_fifo__destroy(skel);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long park_every = 0;
	__u64 kind = 0, code = 0;
	int verbose = 0;
	bool kick = false;

	for (int i = 1; i < argc; i++) {
		char *end = NULL;

		if (!strcmp(argv[i], "-v")) {
			verbose = 1;
		} else if (!strcmp(argv[i], "--kick")) {
			kick = true;
		} else if (!strcmp(argv[i], "--park-every") && i + 1 < argc) {
			park_every = strtoul(argv[++i], &end, 10);
			if (*end || park_every < 1 || park_every > 1000) {
				fprintf(stderr,
					"scx_fifo: error: --park-every '%s': not in 1..1000\n",
					argv[i]);
				return 2;
			}
		} else {
			fprintf(stderr, "usage: scx_fifo [-v] [--park-every N | --kick]\n");
			return 2;
		}
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (kick && park_every) {
		fprintf(stderr, "scx_fifo: error: --kick and --park-every do not go together\n");
		return 2;
	}
	do {
		kind = code = 0;
		if (run_once(verbose, (unsigned)park_every, kick, &kind, &code) < 0)
			return 1;
	} while (!stop_requested && (code & SCX_ECODE_ACT_RESTART));
	return kind >= SCX_EXIT_ERROR ? 1 : 0;
}
