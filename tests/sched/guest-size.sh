# tests/sched/guest-size.sh - runs in the VM (tests/vm/vm-run): scx_gearbox loads and runs at
# every size the object is built for, as TAP.  /opt/gb holds scx_gearbox, gb-sched-probe,
# gb-bpf-stats, vm8.json (8 CPUs in 4 domains of 2, loaded with --force on this 4-CPU guest:
# the verifier checks the model's loops, not the machine), vm16.json (16 CPUs in 8 domains) and
# vm64.json (64 CPUs in 32 domains, the largest model the object is built for).  Figures as
# "# size ..." lines: the verifier's instructions per program (--verbose), the seconds from
# start to sched_ext enabled, and BPF run time per call of each callback under a short load
# (gb-bpf-stats, with kernel.bpf_stats_enabled); under TCG the times are the emulator's.
#   guest-size.sh
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
state() { cat /sys/kernel/sched_ext/state; }
log() { sed 's/^/# /' /tmp/gb.log; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }
sock=/tmp/gb.sock
jobs_bg=
bg() { "$@" >/dev/null 2>&1 & jobs_bg="$jobs_bg $!"; }
waitbg() { for j in $jobs_bg; do wait "$j"; done; jobs_bg=; }

# start MODEL [ARGS]: scx_gearbox until sched_ext is enabled or it exits; the figures printed
start() {
	model=$1; shift
	t0=$(uptime_s)
	scx_gearbox --profile /opt/gb/$model.json --socket $sock --verbose "$@" >/tmp/gb.log 2>&1 &
	pid=$!
	while [ "$(state)" != enabled ] && kill -0 $pid 2>/dev/null; do sleep 0.05; done
	echo "# size $model $(state) after $(echo "$t0 $(uptime_s)" | awk '{ printf "%.1f", $2 - $1 }') s"
	sed -n 's/^scx_gearbox: verifier: \([a-z_]*\): processed \([0-9+]*\).*/\1 \2/p' /tmp/gb.log |
		awk -v m="$model" '{ k = split($2, a, "+"); s = 0; for (i = 1; i <= k; i++) s += a[i]
			print "# size " m " verifier " $1 " " s " insns" }'
}

# under_load MODEL: a short load (duty-cycle tasks and pipes) under the loaded scheduler, with
# each callback's BPF run time per call; the load's exit status
under_load() {
	echo 1 >/proc/sys/kernel/bpf_stats_enabled
	gb-bpf-stats >/tmp/bpf0
	for i in 1 2 3 4; do bg gb-sched-probe duty 1000; done
	gb-sched-probe pipes 4 2000; rc=$?
	waitbg
	gb-bpf-stats >/tmp/bpf1
	echo 0 >/proc/sys/kernel/bpf_stats_enabled
	awk -v m="$1" 'NR == FNR { t[$2] = $3; c[$2] = $4; next }
		$4 > c[$2] { printf "# size %s ns_per_call %s %d (%d calls)\n", m, $2, ($3 - t[$2]) / ($4 - c[$2]), $4 - c[$2] }' /tmp/bpf0 /tmp/bpf1
	return $rc
}

echo "1..6"
start vm8 --force
if [ "$(state)" = enabled ] && grep -q "verifier: gearbox_dispatch: processed" /tmp/gb.log; then
	ok "vm8_8_cpus_in_4_domains_loads"
else not_ok "vm8_8_cpus_in_4_domains_loads" "state $(state)" "$(log)"; fi
under_load vm8
kill -INT $pid; wait $pid; st=$?
while [ "$(state)" != disabled ]; do sleep 0.05; done
if [ "$st" = 0 ]; then ok "vm8_sigint_detaches_and_exits_0"
else not_ok "vm8_sigint_detaches_and_exits_0" "status $st" "$(log)"; fi

# 16 CPUs in 8 domains
start vm16 --force
if [ "$(state)" = enabled ] && grep -q "verifier: gearbox_select_cpu: processed" /tmp/gb.log; then
	ok "vm16_16_cpus_in_8_domains_loads"
else not_ok "vm16_16_cpus_in_8_domains_loads" "state $(state)" "$(log)"; fi
kill -INT $pid; wait $pid
while [ "$(state)" != disabled ]; do sleep 0.05; done

# wake-up preemption off: the default (latency) has the verifier follow its paths in enqueue
# and dispatch (and gb_preempt_pick); off, the knob being read-only data, it follows none
echo "# size vm8 with --wake-preempt off:"
start vm8 --force --wake-preempt off
if [ "$(state)" = enabled ] && grep -q "verifier: gearbox_enqueue: processed" /tmp/gb.log; then
	ok "vm8_loads_with_wake_preempt_off"
else not_ok "vm8_loads_with_wake_preempt_off" "state $(state)" "$(log)"; fi
kill -INT $pid; wait $pid
while [ "$(state)" != disabled ]; do sleep 0.05; done

# 64 CPUs in 32 domains, the object's bounds: the verifier checks the policy's loops as
# iterators, whatever the model's size (docs/scheduler.md).  It loads, and work runs under it
# (the guest's 4 CPUs are the model's first 4: 2 little domains of 2) until SIGINT detaches it.
start vm64 --force
if [ "$(state)" = enabled ] && grep -q "verifier: gearbox_select_cpu: processed" /tmp/gb.log; then
	ok "vm64_64_cpus_in_32_domains_loads"
else not_ok "vm64_64_cpus_in_32_domains_loads" "state $(state)" "$(log)"; fi
under_load vm64; lst=$?
still=$(state)
kill -INT $pid; wait $pid; st=$?
while [ "$(state)" != disabled ]; do sleep 0.05; done
if [ "$lst" = 0 ] && [ "$still" = enabled ] && [ "$st" = 0 ]; then
	ok "vm64_runs_a_load_and_sigint_detaches"
else not_ok "vm64_runs_a_load_and_sigint_detaches" "load status $lst, state after it $still, exit status $st" "$(log)"; fi
exit $fail
