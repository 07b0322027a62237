// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_workload.c - the rt-app loader reads every supported key into the right place, expands
 * instances as rt-app does, accepts rt-app's own files, and checks a workload against a model.
 * The rejections live in test_workload_errors.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "relaxed_json.h"
#include "tap.h"
#include "workload.h"

static struct workload w;
static struct gb_err err;

static int load_fixture(const char *name)
{
	char path[512];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", WORKLOADS_DIR, name);
	memset(&err, 0, sizeof(err));
	ret = workload_load_file(path, &w, &err);
	if (ret)
		printf("# %s\n", err.msg);
	return ret;
}

static const struct wl_task *task_named(const char *name)
{
	u32 i;

	for (i = 0; i < w.nr_tasks; i++)
		if (!strcmp(w.tasks[i].name, name))
			return &w.tasks[i];
	return NULL;
}

static const struct wl_phase *phase_named(const struct wl_task *t, const char *name)
{
	u32 i;

	for (i = 0; t && i < t->nr_phases; i++)
		if (!strcmp(t->phases[i].name, name))
			return &t->phases[i];
	return NULL;
}

static unsigned mask_bits(const struct em_cpumask *m)
{
	unsigned bits = 0, cpu;

	for (cpu = 0; cpu < 32; cpu++)
		if (em_cpumask_test(m, cpu))
			bits |= 1u << cpu;
	return bits;
}

static void test_global_keys_are_parsed_with_duration_in_us(void)
{
	CHECK_EQ_I(load_fixture("all-features.json"), 0);
	CHECK_EQ_U(w.global.duration_us, 3000000);
	CHECK_EQ_I(w.global.calibration_cpu, 4);
	CHECK_EQ_U(w.global.calibration_ns_per_loop, 0);
	CHECK_EQ_I(w.global.default_policy, WL_SCHED_FIFO);
	workload_free(&w);
}

static void test_instances_expand_into_tasks_named_like_rtapp(void)
{
	CHECK_EQ_I(load_fixture("all-features.json"), 0);
	CHECK_EQ_U(w.nr_tasks, 4);
	if (w.nr_tasks == 4) {
		CHECK(!strcmp(w.tasks[0].name, "big-0"));
		CHECK(!strcmp(w.tasks[1].name, "big-1"));
		CHECK(!strcmp(w.tasks[2].name, "rt-0"));
		CHECK(!strcmp(w.tasks[3].name, "dl-0"));
		CHECK(!strcmp(w.tasks[1].base, "big"));
		CHECK_EQ_U(w.tasks[1].instance, 1);
		CHECK_EQ_U(w.tasks[1].nr_instances, 2);
		CHECK_EQ_U(w.tasks[2].nr_instances, 1);
	}
	workload_free(&w);
}

static void test_task_keys_are_parsed(void)
{
	const struct wl_task *t;

	CHECK_EQ_I(load_fixture("all-features.json"), 0);
	t = task_named("big-1");
	CHECK(t != NULL);
	if (t) {
		CHECK_EQ_I(t->loop, 5);
		CHECK_EQ_U(t->delay_us, 1500);
		CHECK(!t->cpus_all);
		CHECK_EQ_U(mask_bits(&t->cpus), (1u << 4) | (1u << 5) | (1u << 7));
		CHECK_EQ_I(t->sched.policy, WL_SCHED_OTHER);
		CHECK_EQ_I(t->sched.nice, -5);
		CHECK_EQ_U(t->sched.slice_us, 800);
		CHECK_EQ_U(t->uclamp.set, WL_UCLAMP_MIN | WL_UCLAMP_MAX);
		CHECK_EQ_U(t->uclamp.min, 128);
		CHECK_EQ_U(t->uclamp.max, 900);
		CHECK_EQ_U(t->nr_phases, 2);
	}
	t = task_named("rt-0");
	CHECK(t != NULL);
	if (t) {
		CHECK_EQ_I(t->loop, WL_LOOP_FOREVER); /* rt-app's default */
		CHECK(t->cpus_all);
		CHECK_EQ_U(t->uclamp.set, 0);
		CHECK_EQ_U(t->uclamp.max, EM_CAPACITY_SCALE);
	}
	workload_free(&w);
}

