#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# test_profile_cli.sh - `gearbox profile` as a user runs it against the simulated SoC: the
# model it writes, the report, the summary, and the errors for bad usage; and reading this
# machine's kernel EM (--show-kernel-em), through netlink and debugfs.
#
#   test_profile_cli.sh GEARBOX SRCDIR
set -u
GEARBOX=$1
SRC=$2
N=0
FAILED=0
ok() { N=$((N + 1)); echo "ok $N - $1"; }
fail() { N=$((N + 1)); FAILED=$((FAILED + 1)); echo "not ok $N - $1"; shift; for l in "$@"; do echo "# $l"; done; }
check() { if eval "$2"; then ok "$1"; else fail "$1" "failed: $2" "$(head -c 600 $WORK/err 2>/dev/null)"; fi; }
WORK=$(mktemp -d /tmp/gb-profile-cli.XXXXXX)
export GEARBOX_PROFILE_LOCK=$WORK/profile.lock
trap 'rm -rf "$WORK"' EXIT

"$GEARBOX" profile --help >$WORK/out.help 2>$WORK/err
check help_exits_0_and_shows_usage '[ $? = 0 ] && grep -q "usage: gearbox profile" $WORK/out.help && grep -q -- "--restore" $WORK/out.help'

"$GEARBOX" profile --sim "$SRC/em-profiles/sm8250.json" -o $WORK/sm8250.json --report $WORK/rep \
	>$WORK/out 2>$WORK/err
rc=$?
check sim_profile_exits_0 '[ $rc = 0 ]'
check sim_profile_is_a_valid_em_profile '"$GEARBOX" em validate $WORK/sm8250.json >/dev/null 2>&1'
check sim_profile_reports_simulated_wall_time 'grep -q "^profile: simulated wall time [0-9.]* s$" $WORK/err'
check sim_profile_warns_about_the_opp_that_did_not_apply 'grep -q "big 1977600 kHz did not apply" $WORK/err'
check sim_profile_records_provenance_and_spread 'grep -q "\"source\": \"sim\"" $WORK/sm8250.json && grep -q "\"spread\"" $WORK/sm8250.json && grep -q temp_max_mc $WORK/sm8250.json'
check report_svg_marks_inefficient_opps 'grep -q "class=\"inefficient\"" $WORK/rep/power-perf.svg && grep -q "</svg>" $WORK/rep/power-perf.svg'
check report_compares_with_ground_truth 'grep -q "against the simulated model (ground truth)" $WORK/rep/comparison.txt && grep -q "not applied: big 1977600 kHz" $WORK/rep/comparison.txt'
check model_and_report_record_the_iteration_fallback 'grep -q "\"perf_source\": \"iterations\"" $WORK/sm8250.json && grep -q "^performance: load iterations per second" $WORK/rep/comparison.txt && grep -q "^profile: performance from load iterations" $WORK/err'
check report_says_cycles_not_counted_per_opp '[ $(grep -c "^little .* not counted$" $WORK/rep/comparison.txt) = 17 ]'
check model_records_the_simulated_duration 'grep -q "\"duration_ms\": [1-9][0-9]*," $WORK/sm8250.json && grep -q "^profile time: [0-9.]* s (simulated wall time" $WORK/rep/comparison.txt'
check non_tty_progress_is_plain_lines_with_an_eta_beside_the_counter 'grep -q "^profile: 1/55 (ETA [0-9]*m[0-5][0-9]s) little 300000 kHz: " $WORK/err && grep -q "^profile: 55/55 (ETA 0m00s) " $WORK/err && ! grep -q $'"'"'\r'"'"' $WORK/err'

# --sim-gauge: a fuel gauge as the power source, named in the model; bad values exit 2 and
# write nothing
"$GEARBOX" profile --sim "$SRC/em-profiles/sm7250ab.json" --sim-stuck none --sim-gauge 100 -q \
	-o $WORK/gauge.json >$WORK/out 2>$WORK/err
