#!/bin/sh
# test_sim_cli.sh GEARBOX SRCROOT - TAP: `gearbox sim` on the command line: help, report, and
# bad input rejected with exit status 2 and a message naming the file, task and reason.
set -u
gb=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; sed 's/^/# /' "$tmp/err" "$tmp/out" 2>/dev/null | head -20; }
expect() { # name status pattern-in-stderr-or-stdout cmd...
	name=$1 want=$2 pat=$3; shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"; got=$?
	if [ "$got" -eq "$want" ] && cat "$tmp/out" "$tmp/err" | grep -q -- "$pat"; then ok "$name"; else
		echo "# exit $got, expected $want, pattern '$pat'"; nok "$name"; fi
}
wl=$src/tests/scenarios/workloads/lisa_three_small.json
printf '{"global":{"duration":1},"tasks":{"pinned":{"cpus":[9],"run":100,"timer":{"ref":"x","period":1000}}}}' >"$tmp/pin.json"
printf '{"global":{"duration":1},"tasks":{"a":{"run":100,,}}' >"$tmp/bad.json"
printf '{"global":{"duration":1},"tasks":{"spin":{"loop":-1,"run":1000}}}' >"$tmp/spin.json"

cd "$src" || exit 1
expect help_lists_every_policy 0 "oracle" "$gb" sim --help
for p in gearbox mainline rework performance; do
	expect "help_describes_$p" 0 "$p" "$gb" sim --help
done
expect table_reports_every_policy 0 "performance" "$gb" sim -p sm8250 -P gearbox,mainline,rework,performance,oracle "$wl"
expect json_report_is_versioned 0 '"format": "gearbox-sim/1"' "$gb" sim -p sm8250 --json "$wl"
expect unknown_policy_exits_2 2 "unknown policy 'fast'" "$gb" sim -p sm8250 -P gearbox,fast "$wl"
expect cpu_outside_model_exits_2_naming_task 2 "task pinned.*CPU 9" "$gb" sim -p sm8250 "$tmp/pin.json"
expect malformed_json_exits_2_naming_file 2 "bad.json" "$gb" sim -p sm8250 "$tmp/bad.json"
expect oracle_skips_aperiodic_task 0 "oracle  *skipped: task spin-0 has no timer in its loop" "$gb" sim -p sm8250 -P oracle "$tmp/spin.json"
# the README's demo: the oracle is skipped with a note, the other policies' results print
expect oracle_skipped_others_print 0 "^mainline  *[0-9]" "$gb" sim -p sm8250 -P gearbox,mainline,oracle workloads/demo-mobile.json
grep -q "^oracle  *skipped: task .* has no timer" "$tmp/out" && grep -q "^gearbox  *[0-9]" "$tmp/out" && ok oracle_skipped_note_in_table || nok oracle_skipped_note_in_table
expect trace_of_a_skipped_oracle_exits_2 2 "trace: the first policy, oracle, has no run to trace (skipped" \
	"$gb" sim -p sm8250 -P oracle,gearbox --trace "$tmp/skip.ndjson" workloads/demo-mobile.json
if [ ! -e "$tmp/skip.ndjson" ]; then ok trace_of_a_skipped_oracle_leaves_no_file; else nok trace_of_a_skipped_oracle_leaves_no_file; fi
printf '{"global":{"duration":1,"calibration":"CPU7"},"tasks":{"t":{"run":15000,"timer":{"ref":"a","period":10000}}}}' >"$tmp/over.json"
expect oracle_infeasible_in_table 0 "^oracle  *infeasible: no placement" "$gb" sim -p sm8250 -P oracle,gearbox "$tmp/over.json"
"$gb" sim -p sm8250 -P gearbox,oracle --json "$tmp/over.json" >"$tmp/over.out" 2>"$tmp/err"
if python3 - "$tmp/over.out" <<'PY'
import json, sys
r = {x["policy"]: x for x in json.load(open(sys.argv[1]))["results"]}
o = r["oracle"]
assert o["feasible"] is False and "energy_j" not in o and o["note"], o
assert r["gearbox"]["energy_j"] > 0 and "feasible" not in r["gearbox"]
PY
then ok oracle_infeasible_json_has_no_bound; else nok oracle_infeasible_json_has_no_bound; fi
expect missing_profile_exits_2 2 "nosuch" "$gb" sim -p "$tmp/nosuch.json" "$wl"
expect unknown_host_exits_2 2 "host 'kernel': fair or scx expected" "$gb" sim -p sm8250 --host kernel "$wl"
expect bad_group_slices_exits_2 2 "group-slices 'yes': on or off expected" \
	"$gb" sim -p sm8250 --host scx --group-slices yes "$wl"
