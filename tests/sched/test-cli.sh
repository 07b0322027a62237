#!/bin/sh
# tests/sched/test-cli.sh SCX_GEARBOX TESTS_SCHED_DIR SOURCE_ROOT - scx_gearbox's refusals on
# any host: bad usage and models that do not fit the machine exit 2 with the reason, another
# scheduler or a socket path in use exit 3, all before anything is loaded, leaving what was
# there as it was; --help states every option.  The fake machine is a sysfs CPU directory
# (GEARBOX_SYSFS_CPU) and a sched_ext directory (GEARBOX_SYSFS_SCHED_EXT).
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
echo "1..16"
expect "no_profile_is_a_usage_error" 2 "error: --profile is required" "$gb"
expect "unknown_mode_is_rejected" 2 "--mode 'fast': expected energy, balanced, performance or auto" \
	"$gb" --profile "$dir/vm4.json" --mode fast
expect "bad_stats_interval_is_rejected" 2 "--stats-interval '5': expected milliseconds" \
	"$gb" --profile "$dir/vm4.json" --stats-interval 5
expect "bad_group_slices_is_rejected" 2 "--group-slices 'yes': expected on or off" \
	"$gb" --profile "$dir/vm4.json" --group-slices yes
expect "bad_wake_preempt_is_rejected" 2 "--wake-preempt 'yes': expected off, latency or on" \
	"$gb" --profile "$dir/vm4.json" --wake-preempt yes
expect "missing_profile_file_is_reported_with_its_name" 2 "nonexistent.json" \
	"$gb" --profile "$tmp/nonexistent.json"
expect "eight_cpu_model_on_four_cpus_is_refused_with_the_counts" 2 \
	"sm8250.json: the model has 8 CPUs, this machine has 4 (use --force" \
	"$gb" --profile "$root/em-profiles/sm8250.json" --socket "$tmp/s"
mkdir -p "$tmp/cpu/cpufreq/policy0" "$tmp/cpu/cpufreq/policy2"
echo 0-1 >"$tmp/cpu/cpufreq/policy0/related_cpus"; echo 2-3 >"$tmp/cpu/cpufreq/policy2/related_cpus"
expect "model_grouping_unlike_cpufreq_is_refused" 2 "model domain 1 CPUs 2 match no cpufreq policy" \
	"$gb" --profile "$dir/vm4.json" --socket "$tmp/s"

# --help: every option of the option table, its default, and the exit statuses
help=$("$gb" --help); st=$?
missing=
for o in profile mode socket socket-mode stats-interval group-slices wake-preempt verbose force help; do
	printf '%s' "$help" | grep -q -- "--$o\b" || missing="$missing --$o"
done
for d in "default: energy" "default: /run/scx_gearbox.sock" "default: 0600" "default: 100" \
	"default: refuse" "most 16 readers" "Exit status:" "default: on"; do
	printf '%s' "$help" | grep -q -- "$d" || missing="$missing '$d'"
done
for x in 0 1 2 3; do printf '%s\n' "$help" | grep -q "^  $x  " || missing="$missing status-$x"; done
if [ "$st" = 0 ] && [ -z "$missing" ]; then ok "help_states_every_option_its_default_and_the_exit_statuses"
else not_ok "help_states_every_option_its_default_and_the_exit_statuses" "status $st, missing:$missing"; fi

# sched_ext as the loader sees it, and sockets: a stale one (bound, its server gone), a live one
rm -rf "$tmp/cpu/cpufreq"
scx="$tmp/scx"; mkdir -p "$scx/root"
export GEARBOX_SYSFS_SCHED_EXT="$scx"
stale_socket() { python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$1"; }
ino() { stat -c %i "$1" 2>/dev/null; }
sock="$tmp/gb.sock"

echo enabled >"$scx/state"; echo simple >"$scx/root/ops"
stale_socket "$sock"; before=$(ino "$sock")
expect "another_scheduler_loaded_is_refused_with_status_3" 3 \
	"another sched_ext scheduler is loaded (simple, state enabled)" \
	"$gb" --profile "$dir/vm4.json" --socket "$sock"
if [ -S "$sock" ] && [ "$(ino "$sock")" = "$before" ]; then ok "a_refused_run_leaves_the_socket_path_as_it_was"
else not_ok "a_refused_run_leaves_the_socket_path_as_it_was" "inode $before -> $(ino "$sock")"; fi

echo disabled >"$scx/state"; rm -f "$sock"; echo precious >"$sock"
expect "a_regular_file_at_the_socket_path_is_refused" 3 "exists and is not a socket (a regular file)" \
	"$gb" --profile "$dir/vm4.json" --socket "$sock"
if [ "$(cat "$sock")" = precious ]; then ok "the_regular_file_is_kept"
else not_ok "the_regular_file_is_kept" "$(ls -l "$sock" 2>&1)"; fi

rm -f "$sock"
python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8); print("up", flush=True)
time.sleep(60)' "$sock" >"$tmp/listener.out" &
listener=$!
i=0; while ! grep -q up "$tmp/listener.out" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
expect "a_live_socket_is_refused_as_another_server" 3 "a running process serves this socket" \
	"$gb" --profile "$dir/vm4.json" --socket "$sock"
kill "$listener" 2>/dev/null; wait "$listener" 2>/dev/null

GEARBOX_SYSFS_SCHED_EXT="$tmp/none" expect "a_kernel_without_sched_ext_is_reported" 1 \
	"this kernel has no sched_ext ($tmp/none/state is missing)" \
	"$gb" --profile "$dir/vm4.json" --socket "$sock"

# A run that fails to load (this host has no sched_ext) leaves a stale socket alone: the socket is
# opened only once attached.  Not on a host with sched_ext, where it would load.
rm -f "$sock"; stale_socket "$sock"; before=$(ino "$sock")
if [ -e /sys/kernel/sched_ext ]; then ok "a_failed_load_leaves_a_stale_socket_alone # SKIP this host has sched_ext"
else
	out=$("$gb" --profile "$dir/vm4.json" --socket "$sock" 2>&1); st=$?
	if [ "$st" = 1 ] && [ -S "$sock" ] && [ "$(ino "$sock")" = "$before" ]; then
		ok "a_failed_load_leaves_a_stale_socket_alone"
	else not_ok "a_failed_load_leaves_a_stale_socket_alone" "status $st, inode $before -> $(ino "$sock")" "$out"; fi
fi
