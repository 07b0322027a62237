// SPDX-License-Identifier: GPL-2.0-only
/*
 * em_import_dt.c - an energy model from a device tree (.dtb with libfdt, .dts through dtc),
 * as the kernel would build it from the same tree.  See em_import.h for the rules.
 */
#include "em_import.h"

#include <errno.h>
#include <fcntl.h>
#include <libfdt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpulist.h"

#define DT_MAX_BYTES  (64u << 20)
#define DT_NO_CLUSTER (-1)

extern char **environ;

/* One CPU node of /cpus, in the order the kernel numbers them. */
struct dt_cpu {
	int node;
	u32 phandle;
	u32 opp_table; /* phandle of operating-points-v2, 0 if none */
	u32 dmips;     /* capacity-dmips-mhz, 0 if absent */
	u32 dpc;       /* dynamic-power-coefficient, 0 if absent */
	int cluster;   /* index of its cpu-map cluster, DT_NO_CLUSTER if none */
	int domain;
	const char *compatible;
};

struct dt_ctx {
	const void *fdt;
	const char *path;
	struct dt_cpu cpu[EM_MAX_CPUS];
	u32 nr_cpus;
	int nr_clusters;
	struct gb_err *err;
};

/* Reads all of f (at most DT_MAX_BYTES) into a malloc'ed buffer. */
static int read_all(FILE *f, const char *what, char **buf, size_t *len, struct gb_err *err)
{
	size_t cap = 0;

	*buf = NULL;
	*len = 0;
	for (;;) {
		size_t n;

		if (cap - *len < 65536) {
			char *nb;

			if (cap >= DT_MAX_BYTES) {
				free(*buf);
				*buf = NULL;
				return gb_err_set(err, EFBIG, "%s: larger than %u MiB", what,
						  DT_MAX_BYTES >> 20);
			}
			cap = cap ? cap * 2 : 65536;
			nb = realloc(*buf, cap);
			if (!nb) {
				free(*buf);
				*buf = NULL;
				return gb_err_set(err, ENOMEM, "out of memory");
			}
			*buf = nb;
		}
		n = fread(*buf + *len, 1, cap - *len, f);
		*len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		free(*buf);
		*buf = NULL;
		return gb_err_set(err, EIO, "%s: read error", what);
	}
	return 0;
}

/*
 * Compiles a .dts with `dtc -q -I dts -O dtb` into memory.  dtc's output and its messages go
 * to anonymous temporary files (no pipe to deadlock on); its first message line becomes ours.
 */
static int run_dtc(const char *path, char **blob, size_t *len, struct gb_err *err)
{
	char *const argv[] = {"dtc", "-q", "-I", "dts", "-O", "dtb", "-o", "-", (char *)path, NULL};
	FILE *out = tmpfile(), *msg = tmpfile();
	posix_spawn_file_actions_t fa;
	int rc, status = 0;
	pid_t pid;

	if (!out || !msg) {
		rc = gb_err_set(err, errno, "temporary file for dtc: %s", strerror(errno));
		goto out;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fileno(out), 1);
	posix_spawn_file_actions_adddup2(&fa, fileno(msg), 2);
	rc = posix_spawnp(&pid, "dtc", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		rc = gb_err_set(err, rc,
				"%s: running dtc to compile it: %s (install dtc, the "
				"device-tree-compiler package, or give a .dtb)",
				path, strerror(rc));
		goto out;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			rc = gb_err_set(err, errno, "dtc: %s", strerror(errno));
			goto out;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char line[400] = "";

		rewind(msg);
		if (!fgets(line, sizeof(line), msg))
			snprintf(line, sizeof(line), "exit status %d", WEXITSTATUS(status));
		line[strcspn(line, "\n")] = '\0';
		rc = gb_err_set(err, EINVAL, "%s: dtc could not compile it: %s", path, line);
		goto out;
	}
	rewind(out);
	rc = read_all(out, "dtc's output", blob, len, err);
out:
	if (out)
		fclose(out);
	if (msg)
		fclose(msg);
	return rc;
}

