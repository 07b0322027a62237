# tests/vm-arm64/guest-arm64.sh - runs in the arm64 guest (vm-run-arm64), whose device tree
# describes vm4.json's SoC: the kernel sees the model's capacities and clusters, scx_gearbox
# accepts the model without assuming anything and refuses a model whose capacities are not the
# machine's.  As TAP.
#   guest-arm64.sh "CAPACITY OF CPU0 CPU1 ..." "CLUSTER OF CPU0 CPU1 ..."
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
state() { cat /sys/kernel/sched_ext/state; }
wait_state() { i=0; while [ "$(state)" != "$1" ]; do
	i=$((i + 1)); [ $i -gt "${2:-15000}" ] && return 1; sleep 0.02; done; }
log() { sed 's/^/# /' /tmp/gb.log; }
share() { echo "$1" | tr ' ' '\n' | awk -F: -v want=",$2," '
	{ t += $2; if (index(want, "," $1 ",")) w += $2 } END { print t ? int(100 * w / t) : 0 }'; }
cpu=/sys/devices/system/cpu

echo "1..11"
caps= clusters= c=0
for want in $1; do caps="$caps $(cat $cpu/cpu$c/cpu_capacity)"; c=$((c + 1)); done
c=0
for want in $2; do clusters="$clusters $(cat $cpu/cpu$c/topology/cluster_cpus_list)"; c=$((c + 1)); done
if [ "${caps# }" = "$1" ]; then ok "cpu_capacity_is_the_models ($1)"
else not_ok "cpu_capacity_is_the_models" "want '$1'" "have '${caps# }'"; fi
if [ "${clusters# }" = "$2" ]; then ok "clusters_are_the_models_domains ($2)"
else not_ok "clusters_are_the_models_domains" "want '$2'" "have '${clusters# }'"; fi
# the scheduler's topology: capacities differ, so the kernel marks the domain asymmetric
flags=$(cat /sys/kernel/debug/sched/domains/cpu0/domain*/flags 2>/dev/null)
if [ -z "$flags" ]; then skip "kernel_builds_an_asymmetric_capacity_domain" "no sched domains in debugfs"
elif echo "$flags" | grep -q SD_ASYM_CPUCAPACITY; then ok "kernel_builds_an_asymmetric_capacity_domain"
else not_ok "kernel_builds_an_asymmetric_capacity_domain" "flags: $flags"; fi

scx_gearbox --profile /opt/gb/vm4.json --socket /tmp/gb.sock >/tmp/gb.log 2>&1 &
pid=$!
if wait_state enabled && ! grep -q "no cpufreq\|--force\|assum" /tmp/gb.log; then
	ok "scx_gearbox_accepts_the_model_without_assuming_anything"
else not_ok "scx_gearbox_accepts_the_model_without_assuming_anything" "state $(state)" "$(log)"; fi

# The clamps on the model's SoC: a uclamp_max=100 task on little, a small uclamp_min=600 task on
# the free mid CPU (tests/sched/guest-sched.sh says why these values; the guest's kernel has
# CONFIG_UCLAMP_TASK, which scripts/lib/cross.sh checks in its config)
if [ ! -e /proc/sys/kernel/sched_util_clamp_min ]; then
	not_ok "uclamp_max_100_task_runs_on_little_cpus" "kernel without CONFIG_UCLAMP_TASK"
	not_ok "uclamp_min_600_task_runs_on_the_mid_cpu" "kernel without CONFIG_UCLAMP_TASK"
else
	seen=$(gb-sched-probe duty 600 0 100)
	p=$(share "$seen" 0,1)
	if [ "$p" -ge 90 ]; then ok "uclamp_max_100_task_runs_on_little_cpus ($p%)"
	else not_ok "uclamp_max_100_task_runs_on_little_cpus" "seen $seen ($p% on 0-1)"; fi
	seen=$(gb-sched-probe duty 600 600 1024)
	p=$(share "$seen" 2)
	if [ "$p" -ge 90 ]; then ok "uclamp_min_600_task_runs_on_the_mid_cpu ($p%)"
	else not_ok "uclamp_min_600_task_runs_on_the_mid_cpu" "seen $seen ($p% on 2)"; fi
fi

# Capacity misfit: a CPU-bound task on little CPU 0 (started pinned there, then allowed on every
# CPU while it runs, so no wake-up placement ever moves it) outgrows it: at a tick scx_gearbox
# moves it to a bigger CPU (decision capacity_misfit), and on from mid to big.  The condition
# is the task's utilization, which rises in guest time (the BPF side's PELT, 32 ms half-life);
# the bound below is a generous stop, not a timing.  Asserted: the stream's decisions for the
# task, and that it settles on big.  Before it settles there it may be taken down again: a CPU of
# another domain pulls the head of big's queue once it has waited 4 ms there since it was
# queued (placement's fit question refuses every smaller CPU before that), and under TCG, where
# a kicked vCPU wakes slowly, a task queued behind another on CPU 3 can wait that long; the
# tick's capacity-misfit check moves it up again once it has run there.  Running on CPU 3 it is
# queued only when another task is put there, which wake-up placement avoids while a CPU is
# idle, and at each slice end it stays on its CPU's local queue (SCX_OPS_ENQ_LAST); a pull
# can still come late (one boot: 2.3 s after its first move to big, then back on CPU 3).  So
# asserted, from 2 s after its first capacity-misfit move to big: it was on CPU 3 in at least
# 75% of its samples of the next 2 s, and is on CPU 3 then or within 5 s (docs/testing.md,
# vm-arm64).  Its CPU per sample, its decisions in order (pulls are idle_pull decisions) and
# the pull counter are printed.  The stream records a decision only while a
# reader is connected: the relay is one.
gb-live-relay /tmp/gb.sock 60 >/tmp/misfit.ndjson 2>/tmp/relay.log &
relay=$!
i=0; while ! grep -q '"type":"sample"' /tmp/misfit.ndjson && [ $i -lt 3000 ]; do
	i=$((i + 1)); sleep 0.02; done
taskset -c 0 gb-sched-probe spin 600000 >/tmp/spin.out &
spin=$!
sleep 0.5
on_cpu() { awk '{ print $39 }' /proc/"$1"/stat 2>/dev/null; }
first=$(on_cpu $spin)
taskset -p -c 0-3 $spin >/dev/null
# its capacity-misfit decisions as "FROM>TO ..."
moves() { grep '"type":"decision"' /tmp/misfit.ndjson | grep "\"pid\":$spin," |
	grep '"reason":"capacity_misfit"' | sed 's/.*"from":\(-*[0-9]*\),"to":\([0-9]*\),.*/\1>\2/' |
	tr '\n' ' '; }
# every decision about it in order, as "REASON:FROM>TO" (idle_pull: a CPU of another domain
# took it from a queue)
history() { grep '"type":"decision"' /tmp/misfit.ndjson | grep "\"pid\":$spin," |
	sed 's/.*"from":\(-*[0-9]*\),"to":\([0-9]*\),"reason":"\([a-z_]*\)".*/\3:\1>\2/' |
	tr '\n' ' '; }
# the task's CPU in each sample that shows it running, one per line
cpus() { grep '"type":"sample"' /tmp/misfit.ndjson |
	grep -o "\"cpu\":[0-9]*,\"util\":[0-9]*,\"pid\":$spin," | sed 's/"cpu":\([0-9]*\),.*/\1/'; }
# until a capacity-misfit move reaches big, at most 2400 polls 0.1 s apart (one move needs a
# few hundred ms of running on the smaller CPU)
i=0; while ! moves | grep -q '>3 ' && [ $i -lt 2400 ]; do i=$((i + 1)); sleep 0.1; done
sleep 2  # it may still be pulled down and moved up again in this first while on big
n0=$(cpus | wc -l)  # its samples so far
sleep 2  # where it spends its time once settled
# back on CPU 3 after any late pull: polls 0.1 s apart, at most 50 (a pull and the misfit move
# up again took a few hundred ms)
i=0; while [ "$(on_cpu $spin)" != 3 ] && [ $i -lt 50 ]; do i=$((i + 1)); sleep 0.1; done
last=$(on_cpu $spin)
kill $spin; wait $spin 2>/dev/null
# percent of its samples on CPU 3 in the last 2 s and the polls
big=$(cpus | awk -v n0="$n0" 'NR > n0 { n++; if ($1 == 3) b++ } END { print n ? int(100 * b / n) : 0 }')
m=$(moves)
if [ "$first" = 0 ] && echo " $m" | grep -qE ' [01]>[23] '; then
	ok "capacity_misfit_moves_a_cpu_bound_task_off_little ($m)"
else not_ok "capacity_misfit_moves_a_cpu_bound_task_off_little" "started on CPU $first" \
	"its capacity_misfit moves: $m" "$(log)"; fi
if echo " $m" | grep -qE ' [012]>3 '; then ok "capacity_misfit_moves_it_on_to_big ($m)"
else not_ok "capacity_misfit_moves_it_on_to_big" "its capacity_misfit moves: $m"; fi
if [ "$last" = 3 ] && [ "$big" -ge 75 ]; then ok "it_settles_on_big ($big% of its samples on CPU 3)"
else not_ok "it_settles_on_big" "last on CPU $last, $big% of its samples on CPU 3 from 2 s after the move" \
	"its decisions: $(history)"; fi
# the record: the task's CPU in each sample that shows it running (CPUxSAMPLES, in order)
echo "# the task's CPU per sample: $(cpus |
	awk 'BEGIN { c = -1 } $1 != c { if (n) printf "%sx%d ", c, n; c = $1; n = 0 } { n++ }
		END { if (n) printf "%sx%d", c, n }'); last on CPU $last"
echo "# its decisions: $(history)"

kill -INT $pid; wait $pid; st=$?
wait $relay
echo "# $(grep -o 'pull [0-9]*' /tmp/gb.log | tail -n 1) (scx_gearbox's counters at detach)"
if [ "$st" = 0 ] && wait_state disabled; then ok "sigint_detaches_and_exits_0"
else not_ok "sigint_detaches_and_exits_0" "status $st state $(state)" "$(log)"; fi

# vm4-caps.json: CPU 1 moved into domain mid (876), on a CPU of capacity 286
out=$(scx_gearbox --profile /opt/gb/vm4-caps.json --socket /tmp/gb.sock 2>&1); st=$?
if [ "$st" = 2 ] && echo "$out" | grep -q "CPU 1: the model's capacity is 876 (domain mid), this machine's cpu_capacity is 286" &&
	[ "$(state)" = disabled ]; then ok "a_model_with_other_capacities_is_refused_naming_cpu_and_values"
else not_ok "a_model_with_other_capacities_is_refused_naming_cpu_and_values" "status $st: $out"; fi
exit $fail
