// SPDX-License-Identifier: GPL-2.0-only
/*
 * linux.c - the linux platform of linux.h: glue between cpufreq, the power source and the
 * load, behind struct prof_platform.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linux_impl.h"

struct prof_linux {
	struct prof_linux_opts o;
	struct lx_cpufreq cf;
	struct lx_power *power;
	struct lx_load *load;
	struct prof_topology topo;
	bool loaded;
	u32 cur_dom;
};

void prof_linux_opts_default(struct prof_linux_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sysfs_cpu = PROF_LINUX_SYSFS_CPU;
	o->state_path = PROF_LINUX_STATE;
	o->opp_step_khz = 100000;
}

static int lx_set_freq(void *ctx, u32 d, u32 freq_khz, struct gb_err *err)
{
	struct prof_linux *lx = ctx;

	lx->cur_dom = d;
	return lx_cpufreq_set(&lx->cf, d, freq_khz, err);
}

static int lx_set_load(void *ctx, const struct em_cpumask *cpus, struct gb_err *err)
{
	struct prof_linux *lx = ctx;

	lx->loaded = cpus != NULL;
	return lx_load_set(lx->load, cpus, err);
}

static int lx_window(void *ctx, u64 duration_ns, struct prof_window *w, struct gb_err *err)
{
	struct prof_linux *lx = ctx;
	struct lx_counts c0, c1;
	u64 start = lx_now_ns();
	int ret;

	lx_load_counts(lx->load, &c0);
	ret = lx_power_window(lx->power, duration_ns, w, err);
	if (ret < 0)
		return ret;
	lx_load_counts(lx->load, &c1);
	w->duration_ns = lx_now_ns() - start;
	if (!lx->loaded)
		return 0;
	w->work = c1.work - c0.work;
	w->task_clock_ns = lx->o.perf_wall ? 0 : c1.task_ns - c0.task_ns;
	w->cycles = c1.cycles - c0.cycles;
	w->instructions = c1.instructions - c0.instructions;
	if (lx->o.verify == PROF_VERIFY_CUR_FREQ) {
		u32 khz = 0;

		/* the frequency the kernel reports, standing in for a cycle count */
		lx_cpufreq_cur_khz(&lx->cf, lx->cur_dom, &khz);
		w->cycles =
		    (u64)khz * (w->task_clock_ns ? w->task_clock_ns : w->duration_ns) / 1000000;
	}
	return 0;
}

static void lx_wait(void *ctx, u64 ns)
{
	(void)ctx;
	lx_sleep_ns(ns);
}

static u64 lx_now(void *ctx)
{
	(void)ctx;
	return lx_now_ns();
}

static int lx_temp(void *ctx, int *mc)
{
	return lx_power_temp_mc(((struct prof_linux *)ctx)->power, mc);
}

static void read_identity(struct prof_topology *t)
{
	char buf[256];

	if (lx_read_str("/sys/firmware/devicetree/base/compatible", buf, sizeof(buf)) == 0) {
		/* "vendor,board\0vendor,soc": the last string names the SoC */
		size_t n = strlen(buf);
		const char *last = buf;

		for (size_t i = 0; i < n; i++)
			if (buf[i] == ',' && i + 1 < n)
				last = buf + i + 1;
		snprintf(t->soc, sizeof(t->soc), "%s", last);
	} else {
		snprintf(t->soc, sizeof(t->soc), "unknown");
	}
	if (lx_read_str("/sys/firmware/devicetree/base/model", buf, sizeof(buf)) == 0 ||
	    lx_read_str("/sys/devices/virtual/dmi/id/product_name", buf, sizeof(buf)) == 0)
		snprintf(t->device, sizeof(t->device), "%s", buf);
	else
		snprintf(t->device, sizeof(t->device), "unknown");
}

int prof_perf_select(enum prof_perf_want want, const struct prof_perf_probe *probe,
		     enum prof_perf_src *src, char *why, size_t why_len, struct gb_err *err)
{
	const char *no = NULL;
	char buf[96];

