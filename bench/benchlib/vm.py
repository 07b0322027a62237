# SPDX-License-Identifier: GPL-2.0-only
"""Part 3, scheduler overhead in the VM, all in one boot of the sched_ext kernel
(tests/vm/vm-run, bench/guest-overhead.sh), with the kernel default and scx_simple (the kernel's
own example scheduler, built by tests/vm/deps.sh) as baselines:

- BPF cost per wake-up: the run time of the wake-up path's callbacks (select_cpu, enqueue,
  dispatch, runnable, running, stopping, quiescent: whichever the scheduler has) from the
  kernel's BPF statistics, over the wake-ups the kernel counted (schedstats' ttwu_count, plus the
  tasks created: a new task's first placement is a wake-up to the scheduler), for a
  free and a pinned `perf bench sched pipe` and hackbench; scx_gearbox against scx_simple,
  target at most 2x.  Measured in a boot of its own under qemu's -icount (vm-run --icount):
  the guest's clock counts instructions there, so a program's run time is the instructions it
  ran, whatever the host's load or the emulator's cost of a call.  The figure is the median over
  the statistics rounds of each round's ratio (scx_gearbox's ns per wake-up over scx_simple's,
  the two run back to back).
- Pinned pipe throughput (pipe1: both tasks on CPU 1, no placement) against the default: the
  ratio of the medians over the rotated rounds, target at least 0.95x.  Judged in the -icount
  boot, where the guest's clock counts instructions: ops per guest second there is the inverse of
  the instructions one pipe round trip executes, kernel and BPF together, which one binary
  repeats within a few percent; the same rounds under plain TCG, whose clock runs while qemu
  waits for the host, scatter from 0.6 to 1.5x the default's and are reported beside it.
- The free pipe and hackbench throughput, reported and not targeted: under single-threaded TCG
  a pipe pair sharing a vCPU runs at about half the rate of a pair on two vCPUs (each guest
  switch between the two processes is expensive to emulate), so where a scheduler puts the
  pair decides the figure more than what its code costs, and the rounds of one binary scatter
  by about 2x.

The guest is single-threaded TCG (docs/testing.md): the absolute throughput figures measure the
emulator as much as the scheduler, which is why only ratios within the boot are reported.  Throughput is
stated relative to the default (pipe ops/s as is, hackbench seconds inverted); each round's own
ratio (to the default's run in the same round) is kept too, to show how far one boot scatters.
"""
import os
import re
import statistics
import subprocess

from . import common

PIPE1_TARGET = 0.95          # scx_gearbox pinned pipe throughput / default, at least
BPF_TARGET = 2.0             # scx_gearbox BPF ns per wake-up / scx_simple's, at most
STAT_ROUNDS = 5              # rounds of the BPF statistics, each scheduler once per round
ICOUNT_SHIFT = 3             # the statistics boot's guest clock: 2^3 ns per instruction
SCHEDS = ["default", "scx_simple", "scx_gearbox"]
BENCHES = ["pipe", "pipe1", "hackbench"]
# the callbacks of the wake-up path, by the part of their names the kernel keeps (a BPF
# program's name is cut at 15 characters: gearbox_select_cpu is gearbox_select_)
WAKE_PATH = re.compile(r"_(select|enqueue|dispatc|runnabl|running|stoppin|quiesc)")
NOT_TARGETED = {
    "pipe": "not targeted: under single-threaded TCG a pipe pair sharing a vCPU runs at about "
            "half the rate of a pair on two vCPUs, so where the pair is placed decides the "
            "figure more than what the scheduler costs, and one binary's rounds scatter by 2x",
    "hackbench": "not targeted: under single-threaded TCG the vCPUs take turns on one host "
                 "thread, so hackbench's time follows how the scheduler spreads its tasks "
                 "over the vCPUs (the emulator's switches) more than the scheduler's cost",
    "pipe1": "the same benchmark under plain TCG, whose clock runs while qemu waits for the "
             "host: one binary's rounds scatter from 0.6 to 1.5x the default's; the target is "
             "judged in the -icount boot"}


def _vm_vars(root):
    script = ("cd %s && . scripts/lib/deps.sh && gb_setup_build_deps >/dev/null 2>&1 && "
              ". tests/vm/deps.sh && gb_setup_vm_deps >/dev/null 2>&1 && "
              "pkg-config --variable=vmlinuz gearbox-vm && "
              "pkg-config --variable=busybox gearbox-vm && "
              "pkg-config --variable=scx_examples_dir gearbox-vm" % root)
    p = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
    lines = p.stdout.split()
    if p.returncode != 0 or len(lines) != 3:
        raise common.Skip("the VM dependencies are not set up (tests/vm/deps.sh)")
    return lines