rc=$?
check sim_gauge_profile_names_its_meter '[ $rc = 0 -o $rc = 3 ] && grep -q "simulated fuel gauge (updates every 100 ms, windows of at least 500 ms)" $WORK/gauge.json'
for bad in 5 6000 100.5 x; do
	"$GEARBOX" profile --sim "$SRC/em-profiles/sm7250ab.json" --sim-gauge $bad -q -o $WORK/bad.json \
		>$WORK/out 2>$WORK/err
	check "sim_gauge_${bad/./_}_is_refused_with_exit_2" '[ $? = 2 ] && grep -q -- "--sim-gauge" $WORK/err && [ ! -e $WORK/bad.json ]'
done
"$GEARBOX" profile --sim "$SRC/em-profiles/sm7250ab.json" --sim-gauge 100 --sim-energy-counter -q \
	-o $WORK/bad.json >$WORK/out 2>$WORK/err
check sim_gauge_with_an_energy_counter_is_refused '[ $? = 2 ] && grep -q "one meter" $WORK/err && [ ! -e $WORK/bad.json ]'

"$GEARBOX" profile --sim "$SRC/em-profiles/sm8250.json" --sim-cycles --sim-instructions \
	-o $WORK/instr.json --report $WORK/rep-instr >$WORK/out 2>$WORK/err
check sim_instructions_are_the_perf_source_and_cycles_are_checked_per_opp '[ $? = 0 ] && grep -q "\"perf_source\": \"instructions\"" $WORK/instr.json && grep -q "^big  *1977600 .* MHz: OFF, not applied$" $WORK/rep-instr/comparison.txt && [ $(grep -c "MHz: match$" $WORK/rep-instr/comparison.txt) = 54 ] && grep -q "instr/s, cycles 300.0 MHz match" $WORK/err'

"$GEARBOX" profile --sim "$SRC/em-profiles/gs101.json" --split-cpus 4 --sim-static 30 -o $WORK/split.json \
	--report $WORK/rep-split >$WORK/out 2>$WORK/err
check split_cpus_writes_a_valid_model_with_a_split_per_opp '[ $? = 0 ] && "$GEARBOX" em validate $WORK/split.json >/dev/null 2>&1 && [ $(grep -c "\"split\": { \"static_uw\": [0-9]*, \"dynamic_uw\": [0-9]*, \"cpus\": [24] }" $WORK/split.json) = 42 ]'
check split_is_in_the_progress_lines_and_the_report 'grep -q "^profile: 1/43 (ETA [0-9]*m[0-9]*s) little 300000 kHz: .*, static [0-9.]* + 4 x [0-9.]* mW" $WORK/err && grep -q "^split: with k CPUs busy" $WORK/rep-split/comparison.txt && grep -q "static/dynamic split from 1 and 4 busy CPUs" $WORK/split.json'
"$GEARBOX" profile --sim "$SRC/em-profiles/gs101.json" --split-cpus 1 >$WORK/out 2>$WORK/err
check split_cpus_below_2_exits_2 '[ $? = 2 ] && grep -q -- "--split-cpus '"'"'1'"'"'" $WORK/err'

# An OPP stuck at its neighbour's frequency 2.2% below it (zuma's mid 712 MHz at 697 MHz): within
# the 3% tolerance of both, told apart by which one its cycles (or its rate) are nearer to.
for pmu in "" --sim-cycles; do
	"$GEARBOX" profile --sim "$SRC/em-profiles/zuma.json" --sim-stuck 1:3 $pmu -o $WORK/zuma.json \
		>$WORK/out 2>$WORK/err
	rc=$?
	check stuck_opp_2pct_from_its_neighbour_is_left_out${pmu:+_with_cycles} \
		'[ $rc = 0 ] && grep -q "mid 712000 kHz did not apply" $WORK/err && ! grep -q "\"freq_khz\": 712000" $WORK/zuma.json && grep -q "\"freq_khz\": 697000" $WORK/zuma.json'
