# SPDX-License-Identifier: GPL-2.0-only
"""Part 2, policy speed: bench/policy_speed (gb_select_cpu natively) on generated models.

The figure is decisions per CPU-second of the benchmark process (the machine is shared, so
wall time would measure the neighbours).  Ratios are against the smallest model (8 CPUs,
3 domains) measured in the same run; the growth with domains at a fixed CPU count is given as
ns per added domain between 3->16 and 16->64 domains (equal slopes: linear).
"""
import json
import os
import subprocess

from . import common

TARGET_8CPU = 2e6
MEM_WORKLOAD = os.path.join(common.ROOT, "workloads", "demo-mobile.json")


def _sim_rss(gearbox, seconds):
    """gearbox sim for `seconds` simulated: (peak RSS in kB of that child, command)."""
    cmd = [gearbox, "sim", "-p", "sm8250", "-P", "gearbox", "--json", "-d", str(seconds),
           MEM_WORKLOAD]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = status
    return (ru.ru_maxrss if status == 0 else None), cmd


def sim_memory(ctx):
    """The simulator's memory is flat in simulated duration: peak RSS at 10x the duration over
    peak RSS at 1x, measured in the same run (the issue's target; a ratio, not a size)."""
    short, long_ = (5, 50) if ctx.quick else (10, 100)
    a, cmd_a = _sim_rss(ctx.gearbox, short)
    b, cmd_b = _sim_rss(ctx.gearbox, long_)
    if a is None or b is None:
        return {"error": "gearbox sim failed", "commands": [common.cmdline(cmd_a),
                                                              common.cmdline(cmd_b)]}
    return {"commands": [common.cmdline(cmd_a), common.cmdline(cmd_b)],
            "sim_seconds": [short, long_], "max_rss_kb": [a, b], "ratio": b / a,
            "flat": b / a < 1.05}


def run_part(ctx):
    exe = os.path.join(ctx.build, "bench", "policy_speed")
    if not os.access(exe, os.X_OK):
        raise common.Skip("%s not built" % exe)
    cmd = [exe, "--cpu-ms", "60" if ctx.quick else "500"]
    rc, out, err = common.run(cmd, timeout=600)
    if rc != 0:
        raise common.Skip("policy_speed failed: " + err.strip())
    doc = json.loads(out)
    doc["format"] = "gearbox-bench-speed/%d" % common.FORMAT_VERSION
    doc["command"] = common.cmdline(cmd)
    doc["host"] = ctx.machine
    res = doc["results"]
    base = next(r for r in res if r["cpus"] == 8 and r["domains"] == 3)
    for r in res:
        r["speed_vs_8cpu_3pd"] = r["decisions_per_cpu_s"] / base["decisions_per_cpu_s"]
        r["cost_vs_8cpu_3pd"] = r["ns_per_decision"] / base["ns_per_decision"]
    growth = []
    for ncpu in sorted({r["cpus"] for r in res}):
        by_d = {r["domains"]: r for r in res if r["cpus"] == ncpu}
        if all(d in by_d for d in (3, 16, 64)):
            s1 = (by_d[16]["ns_per_decision"] - by_d[3]["ns_per_decision"]) / 13
            s2 = (by_d[64]["ns_per_decision"] - by_d[16]["ns_per_decision"]) / 48
            growth.append({"cpus": ncpu, "ns_per_domain_3_to_16": s1,
                           "ns_per_domain_16_to_64": s2,
                           "slope_ratio": s2 / s1 if s1 else None})
    doc["domain_growth"] = growth
    best8 = max(r["decisions_per_cpu_s"] for r in res if r["cpus"] == 8 and r["domains"] == 3)
    doc["target_2M_at_8cpus"] = {"decisions_per_cpu_s": best8, "met": best8 >= TARGET_8CPU}
    doc["sim_memory"] = sim_memory(ctx)
    return doc


def print_report(doc):
    print("policy speed: gb_select_cpu() decisions per CPU-second, native build (%s, "
          "optimized %s, sanitized %s)" % (doc["build"]["compiler"], doc["build"]["optimized"],
                                           doc["build"]["sanitized"]))
    rows = []
    for r in doc["results"]:
        rows.append([str(r["cpus"]), str(r["domains"]), "%.2f M" % (r["decisions_per_cpu_s"] / 1e6),
                     "%.0f" % r["ns_per_decision"], "%.3f" % r["speed_vs_8cpu_3pd"],
                     "%.2f" % r["cost_vs_8cpu_3pd"], str(r["decisions"])])
    common.table(rows, ["cpus", "domains", "decisions/s", "ns/dec", "speed/(8,3)",
                        "cost/(8,3)", "decisions"])
    for g in doc["domain_growth"]:
        print("%d CPUs: %.1f ns per added domain (3->16), %.1f ns (16->64), slope ratio %.2f" % (
            g["cpus"], g["ns_per_domain_3_to_16"], g["ns_per_domain_16_to_64"],
            g["slope_ratio"] or 0))
    t = doc["target_2M_at_8cpus"]
    print("target >= 2 M decisions/s at 8 CPUs: %.2f M, %s" % (
        t["decisions_per_cpu_s"] / 1e6, "met" if t["met"] else "NOT met"))
    m = doc.get("sim_memory", {})
    if "ratio" in m:
        print("simulator memory: peak RSS %d kB for %d s simulated, %d kB for %d s: ratio %.3f, "
              "%s" % (m["max_rss_kb"][0], m["sim_seconds"][0], m["max_rss_kb"][1],
                      m["sim_seconds"][1], m["ratio"], "flat" if m["flat"] else "NOT flat"))
    elif m:
        print("simulator memory: " + m["error"])
