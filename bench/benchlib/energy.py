# SPDX-License-Identifier: GPL-2.0-only
"""Part 1, the energy suite: every workload on every shipped model under every policy.

Each (workload, model) pair is one `gearbox sim --json` invocation with the four online
policies (mainline first, so that the simulator's own ratio column is against mainline), and
one with the oracle alone, which only exists for periodic workloads (the simulator skips it
for the others) and only where one of its plans keeps every deadline (else it reports the
case infeasible); the case records why there is no oracle.  Energy is reported as ratios to
mainline and to the oracle; late activations and wake-up latency p99 side by side, because an
energy figure without its QoS cost is not a result.

A full run uses SEEDS seeds per case (`gearbox sim --seeds`): every figure is the mean over the
seeds, and the energy ratio to mainline comes with the 95% interval of its per-seed values; a
case counts as a win or a loss against mainline only where that interval excludes 1.  A quick
run uses one seed (no intervals).
"""
import glob
import json
import os

from . import common

POLICIES = ["gearbox", "mainline", "rework", "performance", "oracle"]
ONLINE = ["mainline", "gearbox", "rework", "performance"]
QUICK_MODELS = ["sm8250", "gs101"]
SEEDS = 5

# The targets, per workload category.
TARGET_VS_MAINLINE = {"quirk": 0.90, "mobile": 0.97}
TARGET_VS_ORACLE_LISA = 1.05


def category(path):
    base = os.path.basename(path)
    if "/bench/workloads/" in path:
        return "mobile"
    if base.startswith("q") and base[1:2].isdigit():
        return "quirk"
    if base.startswith("lisa"):
        return "lisa"
    return "scenario"


# The models and workloads the policy's constants were tuned on.  Every other case (a model or
# a workload not named here) is "judged": it did not shape the policy, and the report gives it
# its own table, so a reader sees whether the gains carry over.
TUNED_MODELS = {"gs101", "msm8998", "sm7250ab", "sm8150", "sm8250", "zuma"}
TUNED_WORKLOADS = {
    "lisa_one_small", "lisa_ramp_down", "lisa_ramp_up", "lisa_three_small", "lisa_two_big",
    "lisa_two_big_three_small", "lisa_wake_migration", "q1_uclamp_min_big", "q2_spare_vs_cost",
    "q3_more_room", "q4_overutilized_global", "q5_uclamp_max_long", "game_build",
    "idle_screen", "ui_background_sync", "video_playback"}
SPLITS = ["tuned", "judged"]


def split_of(model, wl):
    name = os.path.basename(wl)[:-5]
    return "tuned" if model in TUNED_MODELS and name in TUNED_WORKLOADS else "judged"


def shipped_workloads(root):
    found = sorted(glob.glob(os.path.join(root, "tests/scenarios/workloads/*.json")))
    found += sorted(glob.glob(os.path.join(root, "bench/workloads/*.json")))
    return found


def shipped_models(root):
    return sorted(glob.glob(os.path.join(root, "em-profiles/*.json")) +
                  glob.glob(os.path.join(root, "bench/models/*.json")))


def _is_path(x):
    return "/" in x or x.endswith(".json") or os.path.exists(x)


def resolve_workloads(root, only):
    """--workloads: paths (files, or directories of *.json) as given, words as a filter on the
    shipped workloads' names; ValueError naming what matched nothing."""
    out = []
    for w in (o for o in only if o):
        if _is_path(w):
            if os.path.isdir(w):
                found = sorted(glob.glob(os.path.join(w, "*.json")))
                if not found:
                    raise ValueError("--workloads: %s: no *.json in that directory" % w)
                out += [os.path.abspath(f) for f in found]
            elif os.path.isfile(w):
                out.append(os.path.abspath(w))
            else:
                raise ValueError("--workloads: %s: no such file or directory" % w)
        else:
            found = [f for f in shipped_workloads(root) if w in os.path.basename(f)]
            if not found:
                raise ValueError("--workloads: '%s' is in no shipped workload's name" % w)
            out += found
    return sorted(set(out), key=out.index)