/* The blob of path: a .dtb as it is (by its magic number), anything else through dtc. */
static int load_blob(const char *path, char **blob, size_t *len, struct gb_err *err)
{
	FILE *f = fopen(path, "rb");
	unsigned char magic[4] = {0};
	size_t n;
	int rc;

	if (!f)
		return gb_err_set(err, errno, "%s: %s", path, strerror(errno));
	n = fread(magic, 1, sizeof(magic), f);
	if (n == 4 && magic[0] == 0xd0 && magic[1] == 0x0d && magic[2] == 0xfe &&
	    magic[3] == 0xed) {
		rewind(f);
		rc = read_all(f, path, blob, len, err);
		fclose(f);
	} else {
		fclose(f);
		rc = run_dtc(path, blob, len, err);
	}
	if (rc)
		return rc;
	/* Versions before 16 name nodes by full path, and libfdt's own check dereferences the
	 * NULL name of such a root node; dtc writes 17, the kernel reads 16 and 17. */
	if (*len < sizeof(struct fdt_header) || fdt_check_header(*blob)) {
		rc = -FDT_ERR_BADSTRUCTURE;
	} else if (fdt_version(*blob) < 16) {
		u32 v = fdt_version(*blob);

		free(*blob);
		*blob = NULL;
		return gb_err_set(
		    err, EINVAL,
		    "%s: device tree blob version %u: only versions 16 and 17 are read", path, v);
	} else {
		rc = fdt_check_full(*blob, *len);
	}
	if (rc) {
		free(*blob);
		*blob = NULL;
		return gb_err_set(err, EINVAL, "%s: not a valid device tree blob: %s", path,
				  fdt_strerror(rc));
	}
	return 0;
}

static bool prop_u32(const void *fdt, int node, const char *name, u32 *v)
{
	int len;
	const fdt32_t *p = fdt_getprop(fdt, node, name, &len);

	if (!p || len < (int)sizeof(*p))
		return false;
	*v = fdt32_to_cpu(p[0]);
	return true;
}

static bool node_enabled(const void *fdt, int node)
{
	int len;
	const char *s = fdt_getprop(fdt, node, "status", &len);

	return !s || len <= 0 || !strncmp(s, "okay", (size_t)len) || !strncmp(s, "ok", (size_t)len);
}

/* The CPU nodes of /cpus in tree order: the kernel numbers logical CPUs the same way. */
static int read_cpus(struct dt_ctx *c)
{
	int cpus = fdt_path_offset(c->fdt, "/cpus"), node;

	if (cpus < 0)
		return gb_err_set(c->err, EINVAL, "%s: no /cpus node", c->path);
	fdt_for_each_subnode(node, c->fdt, cpus)
	{
		int len;
		const char *type = fdt_getprop(c->fdt, node, "device_type", &len);
		struct dt_cpu *cpu;

		if (!type || len < 4 || strncmp(type, "cpu", (size_t)len) ||
		    !node_enabled(c->fdt, node))
			continue;
		if (c->nr_cpus >= EM_MAX_CPUS)
			return gb_err_set(c->err, EINVAL, "%s: more than %d CPU nodes", c->path,
					  EM_MAX_CPUS);
		cpu = &c->cpu[c->nr_cpus++];
		memset(cpu, 0, sizeof(*cpu));
		cpu->node = node;
		cpu->phandle = fdt_get_phandle(c->fdt, node);
		cpu->cluster = DT_NO_CLUSTER;
		cpu->domain = -1;
		prop_u32(c->fdt, node, "operating-points-v2", &cpu->opp_table);
		prop_u32(c->fdt, node, "capacity-dmips-mhz", &cpu->dmips);
		prop_u32(c->fdt, node, "dynamic-power-coefficient", &cpu->dpc);
		cpu->compatible = fdt_getprop(c->fdt, node, "compatible", &len);
		if (cpu->compatible && (len <= 0 || !memchr(cpu->compatible, '\0', (size_t)len)))
			cpu->compatible = NULL;
	}
	if (c->nr_cpus == 0)
		return gb_err_set(c->err, EINVAL, "%s: /cpus has no CPU node", c->path);
	return 0;
}

