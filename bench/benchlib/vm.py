# SPDX-License-Identifier: GPL-2.0-only
"""Part 3, scheduler overhead in the VM: `perf bench sched pipe` (free, and pinned to one CPU:
pipe1) and hackbench under the kernel default, scx_fifo and scx_gearbox, all in one boot of the
sched_ext kernel (tests/vm/vm-run), as ratios to the default.

The guest is single-threaded TCG (docs/testing.md): the absolute figures measure the emulator
as much as the scheduler, which is why only ratios within the boot are reported.  pipe is
ops/s (higher is better), hackbench is seconds (lower is better); the ratio is always stated
as throughput relative to the default, so >= 0.95 meets the issue's target for each.  The
ratio is of the medians over the rounds; each round's own ratio (to the default's run in the
same round) is kept too, to show how far one boot's figures scatter.
Then, in a pipe run of its own with the kernel's BPF statistics on (bench/gb-bpf-stats), the
run time per call of each struct_ops program of scx_fifo and scx_gearbox.
"""
import os
import re
import statistics
import subprocess

from . import common

TARGET = 0.95
SCHEDS = ["default", "scx_fifo", "scx_gearbox"]


def _vm_vars(root):
    script = ("cd %s && . scripts/lib/deps.sh && gb_setup_build_deps >/dev/null 2>&1 && "
              ". tests/vm/deps.sh && gb_setup_vm_deps >/dev/null 2>&1 && "
              "pkg-config --variable=vmlinuz gearbox-vm && "
              "pkg-config --variable=busybox gearbox-vm" % root)
    p = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
    lines = p.stdout.split()
    if p.returncode != 0 or len(lines) != 2:
        raise common.Skip("the VM dependencies are not set up (tests/vm/deps.sh)")
    return lines


def run_part(ctx):
    vmlinuz, busybox = _vm_vars(ctx.root)
    fifo = os.path.join(ctx.build, "tests/vm/scx_fifo")
    vmexit = os.path.join(ctx.build, "tests/vm/vm-exit")
    gbx = os.path.join(ctx.build, "src/sched/scx_gearbox")
    stats = os.path.join(ctx.build, "bench/gb-bpf-stats")
    if not (os.access(fifo, os.X_OK) and os.access(vmexit, os.X_OK)):
        raise common.Skip("scx_fifo / vm-exit not built in %s (BPF toolchain missing?)" %
                          ctx.build)
    notes = []
    rounds, pipe, hb, limit = (1, 3000, 20, 30) if ctx.quick else (7, 10000, 60, 90)
    outdir = os.path.join(ctx.out, "vm")
    os.makedirs(outdir, exist_ok=True)
    cmd = [os.path.join(ctx.root, "tests/vm/vm-run"), "--kernel", vmlinuz, "--busybox",
           busybox, "--exit-helper", vmexit, "--outdir", outdir, "--name", "overhead",
           "--smp", "4", "--timeout", "900" if not ctx.quick else "480",
           "--add", fifo, "--add-bin", "perf", "--add-bin", "hackbench", "--add-bin", "taskset",
           "--add", os.path.join(ctx.root, "tests/sched/vm4.json")]
    if os.access(stats, os.X_OK):
        cmd += ["--add", stats]
    else:
        notes.append("%s not built: no BPF run time per call" % stats)
    if os.access(gbx, os.X_OK):
        cmd += ["--add", gbx]
    else:
        notes.append("scx_gearbox not available yet (%s not built): skipped" % gbx)
    cmd += ["--", os.path.join(ctx.root, "bench/guest-overhead.sh"), str(rounds), str(pipe),
            str(hb), str(limit)]
    common.log("vm: one boot, %d round(s) of perf bench sched pipe -l %d (free and on CPU 1) "
               "and hackbench -g 2 -l %d per scheduler" % (rounds, pipe, hb))
    rc, out, err = common.run(cmd, timeout=1200)
    results, timeouts, last_start, bpf, by_round = {}, [], None, {}, {}
    for line in out.splitlines():
        b = re.match(r"BPFSTAT (\S+) (\S+) (\d+) (\d+)$", line)
        if b and int(b.group(4)):
            bpf.setdefault(b.group(1), {})[b.group(2)] = {
                "run_time_ns": int(b.group(3)), "run_cnt": int(b.group(4)),
                "ns_per_call": int(b.group(3)) / int(b.group(4))}
        if line.startswith("START "):
            last_start = line[6:]
        m = re.match(r"RESULT (\S+) (\d+) (\S+) ([0-9.]+) (\S+)", line)
        if m:
            results.setdefault(m.group(1), {}).setdefault(m.group(3), []).append(
                float(m.group(4)))
            by_round.setdefault((m.group(3), int(m.group(2))), {})[m.group(1)] = float(m.group(4))
        elif line.startswith("NOTE ") or line.startswith("EJECTED "):
            notes.append(line.split(" ", 1)[1])
        elif line.startswith("TIMEOUT "):
            f = line.split()
            timeouts.append({"scheduler": f[1], "round": int(f[2]), "bench": f[3],
                             "limit_s": int(f[4])})
            notes.append("%s: %s did not finish within %s s (round %s)" % (f[1], f[3], f[4], f[2]))
    if "DONE" not in out:
        notes.append("the guest did not finish (vm-run status %d), last started: %s: %s" % (
            rc, last_start, " | ".join((out + err).strip().splitlines()[-5:])))
    if not results:
        raise common.Skip("no results from the VM: " + "; ".join(notes))
    summary = {}
    base = results.get("default", {})
    for s in SCHEDS:
        if s not in results:
            continue
        row = {}
        for bench, vals in results[s].items():
            med = statistics.median(vals)
            bmed = statistics.median(base[bench]) if bench in base else None
            if bmed:
                # throughput relative to the default: ops/s directly, seconds inverted
                rel = med / bmed if bench.startswith("pipe") else bmed / med
            else:
                rel = None
            # the same ratio round by round, against the default's run of that round
            per_round = []
            for (b, _r), runs in sorted(by_round.items()):
                if b == bench and s in runs and runs.get("default"):
                    v, d = runs[s], runs["default"]
                    per_round.append(v / d if bench.startswith("pipe") else d / v)
            row[bench] = {"values": vals, "median": med, "throughput_vs_default": rel,
                          "round_ratios": per_round}
        summary[s] = row
    tgt = {}
    if "scx_gearbox" in summary:
        rels = [v["throughput_vs_default"] for v in summary["scx_gearbox"].values()
                if v["throughput_vs_default"] is not None]
        tgt = {"min_ratio": min(rels) if rels else None,
               "met": bool(rels) and min(rels) >= TARGET}
    return {"format": "gearbox-bench-vm/%d" % common.FORMAT_VERSION, "machine": ctx.machine,
            "guest": "qemu TCG single-threaded, 4 vCPUs, sid sched_ext kernel",
            "command": common.cmdline(cmd), "vm_run_status": rc, "rounds": rounds,
            "pipe_loops": pipe, "hackbench_loops": hb, "results": summary, "notes": notes,
            "timeouts": timeouts, "bpf_stats": bpf,
            "target_gearbox_ge_0.95": tgt or None}