	*src = PROF_PERF_ITERATIONS;
	if (want == PROF_PERF_WANT_ITERATIONS) {
		snprintf(why, why_len, "load iterations per second (--perf-source iterations)");
		return 0;
	}
	if (probe->open_err < 0) {
		snprintf(buf, sizeof(buf), "no hardware instructions counter (perf_event_open: %s)",
			 strerror(-probe->open_err));
		no = buf;
	} else if (probe->time_running_ns == 0) {
		no = "the instructions counter opened but was never scheduled on the PMU";
	} else if (probe->instructions == 0) {
		no = "the instructions counter opened but counted nothing";
	}
	if (no && want == PROF_PERF_WANT_INSTRUCTIONS)
		return gb_err_set(err, ENODEV,
				  "--perf-source instructions: %s; use "
				  "--perf-source auto to fall back to the load's iteration count",
				  no);
	if (no) {
		snprintf(why, why_len, "load iterations per second: %s", no);
		return 0;
	}
	*src = PROF_PERF_INSTRUCTIONS;
	snprintf(why, why_len,
		 "instructions per second (libperf, PERF_COUNT_HW_INSTRUCTIONS, "
		 "user space)");
	return 0;
}

int prof_linux_open(const struct prof_linux_opts *o, struct prof_linux **out, struct gb_err *err)
{
	struct prof_linux *lx = calloc(1, sizeof(*lx));
	struct prof_perf_probe probe;
	int ret;

	if (!lx)
		return gb_err_set(err, ENOMEM, "out of memory");
	lx->o = *o;
	read_identity(&lx->topo);
	ret = lx_cpufreq_discover(o->sysfs_cpu, o->opp_step_khz ? o->opp_step_khz : 100000, &lx->cf,
				  &lx->topo, err);
	if (ret == 0)
		ret = lx_power_open(o, &lx->power, lx->topo.power_source,
				    sizeof(lx->topo.power_source), err);
	if (ret == 0)
		ret = lx_load_open(&lx->load, &probe, err);
	if (ret == 0)
		ret = prof_perf_select(o->perf_want, &probe, &lx->topo.perf_src, lx->topo.perf_why,
				       sizeof(lx->topo.perf_why), err);
	if (ret == 0)
		ret = lx_cpufreq_take(&lx->cf, o->state_path, err);
	if (ret < 0) {
		struct gb_err rerr;
		char first[GB_ERR_MSG_LEN];

		if (lx->cf.state_written && lx_cpufreq_restore(&lx->cf, &rerr) < 0) {
			snprintf(first, sizeof(first), "%s", err->msg);
			gb_err_set(err, EIO, "%.200s; restoring failed too: %.200s", first,
				   rerr.msg);
		}
		lx_load_close(lx->load);
		lx_power_close(lx->power);
		free(lx);
		return ret;
	}
	*out = lx;
	return 0;
}

void prof_linux_platform(struct prof_linux *lx, struct prof_platform *pf,
			 struct prof_topology *topo)
{
	memset(pf, 0, sizeof(*pf));
	pf->ctx = lx;
	pf->name = "linux";
	pf->set_freq = lx_set_freq;
	pf->set_load = lx_set_load;
	pf->window = lx_window;
	pf->wait = lx_wait;
	pf->now_ns = lx_now;
	pf->temp_mc = lx_temp;
	*topo = lx->topo;
}

void prof_linux_restore_now(const struct prof_linux *lx)
{
	if (lx)
		lx_cpufreq_restore_now(&lx->cf);
}

int prof_linux_close(struct prof_linux *lx, struct gb_err *err)
{
	int ret;

	if (!lx)
		return 0;
	lx_load_close(lx->load);
	ret = lx_cpufreq_restore(&lx->cf, err);
	lx_power_close(lx->power);
	free(lx);
	return ret;
}
