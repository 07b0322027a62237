# bench/guest-overhead.sh - runs in the VM (tests/vm/vm-run): scheduler overhead benchmarks
# under the kernel default (EEVDF), scx_simple and scx_gearbox, in one boot.
#   guest-overhead.sh ROUNDS PIPE_LOOPS HACKBENCH_LOOPS LIMIT_S STAT_ROUNDS [BENCHES]
# 1. Throughput, ROUNDS rounds, the order of the schedulers rotated every round so that a drift
#    of the emulator's speed favours none of them: perf bench sched pipe free (pipe) and with
#    both tasks pinned to CPU 1 (pipe1: the cost per switch without placement), and hackbench;
#    only those of them named in BENCHES when given (default: all three).
#    Prints "RESULT SCHED ROUND BENCH VALUE UNIT".
# 2. BPF cost per wake-up, STAT_ROUNDS rounds (rotated), scx_simple and scx_gearbox, with
#    kernel.bpf_stats_enabled (it costs a clock read per call, so not during 1.) and
#    kernel.sched_schedstats: for each benchmark, every struct_ops program's run time and calls
#    over the benchmark alone (gb-bpf-stats before and after), the wake-ups the kernel counted
#    meanwhile (ttwu_count of /proc/schedstat, summed over the CPUs) and the tasks it created
#    (/proc/stat's processes: a new task's first placement goes through select_cpu too).
#    Prints "WAKEUPS SCHED ROUND BENCH TTWU FORKS" and "BPFSTAT SCHED ROUND BENCH PROG NS
#    CALLS" (the deltas).  The pipes run a quarter of PIPE_LOOPS, hackbench all its loops.
# bench/benchlib/vm.py makes the ratios.  Each benchmark run is limited to LIMIT_S seconds: a
# scheduler that stalls it is reported (TIMEOUT) instead of hanging the boot.
rounds=$1 pipe_loops=$2 hb_loops=$3 limit=$4 stat_rounds=${5:-0} only=${6:-}
state() { cat /sys/kernel/sched_ext/state 2>/dev/null; }
# wait_state STATE SECONDS: loading a large BPF program under TCG can take a minute
wait_state() { end=$(($(date +%s) + ${2:-60})); while [ "$(state)" != "$1" ]; do
	[ "$(date +%s)" -gt $end ] && return 1; sleep 0.05; done; }
have() { command -v "$1" >/dev/null 2>&1; }

scheds="default scx_simple scx_gearbox"
stalled=   # schedulers that timed out once are not run again (one stall is the finding)
have scx_simple || echo "NOTE scx_simple not in the image"
have scx_gearbox || echo "NOTE scx_gearbox not built: skipped"
echo "NOTE cpus $(nproc) kernel $(uname -r)"

# wait for the loader, but SIGKILL it if it has not exited 20 s after SIGINT
stop_loader() {
	kill -INT "$spid" 2>/dev/null
	( sleep 20; kill -KILL "$spid" 2>/dev/null ) &
	killer=$!
	wait "$spid" 2>/dev/null
	kill "$killer" 2>/dev/null
}

load() {
	echo "STEP load $1"
	case $1 in
	default) return 0 ;;
	scx_simple) scx_simple >/tmp/sched.log 2>&1 & ;;
	scx_gearbox) scx_gearbox --profile /opt/gb/vm4.json --socket /tmp/gb.sock \
		>/tmp/sched.log 2>&1 & ;;
	esac
	spid=$!
	if ! wait_state enabled 180; then
		echo "NOTE $1 did not load within 180 s: state $(state); its output: $(head -c 600 /tmp/sched.log | tr '\n' ' ')"
		echo "NOTE kernel: $(dmesg | grep -i sched_ext | tail -n 3 | tr '\n' ' ')"
		stop_loader
		return 1
	fi
}

unload() {
	[ "$1" = default ] && return 0
	echo "STEP unload $1"
	if [ "$(state)" != enabled ]; then
		echo "NOTE $1 was ejected during the run: $(tail -n 3 /tmp/sched.log | tr '\n' ' ')"
		echo "EJECTED $1"
	fi
	stop_loader
	wait_state disabled || echo "NOTE $1 did not unload"
	# the loader's counters at exit: how many wake-ups went straight to an idle CPU, etc.
	[ "$1" = scx_gearbox ] && echo "NOTE scx_gearbox counters: $(grep -o 'select [0-9].*' /tmp/sched.log | tail -n 1)"
	return 0
}

