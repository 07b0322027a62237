# tests/agree/guest-agree.sh - runs in the VM (tests/vm/vm-run): loads scx_gearbox with
# /opt/gb/vm4.json (the guest's CPUs are symmetric, every cpu_capacity 1024: the loader maps the
# model onto them), records its stats stream (a sample every 40 ms) from its socket with
# gb-live-relay, runs each workload named on the command line with rt-app, one after another
# under the same scheduler, stops the scheduler, reports as TAP, and prints the recording,
# gzipped and in base64, between the lines STREAM-BEGIN and STREAM-END.  (A serial port moves
# about 11 KB/s, less than the stream's rate: the loader would drop a reader that far behind.)
#   guest-agree.sh NAME,PART[@MIN:MAX][,PART[@MIN:MAX]]...
# A workload is one or more PARTs (rt-app files in /opt/gb, its tasks grouped by their clamps,
# tests/agree/test-agree.sh), run at once.  Debian's rt-app does not apply util_min/util_max, so a
# PART@MIN:MAX runs under `uclampset -m MIN -M MAX`: its threads inherit the clamps from their
# first instant, as the simulation has them (set on threads rt-app had started, they came after
# the first activations, which then ran where the simulation's did not).
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

# clamps_of PID MIN MAX: the clamps of each task thread of rt-app process PID (named after its
# task), read back as "TASK=MIN:MAX"; a thread with others is marked "!".
# Polls until a named thread exists and no new thread appeared for 0.5 s.
clamps_of() {
	local rt=$1 seen= out= quiet=0 t tid c line lo hi
	while alive "$rt" && { [ -z "$seen" ] || [ $quiet -lt 10 ]; }; do
		quiet=$((quiet + 1))
		for t in /proc/"$rt"/task/*; do
			tid=${t##*/}
			case " $seen " in *" $tid "*) continue ;; esac
			[ "$tid" = "$rt" ] && continue   # the main thread
			read -r c <"$t/comm" 2>/dev/null || continue
			[ "$c" = rt-app ] && continue   # not named yet
			seen="$seen $tid" quiet=0
			# "COMM (TID) util_clamp: min: LO max: HI"
			line=$(uclampset -p "$tid" 2>&1)
			lo=${line#*min: } lo=${lo%% *} hi=${line##*max: }
			out="$out $c=$lo:$hi"
			[ "$lo" = "$2" ] && [ "$hi" = "$3" ] || out="$out!"
		done
		sleep 0.05
	done
	echo "${out:- no-named-thread!}"
}

for arg in "$@"; do
	name=${arg%%,*} pids= clamped= got=
	say "rt-app $name"
	for part in $(echo "${arg#*,}" | tr ',' ' '); do
		f=${part%%@*}
		if [ "$f" = "$part" ]; then
			(cd /tmp && exec rt-app "/opt/gb/$f" >"/tmp/rt-app-$f.log" 2>&1) &
		else
			c=${part#*@}
			(cd /tmp && exec uclampset -m "${c%%:*}" -M "${c##*:}" rt-app "/opt/gb/$f" \
				>"/tmp/rt-app-$f.log" 2>&1) &
			clamped="$clamped $!=$c"
		fi
		pids="$pids $!"
	done
	for pc in $clamped; do
		c=${pc#*=}
		got="$got$(clamps_of "${pc%%=*}" "${c%%:*}" "${c##*:}")"
	done
	rc=0
	for p in $pids; do wait "$p" || rc=$?; done
	if [ $rc = 0 ]; then ok "rt_app_runs_$name"
	else not_ok "rt_app_runs_$name" "status $rc" "$(tail -n 5 /tmp/rt-app-"$name".*.log)"; fi
	case "$got" in
	*!*) not_ok "clamps_from_the_start_in_$name" "a thread without its part's clamps:$got" ;;
	*) ok "clamps_from_the_start_in_$name (${got:- none})" ;;
	esac
	if [ "$(state)" != enabled ]; then
		not_ok "scx_gearbox_stays_loaded_through_$name" "state $(state)" "$(tail -n 5 /tmp/gb.log)"
		break
	fi
done
say "stopping scx_gearbox"
kill -INT $pid
wait $pid
rc=$?
# its counters at detach (select, direct, pull, ...), as a comment
if [ $rc = 0 ]; then ok scx_gearbox_stops_on_sigint_with_0; grep '^scx_gearbox: select' /tmp/gb.log | sed 's/^/# /'
else not_ok scx_gearbox_stops_on_sigint_with_0 "status $rc" "$(tail -n 5 /tmp/gb.log)"; fi
wait $relay
rc=$?
if [ $rc = 0 ]; then ok relay_forwards_the_stream_until_it_ends
else not_ok relay_forwards_the_stream_until_it_ends "status $rc" "$(cat /tmp/relay.log)"; fi
echo STREAM-BEGIN
gzip -c /tmp/live.ndjson | base64
echo STREAM-END
exit $fail