def resolve_models(root, only):
    """--models: names of shipped models (em-profiles/, bench/models/) or paths of model files;
    ValueError naming the one that is neither."""
    out = []
    for m in (o for o in only if o):
        if _is_path(m):
            if not os.path.isfile(m):
                raise ValueError("--models: %s: no such file" % m)
            out.append(os.path.abspath(m))
        else:
            found = [p for p in shipped_models(root) if os.path.basename(p)[:-5] == m]
            if not found:
                raise ValueError("--models: no model named '%s' in em-profiles/ or bench/models/"
                                 % m)
            out.append(found[0])
    return sorted(set(out), key=out.index)


def workloads(root, only=None):
    return only if only else shipped_workloads(root)


def models(root, quick, only=None):
    if only:
        return only
    paths = shipped_models(root)
    if quick:
        paths = [p for p in paths if os.path.basename(p)[:-5] in QUICK_MODELS] or paths[:2]
    return paths


def _sim(gearbox, model, wl, policies, duration, seeds):
    cmd = [gearbox, "sim", "--json", "-p", model, "-P", ",".join(policies)]
    if duration:
        cmd += ["--duration", str(duration)]
    if seeds > 1:
        cmd += ["--seeds", str(seeds)]
    cmd.append(wl)
    rc, out, err = common.run(cmd, timeout=600)
    if rc != 0:
        msg = (err.strip().splitlines() or ["exit status %d" % rc])[-1]
        return None, msg, cmd
    return json.loads(out), None, cmd


def _policy_figures(r):
    return {
        # the simulator's host the policy ran on: "scx" (gearbox on the sched_ext host) or
        # "fair" (every other policy, and gearbox with --host fair)
        "host": r.get("host"),
        "energy_j": r["energy_j"],
        "activations": r["activations"],
        "late_activations": r["late_activations"],
        "missed_periods": r["missed_periods"],
        "wakeups": r["wakeups"],
        "wake_latency_p50_us": r["wake_latency_p50_us"],
        "wake_latency_p99_us": r["wake_latency_p99_us"],
        "overutilized_pct": r["overutilized_pct"],
        "migrations": r["migrations"],
        # of them, to a CPU of another domain (a move within one costs nothing in the physics)
        "migrations_across_domains": r.get("migrations_across_domains"),
        "misfit_moves": r["misfit_moves"],
        # of them, capacity-misfit moves undone by a later migration (docs/sim.md)
        "misfit_moves_undone": r.get("misfit_moves_undone"),
        "work_s": r.get("work_s"),
        "energy_ratio": r.get("energy_ratio"),
        "energy_ratio_ci95": r.get("energy_ratio_ci95"),
        "energy_j_ci95": r.get("energy_j_ci95"),
        # each seed's figures, for the suite's intervals (seed_summary)
        "per_seed": {k: [x[k] for x in r["per_seed"]]
                     for k in ("energy_ratio", "late_activations", "missed_periods")}
        if r.get("per_seed") else None,
    }