static void test_phase_keys_and_events_keep_file_order(void)
{
	const struct wl_phase *p;

	CHECK_EQ_I(load_fixture("all-features.json"), 0);
	p = phase_named(task_named("big-0"), "warm");
	CHECK(p != NULL);
	if (!p) {
		workload_free(&w);
		return;
	}
	CHECK_EQ_I(p->loop, 3);
	CHECK(p->cpus_own && !p->cpus_all);
	CHECK_EQ_U(mask_bits(&p->cpus), 1u << 6);
	CHECK_EQ_U(p->uclamp.set, WL_UCLAMP_MAX);
	CHECK_EQ_U(p->uclamp.max, 512);
	CHECK_EQ_U(p->nr_events, 5);
	if (p->nr_events == 5) {
		CHECK_EQ_I(p->events[0].type, WL_EV_RUN);
		CHECK_EQ_U(p->events[0].duration_us, 1000);
		CHECK_EQ_I(p->events[1].type, WL_EV_RUNTIME);
		CHECK_EQ_U(p->events[1].duration_us, 2000);
		CHECK_EQ_I(p->events[2].type, WL_EV_SLEEP);
		CHECK_EQ_U(p->events[2].duration_us, 3000);
		CHECK_EQ_I(p->events[3].type, WL_EV_TIMER);
		CHECK_EQ_U(p->events[3].period_us, 16000);
		CHECK_EQ_I(p->events[4].type, WL_EV_RUN);
		CHECK_EQ_U(p->events[4].duration_us, 4000);
		CHECK(!strcmp(p->events[0].key, "run"));
		CHECK(!strcmp(p->events[4].key, "run1")); /* workgen's name for the repeat */
	}
	workload_free(&w);
}

static void test_phase_without_cpus_takes_the_tasks_affinity(void)
{
	const struct wl_phase *p;

	CHECK_EQ_I(load_fixture("all-features.json"), 0);
	p = phase_named(task_named("big-0"), "own");
	CHECK(p != NULL);
	if (p) {
		CHECK(!p->cpus_own && !p->cpus_all);
		CHECK_EQ_U(mask_bits(&p->cpus), (1u << 4) | (1u << 5) | (1u << 7));
		CHECK_EQ_I(p->loop, 1);
		CHECK_EQ_U(p->uclamp.set, WL_UCLAMP_MIN);
		CHECK_EQ_U(p->uclamp.min, 0);
	}
	p = phase_named(task_named("rt-0"), "");
	CHECK(p != NULL);
	if (p)
		CHECK(p->cpus_all);
	workload_free(&w);
}

static void test_timers_are_shared_by_ref_except_unique_ones(void)
{
	const struct wl_task *b0, *b1, *rt;

	CHECK_EQ_I(load_fixture("all-features.json"), 0);
	b0 = task_named("big-0");
	b1 = task_named("big-1");
	rt = task_named("rt-0");
	CHECK(b0 && b1 && rt);
	CHECK_EQ_U(w.nr_timers, 3); /* "tick" once, "unique" per instance of big */
	if (b0 && b1 && rt && w.nr_timers == 3) {
		u32 tick = b0->phases[0].events[3].ref;
		u32 u0 = b0->phases[1].events[0].ref, u1 = b1->phases[1].events[0].ref;

		CHECK_EQ_U(b1->phases[0].events[3].ref, tick);
		CHECK_EQ_U(rt->phases[0].events[2].ref, tick);
		CHECK(!strcmp(w.timers[tick].name, "tick"));
		CHECK_EQ_I(w.timers[tick].mode, WL_TIMER_ABSOLUTE);
		CHECK_EQ_U(w.timers[tick].owner, WL_NO_OWNER);
		CHECK(u0 != u1);
		CHECK_EQ_I(w.timers[u0].mode, WL_TIMER_RELATIVE);
		CHECK_EQ_U(w.timers[u0].owner, (u32)(b0 - w.tasks));
		CHECK_EQ_U(w.timers[u1].owner, (u32)(b1 - w.tasks));
		CHECK_EQ_U(b0->phases[1].events[0].period_us, 10000);
	}
	workload_free(&w);
}