expect bad_wake_preempt_exits_2 2 "wake-preempt 'yes': off, latency or on expected" \
	"$gb" sim -p sm8250 --host scx --wake-preempt yes "$wl"
# the sched_ext host is another run of gearbox: a task woken beside a hog on its one CPU waits
# for the hog's slice to run out at a tick (5 ms slices: up to 8 ms), where the fair class's
# wake-up preemption makes it wait at most one tick (see tests/sim/test_scx.c)
printf '{"global":{"duration":1,"calibration":"CPU0"},"tasks":{"p":{"cpus":[0],"loop":-1,"run":1000,"timer":{"ref":"t","period":10000}},"h":{"cpus":[0],"run":5000000}}}' >"$tmp/pin.json"
"$gb" sim -p sm8250 -P gearbox --host fair --json "$tmp/pin.json" >"$tmp/hf.json" 2>"$tmp/err"
"$gb" sim -p sm8250 -P gearbox --host scx --json "$tmp/pin.json" >"$tmp/hs.json" 2>>"$tmp/err"
if python3 - "$tmp/hf.json" "$tmp/hs.json" <<'PY'
import json, sys
f, s = (json.load(open(p))["results"][0] for p in sys.argv[1:])
print("# wake-up latency p99: fair host %d us, scx host %d us" % (f["wake_latency_p99_us"], s["wake_latency_p99_us"]))
assert f["wake_latency_p99_us"] <= 4000 < s["wake_latency_p99_us"] <= 8000
PY
then ok host_scx_runs_scx_gearbox; else nok host_scx_runs_scx_gearbox; fi
# gearbox runs on the sched_ext host unless --host fair is given
"$gb" sim -p sm8250 -P gearbox,mainline --json "$wl" >"$tmp/hd.out" 2>"$tmp/err"
if python3 - "$tmp/hd.out" <<'PY'
import json, sys
r = {x["policy"]: x for x in json.load(open(sys.argv[1]))["results"]}
assert r["gearbox"]["host"] == "scx" and r["mainline"]["host"] == "fair", r
PY
then ok gearbox_runs_on_the_sched_ext_host_by_default; else nok gearbox_runs_on_the_sched_ext_host_by_default; fi
# the report (JSON and table) and the trace name the host each policy ran on
"$gb" sim -p sm8250 -P gearbox,mainline --host scx --json --trace "$tmp/hs.ndjson" "$wl" >"$tmp/hs.out" 2>"$tmp/err"
"$gb" sim -p sm8250 -P gearbox --host fair --json --trace "$tmp/hf.ndjson" "$wl" >"$tmp/hf.out" 2>>"$tmp/err"
"$gb" sim -p sm8250 -P gearbox --host fair --seeds 2 "$wl" >"$tmp/hf.txt" 2>>"$tmp/err"
"$gb" sim -p sm8250 -P mainline,gearbox --host scx "$wl" >"$tmp/hs.txt" 2>>"$tmp/err"
if python3 - "$tmp/hs.out" "$tmp/hf.out" "$tmp/hs.ndjson" "$tmp/hf.ndjson" <<'PY'
import json, sys
s, f = ({x["policy"]: x for x in json.load(open(p))["results"]} for p in sys.argv[1:3])
assert s["gearbox"]["host"] == "scx" and s["mainline"]["host"] == "fair", s
assert f["gearbox"]["host"] == "fair", f
hs, hf = (json.loads(open(p).readline()) for p in sys.argv[3:5])
assert hs["type"] == "hello" and hs["host"] == "scx" and hf["host"] == "fair", (hs, hf)
PY
then
	grep -q "^host: gearbox on the fair host" "$tmp/hf.txt" &&
		grep -q "^host: gearbox on the sched_ext host" "$tmp/hs.txt" &&
		ok report_and_trace_name_the_host || nok report_and_trace_name_the_host
