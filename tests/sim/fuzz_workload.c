// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_workload.c - libFuzzer target for the rt-app loader (relaxed_json.c, workload*.c).
 *
 * Any input must either load or fail with a message; a loaded workload must be consistent:
 * every event's ref is inside the table it indexes, every count is within the limits.  A
 * violation aborts, which libFuzzer reports as a crash; ASan reports leaks and overflows.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

static void check_consistent(const struct workload *w)
{
	u32 i, p, e;

	if (w->nr_tasks == 0 || w->nr_tasks > WL_MAX_TASKS)
		abort();
	for (i = 0; i < w->nr_tasks; i++) {
		const struct wl_task *t = &w->tasks[i];

		if (t->nr_phases == 0 || t->nr_phases > WL_MAX_PHASES ||
		    t->instance >= t->nr_instances)
			abort();
		for (p = 0; p < t->nr_phases; p++) {
			const struct wl_phase *ph = &t->phases[p];

			if (ph->nr_events == 0 || ph->nr_events > WL_MAX_EVENTS || ph->loop == 0)
				abort();
			for (e = 0; e < ph->nr_events; e++) {
				const struct wl_event *ev = &ph->events[e];

				if ((ev->type == WL_EV_TIMER &&
				     (ev->ref >= w->nr_timers || ev->period_us == 0)) ||
				    ((ev->type == WL_EV_SUSPEND || ev->type == WL_EV_RESUME) &&
				     ev->ref >= w->nr_queues) ||
				    (ev->type == WL_EV_BARRIER && ev->ref >= w->nr_barriers))
					abort();
			}
		}
	}
	for (i = 0; i < w->nr_timers; i++)
		if (w->timers[i].owner != WL_NO_OWNER && w->timers[i].owner >= w->nr_tasks)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct em_model model;
	struct workload w;
	struct gb_err err;
	u32 cpu;

	memset(&err, 0, sizeof(err));
	if (model.nr_cpus == 0) {
		model.nr_domains = 2;
		model.nr_cpus = 8;
		for (cpu = 0; cpu < 8; cpu++)
			em_cpumask_set(&model.domains[cpu / 4].cpus, cpu);
	}
	if (workload_load_string((const char *)data, size, "fuzz.json", &w, &err) == 0) {
		check_consistent(&w);
		(void)workload_check_model(&w, &model, &err);
		workload_free(&w);
	} else if (err.msg[0] == '\0' || w.nr_tasks || w.tasks) {
		abort(); /* a failure must say why and leave nothing allocated */
	}
	return 0;
}
