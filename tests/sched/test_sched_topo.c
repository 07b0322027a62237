// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sched_topo.c - the loader's host-side parts: the model/machine check against fake sysfs
 * trees, the stream records, and the stats socket: slow readers, readers beyond the limit, its
 * mode, and what it does with whatever is at its path.
 *
 *   test_sched_topo EM_PROFILES_DIR TESTS_SCHED_DIR
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "../unit/tap.h"
#include "em_profile.h"
#include "gearbox_abi.h"
#include "sched_power.h"
#include "sched_stream.h"
#include "sched_topo.h"

static const char *models_dir, *sched_dir;
static char tmp[256];
static struct em_profile prof;

static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd) != 0)
		return;
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A fake /sys/devices/system/cpu with `possible` CPUs and the given cpufreq policies. */
static void fake_sysfs(const char *possible, const char *const *policies)
{
	char cmd[300], rel[64];
	int i;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", tmp, tmp);
	if (system(cmd) != 0)
		return;
	put("possible", possible);
	put("online", possible);
	for (i = 0; policies && policies[i]; i++) {
		snprintf(rel, sizeof(rel), "cpufreq/policy%d/related_cpus", i);
		put(rel, policies[i]);
	}
	setenv("GEARBOX_SYSFS_CPU", tmp, 1);
}

/*
 * cpuN/cpu_capacity and cpuN/topology/cluster_cpus_list for CPUs 0.., as an arm64 kernel
 * shows them; a NULL cluster list writes capacities only.
 */
static void fake_capacities(const unsigned *caps, unsigned n, const char *const *clusters)
{
	char rel[64], text[32];
	unsigned c;

	for (c = 0; c < n; c++) {
		snprintf(rel, sizeof(rel), "cpu%u/cpu_capacity", c);
		snprintf(text, sizeof(text), "%u\n", caps[c]);
		put(rel, text);
		if (clusters) {
			snprintf(rel, sizeof(rel), "cpu%u/topology/cluster_cpus_list", c);
			put(rel, clusters[c]);
		}
	}
}

/* sm8250's CPUs as the kernel reports them when the device tree matches the model */
static const unsigned sm8250_caps[8] = {286, 286, 286, 286, 876, 876, 876, 1024};
static const char *const sm8250_clusters[8] = {"0-3\n", "0-3\n", "0-3\n", "0-3\n",
					       "4-6\n", "4-6\n", "4-6\n", "7\n"};

static int load(const char *name)
{
	char path[512];
	struct gb_err err;

	snprintf(path, sizeof(path), "%s/%s.json", models_dir, name);
	return em_profile_load_file(path, &prof, false, NULL, &err);
}

static int check(bool force, char *assumed, struct gb_err *err)
{
	struct sched_topo t;

	if (sched_topo_read(&t, err))
		return -100;
	return sched_topo_check(&prof.model, &t, force, GB_SCX_MAX_CPUS, GB_SCX_MAX_DOMAINS,
				assumed, 512, err);
}

