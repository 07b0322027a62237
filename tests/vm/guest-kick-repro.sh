# tests/vm/guest-kick-repro.sh - runs in the VM: the kernel's CPU hotplug bug on the smallest
# scheduler, as TAP.  /opt/gb holds scx_fifo, gb-irqwork and stress-ng (with its libraries).
#   guest-kick-repro.sh ROUNDS
# scx_fifo --kick kicks the task's CPU at every enqueue and stays loaded across hotplug.  Under
# load (stress-ng, 6 workers at 70%), each round takes every CPU but the boot CPU offline and
# back online, one at a time, and looks for an irq_work queued on a CPU in 4 snapshots over
# 1.5 s (gb-irqwork).  Passes when one is found (the kernel has the bug: a kick queued by a CPU
# after its last flush before going offline, still queued after it is back), fails when none
# is in ROUNDS rounds: then the kernel may have been fixed (docs/scheduler.md, "CPU hotplug").
rounds=${1:-10}
state() { cat /sys/kernel/sched_ext/state; }
echo "1..1"
scx_fifo --kick >/tmp/fifo.log 2>&1 &
pid=$!
i=0; while [ "$(state)" != enabled ] && [ $i -lt 3000 ]; do i=$((i + 1)); sleep 0.1; done
stress-ng -c 6 --cpu-load 70 >/dev/null 2>&1 &
load=$!
cpus=
for f in /sys/devices/system/cpu/cpu*/online; do
	c=${f#/sys/devices/system/cpu/cpu}; cpus="${c%/online} $cpus"
done
found='' r=0
while [ -z "$found" ] && [ $r -lt "$rounds" ]; do
	r=$((r + 1))
	for c in $cpus; do
		echo 0 >"/sys/devices/system/cpu/cpu$c/online"
		echo 1 >"/sys/devices/system/cpu/cpu$c/online"
		if stuck=$(gb-irqwork 4 500); then continue; fi
		found="round $r, after cpu$c: $stuck"
		break
	done
done
st=$(state)
kill $load; wait $load
kill -INT $pid; wait $pid
if [ -n "$found" ]; then
	echo "ok 1 - a kick from a CPU going offline stays queued after it is back ($found; state $st)"
	exit 0
fi
echo "not ok 1 - no irq_work stayed queued in $r rounds (state $st): the kernel may be fixed"
sed 's/^/# /' /tmp/fifo.log
exit 1
