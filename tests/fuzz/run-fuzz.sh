#!/usr/bin/env bash
# run-fuzz.sh NAME FUZZER SECONDS SEED-DIR...: runs a libFuzzer target for a bounded time on a
# scratch copy of the seed corpora and reports one TAP line; any crash, leak or timeout fails.
set -u
name=$1 fuzzer=$2 secs=$3; shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
for d in "$@"; do cp -r "$d"/. "$work/corpus/" 2>/dev/null; done
if "$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$work/" "$work/corpus" >"$work/log" 2>&1; then
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
	echo "ok 1 - $name: no crash or leak in ${runs:-?} runs (${secs} s)"
else
	echo "not ok 1 - $name: fuzzer found a problem"
	grep -E "ERROR|SUMMARY|Test unit written" "$work/log" | head -n 10 | sed 's/^/# /'
	for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-*; do
		[ -f "$a" ] && { echo "# input:"; head -c 400 "$a" | od -c | head -n 8 | sed 's/^/# /'; }
	done
fi
echo "1..1"
