#!/bin/bash
# tests/vm/test-check-cli.sh GEARBOX-CHECK - what `gearbox check` does without a VM: usage
# errors, a kernel without sched_ext (this host) as a failed attach with valid JSON, and the
# cleanup on every way out (signals, SIGKILL) with a stand-in scheduler on a fake sched_ext.
gc=$1 n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
expect() { # NAME STATUS PATTERN CMD...
	name=$1 want=$2 pat=$3; shift 3
	out=$("$@" 2>&1); st=$?
	if [ "$st" = "$want" ] && printf '%s' "$out" | grep -q -- "$pat"; then ok "$name"
	else not_ok "$name" "status $st (want $want)" "$out"; fi
}
expect "no_scheduler_command_is_a_usage_error" 2 "no scheduler command" "$gc"
expect "bad_duration_is_rejected_with_exit_2" 2 "not a number of seconds" "$gc" --duration abc -- true
expect "unknown_check_in_only_is_rejected" 2 "unknown check 'bogus'" "$gc" --only attach,bogus -- true
expect "help_lists_every_check" 0 "latency, forkstorm, hotplug, rt, exit" "$gc" --help
if [ -e /sys/kernel/sched_ext/state ]; then
	ok "no_sched_ext_fails_attach_and_skips_the_rest # SKIP this kernel has sched_ext"
	ok "json_output_is_valid_gearbox_check_1 # SKIP this kernel has sched_ext"
else
expect "no_sched_ext_fails_attach_and_skips_the_rest" 1 \
	"FAIL  attach     this kernel has no sched_ext" "$gc" -- true
json=$("$gc" --json -- true 2>&1)
if printf '%s' "$json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["format"] == "gearbox-check/1"
names = [c["name"] for c in d["checks"]]
assert names == ["attach", "starvation", "affinity", "weights", "latency", "forkstorm",
                 "hotplug", "rt", "exit"], names
assert d["checks"][0]["status"] == "fail"
assert all(c["status"] == "skip" for c in d["checks"][1:])
assert d["summary"] == {"passed": 0, "failed": 1, "skipped": 8}, d["summary"]
assert d["scheduler"]["command"] == ["true"]
' 2>/tmp/check-json.err; then ok "json_output_is_valid_gearbox_check_1"
else not_ok "json_output_is_valid_gearbox_check_1" "$json" "$(cat /tmp/check-json.err)"; fi
fi

# --- cleanup on every exit path: a stand-in scheduler on a fake sched_ext -------------------
# In a private mount namespace: a directory of ours over /sys/kernel/sched_ext (state, root/ops)
# and one over /proc with sys/kernel/sysrq (176, a common default) and sysrq-trigger.  The
# stand-in "scheduler" writes enabled and, on SIGINT or SIGTERM, disabled; a fake kernel (a loop
# of this script, outside the namespace) disables it when its process is gone or a zombie (the
# BPF link dies with the process) or when S is written to sysrq-trigger.  The checks' load runs
# under the host's fair class.
CLEANUP_TESTS="exit_check_restores_sysrq sigterm_stops_load_and_scheduler
sigint_to_the_checks_group_stops_the_scheduler sigterm_during_sysrq_wait_restores_sysrq
sigkill_takes_load_and_scheduler_with_it"
if ! unshare -m true 2>/dev/null; then
	for t in $CLEANUP_TESTS; do ok "$t # SKIP cannot create a mount namespace (unshare -m)"; done
	echo "1..$n"
	exit 0
