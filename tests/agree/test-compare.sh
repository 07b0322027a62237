#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/agree/test-compare.sh - scripts/stream-compare on simulator traces: a trace agrees with
# itself and with a second run of the same policy, differs from another policy's run (exit 1,
# naming the task, the domain and the shares), and bad input exits 2 naming file, line and
# reason.
#   test-compare.sh GEARBOX
set -u
gearbox=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
compare=$top/scripts/stream-compare
model=$top/tests/sched/vm4.json
wl=$top/tests/agree/workloads/uclamp_max.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 failed=0
check() {  # check NAME CONDITION-STATUS DETAIL
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n - $1"
	else failed=$((failed + 1)); echo "not ok $n - $1"; printf '%s\n' "${3:-}" | sed 's/^/# /'; fi
}
sim() { "$gearbox" sim -p "$1" -P "$2" --trace "$3" "$wl" >/dev/null 2>"$work/sim.err"; }

sim "$model" gearbox "$work/gb.ndjson" && sim "$model" gearbox "$work/gb2.ndjson" &&
	sim "$model" mainline "$work/ml.ndjson" && sim "$top/em-profiles/sm8250.json" gearbox "$work/other.ndjson"
check sim_writes_the_traces $? "$(cat "$work/sim.err")"

out=$("$compare" "$work/gb.ndjson" "$work/gb2.ndjson" 2>&1)
rc=$?
[ $rc = 0 ] && grep -q '^umax_capped  *agrees' <<<"$out" && grep -q '^agree: 1 of 1 tasks agree' <<<"$out"
check a_policy_agrees_with_its_own_run $? "status $rc: $out"

out=$("$compare" "$work/gb.ndjson" "$work/ml.ndjson" 2>&1)
rc=$?
[ $rc = 1 ] && grep -q '^umax_capped  *DIFFERS' <<<"$out" &&
	grep -qE -- '- share on mid (0\.9[0-9]|1\.00) vs 0\.0[0-9]' <<<"$out" && grep -q '^DIFFER: 0 of 1' <<<"$out"
check another_policys_run_differs_with_task_domain_and_shares $? "status $rc: $out"

out=$("$compare" --json "$work/gb.ndjson" "$work/ml.ndjson" 2>&1)
rc=$?
[ $rc = 1 ] && python3 -c '
import json, sys
d = json.loads(sys.argv[1])
t = d["tasks"][0]
assert d["format"] == "gearbox-stream-compare/1" and d["agree"] is False
assert t["task"] == "umax_capped" and t["agrees"] is False and t["share"]["mid"][0] > 0.9
assert t["reasons"]["power_misfit"] == [1, 0]' "$out"
check json_report_carries_shares_and_counts $? "status $rc: $out"

# a decision count alone: the same trace with one task's power_misfit decisions added
cp "$work/gb.ndjson" "$work/more.ndjson"
dec=$(grep -m1 '"reason":"power_misfit"' "$work/gb.ndjson")
for _ in 1 2 3 4 5 6; do printf '%s\n' "$dec" >>"$work/more.ndjson"; done
out=$("$compare" "$work/gb.ndjson" "$work/more.ndjson" 2>&1)
rc=$?
[ $rc = 1 ] && grep -q -- '- power_misfit decisions 1 vs 7' <<<"$out"
check decisions_by_reason_are_compared $? "status $rc: $out"
out=$("$compare" --count-tol 6 "$work/gb.ndjson" "$work/more.ndjson" 2>&1)
check count_tolerance_applies $? "$out"

# moves between two CPUs of one domain (little: CPUs 0 and 1) are shown, not compared
cp "$work/gb.ndjson" "$work/within.ndjson"
for _ in 1 2 3 4 5 6; do
	printf '{"type":"decision","t_us":1000,"pid":1,"comm":"umax_capped-0","from":0,"to":1,"reason":"wakeup_energy","power_delta_uw":0,"util":10,"uclamp_min":0,"uclamp_max":300,"to_cap":286,"from_cap":286}\n' >>"$work/within.ndjson"
done
out=$("$compare" "$work/gb.ndjson" "$work/within.ndjson" 2>&1)
rc=$?
[ $rc = 0 ] && grep -q '^  moves within a domain 0/6 (not compared)' <<<"$out"
check moves_within_a_domain_are_shown_not_compared $? "status $rc: $out"