else nok report_and_trace_name_the_host; fi
printf '{"global":{"duration":1},"tasks":{"w":{"run":100,"sleep":900},"busy":{"run":0,"yield":""}}}' >"$tmp/busy.json"
expect loop_taking_no_time_warns_and_runs 0 "warning: .*busy.json: task busy-0: 1048576 events in a row at t=[0-9]* us took no time" \
	"$gb" sim -p sm8250 -P gearbox "$tmp/busy.json"
printf '{"tasks":{"spin":{"loop":-1,"run":1000}}}' >"$tmp/forever.json"
expect forever_workload_without_duration_names_the_task 2 "task spin-0 loops forever (loop -1)" \
	"$gb" sim -p sm8250 -P gearbox "$tmp/forever.json"
"$gb" sim -p sm8250 --trace "$tmp/t.ndjson" "$wl" >/dev/null 2>&1
if head -1 "$tmp/t.ndjson" | grep -q '"format":"gearbox-stream/1"' && tail -1 "$tmp/t.ndjson" | grep -q '"type":"end"'; then
	ok trace_starts_with_hello_and_ends_with_end
else
	nok trace_starts_with_hello_and_ends_with_end
fi
# a refused workload: exit 2 naming file and task, and no trace file left behind
printf '{"global":{"duration":1},"tasks":{"d":{"policy":"SCHED_DEADLINE","dl-runtime":1000,"dl-period":10000,"run":100}}}' >"$tmp/dl.json"
expect deadline_task_exits_2_naming_file_and_task 2 "dl.json: task d: 'policy' SCHED_DEADLINE is not simulated" \
	"$gb" sim -p sm8250 --trace "$tmp/dl.ndjson" "$tmp/dl.json"
if [ ! -e "$tmp/dl.ndjson" ]; then ok refused_run_leaves_no_trace_file; else nok refused_run_leaves_no_trace_file; fi
# a trace is an observer: the run with --trace is the run without it, bit for bit
same=1
for w in lisa_two_big lisa_ramp_up q5_uclamp_max_long; do
	for p in gearbox mainline; do
		"$gb" sim -p gs101 -P $p --json "tests/scenarios/workloads/$w.json" >"$tmp/a.json" 2>/dev/null
		"$gb" sim -p gs101 -P $p --json --trace "$tmp/t2.ndjson" "tests/scenarios/workloads/$w.json" >"$tmp/b.json" 2>/dev/null
		if ! cmp -s "$tmp/a.json" "$tmp/b.json" || ! grep -q '"type":"sample"' "$tmp/t2.ndjson"; then
			echo "# $w $p: the traced run differs"; diff "$tmp/a.json" "$tmp/b.json" | head -5 | sed 's/^/# /'; same=0
		fi
	done
done
if [ $same = 1 ]; then ok trace_does_not_change_the_results; else nok trace_does_not_change_the_results; fi
# samples keep their interval even between events, and energy never goes backwards
if python3 - "$tmp/t2.ndjson" <<'PY'
import json, sys
s = [json.loads(l) for l in open(sys.argv[1]) if '"sample"' in l]
ts = [x["t_us"] for x in s]
e = [x["energy_uj"] for x in s]
assert len(s) > 10 and all(b - a == 10000 for a, b in zip(ts, ts[1:])), ts[:5]
assert all(b >= a for a, b in zip(e, e[1:]))
PY
then ok trace_samples_are_evenly_spaced; else nok trace_samples_are_evenly_spaced; fi
# no migration ping-pong: tasks moved up as capacity misfits are not put straight back
"$gb" sim -p sm8250 -P gearbox,mainline --json workloads/demo-mobile.json >"$tmp/m.json" 2>/dev/null
if python3 - "$tmp/m.json" <<'PY'
import json, sys
r = {x["policy"]: x for x in json.load(open(sys.argv[1]))["results"]}
g, m = r["gearbox"]["migrations"], r["mainline"]["migrations"]
print("# migrations: gearbox %d, mainline %d" % (g, m))
assert g <= m + 2
PY
then ok no_migration_pingpong_on_demo_mobile; else nok no_migration_pingpong_on_demo_mobile; fi
# gearbox on the sched_ext host reports its pulls, those that undid a capacity-misfit move and
# its wake-up preemptions; a saturated SoC's starvation pull is the one pull that undoes a move,
# and without it (a wait of 10 s) none does.  The fair host's policies have no such fields.
gw=bench/workloads/game_build.json
"$gb" sim -p gs101 -P gearbox,mainline --json "$gw" >"$tmp/p4.json" 2>"$tmp/err"
"$gb" sim -p gs101 -P gearbox --json --pull-after-us 10000000 "$gw" >"$tmp/p10.json" 2>>"$tmp/err"
if python3 - "$tmp/p4.json" "$tmp/p10.json" <<'PY'
import json, sys
four, never = ({x["policy"]: x for x in json.load(open(p))["results"]} for p in sys.argv[1:])
g, n = four["gearbox"], never["gearbox"]
print("# pulls %d, undoing a misfit move %d; with a 10 s wait %d, %d"
      % (g["pulls"], g["pulls_undoing_misfit"], n["pulls"], n["pulls_undoing_misfit"]))
