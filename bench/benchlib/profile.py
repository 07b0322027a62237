# SPDX-License-Identifier: GPL-2.0-only
"""Part 4, the profiler: `gearbox profile --sim` against the model it simulates, and the
simulated time it takes against the time freqbench took on the real phone.

Accuracy: per OPP, the measured power and perf against the ground truth model (the em-profile
that the simulated SoC runs), as relative errors.  The stuck-OPP fault is off (--sim-stuck
none) so that every OPP is measured, as freqbench measures every OPP.  Time: the profiler's
own "simulated wall time", against the freqbench method (a fixed long CoreMark run per OPP,
active and idle): the sum of elapsed_sec of its runs, and total_elapsed_sec, from
the directory named by $FREQBENCH_DIR (freqbench result files, one per SoC).
"""
import json
import os
import re

from . import common

FREQBENCH_DIRS = [d for d in [os.environ.get("FREQBENCH_DIR")] if d]


def freqbench_dir(root):
    for d in FREQBENCH_DIRS:
        p = d if os.path.isabs(d) else os.path.join(root, d)
        if os.path.isdir(p):
            return p
    return None


def freqbench_time(path):
    with open(path) as f:
        fb = json.load(f)
    runs, opps = 0.0, 0
    for cpu in fb.get("cpus", {}).values():
        for fr in cpu.get("freqs", {}).values():
            opps += 1
            for kind in ("active", "idle"):
                if kind in fr:
                    runs += fr[kind].get("elapsed_sec", 0.0)
    hk = fb.get("housekeeping", {}).get("elapsed_sec", 0.0)
    return {"runs_elapsed_s": runs + hk, "total_elapsed_s": fb.get("total_elapsed_sec"),
            "opps": opps}


def _opps(doc):
    out = {}
    for d in doc["domains"]:
        for o in d["opps"]:
            out[(d["name"], o["freq_khz"])] = (o["power_uw"], o["perf"])
    return out


def accuracy(truth_path, measured_path):
    with open(truth_path) as f:
        truth = _opps(json.load(f))
    with open(measured_path) as f:
        meas = _opps(json.load(f))
    perr, ferr, missing = [], [], 0
    for k, (pw, pf) in truth.items():
        if k not in meas:
            missing += 1
            continue
        perr.append(abs(meas[k][0] - pw) / pw * 100)
        ferr.append(abs(meas[k][1] - pf) / pf * 100)
    perr.sort()
    return {"opps": len(truth), "opps_missing": missing,
            "power_err_mean_pct": sum(perr) / len(perr) if perr else None,
            "power_err_p95_pct": perr[int(0.95 * (len(perr) - 1))] if perr else None,
            "power_err_max_pct": max(perr) if perr else None,
            "perf_err_mean_pct": sum(ferr) / len(ferr) if ferr else None,
            "perf_err_max_pct": max(ferr) if ferr else None}


METERS = [("1 ms meter", []), ("100 ms gauge", ["--sim-gauge", "100"]),
          ("1 s gauge", ["--sim-gauge", "1000"])]


def one_profile(ctx, truth, meter, margs, outdir, fbdir):
    """One `gearbox profile --sim` of the model truth with one meter, against the truth."""
    m = os.path.basename(truth)[:-5]
    meas = os.path.join(outdir, "%s-%s.json" % (m, meter.replace(" ", "-")))
    cmd = [ctx.gearbox, "profile", "--sim", truth, "--sim-stuck", "none"] + margs + ["-o", meas]
    rc, out, err = common.run(cmd, timeout=900)
    row = {"model": m, "meter": meter, "command": common.cmdline(cmd)}
    # 3: the model was written with warnings (OPPs out of order, fitted and marked)
    if rc not in (0, 3):
        row["error"] = (err.strip().splitlines() or ["exit %d" % rc])[-1]
        return row
    row["warnings"] = [ln.split("warning: ", 1)[1] for ln in err.splitlines() if "warning: " in ln]
    mt = re.search(r"simulated wall time ([0-9.]+) s", err)
    row["profile_sim_time_s"] = float(mt.group(1)) if mt else None
    if not mt:
        row["note"] = "the profiler printed no 'simulated wall time' line"
    row["accuracy"] = accuracy(truth, meas)
    fb = os.path.join(fbdir, m + ".json") if fbdir else None
    if fb and os.path.exists(fb):
        row["freqbench"] = freqbench_time(fb)
        if row["profile_sim_time_s"]:
            row["freqbench_time_vs_profile"] = (row["freqbench"]["total_elapsed_s"] or
                                                row["freqbench"]["runs_elapsed_s"]) / \
                row["profile_sim_time_s"]
    else:
        row["freqbench"] = None
    return row


def run_part(ctx):
    fbdir = freqbench_dir(ctx.root)
    shipped = os.path.join(ctx.root, "em-profiles")
    models = ctx.models or [os.path.join(shipped, m + ".json") for m in ["sm8250", "gs101"]
                            if ctx.quick] or sorted(
        os.path.join(shipped, p) for p in os.listdir(shipped) if p.endswith(".json"))
    outdir = os.path.join(ctx.out, "profile")
    os.makedirs(outdir, exist_ok=True)
    # the meters a board may have: a 1 ms hwmon-like meter, and battery fuel gauges
    # updating every 100 ms and every second (phones); --quick runs the first only
    meters = METERS[:1] if ctx.quick else METERS
    rows = [one_profile(ctx, truth, meter, margs, outdir, fbdir)
            for meter, margs in meters for truth in models]
    return {"format": "gearbox-bench-profile/%d" % common.FORMAT_VERSION,
            "machine": ctx.machine, "freqbench_dir": fbdir, "models": rows}


def print_report(doc):
    print("profiler: gearbox profile --sim vs the simulated ground truth; time vs freqbench's "
          "fixed runs")
    rows = []
    for r in doc["models"]:
        if "error" in r:
            rows.append([r["model"], r.get("meter", "1 ms meter"), "error: " + r["error"]])
            continue
        a, fb = r["accuracy"], r.get("freqbench") or {}
        rows.append([r["model"], r.get("meter", "1 ms meter"),
                     "%d/%d" % (a["opps"] - a["opps_missing"], a["opps"]),
                     "%.2f" % a["power_err_mean_pct"], "%.2f" % a["power_err_p95_pct"],
                     "%.2f" % a["power_err_max_pct"], "%.2f" % a["perf_err_max_pct"],
                     "%.0f" % (r["profile_sim_time_s"] or 0),
                     "%.0f" % (fb.get("total_elapsed_s") or 0),
                     "%.0f" % (fb.get("runs_elapsed_s") or 0),
                     common.fmt_ratio(r.get("freqbench_time_vs_profile")),
                     str(len(r.get("warnings", [])))])
    common.table(rows, ["model", "meter", "OPPs", "P err mean%", "p95%", "max%", "perf max%",
                        "profile s", "freqbench s", "fb runs s", "fb/profile", "warnings"])
    for r in doc["models"]:
        for w in r.get("warnings", []):
            print("  %s, %s: %s" % (r["model"], r.get("meter", "1 ms meter"), w))
