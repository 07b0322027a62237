# tests/sched/guest-latency.sh - runs in the VM (tests/vm/vm-run): a UI-like rt-app workload
# under the kernel's default scheduler (EEVDF) and under scx_gearbox in the same boot, as TAP,
# with each run's late frames and wake-up latency as TAP comments.  /opt/gb holds scx_gearbox,
# gb-sched-probe, vm4.json and rt-app.
#
# The workload is bench/workloads/ui_frames.json's (docs/sim.md, "Latency"): a UI thread that
# needs 8 ms of every 16.7 ms frame, with its own 10 ms slice (set with sched_setattr() as soon
# as rt-app names the thread, under both schedulers), beside background threads that work
# 0.5 ms every 4 ms; rt-app calibrates its work in the guest.  Two layouts: six background
# threads and every thread free to use the 4 CPUs, and two background threads with every thread
# on CPU 3 (73% busy), where the order of the queue alone decides who waits (EEVDF: a woken
# background thread preempts the UI thread when eligible with the earlier deadline;
# scx_gearbox: it waits for the UI thread's slice to end).  rt-app logs every period: a frame
# is late when its slack is negative, a thread's wake-up latency is rt-app's wu_lat.
#
# What is asserted is what can fail for a reason of the scheduler's: each run completes with
# the UI thread's slice set, its log has the frames of the run (at least half of them: a run
# whose threads did not run would have none), and scx_gearbox stays loaded through its runs.
# No figure is asserted: under single-threaded TCG the four vCPUs take turns on one host
# thread, so a thread's wait includes its vCPU's turn, and the frames' timing is the
# emulator's (docs/scheduler.md, "Latency in the VM").
#   guest-latency.sh
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
state() { cat /sys/kernel/sched_ext/state; }
wait_state() { i=0; while [ "$(state)" != "$1" ]; do
	i=$((i + 1)); [ $i -gt "${2:-15000}" ] && return 1; sleep 0.02; done; }
say() { echo "guest-latency: $*" >&2; }
DURATION=5
FRAMES=$((DURATION * 1000000 / 16667))

# workload CPUS NBG: the rt-app JSON with NBG background threads and every thread on CPUS (""
# for all), logging into /tmp/rt
workload() {
	aff=
	[ -n "$1" ] && aff="\"cpus\": [$1], "
	cat <<EOF
{ "global": { "duration": $DURATION, "calibration": "CPU0", "default_policy": "SCHED_OTHER",
              "logdir": "/tmp/rt" },
  "tasks": {
    "ui": { ${aff}"loop": -1, "run": 8000, "timer": { "ref": "vsync", "period": 16667 } },
    "bg": { ${aff}"instance": $2, "loop": -1, "run": 500, "timer": { "ref": "unique", "period": 4000 } }
  }
}
EOF
}

# slice_ui RTPID: gives rt-app's thread named ui a 10 ms slice as soon as it appears (after
# rt-app's calibration, seconds under TCG); prints its tid, nothing if it never appeared
slice_ui() {
	local t c
	while [ -d "/proc/$1" ]; do
		for t in /proc/"$1"/task/*; do
			read -r c <"$t/comm" 2>/dev/null || continue
			if [ "$c" = ui ] && gb-sched-probe setslice "${t##*/}" 10000 >&2; then
				echo "${t##*/}"
				return 0
			fi
		done
		sleep 0.02
	done
}

# stats LOG...: "frames N late N wu_p50_us N wu_p99_us N" over rt-app thread logs (a line per
# period: idx perf run period start end rel_st slack c_duration c_period wu_lat)
stats() {
	: >/tmp/wu
	cat "$@" 2>/dev/null | awk '$1 ~ /^[0-9]+$/ && NF >= 11 { n++; if ($8 < 0) late++; print $11 > "/tmp/wu" }
		END { printf "frames %d late %d", n, late }'
	sort -n /tmp/wu | awk '{ v[NR] = $1 } END {
		if (NR) printf " wu_p50_us %d wu_p99_us %d\n", v[int((NR + 1) / 2)], v[int((NR * 99 + 99) / 100)]
		else print " wu_p50_us - wu_p99_us -" }'
}

# run NAME CPUS NBG: one run of the workload; checks it, prints the UI thread's and the
# background threads' figures
run() {
	rm -rf /tmp/rt /tmp/wu
	mkdir -p /tmp/rt
	workload "$2" "$3" >/tmp/rt.json
	say "rt-app $1"
	(cd /tmp && exec rt-app /tmp/rt.json >/tmp/rt-app.log 2>&1) &
	rt=$!
	tid=$(slice_ui "$rt")
	wait "$rt"
	rc=$?
	ui=$(stats /tmp/rt/rt-app-ui-*.log)
	bg=$(stats /tmp/rt/rt-app-bg-*.log)
	frames=$(echo "$ui" | awk '{ print $2 + 0 }')
	echo "# $1: ui $ui; background ($3 threads) $bg"
	if [ $rc = 0 ] && [ -n "$tid" ] && [ "$frames" -ge $((FRAMES / 2)) ]; then
		ok "ui_frames_runs_$1 ($frames frames)"
	else
		not_ok "ui_frames_runs_$1" "status $rc, ui thread ${tid:-never seen}, $frames frames" \
			"logs: $(ls /tmp/rt | tr '\n' ' ')" \
			"$(tail -n 5 /tmp/rt-app.log)"
	fi
}

echo "1..7"
run eevdf_all_cpus "" 6
run eevdf_one_cpu 3 2
say "loading scx_gearbox"
scx_gearbox --profile /opt/gb/vm4.json >/tmp/gb.log 2>&1 &
pid=$!
if wait_state enabled; then ok "scx_gearbox_loads"
else not_ok "scx_gearbox_loads" "state $(state)" "$(sed 's/^/  /' /tmp/gb.log)"; exit 1; fi
run scx_gearbox_all_cpus "" 6
run scx_gearbox_one_cpu 3 2
if [ "$(state)" = enabled ] && kill -0 $pid; then ok "scx_gearbox_stays_loaded_through_both_runs"
else not_ok "scx_gearbox_stays_loaded_through_both_runs" "state $(state)" "$(tail -n 5 /tmp/gb.log)"; fi
kill -INT $pid
wait $pid
rc=$?
if [ $rc = 0 ]; then ok "scx_gearbox_stops_on_sigint_with_0"
else not_ok "scx_gearbox_stops_on_sigint_with_0" "status $rc" "$(tail -n 5 /tmp/gb.log)"; fi
exit $fail