fi
WORK=$(mktemp -d /tmp/gb-check-cli.XXXXXX)
CHECK_PID= KERNEL_PID=
trap 'kill -KILL $CHECK_PID $KERNEL_PID 2>/dev/null; umount $WORK/ns 2>/dev/null; rm -rf "$WORK"' EXIT
mkdir -p $WORK/proc/sys/kernel $WORK/scx/root
: >$WORK/ns
cat >$WORK/standin <<EOF
#!/bin/sh
echo \$\$ >$WORK/standin.pid
trap 'echo disabled >/sys/kernel/sched_ext/state; exit 0' INT TERM
echo standin >/sys/kernel/sched_ext/root/ops
echo enabled >/sys/kernel/sched_ext/state
while :; do sleep 0.05; done
EOF
cat >$WORK/run <<EOF
#!/bin/sh
# inside the namespace: the fake sysfs and procfs, then the check in a session of its own
mount --make-rprivate / && mount -t tmpfs gb-check /sys/kernel &&
mkdir /sys/kernel/sched_ext && mount --bind $WORK/scx /sys/kernel/sched_ext &&
mount --bind $WORK/proc /proc || exit 99
exec setsid "\$@"
EOF
chmod +x $WORK/standin $WORK/run
fake_kernel() {
	local pid
	while :; do
		if [ "$(cat $WORK/scx/state)" = enabled ]; then
			pid=$(cat $WORK/standin.pid 2>/dev/null)
			if [ -n "$pid" ] && { [ ! -e /proc/$pid ] ||
				[ "$(cut -d' ' -f3 /proc/$pid/stat 2>/dev/null)" = Z ]; }; then
				echo disabled >$WORK/scx/state
			elif [ -z "$IGNORE_SYSRQ" ] && grep -q S $WORK/proc/sysrq-trigger; then
				: >$WORK/proc/sysrq-trigger
				echo disabled >$WORK/scx/state
			fi
		fi
		sleep 0.02
	done
}
wait_for() { local i; for i in $(seq 1 400); do eval "$1" && return 0; sleep 0.05; done; return 1; }
start() { # IGNORE_SYSRQ CHECK-ARGS...
	local ign=$1
	shift
	echo disabled >$WORK/scx/state
	echo 176 >$WORK/proc/sys/kernel/sysrq
	: >$WORK/proc/sysrq-trigger
	rm -f $WORK/standin.pid
	IGNORE_SYSRQ=$ign fake_kernel &
	KERNEL_PID=$!
	unshare -m $WORK/run "$gc" "$@" -- $WORK/standin >$WORK/out 2>$WORK/err &
	CHECK_PID=$!
	wait_for '[ -s $WORK/standin.pid ]'
	# a handle on the check's mount namespace that outlives it, to find what it leaves
	mount --bind /proc/$CHECK_PID/ns/mnt $WORK/ns
}
finish() {
	wait $CHECK_PID 2>/dev/null   # a check SIGKILLed on purpose is not news
	rc=$?
	CHECK_PID=
	wait_for '[ -z "$(left)" ]'
	kill $KERNEL_PID
	wait $KERNEL_PID 2>/dev/null
	KERNEL_PID=
}
cleanup_ns() { umount $WORK/ns; }
# processes of the check's mount namespace (shell builtins only: this runs in tight loops)
left() {
	local p
	for p in /proc/[0-9]*; do
		[ $p/ns/mnt -ef $WORK/ns ] 2>/dev/null && echo ${p#/proc/}
	done
}
# the check's load processes (forks of it)
loads() {
	local p c
	for p in $(left); do
		[ $p != "$CHECK_PID" ] && read -r c </proc/$p/comm 2>/dev/null && [ "$c" = gearbox-check ] &&
			echo $p
	done
}
sysrq() { cat $WORK/proc/sys/kernel/sysrq; }
report() { # NAME CONDITION
	if eval "$2"; then ok "$1"; else
		not_ok "$1" "status $rc, sysrq $(sysrq), state $(cat $WORK/scx/state), left: $(left)" \
			"$(cat $WORK/out $WORK/err)"
	fi
}

# The exit check, run to its end: sysrq-S is one of its paths, kernel.sysrq is set to 1 for it
# and back to its own value afterwards.
start "" --only exit
finish
report exit_check_restores_sysrq \
	'[ $rc = 0 ] && grep -q "^pass  exit" $WORK/out && [ "$(sysrq)" = 176 -a -z "$(left)" ]'
cleanup_ns

# SIGTERM in a load phase: the load and the scheduler are stopped, then the check dies of the
# signal (143 in a shell) saying so, after the results so far.
start "" --only starvation --duration 100
wait_for '[ $(loads | wc -l) -ge 4 ]'
kill -TERM $CHECK_PID
finish
report sigterm_stops_load_and_scheduler \
	'[ $rc = 143 -a -z "$(left)" ] && [ "$(cat $WORK/scx/state)" = disabled -a "$(sysrq)" = 176 ] && grep -q "^skip  starvation interrupted by signal 15" $WORK/out && grep -q "interrupted by signal 15" $WORK/err'
cleanup_ns

# Ctrl-C: SIGINT to the check's process group, which the scheduler is not in.
start "" --only starvation --duration 100
wait_for '[ $(loads | wc -l) -ge 4 ]'
kill -INT -- -$CHECK_PID
finish
report sigint_to_the_checks_group_stops_the_scheduler \
	'[ $rc = 130 -a -z "$(left)" ] && [ "$(cat $WORK/scx/state)" = disabled ]'
cleanup_ns

# SIGTERM while the exit check waits for sysrq-S to work (this fake kernel ignores it):
# kernel.sysrq, set to 1 for it, is back to 176.
start 1 --only exit
wait_for 'grep -q S $WORK/proc/sysrq-trigger'
kill -TERM $CHECK_PID
finish
report sigterm_during_sysrq_wait_restores_sysrq '[ $rc = 143 -a "$(sysrq)" = 176 -a -z "$(left)" ]'
cleanup_ns

# SIGKILL cannot be handled: the load and the scheduler die with the check (PR_SET_PDEATHSIG).
start "" --only starvation --duration 100
wait_for '[ $(loads | wc -l) -ge 4 ]'
kill -KILL $CHECK_PID
finish
report sigkill_takes_load_and_scheduler_with_it '[ -z "$(left)" ]'
cleanup_ns
echo "1..$n"
