# SPDX-License-Identifier: GPL-2.0-only
"""Part latency: wake-up latency and late frames next to energy, in the simulator.

gearbox is scx_gearbox on the simulator's sched_ext host (a task's own slice, deadline order
without eligibility, no wake-up preemption) without slice-aware grouping, gearbox+group the same
with it (src/policy/gb_group.h); mainline is the fair class (EEVDF's deadline with eligibility
and wake-up preemption).  Per model and workload, two `gearbox sim --host scx --json --seeds N`
runs with the same seeds, `-P mainline,gearbox --group-slices off` and `-P gearbox
--group-slices on`; per policy: energy, and per task class (the
instances of one rt-app task object: "bg-0".."bg-5" are class "bg") the wake-up latency p50
and p99 (the mean over the class's tasks of each task's figure, itself the mean over the
seeds), late activations (a frame task's late frames), wake-ups and preemptions (stopped while
runnable for another task: what a long slice is meant to spare its task).  The figures are compared
between the two policies of the same run; nothing is compared with a stored value.
"""
import json
import os

from . import common, energy

SEEDS = 5
# the UI-like mix and two mobile mixes with frame threads
WORKLOADS = ["bench/workloads/ui_frames.json", "bench/workloads/ui_background_sync.json",
             "bench/workloads/video_playback.json"]
POLICIES = ["mainline", "gearbox", "gearbox+group"]
# the runs of a case: the policies each gives (gearbox renamed), and its sim options
RUNS = [(["mainline", "gearbox"], ["--group-slices", "off"], {}),
        (["gearbox"], ["--group-slices", "on"], {"gearbox": "gearbox+group"})]


def task_class(name):
    """rt-app names a thread NAME-INSTANCE: the class is NAME."""
    base, _, inst = name.rpartition("-")
    return base if base and inst.isdigit() else name


def classes_of(result):
    """{class: {wake_p50_us, wake_p99_us, late, wakeups, preemptions, tasks}} of one policy's
    result; counts are summed over the class's tasks."""
    out = {}
    for t in result.get("tasks", []):
        c = out.setdefault(task_class(t["name"]), {"tasks": 0, "wake_p50_us": 0.0,
                                                   "wake_p99_us": 0.0, "late": 0.0,
                                                   "wakeups": 0.0, "preemptions": 0.0})
        c["tasks"] += 1
        c["wake_p50_us"] += t["wake_latency_p50_us"]
        c["wake_p99_us"] += t["wake_latency_p99_us"]
        c["late"] += t["late_activations"]
        c["wakeups"] += t["wakeups"]
        c["preemptions"] += t["preemptions"]
    for c in out.values():
        c["wake_p50_us"] = round(c["wake_p50_us"] / c["tasks"], 1)
        c["wake_p99_us"] = round(c["wake_p99_us"] / c["tasks"], 1)
        c["late"] = round(c["late"], 1)
        c["wakeups"] = round(c["wakeups"], 1)
        c["preemptions"] = round(c["preemptions"], 1)
    return out


def run_case(gearbox, model, wl, duration, seeds):
    case = {"model": os.path.basename(model)[:-5], "workload": os.path.basename(wl)[:-5],
            "commands": [], "policies": {}}
    for pols, opts, rename in RUNS:
        cmd = [gearbox, "sim", "-p", model, "-P", ",".join(pols), "--host", "scx"] + opts + [
            "--json", "--seeds", str(seeds)]
        if duration:
            cmd += ["-d", str(duration)]
        cmd.append(wl)
        case["commands"].append(common.cmdline(cmd))
        rc, out, err = common.run(cmd, timeout=600)
        if rc != 0:
            case["error"] = err.strip()[-500:]
            return case
        for r in json.loads(out)["results"]:
            case["policies"][rename.get(r["policy"], r["policy"])] = {
                "energy_j": r["energy_j"], "late_activations": r["late_activations"],
                "wake_latency_p99_us": r["wake_latency_p99_us"], "classes": classes_of(r)}
    return case


def run_part(ctx):
    dur = 1 if ctx.quick else None
    seeds = 1 if ctx.quick else SEEDS
    wls = ctx.workloads or [os.path.join(ctx.root, w) for w in WORKLOADS]
    mds = energy.models(ctx.root, ctx.quick, ctx.models)
    common.log("latency: %d workloads x %d models, %d seeds each" % (len(wls), len(mds), seeds))
    cases = [run_case(ctx.gearbox, m, w, dur, seeds) for w in wls for m in mds]
    return {"format": "gearbox-bench-latency/%d" % common.FORMAT_VERSION,
            "machine": ctx.machine, "quick": ctx.quick, "seeds": seeds,
            "sim_duration_s": dur or "workload's own", "host": "scx",
            "workloads": [os.path.relpath(w) for w in wls],
            "models": [os.path.basename(m)[:-5] for m in mds], "cases": cases}


def print_report(doc):
    print("latency: gearbox (scx_gearbox, sched_ext host) without and with slice-aware grouping "
          "(gearbox+group) against mainline (EEVDF), %s seed(s); per task class: wake-up latency "
          "p50/p99 us (mean over the class's tasks), late activations, preemptions; energy per "
          "policy and its ratio to mainline's" % doc["seeds"])
    rows = []
    for c in doc["cases"]:
        if "error" in c:
            rows.append([c["workload"], c["model"], "error: " + c["error"][:60], "", "", ""])
            continue
        pols = [c["policies"][p] for p in POLICIES]
        ml = pols[0]
        rows.append([c["workload"], c["model"], "energy J"] + [
            "%.3f" % p["energy_j"] if p is ml else "%.3f (%s)" % (
                p["energy_j"], common.fmt_ratio(common.ratio(p["energy_j"], ml["energy_j"])))
            for p in pols])
        for name in sorted(ml["classes"]):
            xs = [p["classes"].get(name) for p in pols]
            if not all(xs):
                continue
            rows.append(["", "", name] + ["%.0f/%.0f/%g/%g" % (
                x["wake_p50_us"], x["wake_p99_us"], x["late"], x["preemptions"]) for x in xs])
    common.table(rows, ["workload", "model", "class"] + POLICIES)