/* The cpu-map: a node whose children hold "cpu" phandles (cores, or threads of a core) is a
 * cluster; every CPU found under it gets its index. */
static void read_cluster(struct dt_ctx *c, int node, int depth)
{
	int sub, cluster = -1;

	if (depth > 8)
		return;
	fdt_for_each_subnode(sub, c->fdt, node)
	{
		const char *name = fdt_get_name(c->fdt, sub, NULL);
		u32 ph;

		if (name && !strncmp(name, "core", 4)) {
			int t, found = 0;

			if (cluster < 0)
				cluster = c->nr_clusters++;
			/* a core's cpu, or its threads' */
			if (prop_u32(c->fdt, sub, "cpu", &ph))
				found = 1;
			for (u32 i = 0; found && i < c->nr_cpus; i++)
				if (c->cpu[i].phandle == ph)
					c->cpu[i].cluster = cluster;
			fdt_for_each_subnode(
			    t, c->fdt,
			    sub) if (prop_u32(c->fdt, t, "cpu",
					      &ph)) for (u32 i = 0; i < c->nr_cpus;
							 i++) if (c->cpu[i].phandle == ph) c->cpu[i]
			    .cluster = cluster;
		} else {
			read_cluster(c, sub, depth + 1); /* socketN, clusterN, nested clusters */
		}
	}
}

/*
 * Perf domains: the CPUs that share an OPP table marked opp-shared (the cpufreq-dt rule), or,
 * for a table without opp-shared (hardware-managed cpufreq drivers leave it out), the CPUs that
 * share the table and a cluster of the cpu-map.  CPUs without an OPP table are in no domain.
 */
static u32 group_domains(struct dt_ctx *c)
{
	u32 n = 0;

	for (u32 i = 0; i < c->nr_cpus; i++) {
		struct dt_cpu *a = &c->cpu[i];
		int table;
		bool shared;

		if (!a->opp_table || a->domain >= 0)
			continue;
		table = fdt_node_offset_by_phandle(c->fdt, a->opp_table);
		shared = table >= 0 && fdt_getprop(c->fdt, table, "opp-shared", NULL);
		a->domain = (int)n;
		for (u32 j = i + 1; j < c->nr_cpus; j++) {
			struct dt_cpu *b = &c->cpu[j];

			if (b->domain < 0 && b->opp_table == a->opp_table &&
			    (shared || (a->cluster != DT_NO_CLUSTER && a->cluster == b->cluster)))
				b->domain = (int)n;
		}
		n++;
	}
	return n;
}

struct dt_opp {
	u64 hz;
	u32 uv;
	u32 uw;
	bool has_uv, has_uw;
};

static int cmp_opp(const void *a, const void *b)
{
	const struct dt_opp *x = a, *y = b;

	return (x->hz > y->hz) - (x->hz < y->hz);
}