# bench SCHED ROUND NAME [LOOPS_DIVISOR]: one benchmark run, its RESULT (or TIMEOUT) line
bench() {
	local sch=$1 rnd=$2 name=$3 div=${4:-1} out rc v unit
	echo "START $sch $rnd $name"
	case $name in
	pipe) out=$(timeout "$limit" perf bench sched pipe -l $((pipe_loops / div)) 2>&1) ;;
	pipe1) out=$(timeout "$limit" taskset -c 1 perf bench sched pipe -l $((pipe_loops / div)) 2>&1) ;;
	hackbench) out=$(timeout "$limit" hackbench -g 2 -l $((hb_loops / div)) 2>&1) ;;
	esac
	rc=$?
	case $name in
	hackbench) v=$(echo "$out" | awk '/^Time:/ { print $2 }') unit=s ;;
	*) v=$(echo "$out" | awk '/ops\/sec/ { print $1 }') unit=ops_per_s ;;
	esac
	if [ -n "$v" ]; then echo "RESULT $sch $rnd $name $v $unit"
	elif [ $rc = 124 ] || [ $rc = 143 ]; then
		echo "TIMEOUT $sch $rnd $name $limit"; stalled="$stalled $sch"; return 1
	else echo "NOTE $sch $name failed ($rc): $(echo "$out" | tail -n 2 | tr '\n' ' ')"; return 1; fi
}

# rotated N WORD...: the words rotated left by N
rotated() { local k=$1; shift; while [ "$k" -gt 0 ]; do set -- "$@" "$1"; shift; k=$((k - 1)); done; echo "$@"; }

benches="pipe hackbench"
if have taskset; then benches="pipe pipe1 hackbench"
else echo "NOTE taskset not in the image: no pinned pipe (pipe1)"; fi
tbenches=
for b in $benches; do case " ${only:-$benches} " in *" $b "*) tbenches="$tbenches $b" ;; esac; done
# one unreported run of each under the default first: the first run after boot pays for
# faulting in perf and hackbench (under -icount the first pinned pipe ran at a ninth of the rate)
[ "$rounds" -gt 0 ] && for b in $tbenches; do bench default 0 "$b" >/dev/null; done
r=1
while [ "$r" -le "$rounds" ]; do
	for s in $(rotated $((r - 1)) $scheds); do
		[ "$s" = default ] || have "$s" || continue
		case " $stalled " in *" $s "*) continue ;; esac
		load "$s" || continue
		for b in $tbenches; do bench "$s" "$r" "$b" || break; done
		unload "$s"
	done
	r=$((r + 1))
done

# the wake-ups the kernel counted (try_to_wake_up calls, every CPU), from schedstats
ttwu() { awk '/^cpu[0-9]/ { n += $6 } END { print n + 0 }' /proc/schedstat; }
forks() { awk '/^processes/ { print $2 }' /proc/stat; }
if [ "$stat_rounds" -gt 0 ] && have gb-bpf-stats && [ -w /proc/sys/kernel/bpf_stats_enabled ] &&
	[ -w /proc/sys/kernel/sched_schedstats ]; then
	echo 1 >/proc/sys/kernel/sched_schedstats
	r=1
	while [ "$r" -le "$stat_rounds" ]; do
		for s in $(rotated $((r - 1)) scx_simple scx_gearbox); do
			have "$s" || continue
			case " $stalled " in *" $s "*) continue ;; esac
			load "$s" || continue
			echo 1 >/proc/sys/kernel/bpf_stats_enabled
			for b in $benches; do
				div=4
				[ "$b" = hackbench ] && div=1
				gb-bpf-stats >/tmp/bpf0
				w0=$(ttwu) f0=$(forks)
				bench "$s" "stat$r" "$b" $div || break
				w1=$(ttwu) f1=$(forks)
				gb-bpf-stats >/tmp/bpf1
				echo "WAKEUPS $s $r $b $((w1 - w0)) $((f1 - f0))"
				# the deltas per program (a program is matched by name)
				awk -v s="$s" -v r="$r" -v b="$b" 'NR == FNR { t[$2] = $3; c[$2] = $4; next }
					{ print "BPFSTAT", s, r, b, $2, $3 - t[$2], $4 - c[$2] }' /tmp/bpf0 /tmp/bpf1
			done
			echo 0 >/proc/sys/kernel/bpf_stats_enabled
			unload "$s"
		done
		r=$((r + 1))
	done
	echo 0 >/proc/sys/kernel/sched_schedstats
elif [ "$stat_rounds" -gt 0 ]; then
	echo "NOTE no BPF statistics (gb-bpf-stats, kernel.bpf_stats_enabled or kernel.sched_schedstats missing)"
fi
echo "DONE"
exit 0
