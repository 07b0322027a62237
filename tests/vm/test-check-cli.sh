#!/bin/sh
# tests/vm/test-check-cli.sh GEARBOX-CHECK - what `gearbox check` does without a VM: usage
# errors, and a kernel without sched_ext (this host) as a failed attach with valid JSON.
gc=$1 n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
expect() { # NAME STATUS PATTERN CMD...
	name=$1 want=$2 pat=$3; shift 3
	out=$("$@" 2>&1); st=$?
	if [ "$st" = "$want" ] && printf '%s' "$out" | grep -q -- "$pat"; then ok "$name"
	else not_ok "$name" "status $st (want $want)" "$out"; fi
}
echo "1..6"
expect "no_scheduler_command_is_a_usage_error" 2 "no scheduler command" "$gc"
expect "bad_duration_is_rejected_with_exit_2" 2 "not a number of seconds" "$gc" --duration abc -- true
expect "unknown_check_in_only_is_rejected" 2 "unknown check 'bogus'" "$gc" --only attach,bogus -- true
expect "help_lists_every_check" 0 "latency, forkstorm, hotplug, rt, exit" "$gc" --help
if [ -e /sys/kernel/sched_ext/state ]; then
	ok "no_sched_ext_fails_attach_and_skips_the_rest # SKIP this kernel has sched_ext"
	ok "json_output_is_valid_gearbox_check_1 # SKIP this kernel has sched_ext"
	exit 0
fi
expect "no_sched_ext_fails_attach_and_skips_the_rest" 1 \
	"FAIL  attach     this kernel has no sched_ext" "$gc" -- true
json=$("$gc" --json -- true 2>&1)
if printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["format"] == "gearbox-check/1"
names = [c["name"] for c in d["checks"]]
assert names == ["attach", "starvation", "affinity", "weights", "latency", "forkstorm",
                 "hotplug", "rt", "exit"], names
assert d["checks"][0]["status"] == "fail"
assert all(c["status"] == "skip" for c in d["checks"][1:])
assert d["summary"] == {"passed": 0, "failed": 1, "skipped": 8}, d["summary"]
assert d["scheduler"]["command"] == ["true"]
' 2>/tmp/check-json.err; then ok "json_output_is_valid_gearbox_check_1"
else not_ok "json_output_is_valid_gearbox_check_1" "$json" "$(cat /tmp/check-json.err)"; fi
