// SPDX-License-Identifier: GPL-2.0-only
/*
 * gb-bpf-stats - run time per call of every loaded struct_ops BPF program, from the kernel's
 * BPF statistics (kernel.bpf_stats_enabled), for bench/guest-overhead.sh in the VM.  Static and
 * without libbpf (raw bpf(2): BPF_PROG_GET_NEXT_ID, BPF_PROG_GET_FD_BY_ID, BPF_OBJ_GET_INFO_BY_FD)
 * so that it runs in the busybox guest.  Prints one line per program:
 *
 *   BPFSTAT NAME RUN_TIME_NS RUN_CNT
 *
 * The counters run from the time the statistics were enabled (or the program loaded, if
 * later); the caller takes ns per call as RUN_TIME_NS / RUN_CNT.  Exit status 1 when nothing
 * could be read (not root, no bpf(2)).
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

int main(void)
{
	__u32 id = 0;
	int shown = 0;

	for (;;) {
		union bpf_attr attr;
		struct bpf_prog_info info;
		int fd;

		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		if (sys_bpf(BPF_PROG_GET_NEXT_ID, &attr)) {
			if (errno != ENOENT) {
				perror("gb-bpf-stats: BPF_PROG_GET_NEXT_ID");
				return 1;
			}
			break;
		}
		id = attr.next_id;
		memset(&attr, 0, sizeof(attr));
		attr.prog_id = id;
		fd = (int)sys_bpf(BPF_PROG_GET_FD_BY_ID, &attr);
		if (fd < 0)
			continue; /* unloaded meanwhile */
		memset(&info, 0, sizeof(info));
		memset(&attr, 0, sizeof(attr));
		attr.info.bpf_fd = (__u32)fd;
		attr.info.info_len = sizeof(info);
		attr.info.info = (__u64)(unsigned long)&info;
		if (!sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) &&
		    info.type == BPF_PROG_TYPE_STRUCT_OPS) {
			printf("BPFSTAT %s %llu %llu\n", info.name[0] ? info.name : "?",
			       (unsigned long long)info.run_time_ns,
			       (unsigned long long)info.run_cnt);
			shown++;
		}
		close(fd);
	}
	return shown ? 0 : 1;
}
