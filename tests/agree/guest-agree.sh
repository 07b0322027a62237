# tests/agree/guest-agree.sh - runs in the VM (tests/vm/vm-run): loads scx_gearbox with
# /opt/gb/vm4.json (the guest's CPUs are symmetric, every cpu_capacity 1024: the loader maps the model onto them), records its stats stream (a sample every 40 ms) from its socket with
# gb-live-relay, runs each workload named on the command line with rt-app, one after another
# under the same scheduler, stops the scheduler, reports as TAP, and prints the recording,
# gzipped and in base64, between the lines STREAM-BEGIN and STREAM-END.  (A serial port moves
# about 11 KB/s, less than the stream's rate: the loader would drop a reader that far behind.)
#   guest-agree.sh WORKLOAD.json[,TASK=MIN:MAX...]...
# TASK=MIN:MAX: Debian's rt-app does not apply util_min/util_max, so the guest sets them with
# uclampset on every thread rt-app names TASK, as soon as it appears (polled every 50 ms).
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
state() { cat /sys/kernel/sched_ext/state; }
say() { echo "guest-agree: $*" >&2; }  # progress, on the console (the serial log)
echo "1..$(($# * 2 + 3))"
say "loading scx_gearbox"
scx_gearbox --profile /opt/gb/vm4.json --socket /tmp/gb.sock --stats-interval 40 \
	>/tmp/gb.log 2>&1 &
pid=$!
i=0
while [ "$(state)" != enabled ] && [ $i -lt 1500 ]; do i=$((i + 1)); sleep 0.1; done
if [ "$(state)" = enabled ]; then ok scx_gearbox_loads_vm4
else not_ok scx_gearbox_loads_vm4 "state $(state)" "$(sed 's/^/  /' /tmp/gb.log)"; fi
gb-live-relay /tmp/gb.sock 30 >/tmp/live.ndjson 2>/tmp/relay.log &
relay=$!

# alive PID: PID runs (an exited child stays a zombie until the shell waits for it)
alive() { local _p _c st; read -r _p _c st _p <"/proc/$1/stat" 2>/dev/null && [ "$st" != Z ]; }

# clamp RTPID SPEC...: sets each SPEC (TASK=MIN:MAX) on rt-app's threads named TASK; prints
# what it set.  Polls until every SPEC has a thread and no new thread appeared for 0.5 s.
clamp() {
	local rt=$1 seen= set= quiet=0 t tid c spec name v
	shift
	[ $# = 0 ] && return 0
	while alive "$rt" && [ $quiet -lt 10 ]; do
		quiet=$((quiet + 1))
		for t in /proc/"$rt"/task/*; do
			tid=${t##*/}
			case " $seen " in *" $tid "*) continue ;; esac
			read -r c <"$t/comm" 2>/dev/null || continue
			[ "$c" = rt-app ] && continue   # not named yet
			seen="$seen $tid" quiet=0
			for spec in "$@"; do
				name=${spec%%=*} v=${spec#*=}
				[ "$c" = "$name" ] || continue
				uclampset -m "${v%%:*}" -M "${v##*:}" -p "$tid" && set="$set $name:$tid=$v"
			done
		done
		for spec in "$@"; do
			case "$set" in *" ${spec%%=*}:"*) ;; *) quiet=0 ;; esac
		done
		sleep 0.05
	done
	echo "$set"
}

for arg in "$@"; do
	w=${arg%%,*} specs=
	[ "$w" != "$arg" ] && specs=$(echo "${arg#*,}" | tr ',' ' ')
	name=$(basename "$w" .json)
	say "rt-app $name"
	(cd /tmp && exec rt-app "/opt/gb/$w" >"/tmp/rt-app-$name.log" 2>&1) &
	rt=$!
	# shellcheck disable=SC2086
	set_=$(clamp "$rt" $specs)
	wait "$rt"
	rc=$?
	if [ $rc = 0 ]; then ok "rt_app_runs_$name"
	else not_ok "rt_app_runs_$name" "status $rc" "$(tail -n 5 "/tmp/rt-app-$name.log")"; fi
	missing=
	for spec in $specs; do
		case "$set_" in *" ${spec%%=*}:"*) ;; *) missing="$missing ${spec%%=*}" ;; esac
	done
	if [ -z "$missing" ]; then ok "clamps_set_in_$name (${set_:- none})"
	else not_ok "clamps_set_in_$name" "no thread named$missing got its clamps (set:$set_)"; fi
	if [ "$(state)" != enabled ]; then
		not_ok "scx_gearbox_stays_loaded_through_$name" "state $(state)" "$(tail -n 5 /tmp/gb.log)"
		break
	fi
done
say "stopping scx_gearbox"
kill -INT $pid
wait $pid
rc=$?
if [ $rc = 0 ]; then ok scx_gearbox_stops_on_sigint_with_0
else not_ok scx_gearbox_stops_on_sigint_with_0 "status $rc" "$(tail -n 5 /tmp/gb.log)"; fi
wait $relay
rc=$?
if [ $rc = 0 ]; then ok relay_forwards_the_stream_until_it_ends
else not_ok relay_forwards_the_stream_until_it_ends "status $rc" "$(cat /tmp/relay.log)"; fi
echo STREAM-BEGIN
gzip -c /tmp/live.ndjson | base64
echo STREAM-END
exit $fail
