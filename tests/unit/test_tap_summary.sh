#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/unit/test_tap_summary.sh - scripts/lib/tap-summary.py, the closing line of scripts/test:
# counts every TAP case of meson's testlog.json, and prints each failure with the diagnostic
# lines that follow it, so that the tail of a run says why a case failed.
set -u
summary=$1/scripts/lib/tap-summary.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 failed=0
check() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else failed=$((failed + 1)); echo "not ok $n - $1"; sed 's/^/# /' "$work/out"; fi
}
python3 - "$work/log.json" <<'PY'
import json, sys
diag = "".join("# line %d\n" % i for i in range(20))
rows = [
    {"name": "s / a", "result": "FAIL",
     "stdout": "ok 1 - one\nnot ok 2 - two\n# share on big 0.40 vs 0.94\n# more\nok 3 - three\n"},
    {"name": "s / b", "result": "OK", "stdout": "ok 1 - x # SKIP no kvm\n"},
    {"name": "s / c", "result": "FAIL", "stdout": "not ok 1 - long\n" + diag + "not ok 2 - bare\n"},
    {"name": "s / d", "result": "TIMEOUT", "stdout": "ok 1 - fine\n"},
]
with open(sys.argv[1], "w") as f:
    for r in rows:
        f.write(json.dumps(r) + "\n")
PY
python3 "$summary" "$work/log.json" >"$work/out" 2>&1
rc=$?
check exits_1_when_a_case_failed '[ $rc = 1 ]'
check counts_every_case '[ "$(tail -n 1 "$work/out")" = "3 passed, 4 failed, 1 skipped" ]'
check a_failure_carries_its_diagnostics \
	'grep -A2 "^FAILED: s / a: not ok 2 - two$" "$work/out" | grep -q "^    # share on big 0.40 vs 0.94$"'
check diagnostics_stop_at_the_next_case '! grep -q "ok 3 - three" "$work/out"'
check diagnostics_are_bounded \
	'[ "$(grep -c "^    # line" "$work/out")" = 12 ] && ! grep -q "# line 12" "$work/out"'
check a_failed_process_with_passing_cases_counts 'grep -q "^FAILED: s / d: process result TIMEOUT$" "$work/out"'
printf '{"name": "s / e", "result": "OK", "stdout": "ok 1 - fine\\n"}\n' >"$work/ok.json"
python3 "$summary" "$work/ok.json" >"$work/out" 2>&1
rc=$?
check exits_0_when_all_passed '[ $rc = 0 ] && [ "$(cat "$work/out")" = "1 passed, 0 failed, 0 skipped" ]'
echo "1..$n"
[ $failed = 0 ]