assert g["pulls"] >= g["pulls_undoing_misfit"] > 0 and g["wake_preempts"] >= 0
assert n["pulls_undoing_misfit"] == 0
assert "pulls" not in four["mainline"] and "pulls_undoing_misfit" not in four["mainline"]
PY
then ok pulls_undoing_misfit_reported; else nok pulls_undoing_misfit_reported; fi
# every policy reports the migrations that undid a capacity-misfit move, once per move: on the
# saturated SoC both policies undo moves (mainline's load balance too), a ramping task moved up
# once is not moved back
"$gb" sim -p sm8250 -P gearbox,mainline --json tests/scenarios/workloads/lisa_ramp_up.json \
	>"$tmp/ramp.json" 2>>"$tmp/err"
if python3 - "$tmp/p4.json" "$tmp/ramp.json" <<'PY'
import json, sys
sat, ramp = ({x["policy"]: x for x in json.load(open(p))["results"]} for p in sys.argv[1:])
for p in ("gearbox", "mainline"):
    print("# %s: game_build %d misfit moves, %d undone; lisa_ramp_up %d, %d"
          % (p, sat[p]["misfit_moves"], sat[p]["misfit_moves_undone"], ramp[p]["misfit_moves"],
             ramp[p]["misfit_moves_undone"]))
    assert 0 < sat[p]["misfit_moves_undone"] <= sat[p]["misfit_moves"]
    assert ramp[p]["misfit_moves"] > 0 and ramp[p]["misfit_moves_undone"] == 0
PY
then ok misfit_moves_undone_reported; else nok misfit_moves_undone_reported; fi
# --seeds: means and intervals that shrink with more seeds, fields consistent with per_seed
sw=tests/scenarios/workloads/lisa_ramp_up.json
expect seeds_zero_exits_2 2 "seeds '0': an integer in 1..1000 expected" "$gb" sim -p sm8250 --seeds 0 "$sw"
"$gb" sim -p msm8998 -P gearbox,mainline --json "$sw" >"$tmp/s1.json" 2>"$tmp/err"
"$gb" sim -p msm8998 -P gearbox,mainline --json --seeds 3 "$sw" >"$tmp/s3.json" 2>>"$tmp/err"
"$gb" sim -p msm8998 -P gearbox,mainline --json --seeds 8 "$sw" >"$tmp/s12.json" 2>>"$tmp/err"
if python3 - "$tmp/s1.json" "$tmp/s3.json" "$tmp/s12.json" <<'PY'
import json, sys
figs = ["energy_j", "energy_ratio", "late_activations", "missed_periods", "migrations",
        "migrations_across_domains", "work_s", "energy_j_per_work_s"]
one, three, twelve = (json.load(open(p)) for p in sys.argv[1:])
assert one["seeds"] == [1] and three["seeds"] == [1, 2, 3] and twelve["seeds"] == list(range(1, 9))
for r in one["results"]:
    assert all(r[f + "_ci95"] is None for f in figs), r
    assert isinstance(r["late_activations"], int) and "per_seed" not in r