/* The enabled OPPs of one table, in increasing frequency. */
static int read_table(struct dt_ctx *c, u32 phandle, const char *tname, struct dt_opp *opp, u32 *n)
{
	int table = fdt_node_offset_by_phandle(c->fdt, phandle), node, len;
	const char *compat;

	*n = 0;
	if (table < 0)
		return gb_err_set(c->err, EINVAL, "%s: operating-points-v2 = <%#x> names no node",
				  c->path, phandle);
	compat = fdt_getprop(c->fdt, table, "compatible", &len);
	if (!compat || len <= 0 || !memmem(compat, (size_t)len, "operating-points-v2", 19))
		return gb_err_set(c->err, EINVAL, "%s: %s is not an operating-points-v2 table",
				  c->path, tname);
	fdt_for_each_subnode(node, c->fdt, table)
	{
		const fdt32_t *p;
		struct dt_opp *o;

		if (!node_enabled(c->fdt, node))
			continue;
		p = fdt_getprop(c->fdt, node, "opp-hz", &len);
		if (!p)
			continue; /* not an OPP (a vendor's sub-node) */
		if (*n >= EM_MAX_OPPS)
			return gb_err_set(c->err, EINVAL, "%s: %s: more than %d OPPs", c->path,
					  tname, EM_MAX_OPPS);
		o = &opp[(*n)++];
		memset(o, 0, sizeof(*o));
		/* /bits/ 64 (two cells), or one 32-bit cell; the first clock's rate */
		if (len >= 8)
			o->hz = (u64)fdt32_to_cpu(p[0]) << 32 | fdt32_to_cpu(p[1]);
		else if (len >= 4)
			o->hz = fdt32_to_cpu(p[0]);
		o->has_uv =
		    prop_u32(c->fdt, node, "opp-microvolt", &o->uv); /* target of a triplet */
		o->has_uw = prop_u32(c->fdt, node, "opp-microwatt", &o->uw);
	}
	if (*n == 0)
		return gb_err_set(c->err, EINVAL, "%s: %s has no OPP with opp-hz", c->path, tname);
	qsort(opp, *n, sizeof(opp[0]), cmp_opp);
	for (u32 i = 0; i < *n; i++) {
		if (opp[i].hz < 1000 || opp[i].hz / 1000 > EM_MAX_FREQ_KHZ || opp[i].hz % 1000)
			return gb_err_set(c->err, ERANGE,
					  "%s: %s: opp-hz %llu is not a whole kHz in "
					  "1..%u kHz",
					  c->path, tname, (unsigned long long)opp[i].hz,
					  EM_MAX_FREQ_KHZ);
		if (i && opp[i].hz == opp[i - 1].hz)
			return gb_err_set(c->err, EINVAL,
					  "%s: %s: two OPPs at %llu Hz (opp-supported-hw "
					  "variants are not told apart)",
					  c->path, tname, (unsigned long long)opp[i].hz);
	}
	return 0;
}

/* "opp-table-little" gives "little"; numbered or per-CPU names give nothing. */
static void name_from_table(const char *tname, char *name, size_t len)
{
	const char *s = !strncmp(tname, "opp-table-", 10) ? tname + 10 : "";
	bool numeric = *s != '\0';

	for (const char *p = s; *p; p++)
		numeric &= *p >= '0' && *p <= '9';
	name[0] = '\0';
	if (*s && !numeric && strncmp(s, "cpu", 3) && strlen(s) < len)
		snprintf(name, len, "%s", s);
}

/*
 * Power of one OPP: opp-microwatt as written, or the kernel's estimate from the
 * dynamic-power-coefficient (drivers/opp/of.c, _get_power):
 *   P [uW] = DPC * V[mV]^2 * f[MHz] / 10^6
 * computed in 64 bits and range-checked before it becomes a u32.
 */
static int opp_power(struct dt_ctx *c, const char *tname, const struct dt_opp *o, u32 dpc,
		     bool estimate, u32 *power_uw)
{
	u64 mv, p;

	if (!estimate) {
		p = o->uw;
	} else {
		mv = o->uv / 1000;
		p = (u64)dpc * mv * mv;
		p = p / 1000000 * (o->hz / 1000000) + p % 1000000 * (o->hz / 1000000) / 1000000;
	}
	if (p < 1 || p > EM_MAX_POWER_UW)
		return gb_err_set(
		    c->err, ERANGE, "%s: %s: %llu Hz: power %llu uW%s is outside 1..%u", c->path,
		    tname, (unsigned long long)o->hz, (unsigned long long)p,
		    estimate ? " (estimated from dynamic-power-coefficient)" : "", EM_MAX_POWER_UW);
	*power_uw = (u32)p;
	return 0;
}

