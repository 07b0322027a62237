#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""gen_traces.py OUTDIR [--long SECONDS] - hand-made gearbox-stream/1 fixtures for the TUI tests.

Writes, deterministically (no randomness: the tests assert exact values):
  sm8250.ndjson     3 domains (little 0-3, mid 4-6, big 7) with the sm8250 model's OPPs,
                    2 s of samples every 50 ms, and one decision of every reason code at
                    known times, plus one unknown code that must be shown verbatim.
  many.ndjson       64 domains x 4 CPUs = 256 CPUs (compact bars), 10 samples.
  truncated.ndjson  sm8250.ndjson cut in the middle of its last record (no newline).
  malformed.ndjson  sm8250.ndjson with a non-JSON line and a wrongly typed record inserted
                    after the 5th sample; everything else is intact.
With --long it writes only long.ndjson: SECONDS of 100 Hz samples (see measure_cpu.sh).
Until `gearbox sim --trace` exists this is the only writer of the format besides scx_gearbox.
"""
import json
import os
import sys

# (freq_khz, perf, power_uw) from em-profiles/sm8250.json, a subset of each domain's OPPs.
LITTLE = [(300000, 48, 27362), (691200, 110, 49146), (1075200, 171, 69576),
          (1420800, 226, 87859), (1804800, 286, 115215)]
MID = [(710400, 257, 126262), (1056000, 383, 192463), (1382400, 501, 265451),
       (1766400, 641, 391131), (2054400, 745, 508294), (2419200, 876, 710336)]
BIG = [(844800, 306, 172159), (1401600, 508, 293849), (1862400, 675, 440482),
       (2457600, 891, 729142), (2841600, 1024, 985967)]

SAMPLE_US = 50000
END_US = 2000000


def opps(table):
    return [{"freq_khz": f, "perf": p, "power_uw": w} for f, p, w in table]


def line(rec):
    return json.dumps(rec, separators=(",", ":")) + "\n"


def sm8250_records():
    doms = [("little", [0, 1, 2, 3], LITTLE), ("mid", [4, 5, 6], MID), ("big", [7], BIG)]
    yield {"type": "hello", "format": "gearbox-stream/1", "source": "sim", "soc": "sm8250",
           "policy": "gearbox", "nr_cpus": 8,
           "domains": [{"id": i, "name": n, "cpus": c, "capacity": t[-1][1], "opps": opps(t)}
                       for i, (n, c, t) in enumerate(doms)]}
    # Tasks: pid -> [comm, util, uclamp_min, uclamp_max, cpu, migrations]
    tasks = {42: ["ui", 180, 0, 1024, 7, 0], 43: ["render", 320, 0, 1024, 5, 0],
             57: ["media", 290, 0, 300, 7, 0], 60: ["bg-sync", 40, 0, 1024, 0, 0],
             61: ["kworker/1", 12, 0, 1024, 1, 0]}
    decisions = {
        100000: dict(pid=70, comm="game", frm=-1, to=0, reason="fork", delta=2100, util=0),
        300000: dict(pid=70, comm="game", frm=0, to=4, reason="capacity_misfit", delta=95000,
                     util=240, from_cap=286, to_cap=876),
        500000: dict(pid=57, comm="media", frm=7, to=4, reason="power_misfit", delta=-81000,
                     util=290, uclamp_max=300, from_cap=1024, to_cap=876,
                     from_freq_khz=2841600, to_freq_khz=1382400),
        700000: dict(pid=42, comm="ui", frm=7, to=5, reason="wakeup_energy", delta=-23400,
                     util=180, from_freq_khz=844800, to_freq_khz=1382400),
        900000: dict(pid=43, comm="render", frm=5, to=6, reason="overutilized_spread",
                     delta=15000, util=320),
        1100000: dict(pid=60, comm="bg-sync", frm=0, to=2, reason="idle_pull", delta=0,
                      util=40),
        1300000: dict(pid=61, comm="kworker/1", frm=1, to=3, reason="affinity", delta=300,
                      util=12),
        1500000: dict(pid=60, comm="bg-sync", frm=2, to=1, reason="balance", delta=-500,
                      util=40),
        1700000: dict(pid=70, comm="game", frm=4, to=7, reason="future_reason_x", delta=120000,
                      util=610),
    }
    for t in range(0, END_US + 1, SAMPLE_US):
        for dt, d in sorted(decisions.items()):
            if t - SAMPLE_US < dt <= t:
                pid = d["pid"]
                if pid not in tasks:
                    tasks[pid] = [d["comm"], d["util"], 0, 1024, d["to"], 0]
                task = tasks[pid]
                task[4] = d["to"]
                if d["frm"] >= 0:
                    task[5] += 1
                task[1] = max(task[1], d["util"])
                rec = {"type": "decision", "t_us": dt, "pid": pid, "comm": d["comm"],
                       "from": d["frm"], "to": d["to"], "reason": d["reason"],
                       "power_delta_uw": d["delta"], "util": d["util"],
                       "uclamp_min": 0, "uclamp_max": d.get("uclamp_max", 1024)}
                for k in ("from_cap", "to_cap", "from_freq_khz", "to_freq_khz"):
                    if k in d:
                        rec[k] = d[k]
                yield rec
        step = t // SAMPLE_US
        ou_mid = 800000 <= t < 1200000
        # OPP index moves through the table so OPP values change visibly while stepping.
        li = step % len(LITTLE)
        mi = len(MID) - 1 if ou_mid else (step // 2) % len(MID)
        bi = (step // 3) % len(BIG)
        cpu_util = {c: 0 for c in range(8)}
        running = {}
        for pid, (comm, util, _, _, cpu, _) in tasks.items():
            if cpu not in running:
                running[cpu] = (pid, comm)
                cpu_util[cpu] = util
        if ou_mid:
            for c in (4, 5, 6):
                cpu_util[c] = 760
        samp = {"type": "sample", "t_us": t, "energy_uj": t // 1000 * 750,
                "domains": [
                    {"id": 0, "util": max(cpu_util[c] for c in range(4)),
                     "perf_target": LITTLE[li][1], "freq_khz": LITTLE[li][0],
                     "power_uw": LITTLE[li][2], "overutilized": False},
                    {"id": 1, "util": max(cpu_util[c] for c in (4, 5, 6)),
                     "perf_target": MID[mi][1] - 5, "freq_khz": MID[mi][0],
                     "power_uw": MID[mi][2], "overutilized": ou_mid},
                    {"id": 2, "util": cpu_util[7], "perf_target": BIG[bi][1],
                     "freq_khz": BIG[bi][0], "power_uw": BIG[bi][2], "overutilized": False}],
                "cpus": [{"cpu": c, "util": cpu_util[c],
                          "pid": running.get(c, (0, ""))[0], "comm": running.get(c, (0, ""))[1]}
                         for c in range(8)],
                "tasks": sorted(({"pid": p, "comm": v[0], "util": v[1], "uclamp_min": v[2],
                                  "uclamp_max": v[3], "cpu": v[4], "migrations": v[5]}
                                 for p, v in tasks.items()), key=lambda x: -x["util"])}
        yield samp
    yield {"type": "end", "t_us": END_US, "energy_uj": END_US // 1000 * 750}


def many_records():
    nd, per = 64, 4
    doms = []
    for d in range(nd):
        cap = 200 + d * 12
        doms.append({"id": d, "name": "pd%d" % d, "cpus": list(range(d * per, d * per + per)),
                     "capacity": cap,
                     "opps": [{"freq_khz": 800000 + 10000 * d, "perf": cap // 3, "power_uw": 50000},
                              {"freq_khz": 1600000 + 10000 * d, "perf": 2 * cap // 3,
                               "power_uw": 150000},
                              {"freq_khz": 2400000 + 10000 * d, "perf": cap, "power_uw": 400000}]})
    yield {"type": "hello", "format": "gearbox-stream/1", "source": "sim", "soc": "many256",
           "policy": "gearbox", "nr_cpus": nd * per, "domains": doms}
    for s in range(10):
        t = s * 100000
        yield {"type": "sample", "t_us": t, "energy_uj": s * 123000,
               "domains": [{"id": d, "util": (d * 37 + s * 11) % 1024 * doms[d]["capacity"] // 1024,
                            "perf_target": doms[d]["opps"][(d + s) % 3]["perf"],
                            "freq_khz": doms[d]["opps"][(d + s) % 3]["freq_khz"],
                            "power_uw": doms[d]["opps"][(d + s) % 3]["power_uw"],
                            "overutilized": d == 63}
                           for d in range(nd)],
               "cpus": [{"cpu": c, "util": (c * 53 + s * 7) % (doms[c // per]["capacity"] + 1),
                         "pid": 1000 + c, "comm": "w%d" % c} for c in range(nd * per)]}
        yield {"type": "decision", "t_us": t + 50000, "pid": 1000 + s, "comm": "w%d" % s,
               "from": s, "to": 255 - s, "reason": "capacity_misfit", "power_delta_uw": 1000,
               "util": 150, "uclamp_min": 0, "uclamp_max": 1024}


def long_records(seconds):
    """sm8250 records re-timed to a sample every 10 ms (the simulator's default) and a
    decision every 100 ms, for measuring what a busy stream costs the TUI."""
    recs = list(sm8250_records())
    samples = [r for r in recs if r["type"] == "sample"]
    decs = [r for r in recs if r["type"] == "decision"]
    yield recs[0]
    for i in range(seconds * 100):
        if i % 10 == 0:
            yield dict(decs[(i // 10) % len(decs)], t_us=i * 10000)
        yield dict(samples[i % len(samples)], t_us=i * 10000)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    if len(sys.argv) > 2 and sys.argv[2] == "--long":
        with open(os.path.join(out, "long.ndjson"), "w") as f:
            f.write("".join(line(r) for r in long_records(int(sys.argv[3]))))
        return
    sm = "".join(line(r) for r in sm8250_records())
    with open(os.path.join(out, "sm8250.ndjson"), "w") as f:
        f.write(sm)
    with open(os.path.join(out, "many.ndjson"), "w") as f:
        f.write("".join(line(r) for r in many_records()))
    lines = sm.splitlines(keepends=True)
    with open(os.path.join(out, "truncated.ndjson"), "w") as f:
        f.write("".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])
    # After the 5th sample: garbage, then a sample whose t_us is a string.
    idx = [i for i, l in enumerate(lines) if '"type":"sample"' in l][4] + 1
    bad = ['{"type":"sample","t_us":"soon"}\n', "this is not json\n"]
    with open(os.path.join(out, "malformed.ndjson"), "w") as f:
        f.write("".join(lines[:idx] + bad + lines[idx:]))


if __name__ == "__main__":
    main()
