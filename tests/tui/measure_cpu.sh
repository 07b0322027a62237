#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# measure_cpu.sh GEARBOX [SECONDS] - what `gearbox top` costs: replays a 100 Hz sm8250-like trace
# at speed 1 in a 100x30 tmux pane at the default 4 Hz refresh and prints the CPU it used
# (utime + stime from /proc) as a percentage of one CPU over SECONDS (default 20).  A tool for
# bench/ and docs/tui.md, not a test: its number depends on the machine and the build.
set -eu
gearbox=$(realpath "$1") secs=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'tmux -S "$work/tmux" kill-server 2>/dev/null; rm -rf "$work"' EXIT
python3 "$here/gen_traces.py" "$work" --long $((secs + 10))
tmux -S "$work/tmux" -f /dev/null new-session -d -s gb -x 100 -y 30 \
	"exec $gearbox top --replay $work/long.ndjson"
sleep 2
pid=$(tmux -S "$work/tmux" display-message -p -t gb '#{pane_pid}')
hz=$(getconf CLK_TCK)
a=$(awk '{print $14 + $15}' "/proc/$pid/stat")
sleep "$secs"
b=$(awk '{print $14 + $15}' "/proc/$pid/stat")
awk -v a="$a" -v b="$b" -v hz="$hz" -v s="$secs" \
	'BEGIN { printf "gearbox top: %.2f s CPU in %d s = %.2f%% of one CPU at 4 Hz on a 100 Hz trace\n", (b - a) / hz, s, 100 * (b - a) / hz / s }'