static int build_domain(struct dt_ctx *c, int d, struct em_profile *prof, bool *estimated)
{
	struct em_domain *pd = &prof->model.domains[d];
	struct dt_opp opp[EM_MAX_OPPS];
	const struct dt_cpu *first = NULL;
	char tname[64];
	bool all_uw = true, any_uw = false, all_uv = true;
	const char *nm;
	u32 n;
	int rc, table;

	for (u32 i = 0; i < c->nr_cpus; i++)
		if (c->cpu[i].domain == d) {
			if (!first)
				first = &c->cpu[i];
			em_cpumask_set(&pd->cpus, i);
			if (c->cpu[i].dmips != first->dmips || c->cpu[i].dpc != first->dpc)
				return gb_err_set(
				    c->err, EINVAL,
				    "%s: CPUs %u and %u share an OPP table "
				    "but not capacity-dmips-mhz or dynamic-power-coefficient",
				    c->path, (u32)(first - c->cpu), i);
		}
	table = fdt_node_offset_by_phandle(c->fdt, first->opp_table);
	nm = table >= 0 ? fdt_get_name(c->fdt, table, NULL) : NULL;
	snprintf(tname, sizeof(tname), "%s", nm ? nm : "?");
	rc = read_table(c, first->opp_table, tname, opp, &n);
	if (rc)
		return rc;
	for (u32 i = 0; i < n; i++) {
		all_uw &= opp[i].has_uw;
		any_uw |= opp[i].has_uw;
		all_uv &= opp[i].has_uv;
	}
	if (any_uw && !all_uw)
		return gb_err_set(c->err, EINVAL,
				  "%s: %s: opp-microwatt on some OPPs only (the "
				  "kernel uses it only when every OPP has it)",
				  c->path, tname);
	if (!all_uw && (!first->dpc || !all_uv))
		return gb_err_set(
		    c->err, EINVAL,
		    "%s: %s: no power: neither opp-microwatt on every "
		    "OPP nor dynamic-power-coefficient on the CPU and opp-microvolt on "
		    "every OPP",
		    c->path, tname);
	*estimated |= !all_uw;
	pd->nr_opps = n;
	for (u32 i = 0; i < n; i++) {
		struct em_opp *o = &pd->opps[i];

		o->freq_khz = (u32)(opp[i].hz / 1000);
		if (opp[i].has_uv) {
			if (opp[i].uv < 1 || opp[i].uv > EM_MAX_VOLTAGE_UV)
				return gb_err_set(c->err, ERANGE,
						  "%s: %s: %llu Hz: opp-microvolt %u is "
						  "outside 1..%u",
						  c->path, tname, (unsigned long long)opp[i].hz,
						  opp[i].uv, EM_MAX_VOLTAGE_UV);
			o->voltage_uv = opp[i].uv;
		}
		rc = opp_power(c, tname, &opp[i], first->dpc, !all_uw, &o->power_uw);
		if (rc)
			return rc;
	}
	name_from_table(tname, pd->name, sizeof(pd->name));
	if (first->compatible) {
		const char *comma = strchr(first->compatible, ',');

		snprintf(prof->core[d], sizeof(prof->core[d]), "%s",
			 comma ? comma + 1 : first->compatible);
	}
	return 0;
}

/*
 * Performance as the kernel derives it: capacity = dmips * fmax[MHz], normalised to 1024 for
 * the largest (topology_normalize_cpu_scale, without capacity-dmips-mhz on every CPU all are
 * 1024), then per OPP capacity * f / fmax (em_init_performance).
 */