for doc in (three, twelve):
    for r in doc["results"]:
        ps = r["per_seed"]
        assert [s["seed"] for s in ps] == doc["seeds"]
        for f in figs:
            lo, hi = r[f + "_ci95"]
            m = sum(s[f] for s in ps) / len(ps)
            assert abs(m - r[f]) <= 1e-6 * max(1, abs(m)), (f, m, r[f])
            assert lo <= r[f] + 1e-9 and r[f] <= hi + 1e-9, (f, lo, r[f], hi)
    # ratios per seed: the first policy's are 1, the other's their per-seed quotient (the
    # energies are printed to 9 significant digits: the quotient of two is good to ~1e-8)
    g, ml = doc["results"]
    assert all(abs(s["energy_ratio"] - 1) < 1e-12 for s in g["per_seed"])
    assert all(abs(b["energy_ratio"] - b["energy_j"] / a["energy_j"]) < 1e-8
               for a, b in zip(g["per_seed"], ml["per_seed"]))
# seed 1 of the series is the single run
assert abs(three["results"][0]["per_seed"][0]["energy_j"] - one["results"][0]["energy_j"]) < 1e-9
w3 = [r["energy_j_ci95"][1] - r["energy_j_ci95"][0] for r in three["results"]]
w12 = [r["energy_j_ci95"][1] - r["energy_j_ci95"][0] for r in twelve["results"]]
print("# energy interval widths, 3 seeds %s, 8 seeds %s" % (w3, w12))
assert all(b < a for a, b in zip(w3, w12)) and all(a > 0 for a in w3)
PY
then ok seeds_give_consistent_intervals_that_shrink_with_n; else nok seeds_give_consistent_intervals_that_shrink_with_n; fi
expect seeds_table_shows_mean_and_interval 0 "3 seeds (1 to 3): mean and half-width of the 95% confidence interval" \
	"$gb" sim -p msm8998 -P gearbox,mainline --seeds 3 "$sw"
grep -q "^mainline  *[0-9.]* +-[0-9.]*  *[0-9.]* +-" "$tmp/out" && ok seeds_table_rows_have_intervals || nok seeds_table_rows_have_intervals
# a task's own slice: refused outside the kernel's range (exit 2, file, task, field, reason);
# the per-task wake-up latency in the table and the JSON shows what the slice does
printf '{"global":{"duration":1},"tasks":{"ui":{"slice_us":50,"run":100,"sleep":900}}}' >"$tmp/slice.json"
expect slice_out_of_range_exits_2_naming_file_task_and_field 2 \
	"slice.json: task ui: 'slice_us' is 50, must be in 100..100000 (the kernel's range for a fair task's sched_runtime)" \
	"$gb" sim -p sm8250 "$tmp/slice.json"
printf '{"global":{"duration":1,"calibration":"CPU0"},"tasks":{"p":{"cpus":[0],"loop":-1,"run":1000,"timer":{"ref":"t","period":10000}},"h":{"cpus":[0],"slice_us":20000,"run":5000000}}}' >"$tmp/wait.json"
expect latency_table_lists_the_waking_task 0 "^p-0  *[0-9]*/ *[0-9]*/ *[0-9]*  *[0-9]*/ *[0-9]*/ *[0-9]*$" \
	"$gb" sim -p sm8250 -P mainline,gearbox --host scx "$tmp/wait.json"
"$gb" sim -p sm8250 -P mainline,gearbox --host scx --wake-preempt off --json "$tmp/wait.json" >"$tmp/wait.out" 2>/dev/null
if python3 - "$tmp/wait.out" <<'PY'
import json, sys
r = {x["policy"]: {t["name"]: t for t in x["tasks"]} for x in json.load(open(sys.argv[1]))["results"]}
p, h = r["gearbox"]["p-0"], r["gearbox"]["h-0"]
print("# gearbox p-0: %d wake-ups, p50 %.0f us, p99 %.0f us" % (p["wakeups"], p["wake_latency_p50_us"], p["wake_latency_p99_us"]))
assert p["wakeups"] >= 20 and h["wakeups"] == 1
# behind the hog's own 20 ms slice on the sched_ext host (wake-up preemption off); the fair
# class preempts the hog at once while p's deadline is the earlier one, most wake-ups
assert p["wake_latency_p50_us"] > 10000 and p["wake_latency_p99_us"] > 12000
assert r["mainline"]["p-0"]["wake_latency_p50_us"] == 0
PY
then ok json_gives_wakeup_latency_per_task; else nok json_gives_wakeup_latency_per_task; fi
echo "1..$n"
exit $fail