static void test_bare_suspend_waits_on_own_task_name_and_resume_finds_it(void)
{
	const struct wl_task *b0, *b1, *rt;

	CHECK_EQ_I(load_fixture("all-features.json"), 0);
	b0 = task_named("big-0");
	b1 = task_named("big-1");
	rt = task_named("rt-0");
	CHECK_EQ_U(w.nr_queues, 1);
	if (b0 && b1 && rt && w.nr_queues == 1) {
		const struct wl_event *s = &b0->phases[1].events[3];

		CHECK_EQ_I(s->type, WL_EV_SUSPEND);
		CHECK(!strcmp(w.queues[s->ref].name, "big"));
		CHECK_EQ_U(w.queues[s->ref].nr_suspenders, 2);
		CHECK_EQ_U(b1->phases[1].events[3].ref, s->ref);
		CHECK_EQ_I(rt->phases[0].events[1].type, WL_EV_RESUME);
		CHECK_EQ_U(rt->phases[0].events[1].ref, s->ref);
		CHECK_EQ_I(b0->phases[1].events[2].type, WL_EV_YIELD);
	}
	workload_free(&w);
}

static void test_barrier_counts_every_instance_that_uses_it(void)
{
	const struct wl_task *b0, *rt;

	CHECK_EQ_I(load_fixture("all-features.json"), 0);
	b0 = task_named("big-0");
	rt = task_named("rt-0");
	CHECK_EQ_U(w.nr_barriers, 1);
	if (b0 && rt && w.nr_barriers == 1) {
		CHECK_EQ_I(b0->phases[1].events[1].type, WL_EV_BARRIER);
		CHECK_EQ_U(b0->phases[1].events[1].ref, 0);
		CHECK_EQ_U(rt->phases[0].events[3].ref, 0);
		CHECK(!strcmp(w.barriers[0].name, "sync"));
		CHECK_EQ_U(w.barriers[0].nr_users, 3);
	}
	workload_free(&w);
}

static void test_rt_and_deadline_policies_take_their_parameters(void)
{
	const struct wl_task *rt, *dl;

	CHECK_EQ_I(load_fixture("all-features.json"), 0);
	rt = task_named("rt-0");
	dl = task_named("dl-0");
	CHECK(rt && dl);
	if (rt && dl) {
		CHECK_EQ_I(rt->sched.policy, WL_SCHED_FIFO); /* global default_policy */
		CHECK_EQ_U(rt->sched.rt_priority, 50);
		CHECK_EQ_I(rt->sched.nice, 0);
		CHECK_EQ_U(rt->sched.slice_us, 0); /* none given: the scheduler's default */
		CHECK_EQ_I(dl->sched.policy, WL_SCHED_DEADLINE);
		CHECK_EQ_U(dl->sched.dl_runtime_us, 1000);
		CHECK_EQ_U(dl->sched.dl_period_us, 10000);
		CHECK_EQ_U(dl->sched.dl_deadline_us, 10000); /* defaults to the period */
		CHECK_EQ_U(dl->phases[0].nr_events, 2);
		CHECK_EQ_I(dl->phases[0].events[0].type, WL_EV_YIELD);
		CHECK_EQ_I(dl->phases[0].events[1].type, WL_EV_RUNTIME);
	}
	workload_free(&w);
}

static void test_defaults_without_global(void)
{
	static const char text[] = "{ \"tasks\": { \"t\": { \"run\": 10, \"priority\": 0 } } }";

	CHECK_EQ_I(workload_load_string(text, sizeof(text) - 1, "t.json", &w, &err), 0);
	CHECK_EQ_U(w.global.duration_us, WL_DURATION_UNBOUNDED);
	CHECK_EQ_I(w.global.calibration_cpu, 0);
	CHECK_EQ_I(w.global.default_policy, WL_SCHED_OTHER);
	CHECK_EQ_U(w.nr_tasks, 1);
	if (w.nr_tasks == 1) {
		CHECK(!strcmp(w.tasks[0].name, "t-0"));
		CHECK_EQ_U(w.tasks[0].nr_phases, 1);
		CHECK(!strcmp(w.tasks[0].phases[0].name, ""));
		CHECK_EQ_I(w.tasks[0].phases[0].loop, 1);
	}
	workload_free(&w);
}