static void derive_perf(struct dt_ctx *c, struct em_profile *prof, bool *dmips_missing)
{
	struct em_model *m = &prof->model;
	u64 raw[EM_MAX_DOMAINS], max_raw = 0;

	*dmips_missing = false;
	for (u32 i = 0; i < c->nr_cpus; i++)
		*dmips_missing |= c->cpu[i].domain >= 0 && c->cpu[i].dmips == 0;
	for (u32 d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d];
		u32 dmips = 1024;

		for (u32 i = 0; i < c->nr_cpus && !*dmips_missing; i++)
			if (c->cpu[i].domain == (int)d) {
				dmips = c->cpu[i].dmips;
				break;
			}
		raw[d] = (u64)dmips * (pd->opps[pd->nr_opps - 1].freq_khz / 1000);
		if (*dmips_missing)
			raw[d] = 1;
		if (raw[d] > max_raw)
			max_raw = raw[d];
	}
	for (u32 d = 0; d < m->nr_domains; d++) {
		struct em_domain *pd = &m->domains[d];
		u64 cap = max_raw ? (raw[d] << 10) / max_raw : 0;
		u64 fmax = pd->opps[pd->nr_opps - 1].freq_khz;

		for (u32 i = 0; i < pd->nr_opps; i++)
			pd->opps[i].perf = (u32)(cap * pd->opps[i].freq_khz / fmax);
	}
}

int em_import_dt(const char *path, struct em_profile *prof, struct em_warnings *warn,
		 struct gb_err *err)
{
	struct dt_ctx *c = calloc(1, sizeof(*c));
	bool estimated = false, dmips_missing;
	char *blob = NULL;
	size_t len;
	int rc, map, root;
	u32 nd;

	em_profile_init(prof, "dt");
	if (warn)
		memset(warn, 0, sizeof(*warn));
	if (!c)
		return gb_err_set(err, ENOMEM, "out of memory");
	rc = load_blob(path, &blob, &len, err);
	if (rc)
		goto out;
	c->fdt = blob;
	c->path = path;
	c->err = err;
	rc = read_cpus(c);
	if (rc)
		goto out;
	map = fdt_path_offset(c->fdt, "/cpus/cpu-map");
	if (map >= 0)
		read_cluster(c, map, 0);
	nd = group_domains(c);
	if (nd == 0) {
		rc = gb_err_set(err, EINVAL, "%s: no CPU node has an operating-points-v2 table",
				path);
		goto out;
	}
	if (nd > EM_MAX_DOMAINS) {
		rc = gb_err_set(err, EINVAL, "%s: %u perf domains, at most %d", path, nd,
				EM_MAX_DOMAINS);
		goto out;
	}
	prof->model.nr_domains = nd;
	for (u32 d = 0; d < nd; d++) {
		rc = build_domain(c, (int)d, prof, &estimated);
		if (rc)
			goto out;
	}
	derive_perf(c, prof, &dmips_missing);
	if (dmips_missing)
		em_add_warning(warn,
			       "not every CPU has capacity-dmips-mhz: as the kernel does, every "
			       "CPU's capacity is 1024 at its highest OPP");
	for (u32 d = 0; d < nd; d++)
		if (!prof->model.domains[d].name[0])
			em_default_domain_name(nd, d, prof->model.domains[d].name, EM_NAME_LEN);
	root = fdt_path_offset(c->fdt, "/");
	{
		int clen;
		const char *compat =
		    root >= 0 ? fdt_getprop(c->fdt, root, "compatible", &clen) : NULL;
		const char *soc = "dt";

		/* the SoC is the last entry ("board", "vendor,soc"), without its vendor */
		if (compat && clen > 0 && compat[clen - 1] == '\0') {
			const char *last = compat;

			for (const char *p = compat; p < compat + clen; p += strlen(p) + 1)
				last = p;
			soc = strchr(last, ',') ? strchr(last, ',') + 1 : last;
		}
		snprintf(prof->soc, sizeof(prof->soc), "%s", *soc ? soc : "dt");
	}
	snprintf(prof->prov.conditions, sizeof(prof->prov.conditions),
		 "device tree: %s; perf = capacity x f / fmax, capacity from capacity-dmips-mhz as "
		 "the kernel derives them",
		 estimated ? "power ESTIMATED from dynamic-power-coefficient (P = DPC x V^2 x f, "
			     "as the kernel "
			     "estimates it), not measured"
			   : "power from opp-microwatt");
	rc = em_profile_finalize(prof, false, warn, err);
	if (rc)
		gb_err_prefix(err, "%s", path);
out:
	free(blob);
	free(c);
	return rc;
}