def parse(out):
    """The guest's lines: throughput results, timeouts, notes, BPF statistics per wake-up."""
    results, by_round, timeouts, notes, wakeups, bpf = {}, {}, [], [], {}, {}
    last_start = None
    for line in out.splitlines():
        f = line.split()
        if line.startswith("START "):
            last_start = line[6:]
        m = re.match(r"RESULT (\S+) (\d+) (\S+) ([0-9.]+) (\S+)$", line)
        if m:
            v = float(m.group(4))
            results.setdefault(m.group(1), {}).setdefault(m.group(3), []).append(v)
            by_round.setdefault((m.group(3), int(m.group(2))), {})[m.group(1)] = v
        elif line.startswith("WAKEUPS ") and len(f) == 6:
            # try_to_wake_up calls and new tasks (whose first placement is a select_cpu too)
            wakeups[(f[1], int(f[2]), f[3])] = int(f[4]) + int(f[5])
        elif line.startswith("BPFSTAT ") and len(f) == 7:
            progs = bpf.setdefault((f[1], int(f[2]), f[3]), {})
            progs[f[4]] = {"run_time_ns": int(f[5]), "run_cnt": int(f[6])}
        elif line.startswith("NOTE ") or line.startswith("EJECTED "):
            notes.append(line.split(" ", 1)[1])
        elif line.startswith("TIMEOUT ") and len(f) == 5:
            timeouts.append({"scheduler": f[1], "round": f[2], "bench": f[3],
                             "limit_s": int(f[4])})
            notes.append("%s: %s did not finish within %s s (round %s)" % (f[1], f[3], f[4], f[2]))
    return results, by_round, timeouts, notes, wakeups, bpf, last_start


def per_wakeup(wakeups, bpf):
    """Per scheduler and benchmark: the wake-up path's BPF ns per wake-up, round by round and
    their median, with each program's ns per call and calls per wake-up of the median round."""
    rows = {}
    for (s, r, b), progs in sorted(bpf.items()):
        w = wakeups.get((s, r, b))
        if not w:
            continue
        wake_ns = sum(p["run_time_ns"] for n, p in progs.items() if WAKE_PATH.search(n))
        all_ns = sum(p["run_time_ns"] for p in progs.values())
        row = rows.setdefault(s, {}).setdefault(b, {"rounds": []})
        row["rounds"].append({"round": r, "wakeups": w, "wake_path_ns": wake_ns,
                              "all_ns": all_ns, "programs": {
                                  n: {"ns_per_call": p["run_time_ns"] / p["run_cnt"],
                                      "calls_per_wakeup": p["run_cnt"] / w}
                                  for n, p in sorted(progs.items()) if p["run_cnt"]}})
    for s in rows.values():
        for row in s.values():
            row["wake_path_ns_per_wakeup"] = statistics.median(
                x["wake_path_ns"] / x["wakeups"] for x in row["rounds"])
            row["all_ns_per_wakeup"] = statistics.median(
                x["all_ns"] / x["wakeups"] for x in row["rounds"])
    return rows


def round_ratios(bpf_rows, bench):
    """scx_gearbox's BPF ns per wake-up over scx_simple's, round by round (the two run back to
    back in each round, in rotated order)."""
    def by_round(s):
        return {x["round"]: x["wake_path_ns"] / x["wakeups"]
                for x in bpf_rows.get(s, {}).get(bench, {}).get("rounds", [])}
    g, s = by_round("scx_gearbox"), by_round("scx_simple")
    return [g[r] / s[r] for r in sorted(g) if s.get(r)]


def throughput(results, by_round):
    summary = {}
    base = results.get("default", {})
    for s in SCHEDS:
        if s not in results:
            continue
        row = {}
        for bench, vals in results[s].items():
            med = statistics.median(vals)
            bmed = statistics.median(base[bench]) if bench in base else None
            # throughput relative to the default: ops/s directly, seconds inverted
            rel = (med / bmed if bench.startswith("pipe") else bmed / med) if bmed else None
            per_round = []
            for (b, _r), runs in sorted(by_round.items()):
                if b == bench and s in runs and runs.get("default"):
                    v, d = runs[s], runs["default"]
                    per_round.append(v / d if bench.startswith("pipe") else d / v)
            row[bench] = {"values": vals, "median": med, "throughput_vs_default": rel,
                          "round_ratios": per_round}
        summary[s] = row
    return summary


