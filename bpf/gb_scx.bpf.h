/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_scx.bpf.h - what every gearbox sched_ext BPF program includes: the VM kernel's types
 * (vmlinux.h from its BTF, kfunc prototypes included, since bpftool 7.8 emits them), libbpf's
 * BPF helpers, and the two section macros for struct_ops callbacks.  The kernel's own
 * tools/sched_ext/include/scx/common.bpf.h does much more (compat shims for older kernels); we
 * target one kernel series, so we keep to this and say so when a kfunc is missing.
 */
#ifndef GEARBOX_GB_SCX_BPF_H
#define GEARBOX_GB_SCX_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* A struct_ops callback, and a sleepable one (ops.init must be: it creates DSQs). */
#define BPF_STRUCT_OPS(name, args...)		SEC("struct_ops/" #name) BPF_PROG(name, ##args)
#define BPF_STRUCT_OPS_SLEEPABLE(name, args...) SEC("struct_ops.s/" #name) BPF_PROG(name, ##args)

/* The ops table: .struct_ops.link makes libbpf attach it through a BPF link, so that the
 * scheduler goes away with the loader process (SIGKILL falls back to the fair class). */
#define GB_SCX_OPS(__name, ...) SEC(".struct_ops.link") struct sched_ext_ops __name = {__VA_ARGS__}

/* Exit info copied out of ops.exit for the loader (skeleton .bss; u64 for the skeleton). */
#define GB_SCX_EXIT_MSG_LEN 128
#define GB_SCX_EXIT_INFO                                                                           \
	__u64 gb_exit_kind;                                                                        \
	__u64 gb_exit_code;                                                                        \
	char gb_exit_msg[GB_SCX_EXIT_MSG_LEN]

static __always_inline void gb_scx_record_exit(struct scx_exit_info *ei, __u64 *kind, __u64 *code,
					       char *msg)
{
	/* msg says what happened ("cpu 3 going offline..."), reason only the class of exit */
	if (bpf_probe_read_kernel_str(msg, GB_SCX_EXIT_MSG_LEN, ei->msg) <= 1)
		bpf_probe_read_kernel_str(msg, GB_SCX_EXIT_MSG_LEN, ei->reason);
	*code = ei->exit_code;
	/* kind last: the loader polls it and then reads the rest (clang 16 has no BPF
	 * store-release; the x86 loader only needs the compiler to keep the order) */
	asm volatile("" ::: "memory");
	*kind = ei->kind;
}

#endif