done
# A board whose power at one OPP is below the previous OPP's (real measurements have it): the
# pair is measured again, twice; still out of order, the model is written with the OPP kept,
# its power fitted and the measured means in "raw", the report says so, and the status is 3.
python3 - "$SRC/em-profiles/sm8250.json" $WORK/dip.json <<'EOF2'
import json, sys
m = json.load(open(sys.argv[1]))
o = m["domains"][0]["opps"]
o[5]["power_uw"] = int(o[4]["power_uw"] * 0.9)
json.dump(m, open(sys.argv[2], "w"))
EOF2
"$GEARBOX" profile --sim $WORK/dip.json --sim-stuck none -o $WORK/dip-out.json --report $WORK/rep-dip \
	>$WORK/out 2>$WORK/err
rc=$?
check out_of_order_opp_is_measured_again_twice '[ $(grep -c "^profile: .* little 787200 kHz again (out of order)" $WORK/err) = 2 ]'
check out_of_order_opp_exits_3_with_the_model_written_and_a_warning \
	'[ $rc = 3 ] && grep -q "^profile: warning: little 787200 kHz: power not above the previous OPP.s after 3 measurements" $WORK/err && "$GEARBOX" em validate --strict $WORK/dip-out.json >/dev/null 2>&1'
check out_of_order_opp_is_marked_in_the_model_and_the_report \
	'grep -q "\"freq_khz\": 787200, .*\"raw\": { \"power_uw\": " $WORK/dip-out.json && grep -q "little 787200 kHz power out of order after 3 measurements" $WORK/dip-out.json && grep -q "^out of order: little 787200 kHz, power not above" $WORK/rep-dip/comparison.txt'

# --- interrupted, then resumed -------------------------------------------------------------
# A simulated profile is stopped by SIGTERM part-way (its stderr is a one-page pipe that python
# leaves full, so the profiler blocks on a progress line until the signal is sent), then
# resumed: the OPPs measured before are taken from the progress file as they were (their power
# is that of an uninterrupted run with the same seed, to the microwatt), only the rest is
# measured, and the model is complete.
"$GEARBOX" profile --sim "$SRC/em-profiles/sm8250.json" --sim-stuck none -o $WORK/whole.json \
	>$WORK/out 2>$WORK/err
python3 - "$GEARBOX" "$SRC/em-profiles/sm8250.json" $WORK >$WORK/py 2>&1 <<'EOF2'
import fcntl, os, signal, subprocess, sys, termios, time, array
gearbox, model, work = sys.argv[1:4]
r, w = os.pipe()
fcntl.fcntl(w, 1031, 4096)                     # F_SETPIPE_SZ: one page
p = subprocess.Popen([gearbox, "profile", "--sim", model, "--sim-stuck", "none",
                      "--progress", work + "/progress", "-o", work + "/part.json"], stderr=w)
os.close(w)
def pending():
    buf = array.array("i", [0])
    fcntl.ioctl(r, termios.FIONREAD, buf)
    return buf[0]
# full: no room for another progress line; the profiler waits in write()
last, still = -1, 0
while still < 20 and p.poll() is None:
    n = pending()
    still = still + 1 if n == last and n > 4096 - 200 else 0
    last = n
    time.sleep(0.05)
p.send_signal(signal.SIGTERM)
err = b""
while True:
    chunk = os.read(r, 65536)
    if not chunk:
        break
    err += chunk
rc = p.wait()
open(work + "/err-part", "wb").write(err)
print(rc)
EOF2
rc=$(tail -1 $WORK/py)
done_before=$(grep -c "^profile: [0-9]*/55 " $WORK/err-part)
echo "# SIGTERM after $done_before of 55 OPPs"
check interrupted_profile_exits_1_and_keeps_its_progress \
	'[ "$rc" = 1 ] && grep -q "interrupted by signal 15; the OPPs measured so far are in $WORK/progress: --resume continues" $WORK/err-part && [ -s $WORK/progress -a ! -e $WORK/part.json ] && [ $done_before -gt 0 -a $done_before -lt 55 ]'
