# tests/vm/guest-check.sh - runs in the VM: `gearbox check` on one scheduler, as TAP.
#   guest-check.sh LABEL KNOWN-FAILURES SCHEDULER-COMMAND [ARGS]
# KNOWN-FAILURES: comma-separated checks this scheduler is known to fail (findings documented in
# docs/testing.md).  Such a failure is reported as "ok ... # SKIP known finding: FAIL ..." (the
# FAIL and its detail stay visible) so that it does not fail the suite, while any other check
# failing does.  "-" for none.
# An optional "--only LIST" after KNOWN-FAILURES runs only those checks (the others are
# reported as skipped): for a check that hangs a scheduler's guest, until that is fixed.
# An optional "--attach-timeout S" (after --only, if both) is passed to gearbox check: for a
# scheduler whose BPF verification alone takes seconds under the emulator.
# An optional "--hang-after S" (last of the options): gearbox check still running after S
# seconds is hung (a wedged CPU hotplug, a disable that never completes).  The guest then says
# where, before the VM's own timeout would cut it short with nothing but the console's tail: a
# "not ok" naming the last check that ended, the tasks in state D, the irq_work left queued on
# each CPU (gb-irqwork, when it is in /opt/gb), the scheduler's log and sched_ext's state, and
# sysrq-w (blocked tasks) and sysrq-l (every CPU's backtrace) on the console.
# gearbox check's lines go to the console as each check ends, so a hung guest shows how far
# it got there too.
label=$1 known=$2; shift 2
only='' opts='' hang_after=''
if [ "${1:-}" = --only ]; then only=$2; shift 2; fi
if [ "${1:-}" = --attach-timeout ]; then opts="--attach-timeout $2"; shift 2; fi
if [ "${1:-}" = --hang-after ]; then hang_after=$2; shift 2; fi
if [ -n "$only" ]; then opts="$opts --only $only"; fi
# shellcheck disable=SC2086
gearbox-check --sched-log /tmp/sched.log $opts -- "$@" >/tmp/check.out 2>/tmp/check.err &
pid=$! shown=0 start=$(date +%s)
# show_new: gearbox check's lines that have not gone to the console yet
show_new() {
	lines=$(wc -l </tmp/check.out)
	if [ "$lines" -gt "$shown" ]; then
		sed -n "$((shown + 1)),${lines}p" /tmp/check.out >&2
		shown=$lines
	fi
}
# the limit is wall-clock time: on a loaded host each round of this loop takes longer than its
# sleep, and counting rounds would let the VM's own limit come first
while kill -0 $pid 2>/dev/null; do
	sleep 1
	show_new
	if [ -n "$hang_after" ] && [ $(($(date +%s) - start)) -ge "$hang_after" ]; then
		last=$(awk '$1 == "pass" || $1 == "FAIL" || $1 == "skip" { n = $2 } END { print n }' \
			/tmp/check.out)
		echo "not ok 1 - $label: gearbox check still running after $hang_after s," \
			"in the check after '${last:-none}' (gearbox check's order)"
		sed 's/^/# /' /tmp/check.out
		echo "# sched_ext state: $(cat /sys/kernel/sched_ext/state 2>&1)"
		for s in /proc/[0-9]*/stat; do
			read -r line <"$s" 2>/dev/null || continue
			case $line in *") D "*) echo "# D: $line" | cut -c 1-120 ;; esac
		done
		if command -v gb-irqwork >/dev/null; then
			echo "# irq_work left queued (gb-irqwork 3 500):"
			timeout 20 gb-irqwork 3 500 | sed 's/^/#   /'
		fi
		echo "# scheduler log (tail):"
		tail -n 20 /tmp/sched.log | sed 's/^/#   /'
		echo 8 >/proc/sys/kernel/printk
		echo w >/proc/sysrq-trigger
		echo l >/proc/sysrq-trigger
		echo "1..1"
		# the check may be stuck in the kernel for good: no waiting for it
		exit 1
	fi
done
wait $pid
rc=$?
show_new
awk -v label="$label" -v known=",$known," -v rc="$rc" '
	$1 == "pass" || $1 == "FAIL" || $1 == "skip" {
		name = $2; detail = $0; sub(/^[^ ]+ +[^ ]+ +/, "", detail)
		n++
		if ($1 == "pass") print "ok " n " - " label ": " name ": " detail
		else if ($1 == "skip") print "ok " n " - " label ": " name " # SKIP " detail
		else if (index(known, "," name ",")) print "ok " n " - " label ": " name " # SKIP known finding: FAIL " detail
		else print "not ok " n " - " label ": " name ": " detail
		if ($1 == "FAIL") any_fail = 1
	}
	/^gearbox check: / { summary = $0 }
	END {
		n++
		if (summary == "") print "not ok " n " - " label ": gearbox check printed no summary (status " rc ")"
		else if ((rc != 0) != (any_fail == 1))
			print "not ok " n " - " label ": exit status " rc " disagrees with the results"
		else print "ok " n " - " label ": exit status " rc " matches the results; " summary
		print "1.." n
	}' /tmp/check.out
if [ -s /tmp/check.err ]; then sed 's/^/# stderr: /' /tmp/check.err; fi
echo "--- scheduler log (tail) ---" >&2
tail -n 20 /tmp/sched.log >&2
exit 0
