#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# test_top_tmux.sh GEARBOX GEN_TRACES - drives the real `gearbox top` in a detached tmux server
# of fixed size and asserts on captured panes.  Waits poll capture-pane for the expected text
# (bounded tries), so nothing here depends on how fast the machine is; a failed wait prints
# the last capture as TAP diagnostics.
set -u
gearbox=$1 gen=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v tmux >/dev/null; then
	# shellcheck source=/dev/null
	. "$top/scripts/lib/deps.sh"
	gb_apt_install tmux
fi

work=$(mktemp -d)
sock_base=$work/tmux starts=0
sock=$sock_base-0
server_pid=
cleanup() {
	tmux -S "$sock" kill-server 2>/dev/null
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
python3 "$gen" "$work" || { echo "1..0 # SKIP cannot generate traces"; exit 0; }

n=0 failed=0
pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
	n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"
	[ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/# /'
	capture | sed 's/^/#| /'
}

capture() { tmux -S "$sock" capture-pane -p -t gb 2>/dev/null; }

# start W H CMD...: a fresh tmux server running CMD in a UTF-8 locale.
start() {
	local w=$1 h=$2
	shift 2
	# A new server per start: a killed server's socket can linger while it exits, and a
	# new-session that reaches it fails with "server exited unexpectedly".
	tmux -S "$sock" kill-server 2>/dev/null
	starts=$((starts + 1))
	sock=$sock_base-$starts
	tmux -S "$sock" -f /dev/null new-session -d -s gb -x "$w" -y "$h" \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 $*; sleep 600"
	tmux -S "$sock" set-option -t gb -g window-size manual 2>/dev/null
}
keys() { tmux -S "$sock" send-keys -t gb "$@"; }
resize() { tmux -S "$sock" resize-window -t gb -x "$1" -y "$2"; }

# until_text TEXT [TRIES]: polls the pane (0.1 s apart) until a line contains TEXT (fixed string).
until_text() {
	local i
	for ((i = 0; i < ${2:-100}; i++)); do
		capture | grep -qF -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
# until_gone TEXT: polls until no line contains TEXT.
until_gone() {
	local i
	for ((i = 0; i < ${2:-100}; i++)); do
		capture | grep -qF -- "$1" || return 0
		sleep 0.1
	done
	return 1
}
# until_re REGEX: extended regex on a line.
until_re() {
	local i
	for ((i = 0; i < ${2:-100}; i++)); do
		capture | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
until_file() {
	local i
	for ((i = 0; i < ${2:-100}; i++)); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
has() { capture | grep -qF -- "$1"; }

G="$gearbox top"
tr=$work/sm8250.ndjson

# --- command line, no terminal needed ---------------------------------------------------
if out=$($gearbox top --help) && grep -q -- '--replay' <<<"$out" && grep -q -- '--socket' <<<"$out"; then
	pass help_exits_zero_and_lists_the_sources
else
	fail help_exits_zero_and_lists_the_sources "$out"
fi
err=$($gearbox top --replay "$work/none.ndjson" </dev/null 2>&1 >/dev/null); rc=$?
if [ $rc = 2 ] && grep -q "none.ndjson: No such file or directory" <<<"$err"; then
	pass missing_trace_is_bad_input_with_exit_2
else
	fail missing_trace_is_bad_input_with_exit_2 "rc=$rc err=$err"
fi
err=$($gearbox top --speed fast 2>&1); rc=$?
if [ $rc = 2 ] && grep -q -- "--speed fast" <<<"$err"; then
	pass bad_speed_is_bad_usage_with_exit_2
else
	fail bad_speed_is_bad_usage_with_exit_2 "rc=$rc err=$err"
fi
err=$($gearbox top --replay "$tr" </dev/null 2>&1 >/dev/null); rc=$?
if [ $rc = 2 ] && grep -q "needs a terminal" <<<"$err"; then
	pass no_terminal_is_refused_with_exit_2
else
	fail no_terminal_is_refused_with_exit_2 "rc=$rc err=$err"
fi

# --- a full replay ----------------------------------------------------------------------
start 100 30 "$G --replay $tr --speed max"
if until_text "END" && has "little  cpus 0-3" && has "mid     cpus 4-6" && has "big     cpus 7" &&
	has "OPP 2457600 kHz perf 891" && has "OPP 1382400 kHz perf 501  req 496" &&
	has "OPP 300000 kHz perf 48"; then
	pass replay_shows_every_domain_block_with_its_final_opp
else
	fail replay_shows_every_domain_block_with_its_final_opp
fi
if has "cpu7 " && has "] game" && has "] media" && has "energy 1.50 J" && has "power 1.02 W"; then
	pass replay_shows_cpu_bars_with_running_tasks_and_totals
else
	fail replay_shows_cpu_bars_with_running_tasks_and_totals
fi
if has "0.500s media/57" && has "-81.0 mW  power misfit: uclamp_max 300 on big" &&
	has "cheaper OPP: mid 1.4 GHz vs big 0.8 GHz" && has "future_reason_x"; then
	pass decision_log_words_the_known_decisions
else
	fail decision_log_words_the_known_decisions
fi

keys '?'
if until_text "gearbox top - keys"; then pass question_mark_opens_help; else fail question_mark_opens_help; fi
keys x
if until_gone "gearbox top - keys"; then pass any_key_closes_help; else fail any_key_closes_help; fi

keys Tab
if until_text "[Decisions]" && has "capacity misfit: util 240 > 80% of cap 286"; then
	pass tab_switches_to_the_decision_view
else
	fail tab_switches_to_the_decision_view
fi
keys / m e d i a Enter
if until_text 'filter "media": 1 of 9' && has "power misfit" && ! has "capacity misfit"; then
	pass filter_by_task_keeps_only_its_decisions
else
	fail filter_by_task_keeps_only_its_decisions
fi
keys / BSpace BSpace BSpace BSpace BSpace c a p a c i t y Enter
if until_text 'filter "capacity": 1 of 9' && has "game/70" && ! has "power misfit"; then
	pass filter_by_reason_keeps_only_that_reason
else
	fail filter_by_reason_keeps_only_that_reason
fi
keys Escape
if until_gone 'filter "' && has "power misfit" && has "capacity misfit"; then
	pass escape_clears_the_filter
else
	fail escape_clears_the_filter
fi
keys Tab
if until_text "[Tasks]" && has "PID COMM" && capture | grep -qE '^ +57 media +290 0-300 +4 mid +1'; then
	pass task_view_lists_tasks_with_uclamp_cpu_domain_migrations
else
	fail task_view_lists_tasks_with_uclamp_cpu_domain_migrations
fi
if capture | grep -A1 -E '^ +70 game' | grep -qE '^ +43 render'; then
	pass task_view_is_sorted_by_util
else
	fail task_view_is_sorted_by_util
fi
keys N
if until_text "Tasks by COMM" && capture | grep -A1 -F 'PID COMM' | grep -qE '^ +60 bg-sync'; then
	pass n_sorts_the_task_view_by_name
else
	fail n_sorts_the_task_view_by_name
fi
keys I
if until_text "Tasks by COMM (reversed)" && capture | grep -A1 -F 'PID COMM' | grep -qE '^ +42 ui'
then
	pass i_reverses_the_task_order
else
	fail i_reverses_the_task_order
fi
keys I '>'
if until_text "Tasks by PID" && capture | grep -A1 -F 'PID COMM' | grep -qE '^ +42 ui'; then
	pass greater_than_sorts_by_the_next_column
else
	fail greater_than_sorts_by_the_next_column
fi
keys U
until_text "Tasks by UTIL" >/dev/null
keys 1
until_text "[Domains]" >/dev/null

# Resizing: wide puts domain blocks side by side; narrow stays usable; too small says so.
resize 200 50
if until_re "little  cpus 0-3 .* mid     cpus 4-6"; then
	pass wide_terminal_puts_domain_blocks_side_by_side
else
	fail wide_terminal_puts_domain_blocks_side_by_side
fi
resize 80 24
if until_re "^mid     cpus 4-6" && ! capture | grep -qE "little  cpus 0-3 .* mid " &&
	has "little  cpus 0-3" && has "cpu7->cpu4" && has "power misfit: uclamp_max 300 on big"; then
	pass minimum_terminal_stacks_blocks_and_keeps_the_log
else
	fail minimum_terminal_stacks_blocks_and_keeps_the_log
fi
resize 70 20
if until_text "needs at least 80x24"; then pass too_small_terminal_says_so; else fail too_small_terminal_says_so; fi
resize 100 30
if until_text "little  cpus 0-3"; then pass growing_back_restores_the_view; else fail growing_back_restores_the_view; fi

# --- paused replay, stepping, pause/resume and speed keys -------------------------------
start 100 30 "$G --replay $tr --paused"
if until_text "PAUSED" && has "t 0.000s" && has "decisions 0"; then
	pass paused_replay_shows_the_first_instant_only
else
	fail paused_replay_shows_the_first_instant_only
fi
keys Space
if until_text "t 0.050s" && has "decisions 0"; then pass space_steps_one_sample; else fail space_steps_one_sample; fi
keys Space
if until_text "t 0.100s" && has "decisions 1" && has "new task: first placement on little"; then
	pass step_brings_the_decisions_before_the_next_sample
else
	fail step_brings_the_decisions_before_the_next_sample
fi
sleep 1   # a paused replay must not move by itself (no timing assertion: any delay would do)
if has "t 0.100s" && has "PAUSED"; then pass paused_replay_stays_put; else fail paused_replay_stays_put; fi
keys p
if until_text "speed x1"; then pass p_resumes_a_paused_replay; else fail p_resumes_a_paused_replay; fi
keys +
if until_text "speed x2"; then pass plus_doubles_the_replay_speed; else fail plus_doubles_the_replay_speed; fi
keys - -
if until_text "speed x0.5"; then pass minus_halves_the_replay_speed; else fail minus_halves_the_replay_speed; fi
keys p
if until_text "PAUSED"; then pass p_pauses_a_running_replay; else fail p_pauses_a_running_replay; fi

# --- many CPUs: compact bars ---------------------------------------------------------------
start 100 30 "$G --replay $work/many.ndjson --speed max"
if until_text "END" && has "64 domains 256 CPUs" && has "DOMAIN  CPUS" &&
	capture | grep -qE '^pd0 +0-3 +[0-9]+ kHz .*\|.{4}\|' && has "more domains"; then
	pass many_cpus_collapse_into_compact_bars
else
	fail many_cpus_collapse_into_compact_bars
fi
keys Down Down Down
# pd3 is on screen before the scroll too: wait for the scroll itself (pd0 gone), then check
scrolled() {
	local i
	for ((i = 0; i < 100; i++)); do
		capture | grep -qE '^pd0 ' || return 0
		sleep 0.1
	done
	return 1
}
if scrolled && until_re '^pd3 +12-15'; then
	pass arrow_keys_scroll_the_compact_domains
else
	fail arrow_keys_scroll_the_compact_domains
fi
keys Home
resize 200 50
if until_re 'pd63 +252-255 .*OU' && has "pd0 "; then
	pass wide_terminal_shows_all_64_domains_in_columns
else
	fail wide_terminal_shows_all_64_domains_in_columns
fi

# Without UTF-8 and colours the compact bars fall back to ASCII levels and stay readable.
tmux_plain() {
	starts=$((starts + 1))
	tmux -S "$sock" kill-server 2>/dev/null
	sock=$sock_base-$starts
	tmux -S "$sock" -f /dev/null new-session -d -s gb -x 100 -y 30 \
		"env LANG=C LC_ALL=C $*; sleep 600"
}
tmux_plain "$G --no-color --replay $work/many.ndjson --speed max"
if until_text "END" && capture | grep -qE '^pd0 +0-3 .*\|[ ._=+*#@-]{4}\|' && ! capture | grep -q $'\xe2'; then
	pass ascii_locale_and_no_color_use_plain_level_glyphs
else
	fail ascii_locale_and_no_color_use_plain_level_glyphs
fi

# --- broken streams --------------------------------------------------------------------------
start 100 30 "$G --replay $work/truncated.ndjson --speed max"
if until_text "stream error" && has "line 52: truncated record (no newline at end of stream)" &&
	has "OPP 2457600 kHz perf 891" && has "decisions 9"; then
	pass truncated_stream_shows_the_error_line_and_keeps_the_last_state
else
	fail truncated_stream_shows_the_error_line_and_keeps_the_last_state
fi
start 100 30 "$G --replay $work/malformed.ndjson --speed max"
if until_text "END" && has "stream error (2): line" && has "not JSON" && has "decisions 9" &&
	has "OPP 2457600 kHz perf 891"; then
	pass malformed_lines_are_reported_and_the_rest_is_read
else
	fail malformed_lines_are_reported_and_the_rest_is_read
fi

# A refused hello stays the reason on the error line, not "sample before hello".
{
	echo '{"type":"hello","format":"gearbox-stream/1","nr_cpus":2,"domains":[{"id":0,"cpus":[0,5],"capacity":1024}]}'
	tail -n +2 "$tr"
} >"$work/badhello.ndjson"
start 200 30 "$G --replay $work/badhello.ndjson --speed max"
if until_text "END" && has "hello was refused (line 1: domains[0].cpus: CPU 5 >= nr_cpus 2)"; then
	pass a_refused_hello_stays_on_the_error_line
else
	fail a_refused_hello_stays_on_the_error_line
fi

# --- a real simulator trace (gearbox sim --trace), when the simulator and its inputs exist ---
simtr=$work/sim.ndjson
if $gearbox sim --profile "$top/em-profiles/sm8250.json" --policy gearbox -d 2 --trace "$simtr" \
	--trace-tasks "$top/workloads/demo-mobile.json" >/dev/null 2>&1 && [ -s "$simtr" ]; then
	start 100 30 "$G --replay $simtr --speed max"
	if until_text "END" && has "little  cpus 0-3" && has "big     cpus 7" &&
		capture | grep -qE 'decisions [1-9]' && ! has "stream error"; then
		pass simulator_trace_replays_without_stream_errors
	else
		fail simulator_trace_replays_without_stream_errors
	fi
else
	n=$((n + 1)); echo "ok $n - simulator_trace_replays_without_stream_errors # SKIP gearbox sim could not write a trace"
fi

# --- a model with idle states: the domain block and the summary show its idle costs -----------
idletr=$work/sim-idle.ndjson
if $gearbox sim --profile "$top/em-profiles/msm8998.json" --policy gearbox -d 1 --trace "$idletr" \
	--trace-tasks "$top/workloads/demo-mobile.json" >/dev/null 2>&1; then
	start 120 40 "$G --replay $idletr --speed max"
	if until_text "END" >/dev/null && has "  idle: static " && capture | grep -qE 'idle: .*; cluster '; then
		pass model_idle_costs_show_under_each_domain
	else
		fail model_idle_costs_show_under_each_domain
	fi
	out=$(timeout 60 $gearbox top --headless --replay "$idletr" </dev/null)
	if grep -qE '^    idle: static [0-9.]+ mW; cpu .*/[0-9]+us' <<<"$out"; then
		pass headless_summary_names_the_idle_costs
	else
		fail headless_summary_names_the_idle_costs "$out"
	fi
else
	fail model_idle_costs_show_under_each_domain "gearbox sim could not write a trace"
	fail headless_summary_names_the_idle_costs "gearbox sim could not write a trace"
fi

# --- the terminal after exit, on every path -----------------------------------------------
# exit_check NAME HOW EXPECTED_RC: runs top inside sh, ends it by HOW (q, int, term, hup, segv),
# then compares `stty -g` before and after and checks the exit status.
exit_check() {
	local name=$1 how=$2 want=$3 d=$work/exit-$2
	mkdir -p "$d"
	# The outer shell ignores SIGINT so that ^C reaches only top (which installs its own handler).
	start 100 30 "sh -c 'trap \"\" INT; stty -g >$d/before; sh -c \"echo \\\$\\\$ >$d/pid; exec $G --replay $tr --speed max\"; echo \$? >$d/rc; stty -g >$d/after; tput cols >$d/cols'"
	if ! until_text "END"; then
		fail "$name" "top did not start"
		return
	fi
	case $how in
	q) keys q ;;
	int) keys C-c ;;
	*) kill -s "$(tr a-z A-Z <<<"$how")" "$(cat "$d/pid")" ;;
	esac
	if ! until_file "$d/cols"; then
		fail "$name" "shell did not continue after top"
		return
	fi
	local rc
	rc=$(cat "$d/rc")
	if cmp -s "$d/before" "$d/after" && { [ "$want" = nonzero ] && [ "$rc" != 0 ] || [ "$rc" = "$want" ]; }; then
		pass "$name"
	else
		fail "$name" "rc=$rc (want $want); stty before: $(cat "$d/before") after: $(cat "$d/after")"
	fi
}
exit_check q_quits_with_0_and_restores_the_terminal q 0
exit_check ctrl_c_exits_130_and_restores_the_terminal int 130
exit_check sigterm_exits_143_and_restores_the_terminal term 143
exit_check sighup_exits_129_and_restores_the_terminal hup 129
exit_check sigsegv_restores_the_terminal_before_dying segv nonzero

# --- live socket: waits, connects, notices the scheduler leaving, reconnects --------------
serve() {  # serve PATH FILE HOLD_S: one connection, the file's lines, then close
	python3 - "$1" "$2" "$3" <<'PY' &
import os, socket, sys, time
path, data, hold = sys.argv[1], open(sys.argv[2], "rb").read(), float(sys.argv[3])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
if os.path.exists(path):
    os.unlink(path)
s.bind(path)
s.listen(1)
s.settimeout(60)
c, _ = s.accept()
c.sendall(data)
time.sleep(hold)
c.close()
s.close()
os.unlink(path)
PY
	server_pid=$!
}
ss=$work/scx.sock
head -n 12 "$tr" >"$work/live1.ndjson"
start 100 30 "$G --socket $ss"
if until_text "waiting for scx_gearbox on" && has "waiting for the stream's hello"; then
	pass socket_without_scheduler_says_it_is_waiting
else
	fail socket_without_scheduler_says_it_is_waiting
fi
serve "$ss" "$work/live1.ndjson" 3
if until_text "live $ss" && until_text "little  cpus 0-3"; then
	pass socket_connects_when_the_scheduler_appears
else
	fail socket_connects_when_the_scheduler_appears
fi
wait "$server_pid" 2>/dev/null
server_pid=
if until_re "closed the stream|scheduler gone"; then
	pass socket_reports_the_scheduler_going_away
else
	fail socket_reports_the_scheduler_going_away
fi
serve "$ss" "$tr" 30
if until_text "reconnected (connection 2)" && until_text "decisions 9"; then
	pass socket_reconnects_after_the_scheduler_restarts
else
	fail socket_reconnects_after_the_scheduler_restarts
fi
keys p
if until_text "FROZEN"; then pass p_freezes_a_live_view; else fail p_freezes_a_live_view; fi
keys q
kill "$server_pid" 2>/dev/null
wait "$server_pid" 2>/dev/null
server_pid=

# --- recording a live session, and replaying the recording ------------------------------------
rec=$work/rec.ndjson
serve "$ss" "$tr" 30
start 100 30 "$G --connect $ss --record $rec"
if until_text "decisions 9" && until_text "recording"; then
	pass live_record_says_it_is_recording
else
	fail live_record_says_it_is_recording
fi
for ((i = 0; i < 100; i++)); do cmp -s "$tr" "$rec" && break; sleep 0.1; done
if cmp -s "$tr" "$rec"; then
	pass record_writes_every_line_received
else
	fail record_writes_every_line_received "$(cmp "$tr" "$rec" 2>&1)"
fi
keys q
kill "$server_pid" 2>/dev/null
wait "$server_pid" 2>/dev/null
server_pid=
final_screen() {  # final_screen FILE OUT: the screen at the end of a replay, file name masked
	start 100 30 "$G --replay $1 --speed max"
	until_text "END" >/dev/null
	sleep 0.3
	capture | sed -e "s|$(basename "$1")|TRACE|g" -e "s/  */ /g" >"$2"
}
final_screen "$tr" "$work/screen-a"
final_screen "$rec" "$work/screen-b"
a=$(cat "$work/screen-a") b=$(cat "$work/screen-b")
if [ -n "$a" ] && [ "$a" = "$b" ] && grep -q "decisions 9" <<<"$b"; then
	pass recording_replays_to_the_same_final_screen
else
	fail recording_replays_to_the_same_final_screen "$(diff <(echo "$a") <(echo "$b"))"
fi
echo keep >"$work/existing"
out=$($gearbox top --socket "$ss" --record "$work/existing" 2>&1 </dev/null)
rc=$?
if [ $rc = 2 ] && grep -q "existing: the file exists and is not replaced" <<<"$out" &&
	[ "$(cat "$work/existing")" = keep ]; then
	pass record_never_replaces_an_existing_file
else
	fail record_never_replaces_an_existing_file "rc=$rc $out"
fi
out=$($gearbox top --replay "$tr" --record "$work/new.ndjson" 2>&1 </dev/null)
rc=$?
if [ $rc = 2 ] && grep -q -- "--record records a live stream" <<<"$out" && [ ! -e "$work/new.ndjson" ]
then
	pass record_with_replay_is_a_usage_error
else
	fail record_with_replay_is_a_usage_error "rc=$rc $out"
fi
mkfifo "$work/fifo"
timeout 60 cat "$work/fifo" >"$work/from-fifo" &
cat_pid=$!
serve "$ss" "$tr" 30
start 100 30 "$G --connect $ss --record $work/fifo"
until_text "decisions 9" >/dev/null
keys q
wait "$cat_pid"
kill "$server_pid" 2>/dev/null
wait "$server_pid" 2>/dev/null
server_pid=
if [ -p "$work/fifo" ] && cmp -s "$tr" "$work/from-fifo"; then
	pass record_into_a_fifo_writes_in_place
else
	fail record_into_a_fifo_writes_in_place
fi

# --- headless: no screen, read until the stream ends, then a summary ---------------------------
serve "$ss" "$tr" 0
out=$(timeout 60 $gearbox top --headless --connect "$ss" --record "$work/headless.ndjson" </dev/null)
rc=$?
wait "$server_pid" 2>/dev/null
server_pid=
if [ $rc = 0 ] && grep -q "stream: sm8250, policy gearbox, source sim, 8 CPUs, 3 domains" <<<"$out" &&
	grep -qE "domain big +cpus 7 " <<<"$out" && grep -q "decisions 9," <<<"$out" &&
	grep -qE "^  capacity_misfit +1$" <<<"$out" && cmp -s "$tr" "$work/headless.ndjson" &&
	grep -q "recorded $(wc -l <"$tr") lines to $work/headless.ndjson" <<<"$out"; then
	pass headless_records_until_the_scheduler_closes_and_summarises
else
	fail headless_records_until_the_scheduler_closes_and_summarises "rc=$rc $out"
fi
out=$(timeout 60 $gearbox top --headless --replay "$work/badhello.ndjson" </dev/null)
rc=$?
if [ $rc = 1 ] && grep -q "no stream: line .*hello was refused" <<<"$out"; then
	pass headless_without_a_hello_exits_1_saying_why
else
	fail headless_without_a_hello_exits_1_saying_why "rc=$rc $out"
fi

echo "1..$n"
[ $failed = 0 ]
