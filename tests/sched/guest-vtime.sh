# tests/sched/guest-vtime.sh - runs in the VM (tests/vm/vm-run): scx_gearbox's frequency-
# invariant virtual time, as TAP.  /opt/gb holds scx_gearbox, gb-sched-probe and vm4.json.
#
# scx_gearbox charges a task's vtime for the work it did: its run time x the perf of the OPP its
# CPU ran at / 1024 (x 100 / weight; nice 0 here), so that a task served on a little CPU at a
# low OPP, which needs more run time for the same work, is not charged more for it
# (src/policy/gb_vtime.h).  gb-sched-probe vtime runs the same work (the same count of its own
# loop) first on little CPU 0 with uclamp_max 1 (its CPU asks for little's lowest OPP; the
# domain runs at what its busiest CPU asks), then unclamped on big CPU 3, and reads after each
# the vtime scx_gearbox charged it (its task storage, by pidfd).
#
# What can fail for a reason of the scheduler's under TCG, where every vCPU runs the loop
# equally fast whatever OPP the model gives it: the charge per ns of run time on little is at
# most little's top perf (286 in vm4.json) / 1024, which a charge by run time (1 per ns) breaks;
# and the same loops are charged no more on little than on big (on hardware, where little runs
# them 1024 / perf times slower, the two charges are equal; under TCG little's is smaller by its
# OPP's perf over big's).  Wall time is not read.
#   guest-vtime.sh
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
state() { cat /sys/kernel/sched_ext/state; }
wait_state() { i=0; while [ "$(state)" != "$1" ]; do
	i=$((i + 1)); [ $i -gt "${2:-15000}" ] && return 1; sleep 0.02; done; }
log() { sed 's/^/# /' /tmp/gb.log; }
# field LINE KEY: the value after KEY in a "key value key value" line
field() { echo "$1" | tr ' ' '\n' | awk -v k="$2" 'f { print; exit } $0 == k { f = 1 }'; }
LITTLE_CAP=286 # vm4.json: little's top OPP's perf

echo "1..4"
scx_gearbox --profile /opt/gb/vm4.json >/tmp/gb.log 2>&1 &
pid=$!
if wait_state enabled; then ok "scx_gearbox_loads"
else not_ok "scx_gearbox_loads" "state $(state)" "$(log)"; exit 1; fi

out=$(gb-sched-probe vtime 0 3 1000 2>&1)
little=$(echo "$out" | sed -n 1p) big=$(echo "$out" | sed -n 2p)
lc=$(field "$little" charged) lr=$(field "$little" cpu_ns) ll=$(field "$little" loops)
bc=$(field "$big" charged) br=$(field "$big" cpu_ns) bl=$(field "$big" loops)
echo "# little CPU 0, uclamp_max 1: $little"
echo "# big CPU 3: $big"
if [ "${lc:-0}" -gt 0 ] && [ "${bc:-0}" -gt 0 ] && [ "${lr:-0}" -gt 0 ] && [ "${br:-0}" -gt 0 ]; then
	echo "# charged per ns of run time x 1024 (the perf charged): little $((lc * 1024 / lr)), big $((bc * 1024 / br))"
	echo "# charged per loop (ns): little $(awk -v c="$lc" -v l="$ll" 'BEGIN { printf "%.3f", c / l }'), big $(awk -v c="$bc" -v l="$bl" 'BEGIN { printf "%.3f", c / l }')"
	# the charge is accounted at each stopping and tick: 2% for the edges of the run
	if [ $((lc * 1024 * 100)) -le $((lr * LITTLE_CAP * 102)) ]; then
		ok "a_little_cpu_charges_its_run_time_at_its_perf"
	else not_ok "a_little_cpu_charges_its_run_time_at_its_perf" \
		"charged $lc for $lr ns of run time: more than $LITTLE_CAP / 1024 per ns"; fi
	# the big run's loops are at least the little run's (the loop is checked every 1000)
	if [ "$bl" -ge "$ll" ] && [ $((lc * 100)) -le $((bc * 110)) ]; then
		ok "the_same_work_is_charged_no_more_on_a_little_cpu_at_a_low_opp"
	else not_ok "the_same_work_is_charged_no_more_on_a_little_cpu_at_a_low_opp" \
		"little: $ll loops charged $lc; big: $bl loops charged $bc"; fi
else
	not_ok "a_little_cpu_charges_its_run_time_at_its_perf" "$out" "$(log)"
	not_ok "the_same_work_is_charged_no_more_on_a_little_cpu_at_a_low_opp" "no charge read"
fi

kill -INT $pid; wait $pid; st=$?
if [ "$st" = 0 ] && wait_state disabled; then ok "sigint_detaches"
else not_ok "sigint_detaches" "status $st state $(state)" "$(log)"; fi
exit $fail
