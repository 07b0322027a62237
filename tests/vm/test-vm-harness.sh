#!/bin/sh
# tests/vm/test-vm-harness.sh VM-RUN VM-RUN-ARGS... - the harness's failure paths, as TAP:
# a guest that never ends is killed at --timeout with "Bail out!" and the log's tail, and a
# guest script's exit status comes back as vm-run's.
vm_run=$1; shift
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
echo "1..2"
printf 'echo "going to sleep" >&2\nsleep 1000\n' >"$dir/hang.sh"
out=$("$vm_run" "$@" --name harness-hang --timeout 10 -- "$dir/hang.sh"); st=$?
# the tail shows the boot (how far it got depends on the host's load): SeaBIOS comes first
if [ "$st" = 1 ] && printf '%s' "$out" | grep -q 'Bail out! guest still running after 10 s' &&
	printf '%s' "$out" | grep -q '^# .*SeaBIOS'; then
	echo "ok 1 - hung_guest_is_killed_at_the_timeout_with_the_log_tail"
else
	echo "not ok 1 - hung_guest_is_killed_at_the_timeout_with_the_log_tail (status $st)"
	printf '%s\n' "$out" | sed 's/^/# /'
fi
printf 'echo hello\nexit 3\n' >"$dir/three.sh"
out=$("$vm_run" "$@" --name harness-status -- "$dir/three.sh"); st=$?
if [ "$st" = 3 ] && printf '%s' "$out" | grep -qx 'hello'; then
	echo "ok 2 - guest_exit_status_and_stdout_come_back_through_isa_debug_exit"
else
	echo "not ok 2 - guest_exit_status_and_stdout_come_back_through_isa_debug_exit (status $st)"
	printf '%s\n' "$out" | sed 's/^/# /'
fi