static void test_integer_calibration_is_ns_per_loop(void)
{
	static const char text[] = "{ \"global\": { \"calibration\": 138 },"
				   "  \"tasks\": { \"t\": { \"run\": 10 } } }";

	CHECK_EQ_I(workload_load_string(text, sizeof(text) - 1, "t.json", &w, &err), 0);
	CHECK_EQ_I(w.global.calibration_cpu, -1);
	CHECK_EQ_U(w.global.calibration_ns_per_loop, 138);
	workload_free(&w);
}

static void test_rtapp_example7_barriers_comments_trailing_commas(void)
{
	CHECK_EQ_I(load_fixture("rtapp-example7.json"), 0);
	CHECK_EQ_U(w.nr_tasks, 2);
	CHECK_EQ_U(w.nr_barriers, 3);
	CHECK_EQ_U(w.global.duration_us, 5000000);
	if (w.nr_tasks == 2) {
		const struct wl_phase *p = &w.tasks[0].phases[0];

		CHECK_EQ_U(p->nr_events, 8);
		CHECK(!strcmp(p->events[0].key, "runtime1"));
		CHECK_EQ_I(p->events[0].type, WL_EV_RUNTIME);
		CHECK_EQ_I(p->events[2].type, WL_EV_BARRIER);
		CHECK(!strcmp(w.barriers[p->events[2].ref].name, "FIRST"));
		CHECK_EQ_U(w.barriers[p->events[2].ref].nr_users, 2);
	}
	workload_free(&w);
}

static void test_rtapp_spreading_tasks_repeated_phase_is_a_new_phase(void)
{
	CHECK_EQ_I(load_fixture("rtapp-spreading-tasks.json"), 0);
	CHECK_EQ_U(w.nr_tasks, 2);
	if (w.nr_tasks == 2) {
		const struct wl_task *t = &w.tasks[1];

		CHECK_EQ_U(t->nr_phases, 4);
		if (t->nr_phases == 4) {
			CHECK(!strcmp(t->phases[1].name, "heavy1"));
			CHECK(!strcmp(t->phases[3].name, "heavy11"));
			CHECK_EQ_I(t->phases[3].loop, 600);
			CHECK_EQ_I(t->phases[2].loop, 300);
		}
	}
	workload_free(&w);
}

static void test_rtapp_example3_unique_timer_per_instance(void)
{
	CHECK_EQ_I(load_fixture("rtapp-example3.json"), 0);
	CHECK_EQ_U(w.nr_tasks, 12);
	CHECK_EQ_U(w.nr_timers, 12);
	if (w.nr_tasks == 12) {
		/* Both phases of one thread use the same "unique" timer. */
		CHECK_EQ_U(w.tasks[5].phases[0].events[1].ref, w.tasks[5].phases[1].events[1].ref);
		CHECK(w.tasks[5].phases[0].events[1].ref != w.tasks[6].phases[0].events[1].ref);
		CHECK(!strcmp(w.tasks[11].name, "thread0-11"));
	}
	workload_free(&w);
}

static void test_rtapp_example4_resume_chain_between_tasks(void)
{
	CHECK_EQ_I(load_fixture("rtapp-example4.json"), 0);
	CHECK_EQ_U(w.nr_queues, 2);
	if (w.nr_tasks == 2 && w.nr_queues == 2) {
		const struct wl_event *e0 = w.tasks[0].phases[0].events;
		const struct wl_event *e1 = w.tasks[1].phases[0].events;

		CHECK_EQ_I(e0[1].type, WL_EV_RESUME);
		CHECK_EQ_U(e0[1].ref, e1[2].ref); /* thread0 resumes where thread1 waits */
		CHECK_EQ_U(e1[1].ref, e0[2].ref);
		CHECK(!strcmp(w.queues[e0[2].ref].name, "thread0"));
	}
	workload_free(&w);
}

