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
expect oracle_rejects_aperiodic_task 2 "task spin-0: the oracle needs periodic tasks" "$gb" sim -p sm8250 -P oracle "$tmp/spin.json"
expect missing_profile_exits_2 2 "nosuch" "$gb" sim -p "$tmp/nosuch.json" "$wl"
"$gb" sim -p sm8250 --trace "$tmp/t.ndjson" "$wl" >/dev/null 2>&1
if head -1 "$tmp/t.ndjson" | grep -q '"format":"gearbox-stream/1"' && tail -1 "$tmp/t.ndjson" | grep -q '"type":"end"'; then
	ok trace_starts_with_hello_and_ends_with_end
else
	nok trace_starts_with_hello_and_ends_with_end
fi
echo "1..$n"
exit $fail
