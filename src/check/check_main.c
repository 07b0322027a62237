// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_main.c - `gearbox-check`, the same command as `gearbox check` in a static executable
 * that needs nothing but the kernel: it goes into the VM's initramfs, and it can be copied to
 * any machine whose kernel has sched_ext.
 */
#include "commands.h"

int main(int argc, char **argv)
{
	return cmd_check(argc, argv);
}