def run_case(gearbox, model, wl, duration, seeds=1):
    name = os.path.basename(model)[:-5]
    case = {"workload": os.path.relpath(wl), "category": category(wl), "model": name,
            "split": split_of(name, wl), "policies": {}, "commands": [], "seeds": seeds}
    doc, msg, cmd = _sim(gearbox, model, wl, ONLINE, duration, seeds)
    case["commands"].append(common.cmdline(cmd))
    if doc is None:
        # a workload written for other CPUs (calibration CPU7, a cpus list) does not apply to
        # a smaller model: not a failure of the run
        if "is not in the model" in msg or "which the model does not have" in msg:
            case["not_applicable"] = msg
        else:
            case["error"] = msg
        return case
    case["sim_duration_us"] = doc["duration_us"]
    for r in doc["results"]:
        case["policies"][r["policy"]] = _policy_figures(r)
    doc, msg, cmd = _sim(gearbox, model, wl, ["oracle"], duration, seeds)
    case["commands"].append(common.cmdline(cmd))
    if doc is None:
        case["oracle_error"] = msg
    else:
        o = doc["results"][0]
        if "skipped" in o:
            case["oracle_skipped"] = o["skipped"]
        elif o.get("feasible") is False:
            case["oracle_infeasible"] = o.get("note", "")
        else:
            case["policies"]["oracle"] = _policy_figures(o)
    e = {p: v["energy_j"] for p, v in case["policies"].items()}
    case["energy_vs_mainline"] = {p: common.ratio(e.get(p), e.get("mainline")) for p in POLICIES}
    case["energy_vs_oracle"] = {p: common.ratio(e.get(p), e.get("oracle")) for p in POLICIES}
    # energy per unit of work done (J per second of work at capacity 1024): a policy that does
    # less of a non-periodic task's work is not cheaper by that
    epw = {p: common.ratio(v["energy_j"], v.get("work_s")) for p, v in case["policies"].items()}
    case["energy_per_work_vs_mainline"] = {p: common.ratio(epw.get(p), epw.get("mainline"))
                                           for p in POLICIES}
    case["targets"] = targets(case)
    case["vs_mainline"] = {p: verdict(case["policies"][p].get("energy_ratio_ci95"))
                           for p in ONLINE if p in case["policies"]}
    return case


def verdict(ci):
    """'win' / 'loss' when the 95% interval of the per-seed energy ratio to mainline lies below
    / above 1, 'tie' when it contains 1, None without an interval (one seed)."""
    if not ci:
        return None
    return "win" if ci[1] < 1 else "loss" if ci[0] > 1 else "tie"


def paired_not_above(g, m, key):
    """False when gearbox's figure key is above mainline's beyond the 95% interval of their
    difference seed by seed (each seed runs both on the same start times), True otherwise; None
    with one seed."""
    gs, ms = (g.get("per_seed") or {}).get(key), (m.get("per_seed") or {}).get(key)
    if not gs or not ms or len(gs) != len(ms):
        return None
    ci = common.ci95([a - b for a, b in zip(gs, ms)])
    return None if ci is None else ci[0] <= 0


def targets(case):
    """Which of the issue's targets this case meets (None: not applicable)."""
    pol = case["policies"]
    g, m, rw = pol.get("gearbox"), pol.get("mainline"), pol.get("rework")
    t = {}
    lim = TARGET_VS_MAINLINE.get(case["category"])
    vm = case["energy_vs_mainline"].get("gearbox")
    t["energy_vs_mainline"] = None if lim is None or vm is None else vm <= lim
    t["late_not_above_mainline"] = g["late_activations"] <= m["late_activations"]
    t["missed_not_above_mainline"] = g["missed_periods"] <= m["missed_periods"]
    t["late_not_above_mainline_paired"] = paired_not_above(g, m, "late_activations")
    t["missed_not_above_mainline_paired"] = paired_not_above(g, m, "missed_periods")
    vo = case["energy_vs_oracle"].get("gearbox")
    t["lisa_within_5pct_of_oracle"] = (None if case["category"] != "lisa" or vo is None
                                       else vo <= TARGET_VS_ORACLE_LISA)
    t["not_worse_than_rework"] = g["energy_j"] <= rw["energy_j"]
    t["strictly_better_than_rework"] = g["energy_j"] < rw["energy_j"]
    return t


