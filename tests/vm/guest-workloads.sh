# tests/vm/guest-workloads.sh - runs in the VM: standard workload tools under scx_fifo, as TAP.
# Whether they run at all under a sched_ext scheduler; their figures are informational.
echo "1..5"
scx_fifo >/tmp/fifo.log 2>&1 &
fifo=$!
i=0
while [ "$(cat /sys/kernel/sched_ext/state)" != enabled ] && [ $i -lt 500 ]; do
	i=$((i + 1)); sleep 0.02
done
if [ "$(cat /sys/kernel/sched_ext/state)" = enabled ]; then echo "ok 1 - scx_fifo_is_loaded"
else echo "not ok 1 - scx_fifo_is_loaded"; cat /tmp/fifo.log | sed 's/^/# /'; fi
if out=$(timeout 60 hackbench -g 4 -l 100 2>&1); then
	echo "ok 2 - hackbench_4_groups_completes_under_scx_fifo: $(echo "$out" | grep Time)"
else echo "not ok 2 - hackbench_4_groups_completes_under_scx_fifo"; echo "$out" | sed 's/^/# /'; fi
# SCHED_FIFO wakeups beside a sched_ext CPU hog on every CPU.  Under single-threaded TCG the
# figures mostly measure the emulator's round-robin over the vCPUs, not the scheduler.
hogs=
for c in $(seq 0 $(($(nproc) - 1))); do
	taskset -c "$c" sh -c 'while :; do :; done' &
	hogs="$hogs $!"
done
if out=$(timeout 60 cyclictest -q -m -t1 -p80 -i1000 -l300 2>&1) && echo "$out" | grep -q 'Max:'; then
	echo "ok 3 - cyclictest_rt_wakeups_beside_scx_hogs: $(echo "$out" | grep -o 'Min:.*')"
else echo "not ok 3 - cyclictest_rt_wakeups_beside_scx_hogs"; echo "$out" | sed 's/^/# /'; fi
# shellcheck disable=SC2086
kill $hogs
if out=$(timeout 60 stress-ng --cpu "$(nproc)" --fork 2 --timeout 3 --metrics-brief 2>&1); then
	echo "ok 4 - stress_ng_cpu_and_fork_complete_under_scx_fifo"
else echo "not ok 4 - stress_ng_cpu_and_fork_complete_under_scx_fifo"; echo "$out" | tail -5 | sed 's/^/# /'; fi
echo "$out" | sed 's/^/stress-ng: /' >&2
# every tool above ran under the scheduler, not beside an ejected one
if [ "$(cat /sys/kernel/sched_ext/state)" = enabled ] && kill -0 "$fifo"; then
	echo "ok 5 - scx_fifo_stayed_loaded_through_all_workloads"
else echo "not ok 5 - scx_fifo_stayed_loaded_through_all_workloads"; sed 's/^/# /' /tmp/fifo.log; fi
kill -INT "$fifo"; wait "$fifo"
exit 0