static void test_model_with_fewer_cpus_than_machine_is_refused_with_counts(void)
{
	char assumed[512];
	struct gb_err err = {0};

	CHECK(load("sm8250") == 0);
	fake_sysfs("0-3\n", NULL);
	CHECK_EQ_I(check(false, assumed, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "the model has 8 CPUs, this machine has 4");
	CHECK_STR_CONTAINS(err.msg, "--force");
}

static void test_force_maps_a_mismatched_model_and_says_what_it_assumed(void)
{
	char assumed[512];
	struct gb_err err = {0};

	CHECK(load("sm8250") == 0);
	fake_sysfs("0-3\n", NULL);
	CHECK_EQ_I(check(true, assumed, &err), 0);
	CHECK_STR_CONTAINS(assumed, "model CPU ids are taken as machine CPU ids");
}

static void test_without_cpufreq_domains_map_onto_cpu_ids(void)
{
	char assumed[512];
	struct gb_err err = {0};

	CHECK(load("sm8250") == 0);
	fake_sysfs("0-7\n", NULL);
	CHECK_EQ_I(check(false, assumed, &err), 0);
	CHECK_STR_CONTAINS(assumed, "no cpufreq");
}

static void test_matching_cpufreq_policies_are_accepted_silently(void)
{
	static const char *const pol[] = {"0-3\n", "4-6\n", "7\n", NULL};
	char assumed[512];
	struct gb_err err = {0};

	CHECK(load("sm8250") == 0);
	fake_sysfs("0-7\n", pol);
	CHECK_EQ_I(check(false, assumed, &err), 0);
	CHECK_EQ_U(strlen(assumed), 0);
}

static void test_different_cpufreq_grouping_is_refused_naming_the_domain(void)
{
	static const char *const pol[] = {"0-3\n", "4-7\n", NULL};
	char assumed[512];
	struct gb_err err = {0};

	CHECK(load("sm8250") == 0);
	fake_sysfs("0-7\n", pol);
	CHECK_EQ_I(check(false, assumed, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "model domain 1 CPUs 4-6 match no cpufreq policy");
	CHECK_STR_CONTAINS(err.msg, "[0-3] [4-7]");
	CHECK_EQ_I(check(true, assumed, &err), 0);
	CHECK_STR_CONTAINS(assumed, "the model's grouping is used");
}

static void test_model_beyond_the_bpf_limits_is_refused_even_with_force(void)
{
	char assumed[512];
	struct gb_err err = {0};

	CHECK(load("sm8250") == 0);
	prof.model.nr_cpus = GB_SCX_MAX_CPUS + 1;
	fake_sysfs("0-64\n", NULL);
	CHECK_EQ_I(check(true, assumed, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "the model has 65 CPUs in 3 domains; scx_gearbox is built for "
				    "at most 64 CPUs and 32 domains");
	CHECK(load("sm8250") == 0);
	prof.model.nr_domains = GB_SCX_MAX_DOMAINS + 1;
	CHECK_EQ_I(check(true, assumed, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "in 33 domains; scx_gearbox is built for at most");
}

/* The largest model the object is built for (tests/sched/vm64.json, 64 CPUs in 32 domains) on
 * a machine of its size without cpufreq: accepted, mapped onto CPU ids. */
static void test_a_64_cpu_32_domain_model_fits_a_64_cpu_machine(void)
{
	char path[512], assumed[512];
	struct gb_err err = {0};

	snprintf(path, sizeof(path), "%s/vm64.json", sched_dir);
	CHECK(em_profile_load_file(path, &prof, false, NULL, &err) == 0);
	CHECK_EQ_U(prof.model.nr_cpus, 64);
	CHECK_EQ_U(prof.model.nr_domains, 32);
	fake_sysfs("0-63\n", NULL);
	CHECK_EQ_I(check(false, assumed, &err), 0);
	CHECK_STR_CONTAINS(assumed, "the model's 32 domains are mapped onto CPU ids");
}

static void test_hello_describes_the_model_in_stream_format(void)
{
	size_t len;
	char *line;

	CHECK(load("sm8250") == 0);
	line = sched_fmt_hello(&prof, "energy", &len);
	CHECK_STR_CONTAINS(line, "{\"type\":\"hello\",\"format\":\"gearbox-stream/"
				 "1\",\"source\":\"scx_gearbox\",\"soc\":\"sm8250\",\"policy\":"
				 "\"energy\",\"nr_cpus\":8,");
	CHECK_STR_CONTAINS(line, "{\"id\":2,\"name\":\"big\",\"cpus\":[7],\"capacity\":1024,");
	CHECK(line && line[len - 1] == '\n' && strlen(line) == len);
	free(line);
	/* a model without idle states: the hello has none of their fields */
	for (unsigned d = 0; d < EM_MAX_DOMAINS; d++)
		prof.idle[d].present = false;
	line = sched_fmt_hello(&prof, "energy", &len);
	CHECK(line && !strstr(line, "idle_states") && !strstr(line, "static_uw"));
	free(line);
	/* msm8998's has idle states and static power: the hello carries them */
	CHECK(load("msm8998") == 0);
	line = sched_fmt_hello(&prof, "energy", &len);
	CHECK_STR_CONTAINS(line, "\"static_uw\":");
	CHECK_STR_CONTAINS(line, "\"idle_states\":{\"cpu\":[{\"name\":");
	CHECK_STR_CONTAINS(line, "\"cluster\":[{\"name\":");
	free(line);
}

static void test_decision_record_converts_cost_to_microwatts(void)
{
	struct gb_event e = {.t_ns = 0,
			     .pid = 42,
			     .from = 7,
			     .to = 4,
			     .reason = GB_REASON_POWER_MISFIT,
			     .energy_delta = -810000,
			     .util = 290,
			     .uclamp_max = 300,
			     .opp_idx = 0,
			     .prev_opp_idx = 19};
	size_t len;
	char *line;

	CHECK(load("sm8250") == 0);
	memcpy(e.comm, "me\"dia", 7);
	line = sched_fmt_decision(&prof.model, &e, 1234, &len);
	CHECK_STR_CONTAINS(line, "\"t_us\":1234,\"pid\":42,\"comm\":\"me\\\"dia\",\"from\":7,"
				 "\"to\":4,\"reason\":\"power_misfit\",\"power_delta_uw\":-81000,");
	CHECK_STR_CONTAINS(line, "\"to_cap\":876,\"to_freq_khz\":710400");
	CHECK_STR_CONTAINS(line, "\"from_cap\":1024,\"from_freq_khz\":");
	free(line);
}

static void test_sample_estimates_power_from_the_opp_and_utilization(void)
{
	static struct gb_cpu cpus[EM_MAX_CPUS];
	static struct gb_cpu_curr curr[EM_MAX_CPUS];
	static struct gb_dom_state doms[EM_MAX_DOMAINS];
	struct sched_sample_src src = {&prof.model, cpus, curr, doms, 8};
	unsigned long long energy = 0;
	const struct em_opp *o;
	char want[128];
	size_t len;
	char *line;

	CHECK(load("sm8250") == 0);
	for (int c = 0; c < 8; c++)
		cpus[c].online = 1;
	cpus[7].util = 512;
	doms[2].opp_idx = 10;
	doms[2].perf_target = 640;
	curr[7].pid = 9;
	memcpy(curr[7].comm, "game", 5);
	o = &prof.model.domains[2].opps[10];
	line = sched_fmt_sample(&src, 100, &energy, 1000000, &len);
	snprintf(want, sizeof(want),
		 "{\"id\":2,\"util\":512,\"perf_target\":640,\"freq_khz\":%u,\"power_uw\":%llu,",
		 o->freq_khz, (unsigned long long)o->power_uw * 512 / o->perf);
	CHECK_STR_CONTAINS(line, want);
	CHECK_STR_CONTAINS(line, "{\"cpu\":7,\"util\":512,\"pid\":9,\"comm\":\"game\"}");
	CHECK_EQ_U(energy, (unsigned long long)o->power_uw * 512 / o->perf);
	free(line);
}

static int connect_to(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void test_socket_is_0600_and_a_slow_reader_is_dropped_not_waited_for(void)
{
	struct sched_stream s = {0};
	struct gb_err err = {0};
	char path[300], buf[64], line[4096];
	struct stat st;
	int fast, slow, i;
	ssize_t n;

	snprintf(path, sizeof(path), "%s.sock", tmp);
	CHECK(sched_stream_open(&s, path, 0600, &err) == 0);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
	s.hello = strdup("{\"type\":\"hello\"}\n");
	s.hello_len = strlen(s.hello);
	fast = connect_to(path);
	slow = connect_to(path);
	sched_stream_accept(&s);
	CHECK_EQ_U(sched_stream_readers(&s), 2);
	n = read(fast, buf, sizeof(buf) - 1);
	CHECK(n == (ssize_t)s.hello_len && !memcmp(buf, s.hello, s.hello_len));
	memset(line, 'x', sizeof(line));
	line[sizeof(line) - 1] = '\n';
	/* the slow reader never reads: its buffer fills and it is dropped; the fast one drains */
	for (i = 0; i < 2000 && sched_stream_readers(&s) == 2; i++) {
		sched_stream_send(&s, line, sizeof(line));
		while (recv(fast, line, sizeof(line), MSG_DONTWAIT) > 0)
			memset(line, 'x', sizeof(line) - 1);
		line[sizeof(line) - 1] = '\n';
	}
	CHECK_EQ_U(sched_stream_readers(&s), 1);
	CHECK_EQ_U(s.dropped, 1);
	while (read(slow, line, sizeof(line)) > 0)
		;
	close(fast);
	close(slow);
	sched_stream_close(&s);
	CHECK(access(path, F_OK) != 0);
}

/* A directory of its own for each socket test: tmp.sock.d/s (removed with its contents). */
static void sock_dir(char *dir, size_t dlen, char *path, size_t plen)
{
	char cmd[400];

	snprintf(dir, dlen, "%s.sock.d", tmp);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
	if (system(cmd) != 0)
		printf("# could not make %s\n", dir);
	snprintf(path, plen, "%s/s", dir);
}

static void rm_dir(const char *dir)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
}

/* A socket bound at path: listening (live) or closed at once, leaving the file (stale). */
static int bind_at(const char *path, bool live)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || (live && listen(fd, 8))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!live) {
		close(fd);
		return 0;
	}
	return fd;
}

static bool file_holds(const char *path, const char *text)
{
	char buf[128] = {0};
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	return n == strlen(text) && !memcmp(buf, text, n);
}

/*
 * bind creates the socket with its mode: no later chmod, which would leave a window with the
 * umask's permissions and follow a symbolic link put in its place.  inotify sees a chmod as
 * IN_ATTRIB.  The process umask is 0 here, so a mode that comes from it would be 0777.
 */
static void test_socket_is_created_with_its_mode_no_chmod_after(void)
{
	static const unsigned modes[] = {0600, 0660};
	char dir[300], path[320];
	unsigned k;

	for (k = 0; k < 2; k++) {
		struct sched_stream s = {0};
		struct gb_err err = {0};
		char ev[4096] __attribute__((aligned(8)));
		bool created = false, attrib = false;
		mode_t old = umask(0);
		struct stat st;
		ssize_t n;
		int in;

		sock_dir(dir, sizeof(dir), path, sizeof(path));
		in = inotify_init1(IN_NONBLOCK);
		CHECK(in >= 0 && inotify_add_watch(in, dir, IN_CREATE | IN_ATTRIB) >= 0);
		CHECK_EQ_I(sched_stream_open(&s, path, modes[k], &err), 0);
		umask(old);
		CHECK(stat(path, &st) == 0 && S_ISSOCK(st.st_mode));
		CHECK_EQ_U(st.st_mode & 0777, modes[k]);
		while ((n = read(in, ev, sizeof(ev))) > 0) {
			ssize_t off = 0;

			while (off < n) {
				const struct inotify_event *e = (const void *)(ev + off);

				created |= (e->mask & IN_CREATE) && e->len && !strcmp(e->name, "s");
				attrib |= (e->mask & IN_ATTRIB) != 0;
				off += (ssize_t)(sizeof(*e) + e->len);
			}
		}
		CHECK(created);
		CHECK(!attrib);
		close(in);
		sched_stream_close(&s);
		rm_dir(dir);
	}
}

/* Anything but a socket at the path is refused and left as it was: a file, a directory, a
 * symbolic link (to a file: the file is untouched too). */
static void test_a_file_directory_or_symlink_at_the_socket_path_is_refused_and_kept(void)
{
	char dir[300], path[320], target[340];
	struct sched_stream s = {0};
	struct gb_err err = {0};
	struct stat st;
	bool stale = true;
	FILE *f;

	sock_dir(dir, sizeof(dir), path, sizeof(path));
	f = fopen(path, "w");
	if (f) {
		fputs("precious\n", f);
		fclose(f);
	}
	CHECK_EQ_I(sched_stream_check(path, &stale, &err), -EEXIST);
	CHECK(!stale);
	CHECK_STR_CONTAINS(err.msg, "exists and is not a socket (a regular file)");
	CHECK_EQ_I(sched_stream_open(&s, path, 0600, &err), -EEXIST);
	CHECK(file_holds(path, "precious\n"));

	unlink(path);
	snprintf(target, sizeof(target), "%s/target", dir);
	f = fopen(target, "w");
	if (f) {
		fputs("target\n", f);
		fclose(f);
	}
	CHECK(symlink(target, path) == 0);
	CHECK_EQ_I(sched_stream_open(&s, path, 0600, &err), -EEXIST);
	CHECK_STR_CONTAINS(err.msg, "(a symbolic link)");
	CHECK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
	CHECK(file_holds(target, "target\n"));

	unlink(path);
	CHECK(mkdir(path, 0700) == 0);
	CHECK_EQ_I(sched_stream_open(&s, path, 0600, &err), -EEXIST);
	CHECK_STR_CONTAINS(err.msg, "(a directory)");
	CHECK(lstat(path, &st) == 0 && S_ISDIR(st.st_mode));
	rm_dir(dir);
}

/* A socket someone listens on (another scx_gearbox) is refused, and still theirs; a stale one,
 * whose server has gone, is replaced. */
static void test_a_live_socket_is_refused_and_a_stale_one_replaced(void)
{
	char dir[300], path[320];
	struct sched_stream s = {0};
	struct gb_err err = {0};
	struct stat before, after;
	bool stale = false;
	int srv, c;

	sock_dir(dir, sizeof(dir), path, sizeof(path));
	srv = bind_at(path, true);
	CHECK(srv >= 0 && stat(path, &before) == 0);
	CHECK_EQ_I(sched_stream_check(path, &stale, &err), -EADDRINUSE);
	CHECK_STR_CONTAINS(err.msg, "a running process serves this socket");
	CHECK_EQ_I(sched_stream_open(&s, path, 0600, &err), -EADDRINUSE);
	CHECK(stat(path, &after) == 0 && after.st_ino == before.st_ino);
	c = connect_to(path);
	CHECK(c >= 0);
	if (c >= 0)
		close(c);
	if (srv >= 0)
		close(srv);

	/* its server gone, the file is stale */
	CHECK_EQ_I(sched_stream_check(path, &stale, &err), 0);
	CHECK(stale);
	CHECK_EQ_I(sched_stream_open(&s, path, 0600, &err), 0);
	c = connect_to(path);
	CHECK(c >= 0);
	sched_stream_accept(&s);
	CHECK_EQ_U(sched_stream_readers(&s), 1);
	if (c >= 0)
		close(c);
	sched_stream_close(&s);

	/* and a stale socket is not touched by a check */
	CHECK_EQ_I(bind_at(path, false), 0);
	CHECK(stat(path, &before) == 0);
	CHECK_EQ_I(sched_stream_check(path, &stale, &err), 0);
	CHECK(stale && stat(path, &after) == 0 && after.st_ino == before.st_ino);
	rm_dir(dir);
}

/* Reader SCHED_STREAM_MAX_CLIENTS + 1 gets one error line saying why, then EOF; the others
 * keep their place. */
static void test_a_reader_beyond_the_limit_gets_an_error_line(void)
{
	char dir[300], path[320], buf[512];
	struct sched_stream s = {0};
	struct gb_err err = {0};
	int fds[SCHED_STREAM_MAX_CLIENTS + 1], i;
	ssize_t n, got = 0;

	sock_dir(dir, sizeof(dir), path, sizeof(path));
	CHECK_EQ_I(sched_stream_open(&s, path, 0600, &err), 0);
	for (i = 0; i <= SCHED_STREAM_MAX_CLIENTS; i++) {
		fds[i] = connect_to(path); /* the listen backlog is shorter than the limit */
		sched_stream_accept(&s);
	}
	CHECK_EQ_U(sched_stream_readers(&s), SCHED_STREAM_MAX_CLIENTS);
	CHECK_EQ_U(s.refused, 1);
	memset(buf, 0, sizeof(buf));
	while (fds[SCHED_STREAM_MAX_CLIENTS] >= 0 && got < (ssize_t)sizeof(buf) - 1 &&
	       (n = read(fds[SCHED_STREAM_MAX_CLIENTS], buf + got, sizeof(buf) - 1 - (size_t)got)) >
		   0)
		got += n;
	CHECK(got > 0 && buf[got - 1] == '\n');
	CHECK_STR_CONTAINS(buf, "{\"type\":\"error\",\"message\":\"too many readers: scx_gearbox "
				"serves at most 16 at once\"}");
	for (i = 0; i <= SCHED_STREAM_MAX_CLIENTS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	sched_stream_close(&s);
	rm_dir(dir);
}

static void test_matching_capacities_and_clusters_are_accepted_silently(void)
{
	char assumed[512];
	struct gb_err err = {0};

	CHECK(load("sm8250") == 0);
	fake_sysfs("0-7\n", NULL);
	fake_capacities(sm8250_caps, 8, sm8250_clusters);
	CHECK_EQ_I(check(false, assumed, &err), 0);
	CHECK_EQ_U(strlen(assumed), 0);
}

static void test_capacity_within_the_tolerance_is_accepted(void)
{
	/* 12% of the machine's value: the model's 876 against 980 (tolerance 117) and 286
	 * against 300 (tolerance 36) */
	static const unsigned caps[8] = {300, 300, 300, 300, 980, 980, 980, 1024};
	char assumed[512];
	struct gb_err err = {0};

	CHECK(load("sm8250") == 0);
	fake_sysfs("0-7\n", NULL);
	fake_capacities(caps, 8, sm8250_clusters);
	CHECK_EQ_I(check(false, assumed, &err), 0);
	CHECK_EQ_U(strlen(assumed), 0);
}

static void test_capacity_mismatch_is_refused_naming_cpu_and_both_values(void)
{
	/* msm8998's machine (4 CPUs of 491, 4 of 1024) under sm8250's model */
	static const unsigned caps[8] = {491, 491, 491, 491, 1024, 1024, 1024, 1024};
	static const char *const clusters[8] = {"0-3\n", "0-3\n", "0-3\n", "0-3\n",
						"4-7\n", "4-7\n", "4-7\n", "4-7\n"};
	char assumed[512];
	struct gb_err err = {0};

	CHECK(load("sm8250") == 0);
	fake_sysfs("0-7\n", NULL);
	fake_capacities(caps, 8, clusters);
	CHECK_EQ_I(check(false, assumed, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "CPU 0: the model's capacity is 286 (domain little), this "
				    "machine's cpu_capacity is 491");
	CHECK_STR_CONTAINS(err.msg, "; 7 CPU(s) differ");
	CHECK_STR_CONTAINS(err.msg, "--force");
	CHECK_EQ_I(check(true, assumed, &err), 0);
	CHECK_STR_CONTAINS(assumed,
			   "CPU 0's capacity is 286 in the model (domain little) and 491 on this "
			   "machine (7 CPU(s) differ): the model's capacities are used");
	/* domains mid (4-6) and big (7) both lie inside cluster 4-7: only capacities differ */
	CHECK(strstr(assumed, "grouping") == NULL);
}

static void test_all_1024_is_no_capacity_information(void)
{
	/* every cpu_capacity 1024: what the kernel reports without firmware capacities (x86, a
	 * device tree without capacity-dmips-mhz); the model loads and the loader says so */
	static const unsigned caps[8] = {1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024};
	static const unsigned caps_one_off[8] = {1024, 1024, 1024, 1024, 1024, 1024, 1024, 512};
	char assumed[512];
	struct gb_err err = {0};

	CHECK(load("sm8250") == 0);
	fake_sysfs("0-7\n", NULL);
	fake_capacities(caps, 8, NULL);
	CHECK_EQ_I(check(false, assumed, &err), 0);
	CHECK_STR_CONTAINS(assumed, "every CPU's cpu_capacity is 1024, the kernel's default when "
				    "the firmware describes no capacities");
	/* one CPU that differs makes them information again: checked, and refused */
	fake_sysfs("0-7\n", NULL);
	fake_capacities(caps_one_off, 8, NULL);
	CHECK_EQ_I(check(false, assumed, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "CPU 0: the model's capacity is 286 (domain little), this "
				    "machine's cpu_capacity is 1024");
}

static void test_domain_spanning_two_clusters_is_refused_naming_the_cpu(void)
{
	static const char *const clusters[8] = {"0-1\n", "0-1\n", "2-3\n", "2-3\n",
						"4-6\n", "4-6\n", "4-6\n", "7\n"};
	char assumed[512];
	struct gb_err err = {0};

	CHECK(load("sm8250") == 0);
	fake_sysfs("0-7\n", NULL);
	fake_capacities(sm8250_caps, 8, clusters);
	CHECK_EQ_I(check(false, assumed, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "CPU 2: the model puts it in domain little with CPU 0, this "
				    "machine's cluster of CPU 0 is 0-1");
	CHECK_STR_CONTAINS(err.msg, "--force");
	CHECK_EQ_I(check(true, assumed, &err), 0);
	CHECK_STR_CONTAINS(assumed, "CPU 2 is in model domain little with CPU 0, outside that "
				    "CPU's cluster 0-1: the model's grouping is used");
}

static void test_one_cluster_of_all_cpus_holds_every_domain(void)
{
	/* DynamIQ: one cluster of all eight CPUs; the capacities tell the domains apart */
	static const char *const clusters[8] = {"0-7\n", "0-7\n", "0-7\n", "0-7\n",
						"0-7\n", "0-7\n", "0-7\n", "0-7\n"};
	char assumed[512];
	struct gb_err err = {0};

	CHECK(load("sm8250") == 0);
	fake_sysfs("0-7\n", NULL);
	fake_capacities(sm8250_caps, 8, clusters);
	CHECK_EQ_I(check(false, assumed, &err), 0);
	CHECK_EQ_U(strlen(assumed), 0);
}

static void test_capacity_is_checked_alongside_cpufreq_policies(void)
{
	static const char *const pol[] = {"0-3\n", "4-6\n", "7\n", NULL};
	static const unsigned caps[8] = {160, 160, 160, 160, 876, 876, 876, 1024};
	char assumed[512];
	struct gb_err err = {0};

	CHECK(load("sm8250") == 0);
	fake_sysfs("0-7\n", pol);
	fake_capacities(caps, 8, NULL);
	CHECK_EQ_I(check(false, assumed, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg,
			   "CPU 0: the model's capacity is 286 (domain little), this machine's "
			   "cpu_capacity is 160, more than 12% and 16 apart; 4 CPU(s) differ");
}

static void test_malformed_cpu_capacity_is_an_error_naming_the_file(void)
{
	char assumed[512];
	struct gb_err err = {0};

	CHECK(load("sm8250") == 0);
	fake_sysfs("0-7\n", NULL);
	fake_capacities(sm8250_caps, 8, sm8250_clusters);
	put("cpu5/cpu_capacity", "fast\n");
	CHECK_EQ_I(check(false, assumed, &err), -100);
	CHECK_STR_CONTAINS(err.msg, "cpu5/cpu_capacity: not a capacity of 1..1024: 'fast'");
}

/* --mode auto: the ACPI platform profile first, then the first cpufreq policy's EPP */
static void test_power_profile_sources_and_their_modes(void)
{
	char what[96], cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", tmp, tmp);
	CHECK_EQ_I(system(cmd), 0);
	setenv("GEARBOX_SYSFS", tmp, 1);
	/* neither source */
	CHECK_EQ_I(sched_power_profile(what, sizeof(what)), -1);
	CHECK(what[0] == 0);
	/* EPP of the lowest-numbered policy that has one */
	put("devices/system/cpu/cpufreq/policy4/energy_performance_preference", "performance\n");
	put("devices/system/cpu/cpufreq/policy0/scaling_governor", "schedutil\n");
	put("devices/system/cpu/cpufreq/policy6/energy_performance_preference", "power\n");
	CHECK_EQ_I(sched_power_profile(what, sizeof(what)), GB_MODE_PERFORMANCE);
	CHECK_STR_CONTAINS(what, "energy_performance_preference performance");
	put("devices/system/cpu/cpufreq/policy4/energy_performance_preference", "balance_power\n");
	CHECK_EQ_I(sched_power_profile(what, sizeof(what)), GB_MODE_ENERGY);
	/* the platform profile wins over EPP */
	put("firmware/acpi/platform_profile", "balanced\n");
	CHECK_EQ_I(sched_power_profile(what, sizeof(what)), GB_MODE_BALANCED);
	CHECK_STR_CONTAINS(what, "platform_profile balanced");
	put("firmware/acpi/platform_profile", "low-power\n");
	CHECK_EQ_I(sched_power_profile(what, sizeof(what)), GB_MODE_ENERGY);
	/* a value nobody maps: -1, and what names it */
	put("firmware/acpi/platform_profile", "custom\n");
	CHECK_EQ_I(sched_power_profile(what, sizeof(what)), -1);
	CHECK_STR_CONTAINS(what, "platform_profile custom");
	CHECK_EQ_I(sched_mode_of_profile("balanced-performance"), GB_MODE_PERFORMANCE);
	CHECK_EQ_I(sched_mode_of_profile("default"), GB_MODE_BALANCED);
	unsetenv("GEARBOX_SYSFS");
}

int main(int argc, char **argv)
{
	models_dir = argc > 1 ? argv[1] : "em-profiles";
	sched_dir = argc > 2 ? argv[2] : "tests/sched";
	snprintf(tmp, sizeof(tmp), "/tmp/gb-sched-topo.%d", (int)getpid());
	TAP_RUN(test_model_with_fewer_cpus_than_machine_is_refused_with_counts);
	TAP_RUN(test_force_maps_a_mismatched_model_and_says_what_it_assumed);
	TAP_RUN(test_without_cpufreq_domains_map_onto_cpu_ids);
	TAP_RUN(test_matching_cpufreq_policies_are_accepted_silently);
	TAP_RUN(test_different_cpufreq_grouping_is_refused_naming_the_domain);
	TAP_RUN(test_matching_capacities_and_clusters_are_accepted_silently);
	TAP_RUN(test_capacity_within_the_tolerance_is_accepted);
	TAP_RUN(test_capacity_mismatch_is_refused_naming_cpu_and_both_values);
	TAP_RUN(test_all_1024_is_no_capacity_information);
	TAP_RUN(test_domain_spanning_two_clusters_is_refused_naming_the_cpu);
	TAP_RUN(test_one_cluster_of_all_cpus_holds_every_domain);
	TAP_RUN(test_capacity_is_checked_alongside_cpufreq_policies);
	TAP_RUN(test_malformed_cpu_capacity_is_an_error_naming_the_file);
	TAP_RUN(test_model_beyond_the_bpf_limits_is_refused_even_with_force);
	TAP_RUN(test_a_64_cpu_32_domain_model_fits_a_64_cpu_machine);
	TAP_RUN(test_hello_describes_the_model_in_stream_format);
	TAP_RUN(test_decision_record_converts_cost_to_microwatts);
	TAP_RUN(test_sample_estimates_power_from_the_opp_and_utilization);
	TAP_RUN(test_socket_is_0600_and_a_slow_reader_is_dropped_not_waited_for);
	TAP_RUN(test_socket_is_created_with_its_mode_no_chmod_after);
	TAP_RUN(test_a_file_directory_or_symlink_at_the_socket_path_is_refused_and_kept);
	TAP_RUN(test_a_live_socket_is_refused_and_a_stale_one_replaced);
	TAP_RUN(test_a_reader_beyond_the_limit_gets_an_error_line);
	TAP_RUN(test_power_profile_sources_and_their_modes);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", tmp);
	}
	return tap_done();
}
