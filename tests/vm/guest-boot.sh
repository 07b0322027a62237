# tests/vm/guest-boot.sh - runs in the VM: the harness itself and our FIFO scheduler, as TAP.
#   guest-boot.sh NR_CPUS
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
t() { name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
wait_state() { i=0; while [ "$(cat /sys/kernel/sched_ext/state)" != "$1" ]; do
	i=$((i + 1)); [ $i -gt 500 ] && return 1; sleep 0.02; done; }

echo "1..6"
t "guest_sees_the_requested_cpu_count" [ "$(nproc)" = "$1" ]
t "kernel_has_sched_ext_and_no_scheduler_loaded" [ "$(cat /sys/kernel/sched_ext/state)" = disabled ]
scx_fifo >/tmp/fifo.log 2>&1 &
pid=$!
if wait_state enabled; then ok "scx_fifo_loads_and_sched_ext_is_enabled"
else not_ok "scx_fifo_loads_and_sched_ext_is_enabled" "$(cat /tmp/fifo.log)"; fi
t "root_ops_reports_gb_fifo" [ "$(cat /sys/kernel/sched_ext/root/ops 2>/dev/null)" = gb_fifo ]
# Work gets done under it: a shell loop in 4 processes finishes.
for i in 1 2 3 4; do (j=0; while [ $j -lt 2000 ]; do j=$((j + 1)); done) & done
wait_jobs() { for p in $(jobs -p); do [ "$p" = "$pid" ] || wait "$p"; done; }
wait_jobs
t "four_busy_processes_finish_under_scx_fifo" [ "$(cat /sys/kernel/sched_ext/state)" = enabled ]
kill -INT "$pid"; wait "$pid"; st=$?
if wait_state disabled && [ "$st" = 0 ]; then ok "sigint_unloads_scx_fifo_and_it_exits_0"
else not_ok "sigint_unloads_scx_fifo_and_it_exits_0" "exit status $st" "$(cat /tmp/fifo.log)"; fi
exit $fail
