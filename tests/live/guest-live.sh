# tests/live/guest-live.sh - runs in the VM (tests/vm/vm-run --serial-socket): loads scx_gearbox
# with /opt/gb/model.json (the x86 guest's CPUs are symmetric, every cpu_capacity 1024: the
# loader maps the model onto them; the arm64 guest's are the model's), relays its stats stream
# to PORT (the host's socket; default /dev/ttyS2, the x86 guest's third serial port; the arm64
# guest's is /dev/hvc1, tests/vm-arm64/vm-run-arm64), runs /opt/gb/workload.json with rt-app,
# stops the scheduler, and reports as TAP.
#   guest-live.sh [PORT]
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
state() { cat /sys/kernel/sched_ext/state; }
echo "1..4"
# raw: the stream's bytes pass unchanged (no \n -> \r\n, no echo)
say() { echo "guest-live: $*" >&2; }  # progress, on the console (the serial log)
port=${1:-/dev/ttyS2}
stty -F "$port" raw -echo
say "loading scx_gearbox"
scx_gearbox --profile /opt/gb/model.json --socket /tmp/gb.sock --stats-interval 100 \
	>/tmp/gb.log 2>&1 &
pid=$!
i=0
while [ "$(state)" != enabled ] && [ $i -lt 6000 ]; do i=$((i + 1)); sleep 0.1; done
if [ "$(state)" = enabled ]; then ok scx_gearbox_loads_the_profiled_model
else not_ok scx_gearbox_loads_the_profiled_model "state $(state)" "$(sed 's/^/  /' /tmp/gb.log)"; fi
say "state $(state); relaying the stream, running rt-app"
gb-live-relay /tmp/gb.sock 30 >"$port" 2>/tmp/relay.log &
relay=$!
if (cd /tmp && rt-app /opt/gb/workload.json >/tmp/rt-app.log 2>&1); then ok rt_app_runs_the_workload
else not_ok rt_app_runs_the_workload "$(tail -n 5 /tmp/rt-app.log)"; fi
say "rt-app done; stopping scx_gearbox"
kill -INT $pid
wait $pid
rc=$?
if [ $rc = 0 ]; then ok scx_gearbox_stops_on_sigint_with_0
else not_ok scx_gearbox_stops_on_sigint_with_0 "status $rc" "$(tail -n 5 /tmp/gb.log)"; fi
wait $relay
rc=$?
if [ $rc = 0 ]; then ok relay_forwards_the_stream_until_it_ends
else not_ok relay_forwards_the_stream_until_it_ends "status $rc" "$(cat /tmp/relay.log)"; fi
exit $fail