def seed_summary(ok):
    """The suite's figures with intervals: each seed is a replicate of the whole suite (every
    case run with that seed), so per seed the geometric mean of the energy ratio to mainline
    and the sums of late activations and missed periods are taken over the cases, then the
    mean and 95% interval over the seeds; for gearbox also its late activations and missed
    periods minus mainline's and rework's, paired by seed.  None without per-seed figures
    (one seed)."""
    seeds = {len(c["policies"]["mainline"]["per_seed"]["energy_ratio"]) for c in ok
             if (c["policies"].get("mainline") or {}).get("per_seed")}
    if len(seeds) != 1 or min(seeds) < 2:
        return None
    n = seeds.pop()
    per = {p: [c["policies"][p]["per_seed"] for c in ok
               if (c["policies"].get(p) or {}).get("per_seed")] for p in ONLINE}
    out = {"seeds": n, "cases": len(per["mainline"])}

    def interval(xs):
        m = sum(xs) / len(xs)
        return {"mean": round(m, 4), "ci95": [round(v, 4) for v in common.ci95(xs)]}

    for p in ONLINE:
        if len(per[p]) != len(per["mainline"]):
            continue
        g = [common.geomean([x["energy_ratio"][i] for x in per[p]]) for i in range(n)]
        out[p] = {"geomean_energy_vs_mainline": interval(g)}
        for k in ("late_activations", "missed_periods"):
            out[p][k] = interval([sum(x[k][i] for x in per[p]) for i in range(n)])
    for other in ("mainline", "rework"):
        if "gearbox" in out and other in out:
            for k in ("late_activations", "missed_periods"):
                out["gearbox"]["%s_minus_%s" % (k, other)] = interval(
                    [sum(x[k][i] for x in per["gearbox"]) - sum(x[k][i] for x in per[other])
                     for i in range(n)])
    return out


def policy_summary(ok):
    by_pol = {}
    for p in POLICIES:
        xs = [c for c in ok if p in c["policies"]]
        by_pol[p] = {
            "cases": len(xs),
            "geomean_energy_vs_mainline": common.geomean(
                [c["energy_vs_mainline"][p] for c in xs]),
            "geomean_energy_vs_oracle": common.geomean(
                [c["energy_vs_oracle"][p] for c in xs if c["energy_vs_oracle"][p]]),
            "geomean_energy_per_work_vs_mainline": common.geomean(
                [c["energy_per_work_vs_mainline"][p] for c in xs
                 if c.get("energy_per_work_vs_mainline", {}).get(p)]),
            "late_activations": common.total(c["policies"][p]["late_activations"] for c in xs),
            "missed_periods": common.total(c["policies"][p]["missed_periods"] for c in xs),
            "activations": common.total(c["policies"][p]["activations"] for c in xs),
        }
    for p in ONLINE:
        vs = [c.get("vs_mainline", {}).get(p) for c in ok]
        by_pol[p]["vs_mainline_by_interval"] = {
            k: sum(1 for v in vs if v == k) for k in ("win", "loss", "tie")}
    g = [c for c in ok if "gearbox" in c["policies"] and "mainline" in c["policies"]]
    by_pol["gearbox"]["late_above_mainline"] = sum(
        1 for c in g if c["policies"]["gearbox"]["late_activations"] >
        c["policies"]["mainline"]["late_activations"])
    by_pol["gearbox"]["missed_above_mainline"] = sum(
        1 for c in g if c["policies"]["gearbox"]["missed_periods"] >
        c["policies"]["mainline"]["missed_periods"])
    return by_pol


