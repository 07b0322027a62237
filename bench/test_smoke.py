#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""bench smoke test (meson suite 'bench'): `bench/run --quick energy` on one model and a few
workloads (scenarios and mobile mixes, so that it stays well under 20 s with a sanitized
gearbox) writes a valid results file, with no path of the machine in it, and plot, and bad
usage exits 2; `bench/run --quick latency` on one model gives mainline and gearbox without
and with slice-aware grouping per task class; the energy part's paired comparison of late
activations with mainline (bench/benchlib/energy.py, paired_not_above).
TAP on stdout.

usage: test_smoke.py GEARBOX OUTDIR
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
n = 0
failed = 0


def check(cond, name, detail=""):
    global n, failed
    n += 1
    if cond:
        print("ok %d - %s" % (n, name))
    else:
        failed += 1
        print("not ok %d - %s" % (n, name))
        for line in str(detail).splitlines()[-20:]:
            print("# " + line)


def main():
    gearbox, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    run = os.path.join(HERE, "run")
    p = subprocess.run([sys.executable, run, "--quick", "--no-build", "--gearbox", gearbox,
                        "--models", "sm8250", "--workloads", "q1_,q2_,lisa_one,lisa_two_big.,video,idle",
                        "--out", out, "energy"],
                       capture_output=True, text=True)
    check(p.returncode == 0, "quick_energy_run_exits_0", p.stdout + p.stderr)
    path = os.path.join(out, "bench-energy.json")
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        doc = None
        err = e
    check(doc is not None, "results_file_is_valid_json", doc is None and err)
    doc = doc or {}
    check(doc.get("format") == "gearbox-bench-energy/1" and "cpu_model" in doc.get("machine", {}),
          "results_name_their_format_and_machine", doc.get("format"))
    cases = [c for c in doc.get("cases", []) if "error" not in c]
    check(len(cases) >= 4 and any(c["category"] == "mobile" for c in cases),
          "scenarios_and_mobile_mixes_ran", "%d cases" % len(cases))
    bad = [c["workload"] for c in cases
           if set(c["policies"]) < {"gearbox", "mainline", "rework", "performance"}
           or abs(c["energy_vs_mainline"]["mainline"] - 1.0) > 1e-12
           or not all(v["energy_j"] > 0 for v in c["policies"].values())]
    check(cases and not bad, "every_case_has_all_baselines_and_mainline_ratio_1", bad)
    bad = [c["workload"] for c in cases
           if any(c["policies"][p].get("host") != "fair" for p in ("mainline", "rework", "performance"))
           or c["policies"]["gearbox"].get("host") != "scx"]
    check(cases and not bad, "every_policy_names_the_host_it_ran_on", bad)
    bad = [c["workload"] for c in cases
           if abs((c.get("energy_per_work_vs_mainline", {}).get("mainline") or 0) - 1.0) > 1e-12
           or not all(c["energy_per_work_vs_mainline"].get(p) for p in ["gearbox", "performance"])]
    check(cases and not bad, "energy_per_unit_of_work_next_to_energy", bad)
    check(all(c.get("energy_vs_oracle", {}).get("oracle") in (None, 1.0) for c in cases) and
          any("oracle" in c["policies"] for c in cases), "oracle_ratios_present_where_periodic")
    bad = ["%s %s" % (c["workload"], p) for c in cases for p, v in c["policies"].items()
           if not isinstance(v.get("missed_periods"), int)
           or v["missed_periods"] < v["late_activations"]]
    check(cases and not bad, "missed_periods_reported_and_never_below_late", bad[:4])
    s = doc.get("summary", {})
    check(set(s.get("targets", {})) >= {"energy_vs_mainline", "late_not_above_mainline",
                                         "missed_not_above_mainline",
                                         "lisa_within_5pct_of_oracle", "not_worse_than_rework"},
          "summary_evaluates_every_energy_target", list(s.get("targets", {})))
    with open(path) as f:
        text = f.read()
    leaks = [x for x in (gearbox, out, os.path.dirname(HERE), os.path.dirname(gearbox))
             if x in text]
    check(doc and not leaks and "--out OUT" in doc.get("bench_command", ""),
          "results_hold_no_machine_path", "%s; %s" % (leaks, doc.get("bench_command")))
    try:
        root = ET.parse(os.path.join(out, "energy-vs-late.svg")).getroot()
        texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
        ok = all(pol in texts for pol in ["gearbox", "mainline", "rework", "performance"])
    except (OSError, ET.ParseError) as e:
        ok, texts = False, e
    check(ok, "plot_is_svg_with_a_legend_entry_per_policy", texts)
    # the suite's intervals over seeds: each seed a replicate of every case
    sys.path.insert(0, HERE)
    from benchlib import energy

    def fig(ratios, late):
        return {"per_seed": {"energy_ratio": ratios, "late_activations": late,
                             "missed_periods": late}}
    cases = [{"policies": {"mainline": fig([1, 1, 1], [2, 4, 6]), "gearbox": fig([0.5, 1, 2], [1, 1, 4]),
                           "rework": fig([1, 1, 1], [2, 4, 6]), "performance": fig([2, 2, 2], [0, 0, 0])}},
             {"policies": {"mainline": fig([1, 1, 1], [0, 0, 0]), "gearbox": fig([2, 1, 0.5], [0, 2, 2]),
                           "rework": fig([1, 1, 1], [0, 0, 0]), "performance": fig([2, 2, 2], [3, 3, 3])}}]
    ss = energy.seed_summary(cases)
    g = (ss or {}).get("gearbox", {})
    # per seed: geomean(0.5, 2) = 1, 1, 1; late 1, 3, 6 (mean 3.333); minus mainline -1, -1, 0
    check(ss and ss["seeds"] == 3 and g["geomean_energy_vs_mainline"]["ci95"] == [1.0, 1.0] and
          g["late_activations"]["mean"] == 3.3333 and
          abs(g["late_activations"]["ci95"][1] - (10 / 3 + 4.303 * (19 / 3) ** 0.5 / 3 ** 0.5)) < 1e-3
          and g["late_activations_minus_mainline"]["mean"] == -0.6667,
          "suite_intervals_over_seeds", ss)
    check(energy.seed_summary([{"policies": {p: {"per_seed": None} for p in energy.ONLINE}}]) is None,
          "no_suite_intervals_with_one_seed")
    p = subprocess.run([sys.executable, run, "--no-build", "--gearbox", gearbox, "frobnicate"],
                       capture_output=True, text=True)
    check(p.returncode == 2 and "unknown part 'frobnicate'" in p.stderr,
          "unknown_part_exits_2_with_message", p.stderr)
    # models and workloads by path; the train/test split; a workload that names CPUs the
    # model lacks is not applicable, not a failure
    out2 = out + "-paths"
    root = os.path.dirname(HERE)
    p = subprocess.run([sys.executable, run, "--quick", "--no-build", "--gearbox", gearbox,
                        "--models", "sm8250," + os.path.join(root, "bench/models/rk3399.json"),
                        "--workloads", "q1_," + os.path.join(root, "bench/workloads/video_call.json"),
                        "--out", out2, "energy"], capture_output=True, text=True)
    try:
        with open(os.path.join(out2, "bench-energy.json")) as f:
            doc2 = json.load(f)
    except (OSError, ValueError):
        doc2 = {}
    got = {(os.path.basename(c["workload"]), c["model"]): c for c in doc2.get("cases", [])}
    check(p.returncode == 0 and set(got) == {("q1_uclamp_min_big.json", "sm8250"),
                                           ("q1_uclamp_min_big.json", "rk3399"),
                                           ("video_call.json", "sm8250"),
                                           ("video_call.json", "rk3399")},
          "models_and_workloads_by_path", p.stdout[-2000:] + p.stderr)
    splits = {k: c.get("split") for k, c in got.items()}
    check(splits.get(("q1_uclamp_min_big.json", "sm8250")) == "tuned" and
          splits.get(("q1_uclamp_min_big.json", "rk3399")) == "judged" and
          splits.get(("video_call.json", "sm8250")) == "judged" and
          doc2.get("summary", {}).get("split", {}).get("judged", {}).get("cases") == 2 and
          "judged (did not shape the policy): 2 cases" in p.stdout,
          "cases_split_into_tuned_and_judged", splits)
    na = got.get(("q1_uclamp_min_big.json", "rk3399"), {})
    check("CPU7" in na.get("not_applicable", "") and "error" not in na and
          "cases not applicable" in p.stdout, "a_workload_for_more_cpus_is_not_applicable", na)
    for what, bad, msg in [
            ("model_path", "--models=/nonexistent/m.json", "--models: /nonexistent/m.json: no such file"),
            ("model_name", "--models=nosuchsoc", "no model named 'nosuchsoc'"),
            ("workload_word", "--workloads=zzzz", "'zzzz' is in no shipped workload's name")]:
        p = subprocess.run([sys.executable, run, "--no-build", "--gearbox", gearbox, bad,
                            "--out", out2 + "-bad", "energy"], capture_output=True, text=True)
        check(p.returncode == 2 and msg in p.stderr and not os.path.exists(out2 + "-bad"),
              "bad_%s_exits_2_naming_it" % what, p.stderr)
    # latency: per task class, mainline and gearbox without and with slice-aware grouping, the UI
    # thread's late frames; gearbox on the sched_ext host
    out3 = out + "-latency"
    p = subprocess.run([sys.executable, run, "--quick", "--no-build", "--gearbox", gearbox,
                        "--models", "sm8250", "--workloads", "ui_frames", "--out", out3,
                        "latency"], capture_output=True, text=True)
    try:
        with open(os.path.join(out3, "bench-latency.json")) as f:
            doc3 = json.load(f)
    except (OSError, ValueError):
        doc3 = {}
    cases = doc3.get("cases", [])
    pol = cases[0].get("policies", {}) if len(cases) == 1 else {}
    check(p.returncode == 0 and doc3.get("format") == "gearbox-bench-latency/1" and
          all("--host scx" in c for c in cases[0].get("commands", [])) and
          "--group-slices on" in " ".join(cases[0].get("commands", [])) and
          set(pol) == {"mainline", "gearbox", "gearbox+group"} and
          all(set(v["classes"]) == {"ui", "bg"} and v["classes"]["bg"]["tasks"] == 6 and
              v["classes"]["ui"]["wakeups"] > 0 and v["energy_j"] > 0 for v in pol.values()) and
          all(c["preemptions"] >= 0 for v in pol.values() for c in v["classes"].values()) and
          "ui_frames" in p.stdout and "mainline" in p.stdout,
          "latency_gives_every_policy_per_task_class", p.stdout[-2000:] + p.stderr)
    # the paired test of late activations: rk3399's ui_frames before the queue's frequency rule
    # (more in every seed but the first: above beyond the interval), gs101's (within it)
    sys.path.insert(0, HERE)
    from benchlib import energy

    def figs(xs):
        return {"per_seed": {"late_activations": xs}}
    ml = figs([0, 4, 3, 3, 0])
    check(energy.paired_not_above(figs([0, 10, 9, 10, 8]), ml, "late_activations") is False and
          energy.paired_not_above(figs([1, 0, 8, 17, 1]), figs([1, 1, 4, 4, 1]),
                                  "late_activations") is True and
          energy.paired_not_above(figs([3]), figs([0]), "late_activations") is None,
          "late_activations_compared_paired_by_seed")
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
