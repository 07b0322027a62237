// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm-exit - ends the VM with a status for the host: writes N to qemu's isa-debug-exit port
 * (0xf4), which makes qemu exit with (N << 1) | 1.  The guest kernel has no /dev/port, so this
 * is a static binary using ioperm() + outl().
 *
 *   vm-exit N      N in 0..127
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>

int main(int argc, char **argv)
{
	long n = argc == 2 ? strtol(argv[1], NULL, 10) : -1;

	if (n < 0 || n > 127) {
		fprintf(stderr, "usage: vm-exit N (0..127)\n");
		return 2;
	}
	if (ioperm(0xf4, 4, 1) < 0) {
		perror("vm-exit: ioperm");
		return 1;
	}
	outl((unsigned)n, 0xf4);
	perror("vm-exit: still running after the write to port 0xf4 (no isa-debug-exit?)");
	return 1;
}
