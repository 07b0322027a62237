#!/bin/sh
# run_fuzz.sh FUZZER CORPUS - runs the stream fuzzer for a bounded time over a copy of the seed
# corpus and reports one TAP line.  FUZZER is empty when clang has no libFuzzer: a TAP skip.
fuzzer=$1 seeds=$2
echo "1..1"
if [ -z "$fuzzer" ]; then
	echo "ok 1 - stream_parser_survives_fuzzing # SKIP clang without -fsanitize=fuzzer"
	exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
cp "$seeds"/* "$work/corpus/"
secs=${GEARBOX_FUZZ_SECONDS:-20}
if ASAN_OPTIONS=detect_leaks=1 "$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-max_len=65536 -artifact_prefix="$work/" -print_final_stats=1 "$work/corpus" \
	>"$work/log" 2>&1; then
	grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$work/log" | sed 's/^/# /'
	echo "ok 1 - stream_parser_survives_fuzzing"
else
	tail -n 40 "$work/log" | sed 's/^/# /'
	for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-*; do
		[ -f "$a" ] && echo "# reproducer (base64): $(base64 -w0 "$a" | head -c 2000)"
	done
	echo "not ok 1 - stream_parser_survives_fuzzing"
fi
