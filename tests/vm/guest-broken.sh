# tests/vm/guest-broken.sh - runs in the VM: `gearbox check` must catch a scheduler that starves
# some tasks (scx_fifo --park-every 3 parks every 3rd workload process forever), as TAP.
echo "1..2"
gearbox-check --only starvation --sched-log /tmp/sched.log -- scx_fifo --park-every 3 \
	>/tmp/check.out 2>&1
rc=$?
cat /tmp/check.out >&2
tail -n 5 /tmp/sched.log >&2
if grep -q '^FAIL  starvation .*made no progress' /tmp/check.out; then
	echo "ok 1 - starvation_check_fails_for_a_scheduler_that_parks_tasks: $(grep '^FAIL  starvation' /tmp/check.out)"
else
	echo "not ok 1 - starvation_check_fails_for_a_scheduler_that_parks_tasks"
	sed 's/^/# /' /tmp/check.out
fi
if [ "$rc" = 1 ]; then echo "ok 2 - gearbox_check_exits_1_when_a_check_fails"
else echo "not ok 2 - gearbox_check_exits_1_when_a_check_fails # status $rc"; fi
exit 0