def print_report(doc):
    print("scheduler overhead (VM, one boot; %s): throughput relative to the kernel default" %
          doc["guest"])
    rows = []

    def spread(b):
        r = b.get("round_ratios") or []
        return "%.2f-%.2f" % (min(r), max(r)) if r else "-"

    for s, row in doc["results"].items():
        p, p1, h = row.get("pipe", {}), row.get("pipe1", {}), row.get("hackbench", {})
        rows.append([s, "%.0f" % p["median"] if p else "-",
                     common.fmt_ratio(p.get("throughput_vs_default")), spread(p),
                     "%.0f" % p1["median"] if p1 else "-",
                     common.fmt_ratio(p1.get("throughput_vs_default")), spread(p1),
                     "%.3f" % h["median"] if h else "-",
                     common.fmt_ratio(h.get("throughput_vs_default")), spread(h)])
    common.table(rows, ["scheduler", "pipe ops/s", "pipe/def", "rounds", "pipe1 ops/s",
                        "pipe1/def", "rounds", "hackbench s", "hb/def", "rounds"])
    for s, progs in sorted(doc.get("bpf_stats", {}).items()):
        print("BPF run time per call under %s (kernel BPF stats, one pipe run): %s" % (
            s, ", ".join("%s %.0f ns x %d" % (n, v["ns_per_call"], v["run_cnt"])
                         for n, v in sorted(progs.items(), key=lambda kv: -kv[1]["run_time_ns"]))))
    for n in doc["notes"]:
        print("note: " + n)
    t = doc.get("target_gearbox_ge_0.95")
    if t:
        print("target scx_gearbox >= 0.95 x default: min ratio %s, %s" % (
            common.fmt_ratio(t["min_ratio"]), "met" if t["met"] else "NOT met"))
    elif any(t["scheduler"] == "scx_gearbox" for t in doc.get("timeouts", [])):
        print("target scx_gearbox >= 0.95 x default: NOT met (benchmarks timed out under it)")
    else:
        print("target scx_gearbox >= 0.95 x default: not measured (scx_gearbox not available "
              "or produced no result, see notes)")