"$GEARBOX" profile --sim "$SRC/em-profiles/sm8250.json" --sim-stuck none --progress $WORK/progress \
	--resume -o $WORK/resumed.json >$WORK/out 2>$WORK/err
rc=$?
check resumed_profile_measures_only_the_rest \
	'[ $rc = 0 ] && grep -q "^profile: resuming $WORK/progress: $done_before of 55 OPPs measured before" $WORK/err && [ $(grep -c "^profile: [0-9]*/55 " $WORK/err) = $((55 - done_before)) ] && [ ! -e $WORK/progress ]'
python3 - $WORK/whole.json $WORK/resumed.json $done_before >$WORK/py 2>&1 <<'EOF2'
import json, sys
whole, resumed = (json.load(open(f)) for f in sys.argv[1:3])
before = int(sys.argv[3])
w = [o for d in whole["domains"] for o in d["opps"]]
r = [o for d in resumed["domains"] for o in d["opps"]]
assert len(w) == len(r) == 55, "every OPP in both"
for i, (a, b) in enumerate(zip(w, r)):
    assert a["freq_khz"] == b["freq_khz"]
    if i < before:
        assert a["power_uw"] == b["power_uw"], "OPP %d taken from the progress file" % i
    else:
        assert abs(a["power_uw"] - b["power_uw"]) <= 0.03 * a["power_uw"], "OPP %d within 3%%" % i
    assert abs(a["perf"] - b["perf"]) <= 0.01 * a["perf"] + 1, "OPP %d perf" % i
EOF2
check resumed_model_equals_the_uninterrupted_one '[ $? = 0 ]'
[ -s $WORK/py ] && sed 's/^/# /' $WORK/py
"$GEARBOX" profile --sim "$SRC/em-profiles/gs101.json" --progress $WORK/nothing --resume \
	>$WORK/out 2>$WORK/err
check resume_without_progress_exits_2 '[ $? = 2 ] && grep -q "nothing to resume: $WORK/nothing does not exist" $WORK/err'
"$GEARBOX" profile --sim "$SRC/em-profiles/gs101.json" --resume >$WORK/out 2>$WORK/err
check sim_resume_needs_a_progress_file '[ $? = 2 ] && grep -q -- "--resume with --sim needs --progress FILE" $WORK/err'

"$GEARBOX" profile --sim "$SRC/em-profiles/gs101.json" -q --sim-stuck none >$WORK/out 2>$WORK/err
check quiet_writes_the_model_to_stdout_and_nothing_else '[ $? = 0 ] && [ ! -s $WORK/err ] && grep -q "\"format\": \"gearbox-em/1\"" $WORK/out'

"$GEARBOX" profile --sim $WORK/missing.json -q >$WORK/out 2>$WORK/err
check missing_model_exits_2_naming_it '[ $? = 2 ] && grep -q "missing.json" $WORK/err'
"$GEARBOX" profile --sim "$SRC/em-profiles/gs101.json" --target abc >$WORK/out 2>$WORK/err
check bad_target_exits_2_naming_the_option '[ $? = 2 ] && grep -q -- "--target '"'"'abc'"'"'" $WORK/err'
"$GEARBOX" profile --sim "$SRC/em-profiles/gs101.json" --perf-source cycles >$WORK/out 2>$WORK/err
check bad_perf_source_exits_2_listing_the_choices '[ $? = 2 ] && grep -q -- "--perf-source '"'"'cycles'"'"': auto, instructions or iterations" $WORK/err'
"$GEARBOX" profile --sim "$SRC/em-profiles/gs101.json" stray >$WORK/out 2>$WORK/err
check stray_argument_exits_2 '[ $? = 2 ] && grep -q "unexpected argument" $WORK/err'
"$GEARBOX" profile --sim "$SRC/em-profiles/gs101.json" --kernel-em sysfs >$WORK/out 2>$WORK/err
check bad_kernel_em_source_exits_2_listing_the_choices '[ $? = 2 ] && grep -q -- "--kernel-em '"'"'sysfs'"'"': auto, netlink, debugfs or none" $WORK/err'
check help_names_the_kernel_em_sources 'grep -q -- "--kernel-em SRC" $WORK/out.help && grep -q "dev-energymodel netlink family" $WORK/out.help && grep -q -- "--show-kernel-em" $WORK/out.help'

