#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# capture_docs.sh GEARBOX - prints the screen captures used in docs/tui.md (100x30 tmux panes
# of the generated fixtures), so that the documentation can be regenerated after UI changes:
#   tests/tui/capture_docs.sh build/src/cli/gearbox > /tmp/captures.txt
set -u
gearbox=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'tmux -S "$work/tmux" kill-server 2>/dev/null; rm -rf "$work"' EXIT
python3 "$here/gen_traces.py" "$work"

shot() {  # shot TITLE W H "ARGS" KEYS...
	local title=$1 w=$2 h=$3 args=$4 i
	shift 4
	tmux -S "$work/tmux" kill-server 2>/dev/null
	sleep 0.2
	tmux -S "$work/tmux" -f /dev/null new-session -d -s gb -x "$w" -y "$h" \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 $gearbox top $args; sleep 600"
	for ((i = 0; i < 100; i++)); do
		tmux -S "$work/tmux" capture-pane -p -t gb | grep -qE 'END|PAUSED|waiting for scx' && break
		sleep 0.1
	done
	for k in "$@"; do
		tmux -S "$work/tmux" send-keys -t gb "$k"
		sleep 0.3
	done
	sleep 0.5
	printf '### %s\n\n```\n' "$title"
	tmux -S "$work/tmux" capture-pane -p -t gb | sed 's/[[:space:]]*$//'
	printf '```\n\n'
}
tr=$work/sm8250.ndjson
shot "Domains view (sm8250 replay, 100x30)" 100 30 "--replay $tr --speed max"
shot "Decisions view, filtered by reason (/misfit)" 100 30 "--replay $tr --speed max" Tab / m i s f i t Enter
shot "Tasks view" 100 30 "--replay $tr --speed max" Tab Tab
shot "Help" 100 30 "--replay $tr --speed max" '?'
shot "Paused replay after seven steps (space x7)" 100 30 "--replay $tr --paused" Space Space Space Space Space Space Space
shot "64 domains, 256 CPUs: compact bars (100x30)" 100 30 "--replay $work/many.ndjson --speed max"
shot "Truncated trace: the error line" 100 30 "--replay $work/truncated.ndjson --speed max"
shot "Wide terminal (160x36): blocks side by side" 160 36 "--replay $tr --speed max"
shot "Live socket (the default path), no scheduler yet" 100 24 ""
