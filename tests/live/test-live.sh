#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/live/test-live.sh - the whole chain, live: profile a simulated SoC, boot the sched_ext
# VM with that SoC's CPU count, load scx_gearbox with the measured model, run the demo workload
# with rt-app in the guest, and watch it in `gearbox top` on the host (in tmux), connected to the
# guest's stream through a qemu serial socket and recording it.  Then the recording replays to
# the same screen.
#   test-live.sh GEARBOX SCX_GEARBOX RELAY GUEST_SCRIPT VM_RUN VM_ARGS...
set -u
gearbox=$1 scx=$2 relay=$3 guest=$4 vm_run=$5
shift 5
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=/dev/null
. "$top/scripts/lib/deps.sh"
command -v tmux >/dev/null || gb_apt_install tmux
command -v rt-app >/dev/null || gb_apt_install rt-app

work=$(mktemp -d)
tsock=$work/tmux vm_pid=
cleanup() {
	tmux -S "$tsock" kill-server 2>/dev/null
	[ -n "$vm_pid" ] && kill "$vm_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
n=0 failed=0
pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
	n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"
	[ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/# /'
}
capture() { tmux -S "$tsock" capture-pane -p -t gb 2>/dev/null; }
# until_re REGEX TRIES: polls the pane 0.2 s apart
until_re() {
	local i
	for ((i = 0; i < $2; i++)); do
		capture | grep -qE -- "$1" && return 0
		sleep 0.2
	done
	return 1
}
body() { capture | sed -n '3,36p'; }  # the screen without header and status rows

# 1. profile a simulated SoC shaped like the VM: tests/sched/vm4.json, 4 CPUs in three domains
#    (2 little, 1 mid, 1 big); the x86 guest's CPUs are symmetric, the model maps onto them
model=$work/model.json
if "$gearbox" profile --sim "$top/tests/sched/vm4.json" -o "$model" --quiet >/dev/null 2>&1
then pass profile_writes_a_model; else fail profile_writes_a_model; fi
ncpu=$("$gearbox" em show "$model" | grep -oE '[0-9]+ CPUs' | head -n 1 | grep -oE '[0-9]+')
# 2. the demo workload, shortened; rt-app calibrates in the guest
sed -e 's/"duration": [0-9]*/"duration": 6/' -e 's/"calibration": "CPU[0-9]*"/"calibration": "CPU0"/' \
	"$top/workloads/demo-mobile.json" >"$work/workload.json"

# 3. gearbox top first: qemu waits for it on the socket before the guest starts
live=$work/live.sock rec=$work/live.ndjson
tmux -S "$tsock" -f /dev/null new-session -d -s gb -x 120 -y 40 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 $gearbox top --connect $live --record $rec; sleep 600"
"$vm_run" "$@" --smp "${ncpu:-8}" --timeout 420 --name live --serial-socket "$live" \
	--add "$scx" --add "$relay" --add "$model" --add "$work/workload.json" --add-bin rt-app \
	-- "$guest" >"$work/vm.out" 2>&1 &
vm_pid=$!
if until_re "cpus 0-1" 1500 && until_re "cpus 3 " 10; then
	pass top_shows_the_guests_domains_live
else
	fail top_shows_the_guests_domains_live "$(capture)"
fi
words='capacity misfit|power misfit|cheaper (OPP|CPU)|over-utilized|idle pull|affinity: |new task|load balance'
if until_re "$words" 1500; then
	pass top_shows_a_decision_with_its_reason
else
	fail top_shows_a_decision_with_its_reason "$(capture)"
fi
wait "$vm_pid"
vm_rc=$?
vm_pid=
grep -E '^(not )?ok ' "$work/vm.out" | sed 's/^/# guest: /'
if [ $vm_rc = 0 ]; then pass guest_chain_passes; else fail guest_chain_passes "$(tail -n 30 "$work/vm.out")"; fi
until_re "closed the stream|scheduler gone" 100
live_screen=$(body)
capture | sed 's/^/# live screen| /'  # the screen as the run ended (docs/tui.md shows one)
tmux -S "$tsock" send-keys -t gb q
sleep 0.5
tmux -S "$tsock" kill-server 2>/dev/null
sleep 0.3
tmux -S "$tsock" -f /dev/null new-session -d -s gb -x 120 -y 40 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 $gearbox top --replay $rec --speed max; sleep 600"
until_re "END" 300 >/dev/null
sleep 0.5
replay_screen=$(body)
if [ -s "$rec" ] && [ "$live_screen" = "$replay_screen" ] &&
	grep -qE "$words" <<<"$replay_screen"; then
	pass recording_replays_to_the_same_screen
else
	fail recording_replays_to_the_same_screen "$(diff <(echo "$live_screen") <(echo "$replay_screen") | head -n 30)"
fi
echo "1..$n"
[ $failed = 0 ]
