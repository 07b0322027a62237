# bench/guest-overhead.sh - runs in the VM (tests/vm/vm-run): scheduler overhead benchmarks
# under the kernel default (EEVDF), scx_fifo and scx_gearbox, in one boot: perf bench sched
# pipe free (pipe) and with both tasks pinned to CPU 1 (pipe1: the cost per switch without
# placement; under TCG the free figure also swings with whether the pair shares a CPU, see
# docs/benchmarks.md), and hackbench.
#   guest-overhead.sh ROUNDS PIPE_LOOPS HACKBENCH_LOOPS LIMIT_S
# Prints "RESULT SCHED ROUND BENCH VALUE UNIT" lines; bench/benchlib/vm.py makes the ratios.
# Then, in a run of its own with kernel.bpf_stats_enabled, "BPFSTAT SCHED PROG NS COUNT" lines:
# each struct_ops program's run time and calls during a pipe benchmark (gb-bpf-stats).
# The order of the schedulers rotates every round so that a drift of the emulator's speed
# does not favour one of them.  Each benchmark run is limited to LIMIT_S seconds: a scheduler
# that stalls it is reported (TIMEOUT) instead of hanging the boot.
rounds=$1 pipe_loops=$2 hb_loops=$3 limit=$4
state() { cat /sys/kernel/sched_ext/state 2>/dev/null; }
# wait_state STATE SECONDS: loading a large BPF program under TCG can take a minute
wait_state() { end=$(($(date +%s) + ${2:-60})); while [ "$(state)" != "$1" ]; do
	[ "$(date +%s)" -gt $end ] && return 1; sleep 0.05; done; }
have() { command -v "$1" >/dev/null 2>&1; }

scheds="default scx_fifo scx_gearbox"
stalled=   # schedulers that timed out once are not run again (one stall is the finding)
have scx_fifo || echo "NOTE scx_fifo not in the image"
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
	scx_fifo) scx_fifo >/tmp/sched.log 2>&1 & ;;
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

# pipe_run SCHED ROUND NAME [PREFIX...]: one perf bench sched pipe run, its RESULT line
pipe_run() {
	local sch=$1 rnd=$2 name=$3 out rc v
	shift 3
	echo "START $sch $rnd $name"
	out=$(timeout "$limit" "$@" perf bench sched pipe -l "$pipe_loops" 2>&1)
	rc=$?
	v=$(echo "$out" | awk '/ops\/sec/ { print $1 }')
	if [ -n "$v" ]; then echo "RESULT $sch $rnd $name $v ops_per_s"
	elif [ $rc = 124 ] || [ $rc = 143 ]; then
		echo "TIMEOUT $sch $rnd $name $limit"; stalled="$stalled $sch"
	else echo "NOTE $sch $name failed ($rc): $(echo "$out" | tail -n 2 | tr '\n' ' ')"; fi
}

have taskset || echo "NOTE taskset not in the image: no pinned pipe (pipe1)"
r=1
while [ $r -le "$rounds" ]; do
	set -- $scheds
	# rotate by r-1
	k=1; while [ $k -lt $r ]; do s=$1; shift; set -- "$@" "$s"; k=$((k + 1)); done
	for s in "$@"; do
		[ "$s" = default ] || have "$s" || continue
		case " $stalled " in *" $s "*) continue ;; esac
		load "$s" || continue
		pipe_run "$s" "$r" pipe
		# both tasks on one CPU: what the scheduler costs per switch, without placement
		have taskset && pipe_run "$s" "$r" pipe1 taskset -c 1
		echo "START $s $r hackbench"
		out=$(timeout "$limit" hackbench -g 2 -l "$hb_loops" 2>&1)
		rc=$?
		v=$(echo "$out" | awk '/^Time:/ { print $2 }')
		if [ -n "$v" ]; then echo "RESULT $s $r hackbench $v s"
		elif [ $rc = 124 ] || [ $rc = 143 ]; then echo "TIMEOUT $s $r hackbench $limit"; stalled="$stalled $s"
		else echo "NOTE $s hackbench failed ($rc): $(echo "$out" | tail -n 2 | tr '\n' ' ')"; fi
		unload "$s"
	done
	r=$((r + 1))
done

# BPF run time per callback, from the kernel's BPF statistics: in a run of its own, since the
# statistics cost a clock read per call and must not tax the throughput figures above
if have gb-bpf-stats && [ -w /proc/sys/kernel/bpf_stats_enabled ]; then
	for s in scx_fifo scx_gearbox; do
		have "$s" || continue
		case " $stalled " in *" $s "*) continue ;; esac
		load "$s" || continue
		echo 1 >/proc/sys/kernel/bpf_stats_enabled
		timeout "$limit" perf bench sched pipe -l $((pipe_loops / 4)) >/dev/null 2>&1
		gb-bpf-stats | sed "s/^BPFSTAT /BPFSTAT $s /"
		echo 0 >/proc/sys/kernel/bpf_stats_enabled
		unload "$s"
	done
else
	echo "NOTE no BPF statistics (gb-bpf-stats or kernel.bpf_stats_enabled missing)"
fi
echo "DONE"
exit 0