def summarize(cases):
    ok = [c for c in cases if "error" not in c and "not_applicable" not in c]
    s = {"cases": len(cases), "cases_run": len(ok),
         "cases_failed": [{"workload": c["workload"], "model": c["model"], "error": c["error"]}
                          for c in cases if "error" in c],
         "cases_not_applicable": ["%s on %s" % (os.path.basename(c["workload"])[:-5], c["model"])
                                  for c in cases if "not_applicable" in c],
         "oracle_unavailable": sum(1 for c in ok if "oracle" not in c["policies"]),
         "oracle_infeasible": ["%s on %s" % (os.path.basename(c["workload"])[:-5], c["model"])
                               for c in ok if "oracle_infeasible" in c]}
    s["policies"] = policy_summary(ok)
    s["seeds"] = seed_summary(ok)
    s["split"] = {}
    for sp in SPLITS:
        xs = [c for c in ok if c["split"] == sp]
        s["split"][sp] = {
            "cases": len(xs),
            "models": sorted({c["model"] for c in xs}),
            "workloads": sorted({os.path.basename(c["workload"])[:-5] for c in xs}),
            "policies": policy_summary(xs) if xs else None,
            "seeds": seed_summary(xs) if xs else None}
    cats = {}
    for cat in sorted({c["category"] for c in ok}):
        xs = [c for c in ok if c["category"] == cat]
        cats[cat] = {
            "cases": len(xs),
            "geomean_gearbox_vs_mainline": common.geomean(
                [c["energy_vs_mainline"]["gearbox"] for c in xs]),
            "max_gearbox_vs_mainline": max(c["energy_vs_mainline"]["gearbox"] for c in xs),
        }
    s["categories"] = cats
    per_wl = {}
    for w in sorted({c["workload"] for c in ok}, key=lambda w: (category(w), w)):
        xs = [c for c in ok if c["workload"] == w]
        row = {"category": xs[0]["category"], "models": len(xs)}
        for p in ["gearbox", "rework", "performance", "oracle"]:
            row["geomean_%s_vs_mainline" % p] = common.geomean(
                [c["energy_vs_mainline"][p] for c in xs])
        row["geomean_gearbox_vs_oracle"] = common.geomean(
            [c["energy_vs_oracle"]["gearbox"] for c in xs])
        for p in POLICIES:
            row["late_%s" % p] = common.total(c["policies"][p]["late_activations"] for c in xs
                                     if p in c["policies"])
            row["missed_%s" % p] = common.total(c["policies"][p]["missed_periods"] for c in xs
                                       if p in c["policies"])
        row["activations_mainline"] = common.total(c["policies"]["mainline"]["activations"] for c in xs)
        per_wl[w] = row
    s["workloads"] = per_wl
    tg = {}
    for key in ["energy_vs_mainline", "late_not_above_mainline", "missed_not_above_mainline",
                "late_not_above_mainline_paired", "missed_not_above_mainline_paired",
                "lisa_within_5pct_of_oracle",
                "not_worse_than_rework", "strictly_better_than_rework"]:
        app = [c for c in ok if c["targets"][key] is not None]
        miss = [c for c in app if not c["targets"][key]]
        tg[key] = {"applicable": len(app), "met": len(app) - len(miss),
                   "missed": ["%s on %s" % (os.path.basename(c["workload"])[:-5], c["model"])
                              for c in miss]}
    s["targets"] = tg
    return s


def print_seeds(ss):
    """The per-seed intervals of seed_summary, a few lines."""
    if not ss:
        return

    def f(v, fmt):
        return "%s [%s, %s]" % (fmt % v["mean"], fmt % v["ci95"][0], fmt % v["ci95"][1])

    print("over %d seeds, each a replicate of the %d cases (mean [95%% interval]):" %
          (ss["seeds"], ss["cases"]))
    for p in ONLINE:
        if p in ss:
            print("  %-12s E/ml geomean %s, late %s, missed %s" % (
                p, f(ss[p]["geomean_energy_vs_mainline"], "%.3f"),
                f(ss[p]["late_activations"], "%.1f"), f(ss[p]["missed_periods"], "%.1f")))
    g = ss.get("gearbox", {})
    for other in ("mainline", "rework"):
        k = "late_activations_minus_%s" % other
        if k in g:
            print("  gearbox - %-8s late %s, missed %s" % (
                other, f(g[k], "%+.1f"), f(g["missed_periods_minus_%s" % other], "%+.1f")))