static void test_rtapp_mp3_is_rejected_for_its_mutexes(void)
{
	CHECK(load_fixture("rtapp-mp3-short.json") == -EINVAL);
	CHECK_STR_CONTAINS(err.msg,
			   "rtapp-mp3-short.json: task mp3.decoder, event lock: not supported");
	CHECK_STR_CONTAINS(err.msg, "mutexes are not modeled");
}

static void test_relaxed_json_rewrites_to_strict_in_order(void)
{
	static const char text[] =
	    "{ /* c */ \"a\": 1, // x\n \"a\": [1, 2,], \"s\", \"a\": {},\n}";
	char *out = NULL;
	size_t len = 0;

	CHECK_EQ_I(relaxed_json_to_strict(text, sizeof(text) - 1, &out, &len, NULL, &err), 0);
	CHECK_STR_CONTAINS(out, "\"a\":");
	CHECK_STR_CONTAINS(out, "\"a\\u001f1\":");
	CHECK_STR_CONTAINS(out, "\"a\\u001f2\":");
	CHECK_STR_CONTAINS(out, "[1, 2 ]");
	CHECK_STR_CONTAINS(out, "\"s\":null");
	CHECK(strchr(out, '/') == NULL);
	CHECK(out && strchr(out, '\n') != NULL); /* the comment's line is kept */
	CHECK(out && strstr(out, "\"a\":") < strstr(out, "\"a\\u001f1\""));
	free(out);
}

