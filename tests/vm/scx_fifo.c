// SPDX-License-Identifier: GPL-2.0-only
/*
 * scx_fifo - loader of the global-FIFO baseline scheduler (scx_fifo.bpf.c).
 *
 *   scx_fifo [-v]     load it, run until SIGINT/SIGTERM or until the kernel ejects it
 *
 * Exit status: 0 after a signal or an unregistration, 1 when the kernel ejected the scheduler
 * for an error (stall, BPF error), 2 on bad usage.  When the kernel asks for a restart (CPU
 * hotplug exits a scheduler without cpu_online/offline callbacks with SCX_ECODE_ACT_RESTART),
 * it loads the scheduler again, as the kernel's own example loaders do.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "scx_fifo.skel.h"

#define SCX_EXIT_ERROR 1024             /* enum scx_exit_kind */
#define SCX_ECODE_ACT_RESTART (1ull << 48) /* enum scx_exit_code */

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* Loads and attaches once; returns the exit kind/code seen, or -errno on a load failure. */
static int run_once(int verbose, __u64 *kind, __u64 *code)
{
	struct bpf_link *link;
	struct scx_fifo *skel;
	int rc;

	skel = scx_fifo__open_and_load();
	if (!skel) {
		rc = -errno;
		fprintf(stderr, "scx_fifo: error: loading the BPF program: %s\n", strerror(errno));
		return rc;
	}
	link = bpf_map__attach_struct_ops(skel->maps.fifo_ops);
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
			fprintf(stderr, "scx_fifo: direct %llu queued %llu\n",
				(unsigned long long)skel->bss->nr_direct,
				(unsigned long long)skel->bss->nr_queued);
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
	int verbose = argc > 1 && !strcmp(argv[1], "-v");
	__u64 kind = 0, code = 0;

	if (argc > 2 || (argc == 2 && !verbose)) {
		fprintf(stderr, "usage: scx_fifo [-v]\n");
		return 2;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	do {
		kind = code = 0;
		if (run_once(verbose, &kind, &code) < 0)
			return 1;
	} while (!stop_requested && (code & SCX_ECODE_ACT_RESTART));
	return kind >= SCX_EXIT_ERROR ? 1 : 0;
}