def print_report(doc):
    rows = []
    for c in doc["cases"]:
        name = os.path.basename(c["workload"])[:-5]
        if "not_applicable" in c:
            continue
        if "error" in c:
            rows.append([name, c["model"], "error: " + c["error"][-60:]] + [""] * 17)
            continue
        pol = c["policies"]
        vm, vo = c["energy_vs_mainline"], c["energy_vs_oracle"]
        row = [name, c["model"]]
        row += [common.fmt_ratio(vm[p]) for p in ["gearbox", "rework", "performance", "oracle"]]
        row += [common.fmt_ratio(vo["gearbox"]), common.fmt_ratio(vo["mainline"])]
        row += [str(pol[p]["late_activations"]) if p in pol else "-" for p in POLICIES]
        row += [str(pol[p]["missed_periods"]) for p in ["gearbox", "mainline"]]
        row += ["%.0f" % pol[p]["wake_latency_p99_us"] if p in pol else "-"
                for p in ["gearbox", "mainline", "rework"]]
        row += ["%.0f" % pol[p]["migrations"] if p in pol else "-"
                for p in ["gearbox", "mainline"]]
        row += ["%.0f" % pol[p]["migrations_across_domains"]
                if pol.get(p, {}).get("migrations_across_domains") is not None else "-"
                for p in ["gearbox", "mainline"]]
        rows.append(row)
    header = ["workload", "model", "gb/ml", "rw/ml", "pf/ml", "or/ml", "gb/or", "ml/or",
              "late:gb", "ml", "rw", "pf", "or", "miss:gb", "ml", "p99us:gb", "ml", "rw",
              "migr:gb", "ml", "x-dom:gb", "ml"]
    print("energy suite: energy ratios (gb gearbox, ml mainline, rw rework, pf performance, "
          "or oracle), late activations, missed periods, wake-up latency p99, migrations (all, "
          "and to another domain)")
    common.table(rows, header)
    s = doc["summary"]
    print()
    rows = []
    for p, v in s["policies"].items():
        rows.append([p, str(v["cases"]), common.fmt_ratio(v["geomean_energy_vs_mainline"]),
                     common.fmt_ratio(v["geomean_energy_per_work_vs_mainline"]),
                     common.fmt_ratio(v["geomean_energy_vs_oracle"]),
                     str(v["late_activations"]), str(v["missed_periods"]),
                     str(v["activations"])])
    common.table(rows, ["policy", "cases", "E/ml geomean", "E/work /ml", "E/or geomean", "late",
                        "missed", "activations"])
    print_seeds(s.get("seeds"))
    for sp in SPLITS:
        v = s["split"][sp]
        print()
        if not v["cases"]:
            print("%s: no case" % sp)
            continue
        print("%s (%s): %d cases; models %s; workloads %s" % (
            sp, "the policy's constants were tuned on these" if sp == "tuned" else
            "did not shape the policy", v["cases"], ", ".join(v["models"]),
            ", ".join(v["workloads"])))
        rows = []
        for p, pv in v["policies"].items():
            if not pv["cases"]:
                continue
            iv = pv.get("vs_mainline_by_interval")
            rows.append([p, str(pv["cases"]), common.fmt_ratio(pv["geomean_energy_vs_mainline"]),
                         common.fmt_ratio(pv["geomean_energy_per_work_vs_mainline"]),
                         common.fmt_ratio(pv["geomean_energy_vs_oracle"]),
                         str(pv["late_activations"]), str(pv["missed_periods"]),
                         "%d/%d/%d" % (iv["win"], iv["loss"], iv["tie"])
                         if iv and sum(iv.values()) else "-"])
        common.table(rows, ["policy", "cases", "E/ml geomean", "E/work /ml", "E/or geomean",
                            "late", "missed", "win/loss/tie vs ml"])
        g = v["policies"]["gearbox"]
        print("gearbox: more late activations than mainline in %d of %d cases, more missed "
              "periods in %d" % (g["late_above_mainline"], g["cases"], g["missed_above_mainline"]))
        print_seeds(v.get("seeds"))
    print()
    rows = []
    for w, v in s["workloads"].items():
        rows.append([os.path.basename(w)[:-5], v["category"]] +
                    [common.fmt_ratio(v["geomean_%s_vs_mainline" % p])
                     for p in ["gearbox", "rework", "performance", "oracle"]] +
                    [common.fmt_ratio(v["geomean_gearbox_vs_oracle"])] +
                    [str(v["late_%s" % p]) for p in POLICIES] +
                    [str(v["missed_%s" % p]) for p in ["gearbox", "mainline"]] +
                    [str(v["activations_mainline"])])
    print("per workload, geometric mean over the models; late activations and missed periods "
          "summed")
    common.table(rows, ["workload", "category", "gb/ml", "rw/ml", "pf/ml", "or/ml", "gb/or",
                        "late:gb", "ml", "rw", "pf", "or", "miss:gb", "ml", "activ(ml)"])
    print()
    for cat, v in s["categories"].items():
        print("category %-8s %3d cases: gearbox/mainline geomean %s, worst %s" % (
            cat, v["cases"], common.fmt_ratio(v["geomean_gearbox_vs_mainline"]),
            common.fmt_ratio(v["max_gearbox_vs_mainline"])))
    print()
    names = {"energy_vs_mainline": "gearbox <= 0.90 x mainline (quirk), <= 0.97 x (mobile)",
             "late_not_above_mainline": "late activations never above mainline",
             "missed_not_above_mainline": "missed periods never above mainline",
             "late_not_above_mainline_paired": "late activations not above mainline beyond the "
                                               "paired 95% interval",
             "missed_not_above_mainline_paired": "missed periods not above mainline beyond the "
                                                 "paired 95% interval",
             "lisa_within_5pct_of_oracle": "within 5% of oracle on LISA-like cases",
             "not_worse_than_rework": "energy not above rework",
             "strictly_better_than_rework": "energy strictly below rework"}
    for key, v in s["targets"].items():
        print("target %-58s %3d/%-3d met%s" % (names[key], v["met"], v["applicable"],
              "" if not v["missed"] else "; missed: " + ", ".join(v["missed"][:12]) +
              (" ..." if len(v["missed"]) > 12 else "")))
    if any(c.get("seeds", 1) > 1 for c in doc["cases"]):
        for p in ["gearbox", "rework", "performance"]:
            v = s["policies"][p]["vs_mainline_by_interval"]
            print("%s vs mainline, where the 95%% interval of the per-seed energy ratio excludes 1: "
                  "%d wins, %d losses, %d not distinguishable" % (p, v["win"], v["loss"], v["tie"]))
    if s["cases_failed"]:
        print("cases that did not run: %d (see JSON)" % len(s["cases_failed"]))
    if s["cases_not_applicable"]:
        print("cases not applicable (the workload names CPUs the model does not have): %d: %s" % (
            len(s["cases_not_applicable"]), ", ".join(s["cases_not_applicable"][:12]) +
            (" ..." if len(s["cases_not_applicable"]) > 12 else "")))
    print("oracle not available in %d cases: %d infeasible (no plan kept every deadline)%s, "
          "the others non-periodic" % (s["oracle_unavailable"], len(s["oracle_infeasible"]),
                                       ": " + ", ".join(s["oracle_infeasible"][:12]) +
                                       (" ..." if len(s["oracle_infeasible"]) > 12 else "")
                                       if s["oracle_infeasible"] else ""))


def run_part(ctx):
    dur = 1 if ctx.quick else None
    seeds = 1 if ctx.quick else SEEDS
    cases = []
    wls, mds = workloads(ctx.root, ctx.workloads), models(ctx.root, ctx.quick, ctx.models)
    if not wls:
        raise common.Skip("no workloads found (tests/scenarios/workloads, bench/workloads)")
    common.log("energy: %d workloads x %d models%s" % (len(wls), len(mds),
               " (quick: 1 s simulated each, one seed)" if ctx.quick else
               ", %d seeds each" % seeds))
    for wl in wls:
        for m in mds:
            cases.append(run_case(ctx.gearbox, m, wl, dur, seeds))
    doc = {"format": "gearbox-bench-energy/%d" % common.FORMAT_VERSION,
           "machine": ctx.machine, "quick": ctx.quick, "seeds": seeds,
           "sim_duration_s": dur or "workload's own",
           "workloads": [os.path.relpath(w) for w in wls],
           "models": [os.path.basename(m)[:-5] for m in mds],
           "cases": cases}
    doc["summary"] = summarize(cases)
    return doc