static void test_relaxed_json_errors_give_the_source_line(void)
{
	static const char text[] = "{\n /* a\n comment */\n \"a\": 1\n \"b\": 2 }";
	char *out = NULL;
	size_t len = 0;

	CHECK_EQ_I(relaxed_json_to_strict(text, sizeof(text) - 1, &out, &len, NULL, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "line 5");
	CHECK_STR_CONTAINS(err.msg, "expected ',' or '}'");
	CHECK(out == NULL);
}

static void make_model(struct em_model *m, unsigned nr_cpus)
{
	unsigned cpu;

	memset(m, 0, sizeof(*m));
	m->nr_domains = 2;
	m->nr_cpus = nr_cpus;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		em_cpumask_set(&m->domains[cpu < nr_cpus / 2 ? 0 : 1].cpus, cpu);
}

static void test_check_model_accepts_affinity_inside_the_model(void)
{
	struct em_model *m = malloc(sizeof(*m));

	CHECK_EQ_I(load_fixture("all-features.json"), 0);
	make_model(m, 8);
	CHECK_EQ_I(workload_check_model(&w, m, &err), 0);
	workload_free(&w);
	free(m);
}

static void test_check_model_rejects_cpu_the_model_lacks(void)
{
	struct em_model *m = malloc(sizeof(*m));
	static const char text[] =
	    "{ \"global\": { \"calibration\": \"CPU0\" }, \"tasks\": {"
	    " \"t\": { \"phases\": { \"p\": { \"cpus\": [1, 9], \"run\": 1 } } } } }";

	make_model(m, 6);
	CHECK_EQ_I(load_fixture("all-features.json"), 0);
	CHECK_EQ_I(workload_check_model(&w, m, &err), -EINVAL);
	/* calibration CPU4 exists in a 6-CPU model; big's CPU 7 does not */
	CHECK_STR_CONTAINS(err.msg, "all-features.json: task big: 'cpus' has CPU 7");
	workload_free(&w);

	CHECK_EQ_I(workload_load_string(text, sizeof(text) - 1, "t.json", &w, &err), 0);
	CHECK_EQ_I(workload_check_model(&w, m, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "t.json: task t, phase p: 'cpus' has CPU 9");
	workload_free(&w);

	make_model(m, 4);
	CHECK_EQ_I(load_fixture("all-features.json"), 0);
	CHECK_EQ_I(workload_check_model(&w, m, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "calibration CPU4 is not in the model");
	workload_free(&w);
	free(m);
}

static void test_names_of_events_and_policies(void)
{
	CHECK(!strcmp(wl_event_type_name(WL_EV_RUNTIME), "runtime"));
	CHECK(!strcmp(wl_event_type_name(WL_EV_RUN), "run"));
	CHECK(!strcmp(wl_event_type_name(WL_EV_YIELD), "yield"));
	CHECK(!strcmp(wl_policy_name(WL_SCHED_DEADLINE), "SCHED_DEADLINE"));
	CHECK(!strcmp(wl_policy_name(WL_SCHED_OTHER), "SCHED_OTHER"));
}

static void test_explicit_relative_timer_and_deadline_defaults(void)
{
	static const char text[] =
	    "{ \"tasks\": { \"d\": { \"policy\": \"SCHED_DEADLINE\","
	    " \"dl-runtime\": 700, \"run\": 1,"
	    " \"timer\": { \"mode\": \"relative\", \"ref\": \"k\", \"period\": 9 } } } }";

	CHECK_EQ_I(workload_load_string(text, sizeof(text) - 1, "t.json", &w, &err), 0);
	CHECK_EQ_U(w.nr_timers, 1);
	if (w.nr_tasks == 1 && w.nr_timers == 1) {
		CHECK_EQ_I(w.timers[0].mode, WL_TIMER_RELATIVE);
		CHECK_EQ_U(w.tasks[0].sched.dl_period_us, 700);
		CHECK_EQ_U(w.tasks[0].sched.dl_deadline_us, 700);
		CHECK_EQ_U(w.tasks[0].phases[0].events[1].period_us, 9);
	}
	workload_free(&w);
}

static void test_missing_file_is_enoent_with_path(void)
{
	CHECK_EQ_I(workload_load_file("/nonexistent/x.json", &w, &err), -ENOENT);
	CHECK_STR_CONTAINS(err.msg, "/nonexistent/x.json");
	CHECK_EQ_U(w.nr_tasks, 0);
	workload_free(&w); /* harmless on an empty workload */
}

int main(void)
{
	TAP_RUN(test_global_keys_are_parsed_with_duration_in_us);
	TAP_RUN(test_instances_expand_into_tasks_named_like_rtapp);
	TAP_RUN(test_task_keys_are_parsed);
	TAP_RUN(test_phase_keys_and_events_keep_file_order);
	TAP_RUN(test_phase_without_cpus_takes_the_tasks_affinity);
	TAP_RUN(test_timers_are_shared_by_ref_except_unique_ones);
	TAP_RUN(test_bare_suspend_waits_on_own_task_name_and_resume_finds_it);
	TAP_RUN(test_barrier_counts_every_instance_that_uses_it);
	TAP_RUN(test_rt_and_deadline_policies_take_their_parameters);
	TAP_RUN(test_defaults_without_global);
	TAP_RUN(test_integer_calibration_is_ns_per_loop);
	TAP_RUN(test_rtapp_example7_barriers_comments_trailing_commas);
	TAP_RUN(test_rtapp_spreading_tasks_repeated_phase_is_a_new_phase);
	TAP_RUN(test_rtapp_example3_unique_timer_per_instance);
	TAP_RUN(test_rtapp_example4_resume_chain_between_tasks);
	TAP_RUN(test_rtapp_mp3_is_rejected_for_its_mutexes);
	TAP_RUN(test_relaxed_json_rewrites_to_strict_in_order);
	TAP_RUN(test_relaxed_json_errors_give_the_source_line);
	TAP_RUN(test_check_model_accepts_affinity_inside_the_model);
	TAP_RUN(test_check_model_rejects_cpu_the_model_lacks);
	TAP_RUN(test_names_of_events_and_policies);
	TAP_RUN(test_explicit_relative_timer_and_deadline_defaults);
	TAP_RUN(test_missing_file_is_enoent_with_path);
	return tap_done();
}
