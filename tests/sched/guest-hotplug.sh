# tests/sched/guest-hotplug.sh - runs in the VM (tests/vm/vm-run): CPU hotplug across reloads of
# scx_gearbox, as TAP.  /opt/gb holds scx_gearbox, gb-irqwork, vm4.json and stress-ng (with its
# libraries).
#   guest-hotplug.sh ROUNDS
# Under a CPU load that stays on throughout (stress-ng, 6 workers at 70%), each round starts
# scx_gearbox, takes every CPU that can go offline offline and back online, one at a time from
# the highest, and stops scx_gearbox with SIGINT.  A round passes when the scheduler attached,
# every hotplug step finished within its bound with the scheduler still enabled, no irq_work
# stayed queued on a CPU afterwards (gb-irqwork: the same entry in 4 snapshots over 1.5 s; a
# kick queued by a CPU after its last flush before going offline stays queued when it is back,
# with every irq_work queued there after it, see docs/scheduler.md), and SIGINT detached it
# (exit status 0, state `disabled`).  A step that does not finish is a wedge: the tasks in
# state D go to the TAP output, sysrq-w to the console, and the run stops there (the guest
# cannot be trusted to do more).
rounds=${1:-3}
step_limit_s=60        # one offline or online step (a few seconds under TCG with the load)
attach_limit_s=300     # loading takes 1.5-4 s under TCG, many times that on a loaded host
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
state() { cat /sys/kernel/sched_ext/state; }
# wait_state STATE SECONDS
wait_state() { i=0; while [ "$(state)" != "$1" ]; do
	i=$((i + 1)); [ $i -gt $(($2 * 10)) ] && return 1; sleep 0.1; done; }
log() { sed 's/^/# /' /tmp/gb.log; }
dstate() {
	for s in /proc/[0-9]*/stat; do
		read -r line <"$s" 2>/dev/null || continue
		case $line in *") D "*) echo "D: $line" | cut -c 1-120 ;; esac
	done
}
wedged() {
	not_ok "$1" "$2" "$(dstate)" "$(log)"
	echo "# irq_work left queued (gb-irqwork 3 500):"
	timeout 20 gb-irqwork 3 500 | sed 's/^/#   /'
	echo w >/proc/sysrq-trigger
	echo "1..$n"
	exit 1
}
# hotplug CPU 0|1: 0 done, 1 refused, 2 still running after step_limit_s
hotplug() {
	echo "$2" >"/sys/devices/system/cpu/cpu$1/online" 2>/dev/null &
	hp=$! i=0
	while kill -0 $hp 2>/dev/null; do
		i=$((i + 1)); [ $i -gt $((step_limit_s * 10)) ] && return 2; sleep 0.1
	done
	wait $hp || return 1
}

cpus=
for f in /sys/devices/system/cpu/cpu*/online; do
	c=${f#/sys/devices/system/cpu/cpu}; cpus="${c%/online} $cpus"
done
# shellcheck disable=SC2086
cpus=$(echo $cpus | tr ' ' '\n' | sort -rn | tr '\n' ' ')
echo "# CPUs that can go offline: $cpus"
stress-ng -c 6 --cpu-load 70 >/dev/null 2>&1 &
load=$!

r=0
while [ $r -lt "$rounds" ]; do
	r=$((r + 1))
	t0=$(date +%s)
	scx_gearbox --profile /opt/gb/vm4.json --socket /tmp/gb.sock >/tmp/gb.log 2>&1 &
	pid=$!
	if ! wait_state enabled $attach_limit_s; then
		not_ok "round_$r: scx_gearbox attaches" "state $(state)" "$(log)"
		kill -INT $pid 2>/dev/null; wait $pid
		break
	fi
	t1=$(date +%s)
	for c in $cpus; do
		for v in 0 1; do
			hotplug "$c" $v; st=$?
			[ $st = 2 ] && wedged "round_$r: cpu$c online=$v" \
				"still running after $step_limit_s s, state $(state)"
			if [ $st != 0 ] || [ "$(state)" != enabled ]; then
				not_ok "round_$r: cpu$c online=$v" "status $st, state $(state)" "$(log)"
				break 3
			fi
		done
	done
	t2=$(date +%s)
	stuck=$(gb-irqwork 4 500); st=$?
	if [ $st != 0 ]; then
		not_ok "round_$r: no irq_work stays queued after hotplug" "gb-irqwork status $st: $stuck"
		kill -INT $pid; wait $pid
		break
	fi
	kill -INT $pid
	i=0
	while kill -0 $pid 2>/dev/null; do
		i=$((i + 1)); [ $i -gt $((step_limit_s * 10)) ] &&
			wedged "round_$r: SIGINT detaches" "scx_gearbox still running after $step_limit_s s"
		sleep 0.1
	done
	wait $pid; st=$?
	# kicks not sent from a CPU that was going offline (bpf/gearbox.bpf.c, gb_may_kick)
	nokick=$(grep -o ' nokick [0-9]*' /tmp/gb.log | tail -n 1)
	if [ "$st" = 0 ] && wait_state disabled 10; then
		ok "round_$r: attach $((t1 - t0)) s, cpus ${cpus% } off and on in $((t2 - t1)) s, SIGINT detaches;$nokick"
	else
		not_ok "round_$r: SIGINT detaches" "status $st, state $(state)" "$(log)"
		break
	fi
done
kill $load; wait $load
online=$(cat /sys/devices/system/cpu/online)
if [ "$fail" = 0 ] && [ "$(state)" = disabled ] && [ "$online" = "$(cat /sys/devices/system/cpu/present)" ]; then
	ok "every CPU online ($online) and the default scheduler back after $r rounds"
else not_ok "every CPU online and the default scheduler back" "online $online, state $(state)"; fi
echo "1..$n"
exit $fail
