# shellcheck shell=bash
# tap.sh - TAP helpers for shell tests.  ok/not ok lines, then "1..N" from tap_done.
TAP_N=0
TAP_FAILED=0
tap_ok() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $1"; }
tap_fail() { TAP_N=$((TAP_N + 1)); TAP_FAILED=$((TAP_FAILED + 1)); echo "not ok $TAP_N - $1"; shift; for l in "$@"; do echo "# $l"; done; }
tap_skip() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $1 # SKIP $2"; }
tap_done() { echo "1..$TAP_N"; [ "$TAP_FAILED" -eq 0 ]; }