def targets(summary, icount_summary, bpf_rows):
    t = {}
    p1 = icount_summary.get("scx_gearbox", {}).get("pipe1", {}).get("throughput_vs_default")
    t["pipe1_throughput_vs_default"] = {"value": p1, "target_min": PIPE1_TARGET,
                                        "met": None if p1 is None else p1 >= PIPE1_TARGET,
                                        "measured": "under -icount: instructions per round trip"}
    t["pipe1_throughput_vs_default_tcg"] = {
        "value": summary.get("scx_gearbox", {}).get("pipe1", {}).get("throughput_vs_default"),
        "reported": NOT_TARGETED["pipe1"]}
    for b in BENCHES:
        rr = round_ratios(bpf_rows, b)
        r = statistics.median(rr) if rr else None
        t["bpf_per_wakeup_vs_scx_simple_" + b] = {
            "value": r, "round_ratios": rr, "target_max": BPF_TARGET,
            "met": None if r is None else r <= BPF_TARGET}
    for b in ("pipe", "hackbench"):
        v = summary.get("scx_gearbox", {}).get(b, {}).get("throughput_vs_default")
        t[b + "_throughput_vs_default"] = {"value": v, "reported": NOT_TARGETED[b]}
    return t


def run_part(ctx):
    vmlinuz, busybox, scx_dir = _vm_vars(ctx.root)
    simple = os.path.join(scx_dir, "scx_simple")
    vmexit = os.path.join(ctx.build, "tests/vm/vm-exit")
    gbx = os.path.join(ctx.build, "src/sched/scx_gearbox")
    stats = os.path.join(ctx.build, "bench/gb-bpf-stats")
    if not os.access(vmexit, os.X_OK):
        raise common.Skip("vm-exit not built in %s (BPF toolchain missing?)" % ctx.build)
    if not os.access(simple, os.X_OK):
        raise common.Skip("%s missing (tests/vm/deps.sh builds it)" % simple)
    notes = []
    rounds, pipe, hb, limit, stat_rounds = (1, 3000, 20, 30, 1) if ctx.quick else \
        (7, 10000, 60, 90, STAT_ROUNDS)
    outdir = os.path.join(ctx.out, "vm")
    os.makedirs(outdir, exist_ok=True)
    adds = ["--add", simple, "--add-bin", "perf", "--add-bin", "hackbench", "--add-bin",
            "taskset", "--add", os.path.join(ctx.root, "tests/sched/vm4.json")]
    if os.access(stats, os.X_OK):
        adds += ["--add", stats]
    else:
        notes.append("%s not built: no BPF cost per wake-up" % stats)
    if os.access(gbx, os.X_OK):
        adds += ["--add", gbx]
    else:
        notes.append("scx_gearbox not available yet (%s not built): skipped" % gbx)

    def vm_cmd(name, guest_args, icount=()):
        return ([os.path.join(ctx.root, "tests/vm/vm-run"), "--kernel", vmlinuz, "--busybox",
                 busybox, "--exit-helper", vmexit, "--outdir", outdir, "--name", name,
                 "--smp", "4", "--timeout", "1500" if not ctx.quick else "480"] + list(icount) +
                adds + ["--", os.path.join(ctx.root, "bench/guest-overhead.sh")] +
                [str(a) for a in guest_args])

    # throughput in one boot; in another, whose clock counts instructions, the pinned pipe's
    # throughput again and the BPF statistics
    cmd = vm_cmd("overhead", [rounds, pipe, hb, limit, 0])
    scmd = vm_cmd("overhead-stats", [rounds, pipe, hb, limit, stat_rounds, "pipe1"],
                  ["--icount", str(ICOUNT_SHIFT)])
    common.log("vm: one boot, %d rotated round(s) of perf bench sched pipe -l %d (free and on "
               "CPU 1) and hackbench -g 2 -l %d per scheduler; another with qemu -icount "
               "shift=%d, %d rotated round(s) of the pipe on CPU 1 per scheduler, then %d "
               "round(s) of scx_simple and scx_gearbox with the BPF statistics"
               % (rounds, pipe, hb, ICOUNT_SHIFT, rounds, stat_rounds))
    rc, out, err = common.run(cmd, timeout=1800)
    results, by_round, timeouts, gnotes, _, _, last_start = parse(out)
    notes += gnotes
    if "DONE" not in out:
        notes.append("the guest did not finish (vm-run status %d), last started: %s: %s" % (
            rc, last_start, " | ".join((out + err).strip().splitlines()[-5:])))
    if not results:
        raise common.Skip("no results from the VM: " + "; ".join(notes))
    src, sout, serr = common.run(scmd, timeout=1800)
    sresults, sby_round, stimeouts, snotes, wakeups, bpf, slast = parse(sout)
    notes += ["statistics boot: " + n for n in snotes]
    timeouts += stimeouts
    if "DONE" not in sout:
        notes.append("the statistics guest did not finish (vm-run status %d), last started: "
                     "%s: %s" % (src, slast, " | ".join((sout + serr).strip().splitlines()[-5:])))
    summary = throughput(results, by_round)
    icount_summary = throughput(sresults, sby_round)
    bpf_rows = per_wakeup(wakeups, bpf)
    return {"format": "gearbox-bench-vm/%d" % (common.FORMAT_VERSION + 1),
            "machine": ctx.machine,
            "guest": "qemu TCG single-threaded, 4 vCPUs, sid sched_ext kernel",
            "command": common.cmdline(cmd), "vm_run_status": rc,
            "stats_command": common.cmdline(scmd), "stats_vm_run_status": src,
            "stats_icount_shift": ICOUNT_SHIFT, "rounds": rounds,
            "stat_rounds": stat_rounds, "pipe_loops": pipe, "hackbench_loops": hb,
            "results": summary, "icount_results": icount_summary,
            "bpf_per_wakeup": bpf_rows, "notes": notes,
            "timeouts": timeouts, "targets": targets(summary, icount_summary, bpf_rows)}


