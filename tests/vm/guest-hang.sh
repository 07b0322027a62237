# tests/vm/guest-hang.sh - runs in the VM: guest-check.sh's --hang-after reports a gearbox check
# that runs past its limit, as TAP.  A whole check on scx_fifo takes 20-40 s under TCG, so with
# a limit of 3 s it is "hung" in one of its first checks (their load phases alone sleep far
# longer than 3 s, on any host: the report does not depend on the host's speed, only on the
# limit being wall-clock time): guest-check.sh must say so in a
# "not ok" naming the last check that ended, report sched_ext's state, end its TAP, exit 1 and
# not wait for gearbox check.
echo "1..4"
sh /opt/gb/guest-check.sh scx_fifo - --hang-after 3 scx_fifo >/tmp/hang.out 2>/tmp/hang.err
rc=$?
sed 's/^/# /' /tmp/hang.out
first=$(head -n 1 /tmp/hang.out)
case $first in
"not ok 1 - scx_fifo: gearbox check still running after 3 s, in the check after '"*"' (gearbox check's order)")
	echo "ok 1 - hang_reported_with_the_last_check_that_ended: $first" ;;
*) echo "not ok 1 - hang_reported_with_the_last_check_that_ended" ;;
esac
if grep -q '^# sched_ext state: ' /tmp/hang.out; then
	echo "ok 2 - hang_report_gives_the_sched_ext_state"
else echo "not ok 2 - hang_report_gives_the_sched_ext_state"; fi
if [ "$(tail -n 1 /tmp/hang.out)" = "1..1" ]; then echo "ok 3 - hang_report_ends_its_tap"
else echo "not ok 3 - hang_report_ends_its_tap"; fi
if [ "$rc" = 1 ]; then echo "ok 4 - hang_report_exits_1"
else echo "not ok 4 - hang_report_exits_1 # status $rc"; fi
exit 0
