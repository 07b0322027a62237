#!/bin/sh
# tests/sched/test-cli.sh SCX_GEARBOX TESTS_SCHED_DIR SOURCE_ROOT - scx_gearbox's refusals on
# any host: bad usage and models that do not fit the machine exit 2 with the reason, before
# anything is loaded.  The fake machine is a sysfs CPU directory (GEARBOX_SYSFS_CPU).
gb=$1 dir=$2 root=$3 n=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
expect() { # NAME STATUS PATTERN CMD...
	name=$1 want=$2 pat=$3; shift 3
	out=$("$@" 2>&1); st=$?
	if [ "$st" = "$want" ] && printf '%s' "$out" | grep -q -- "$pat"; then ok "$name"
	else not_ok "$name" "status $st (want $want)" "$out"; fi
}
mkdir -p "$tmp/cpu"; echo 0-3 >"$tmp/cpu/possible"; echo 0-3 >"$tmp/cpu/online"
export GEARBOX_SYSFS_CPU="$tmp/cpu"
echo "1..6"
expect "no_profile_is_a_usage_error" 2 "error: --profile is required" "$gb"
expect "unknown_mode_is_rejected" 2 "--mode 'fast': expected energy, balanced or performance" \
	"$gb" --profile "$dir/vm4.json" --mode fast
expect "bad_stats_interval_is_rejected" 2 "--stats-interval '5': expected milliseconds" \
	"$gb" --profile "$dir/vm4.json" --stats-interval 5
expect "missing_profile_file_is_reported_with_its_name" 2 "nonexistent.json" \
	"$gb" --profile "$tmp/nonexistent.json"
expect "eight_cpu_model_on_four_cpus_is_refused_with_the_counts" 2 \
	"sm8250.json: the model has 8 CPUs, this machine has 4 (use --force" \
	"$gb" --profile "$root/em-profiles/sm8250.json" --socket "$tmp/s"
mkdir -p "$tmp/cpu/cpufreq/policy0" "$tmp/cpu/cpufreq/policy2"
echo 0-1 >"$tmp/cpu/cpufreq/policy0/related_cpus"; echo 2-3 >"$tmp/cpu/cpufreq/policy2/related_cpus"
expect "model_grouping_unlike_cpufreq_is_refused" 2 "model domain 1 CPUs 2 match no cpufreq policy" \
	"$gb" --profile "$dir/vm4.json" --socket "$tmp/s"
