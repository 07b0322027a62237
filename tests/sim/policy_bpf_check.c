/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * policy_bpf_check.c - proves that the shared policy headers compile for BPF
 * (clang -target bpf -O2 -c): every entry point is instantiated once.  It has its own minimal
 * kernel types because vmlinux.h belongs to bpf/ and needs a BTF kernel.
 */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef int s32;
typedef long long s64;
typedef _Bool bool;
#define true 1
#define false 0

#include "gb_pelt.h"
#include "gb_policy.h"

struct em_model model;
struct gb_cpu cpus[EM_MAX_CPUS];
struct gb_task tsk;
struct gb_scratch scratch;
struct gb_decision decision;
struct gb_pelt pelt;

__attribute__((section("tc"), used)) int policy_entry_points(void *ctx)
{
	u32 idx;

	(void)ctx;
	gb_pelt_update(&pelt, 5000, 512, 512);
	gb_util_est_dequeue(&pelt);
	gb_select_cpu(&model, cpus, &tsk, &scratch, &decision);
	gb_check_misfit(&model, cpus, &tsk, 1, 10000, 8000, &scratch, &decision);
	return (int)gb_domain_perf_target(&model, cpus, 0, &idx) +
	       gb_domain_overutilized(&model, cpus, 1);
}