# The kernel's EM through netlink, on this machine's real kernel.  Whether the kernel has the
# dev-energymodel family is asked independently of gearbox (nlctrl, from python), then
# gearbox must agree: no family -> exit 2 naming the family and this kernel, nothing written;
# a family -> a model, or (x86, no EM registered) exit 2 saying there are 0 perf domains.
family=$(python3 - 2>/dev/null <<'EOF'
import socket, struct
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)   # NETLINK_GENERIC
s.bind((0, 0))
name = b"dev-energymodel\0"
attr = struct.pack("HH", 4 + len(name), 2) + name + b"\0" * (-len(name) % 4)
payload = struct.pack("BBH", 3, 2, 0) + attr                # CTRL_CMD_GETFAMILY
s.send(struct.pack("IHHII", 16 + len(payload), 0x10, 1, 1, 0) + payload)
r = s.recv(65536)
t = struct.unpack("H", r[4:6])[0]
print("absent" if t == 2 and struct.unpack("i", r[16:20])[0] == -2 else "present" if t == 0x10 else "unknown")
EOF
)
echo "# dev-energymodel family in this kernel ($(uname -r)), asked with python: ${family:-no answer}"
"$GEARBOX" profile --show-kernel-em --kernel-em netlink -o $WORK/kem.json >$WORK/out 2>$WORK/err
rc=$?
case $family in
absent) check netlink_kernel_em_without_the_family_exits_2_naming_it_and_the_kernel \
	'[ $rc = 2 ] && grep -q "no kernel EM: netlink: the kernel has no \"dev-energymodel\" generic netlink family" $WORK/err && grep -q -- "this kernel is $(uname -r)" $WORK/err && [ ! -e $WORK/kem.json ]' ;;
present) check netlink_kernel_em_with_the_family_gives_a_model_or_says_none \
	'{ [ $rc = 0 ] && "$GEARBOX" em validate $WORK/kem.json >/dev/null 2>&1; } || { [ $rc = 2 ] && grep -q "perf domains, none of CPUs" $WORK/err; }' ;;
*) N=$((N + 1)); echo "ok $N - netlink_kernel_em # SKIP python could not ask nlctrl" ;;
esac
sed 's/^/# gearbox: /' $WORK/err
"$GEARBOX" profile --show-kernel-em --kernel-em debugfs --sysfs-cpu $WORK >$WORK/out 2>$WORK/err
rc=$?
if [ -d /sys/kernel/debug/energy_model ]; then
	N=$((N + 1)); echo "ok $N - debugfs_kernel_em_absent_exits_2 # SKIP this machine has a debugfs EM"
else
	check debugfs_kernel_em_absent_exits_2_saying_what_it_needs '[ $rc = 2 ] && grep -q "debugfs: no /sys/kernel/debug/energy_model (needs CONFIG_ENERGY_MODEL and debugfs mounted)" $WORK/err'
fi

"$GEARBOX" profile --restore --state $WORK/nostate >$WORK/out 2>$WORK/err
check restore_without_state_is_a_no_op '[ $? = 0 ] && grep -q "nothing to restore" $WORK/err'

echo "1..$N"
[ $FAILED = 0 ]