# samples: the task seen in 3 of them on one side is not compared by share; never seen there,
# it differs (the same trace with the samples that show it dropped, all but 3 or all)
python3 - "$work/gb.ndjson" "$work" <<'PY'
import sys
src, out = sys.argv[1], sys.argv[2]
lines = open(src).read().splitlines()
for name, keep in (("few", 3), ("none", 0)):
    seen = 0
    with open("%s/%s.ndjson" % (out, name), "w") as f:
        for l in lines:
            if '"type":"sample"' in l and '"umax_capped' in l:
                seen += 1
                if seen > keep:
                    continue
            f.write(l + "\n")
PY
out=$("$compare" "$work/gb.ndjson" "$work/few.ndjson" 2>&1)
rc=$?
[ $rc = 0 ] && grep -q 'shares not compared: seen running in [0-9]* and 3 samples' <<<"$out"
check few_samples_on_one_side_are_not_compared $? "status $rc: $out"
out=$("$compare" "$work/gb.ndjson" "$work/none.ndjson" 2>&1)
rc=$?
[ $rc = 1 ] && grep -q -- '- seen running in [0-9]* and 0 samples: never on one side' <<<"$out"
check a_task_never_seen_on_one_side_differs $? "status $rc: $out"

out=$("$compare" "$work/gb.ndjson" "$work/other.ndjson" 2>&1)
rc=$?
[ $rc = 2 ] && grep -q 'stream-compare: error: the two streams describe different domains' <<<"$out"
check different_models_exit_2 $? "status $rc: $out"

out=$("$compare" "$work/gb.ndjson" "$work/missing.ndjson" 2>&1)
rc=$?
[ $rc = 2 ] && grep -q "error: $work/missing.ndjson: No such file or directory" <<<"$out"
check missing_file_exits_2_naming_it $? "status $rc: $out"

{ head -n 3 "$work/gb.ndjson"; echo '{"type":"sample",'; } >"$work/bad.ndjson"
out=$("$compare" "$work/gb.ndjson" "$work/bad.ndjson" 2>&1)
rc=$?
[ $rc = 2 ] && grep -q "error: $work/bad.ndjson: line 4: not JSON" <<<"$out"
check broken_line_exits_2_naming_file_and_line $? "status $rc: $out"

{ head -n 3 "$work/gb.ndjson"; printf '{"type":"sample","t_us":5}'; } >"$work/trunc.ndjson"
out=$("$compare" "$work/gb.ndjson" "$work/trunc.ndjson" 2>&1)
rc=$?
[ $rc = 2 ] && grep -q "line 4: truncated record" <<<"$out"
check truncated_last_line_exits_2 $? "status $rc: $out"

{ head -n 1 "$work/gb.ndjson"; echo '{"type":"sample","t_us":5,"cpus":[{"cpu":"x"}]}'; } >"$work/field.ndjson"
out=$("$compare" "$work/gb.ndjson" "$work/field.ndjson" 2>&1)
rc=$?
[ $rc = 2 ] && grep -q "line 2: a sample record with a missing or wrong field" <<<"$out"
check wrong_field_exits_2 $? "status $rc: $out"

grep -v '"type":"hello"' "$work/gb.ndjson" >"$work/nohello.ndjson"
out=$("$compare" "$work/gb.ndjson" "$work/nohello.ndjson" 2>&1)
rc=$?
[ $rc = 2 ] && grep -q "line 1: a sample record before the hello" <<<"$out"
check stream_without_hello_exits_2 $? "status $rc: $out"

out=$("$compare" --tasks nosuch "$work/gb.ndjson" "$work/gb2.ndjson" 2>&1)
rc=$?
[ $rc = 2 ] && grep -q "error: task nosuch is in neither stream" <<<"$out"
check unknown_task_exits_2 $? "status $rc: $out"

out=$("$compare" "$work/gb.ndjson" 2>&1)
rc=$?
[ $rc = 2 ] && grep -q "expected two stream files" <<<"$out"
check one_file_is_a_usage_error $? "status $rc: $out"
out=$("$compare" --share-tol 2 "$work/gb.ndjson" "$work/gb.ndjson" 2>&1)
check bad_tolerance_is_a_usage_error $([ $? = 2 ] && echo 0 || echo 1) "$out"
"$compare" --help >"$work/help" && grep -q -- "--share-tol F" "$work/help"
check help_lists_the_options $?
echo "1..$n"
[ $failed = 0 ]