def print_report(doc):
    print("scheduler overhead (VM, one boot; %s)" % doc["guest"])
    print("throughput relative to the kernel default, ratio of the medians of %d rotated "
          "rounds (each round's own ratios: min-max):" % doc["rounds"])
    rows = []

    def spread(b):
        r = b.get("round_ratios") or []
        return "%.2f-%.2f" % (min(r), max(r)) if r else "-"

    for s, row in doc["results"].items():
        cells = [s]
        for b in BENCHES:
            x = row.get(b, {})
            cells += [("%.3f" if b == "hackbench" else "%.0f") % x["median"] if x else "-",
                      common.fmt_ratio(x.get("throughput_vs_default")), spread(x)]
        rows.append(cells)
    common.table(rows, ["scheduler", "pipe ops/s", "x def", "rounds", "pipe1 ops/s", "x def",
                        "rounds", "hackbench s", "x def", "rounds"])
    ic = doc.get("icount_results", {})
    if ic:
        print()
        print("pinned pipe under qemu -icount shift=%s (the guest's clock counts instructions), "
              "relative to the kernel default, ratio of the medians of %d rotated rounds:"
              % (doc.get("stats_icount_shift"), doc["rounds"]))
        common.table([[s, "%.0f" % row["pipe1"]["median"],
                       common.fmt_ratio(row["pipe1"].get("throughput_vs_default")),
                       spread(row["pipe1"])] for s, row in ic.items() if "pipe1" in row],
                     ["scheduler", "pipe1 ops/s", "x def", "rounds"])
    bpf = doc.get("bpf_per_wakeup", {})
    if bpf:
        print()
        print("BPF ns per wake-up (wake-up path callbacks, kernel BPF statistics over the "
              "kernel's wake-up count, in a boot under qemu -icount shift=%s: %s ns per guest "
              "instruction; medians of %d round(s), the ratio the median of the rounds' "
              "ratios):" % (doc.get("stats_icount_shift"),
                            2 ** doc.get("stats_icount_shift", 0), doc["stat_rounds"]))
        rows = []
        for b in BENCHES:
            s = bpf.get("scx_simple", {}).get(b, {}).get("wake_path_ns_per_wakeup")
            g = bpf.get("scx_gearbox", {}).get(b, {}).get("wake_path_ns_per_wakeup")
            rr = round_ratios(bpf, b)
            rows.append([b, "%.0f" % s if s else "-", "%.0f" % g if g else "-",
                         common.fmt_ratio(statistics.median(rr) if rr else None),
                         " ".join("%.2f" % x for x in rr) or "-"])
        common.table(rows, ["benchmark", "scx_simple", "scx_gearbox", "gearbox/simple",
                            "rounds"])
        for s in ("scx_simple", "scx_gearbox"):
            for b in BENCHES:
                rr = bpf.get(s, {}).get(b, {}).get("rounds")
                if not rr:
                    continue
                mid = sorted(rr, key=lambda x: x["wake_path_ns"] / x["wakeups"])[len(rr) // 2]
                print("  %s %s (%d wake-ups): %s" % (s, b, mid["wakeups"], ", ".join(
                    "%s %.0f ns x %.2f" % (n, p["ns_per_call"], p["calls_per_wakeup"])
                    for n, p in sorted(mid["programs"].items(),
                                       key=lambda kv: -kv[1]["ns_per_call"] *
                                       kv[1]["calls_per_wakeup"]))))
    for n in doc["notes"]:
        print("note: " + n)
    print()
    t = doc.get("targets", {})
    for k, v in t.items():
        if "reported" in v:
            print("%s: %s (%s)" % (k, common.fmt_ratio(v["value"]), v["reported"]))
        elif v["value"] is None:
            print("%s: not measured (see notes)" % k)
        else:
            print("%s: %s, target %s %s: %s" % (
                k, common.fmt_ratio(v["value"]), "<=" if "target_max" in v else ">=",
                v.get("target_max", v.get("target_min")), "met" if v["met"] else "NOT met"))
