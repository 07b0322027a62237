#!/usr/bin/env bash
# test_em_cli.sh GEARBOX SRCDIR - `gearbox em` from the outside: every bad-input case exits 2
# with one "FILE: domain N, OPP M: reason" line and writes nothing; the good paths work.
set -u
G=$1
SRC=$2
. "$SRC/tests/cli/tap.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# a valid base profile to mutate: little 0-1 (2 OPPs), big 2-3 (2 OPPs)
base() {
	cat <<JSON
{ "format": "gearbox-em/1", "soc": "t", "provenance": { "source": "manual" },
  "domains": [
    { "name": "little", "cpus": "${C0:-0-1}", "opps": [
      { "freq_khz": ${F0:-500000}, "power_uw": ${P0:-20000}, "perf": ${Q0:-100} },
      { "freq_khz": ${F1:-1000000}, "power_uw": ${P1:-50000}, "perf": ${Q1:-200} } ] },
    { "name": "big", "cpus": "${C1:-2-3}", "opps": [
      { "freq_khz": 1000000, "power_uw": 200000, "perf": 512 },
      { "freq_khz": 2000000, "power_uw": 800000, "perf": ${Q3:-1024} } ] } ] }
JSON
}

# expect_bad NAME EXPECTED-MESSAGE [VAR=VALUE...]: the mutated profile is rejected by
# validate (exit 2, message) and by export -o (exit 2, no output file).
expect_bad() {
	local name=$1 msg=$2; shift 2
	env "$@" bash -c "$(declare -f base); base" >"$T/in.json"
	expect_bad_file "$name" "$msg" "$T/in.json"
}

expect_bad_file() {
	local name=$1 msg=$2 f=$3 out rc
	out=$("$G" em validate "$f" 2>&1); rc=$?
	rm -f "$T/out.dts"
	"$G" em export --dt "$f" -o "$T/out.dts" >/dev/null 2>&1; rc2=$?
	if [ $rc -eq 2 ] && [ $rc2 -eq 2 ] && grep -qF -- "$msg" <<<"$out" && [ ! -e "$T/out.dts" ] &&
		[ "$(grep -c . <<<"$out")" -eq "${NLINES:-1}" ] && ! ls "$T" | grep -q tmp; then
		tap_ok "$name"
	else
		tap_fail "$name" "validate exit $rc, export exit $rc2, expected 2 and: $msg" "got: $out"
	fi
}

base >"$T/good.json"
if out=$("$G" em validate "$T/good.json" 2>&1) && grep -q "ok: t, 2 perf domains, 4 CPUs" <<<"$out"; then
	tap_ok "a valid profile validates"
else
	tap_fail "a valid profile validates" "$out"
fi

printf '{ "format": "gearbox-em/1", "soc": ' >"$T/trunc.json"
expect_bad_file "malformed JSON is rejected with line and column" "trunc.json: line 1, column" "$T/trunc.json"
echo '{"format":"gearbox-em/1","soc":"t","provenance":{"source":"m"},"domains":[{"cpus":"0","opps":[{"freq_khz":1,"power_uw":1,"perf":1}]}],"soc":"u"}' >"$T/dup.json"
expect_bad_file "duplicate keys are rejected" "duplicate object key" "$T/dup.json"
echo '{"soc":"t"}' >"$T/nofmt.json"
expect_bad_file "a missing format field is named" 'missing field "format"' "$T/nofmt.json"
sed 's/gearbox-em\/1/gearbox-em\/9/' "$T/good.json" >"$T/v9.json"
expect_bad_file "an unsupported format version is named" 'format "gearbox-em/9" is not supported' "$T/v9.json"
sed 's/"power_uw": 50000/"power_mw": 50/' "$T/good.json" >"$T/typo.json"
# two errors: the unknown field, and the power it did not give
NLINES=2 expect_bad_file "a misspelt field is an error, not a silent default" 'domain 0, OPP 1: unknown field "power_mw"' "$T/typo.json"
expect_bad "a mistyped field is rejected" 'domain 0, OPP 0: "power_uw" must be an integer' P0='"20000"'
expect_bad "a fractional value is rejected" 'domain 0, OPP 1: "perf" must be an integer, not 200.5' Q1=200.5
expect_bad "frequency not increasing" "domain 0, OPP 1: frequency 400000 kHz does not increase" F1=400000
expect_bad "performance not increasing" "domain 0, OPP 1: perf 90 does not increase with frequency" Q1=90
expect_bad "zero power" 'domain 0, OPP 0: "power_uw" is 0, must be in 1..64000000' P0=0
expect_bad "negative power" 'domain 0, OPP 0: "power_uw" is -5, must be in 1..64000000' P0=-5
expect_bad "performance above 1024" 'domain 1, OPP 1: "perf" is 1100, must be in 1..1024' Q3=1100
expect_bad "a CPU in two domains" "domain 1: CPU 1 is already in domain 0" C1=1-3
expect_bad "a CPU id above the limit" "domain 1: cpus: bad CPU list" C1=2-300

# counts above the limits
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
def dom(cpus, n, base=1):
    return {"cpus": cpus, "opps": [{"freq_khz": 1000 * (i + 1), "power_uw": 1000 * (i + 1), "perf": base + i} for i in range(n)]}
p = {"format": "gearbox-em/1", "soc": "x", "provenance": {"source": "manual"}}
json.dump(dict(p, domains=[dom(str(i), 2, 10 * i + 1) for i in range(65)]), open(t + "/d65.json", "w"))
json.dump(dict(p, domains=[dom("0", 33)]), open(t + "/o33.json", "w"))
PY
expect_bad_file "more than 64 domains" "65 perf domains, at most 64 are supported" "$T/d65.json"
expect_bad_file "more than 32 OPPs" "domain 0: 33 OPPs, at most 32 are supported" "$T/o33.json"

# every error of a file is reported, one line each, not only the first
F0=400000 P0=0 Q3=1100 C1=1-3 bash -c "$(declare -f base); base" >"$T/many.json"
out=$("$G" em validate "$T/many.json" 2>&1); rc=$?
if [ $rc -eq 2 ] && [ "$(grep -c '^gearbox em: error: .*many.json: ' <<<"$out")" -eq 3 ] &&
	grep -q 'domain 0, OPP 0: "power_uw" is 0' <<<"$out" &&
	grep -q 'domain 1, OPP 1: "perf" is 1100' <<<"$out" &&
	grep -q 'domain 1: CPU 1 is already in domain 0' <<<"$out"; then
	tap_ok "validate reports every error of a file"
else
	tap_fail "validate reports every error of a file" "exit $rc: $out"
fi

# an OPP that did not apply (perf flat while frequency rises): a warning, an error with --strict
Q1=102 F1=600000 bash -c "$(declare -f base); base" >"$T/flat.json"
out=$("$G" em validate "$T/flat.json" 2>&1); rc=$?
out2=$("$G" em validate --strict "$T/flat.json" 2>&1); rc2=$?
if [ $rc -eq 0 ] && grep -q "warning: .*flat.json: domain 0, OPP 1: perf 102 at 600000 kHz rises 2.0% for 20.0% more frequency" <<<"$out" &&
	[ $rc2 -eq 2 ] && grep -q "error: .*flat.json: domain 0, OPP 1: .*the OPP most likely did not apply" <<<"$out2"; then
	tap_ok "an OPP whose perf stays flat is a warning, an error with --strict"
else
	tap_fail "an OPP whose perf stays flat is a warning, an error with --strict" "exit $rc: $out" "exit $rc2: $out2"
fi

# falling power: a warning, an error with --strict
P1=15000 bash -c "$(declare -f base); base" >"$T/fall.json"
out=$("$G" em validate "$T/fall.json" 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "warning: .*fall.json: domain 0, OPP 1: power 15000 uW does not rise" <<<"$out"; then
	tap_ok "power that does not rise with frequency is a warning"
else
	tap_fail "power that does not rise with frequency is a warning" "exit $rc: $out"
fi
out=$("$G" em validate --strict "$T/fall.json" 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "fall.json: domain 0, OPP 1: power 15000 uW does not rise" <<<"$out"; then
	tap_ok "--strict makes falling power an error"
else
	tap_fail "--strict makes falling power an error" "exit $rc: $out"
fi

# the shipped models validate, strictly
if out=$("$G" em validate --strict "$SRC"/em-profiles/*.json 2>&1); then
	tap_ok "every shipped model validates with --strict"
else
	tap_fail "every shipped model validates with --strict" "$out"
fi

# the shipped models are what the importer makes of the freqbench data (provenance is true)
FB="$SRC/../shared/data/freqbench"
if [ -f "$FB/sm8250.json" ]; then
	"$G" em import --freqbench "$FB/sm8250.json" --domains 0-3,4-6,7 -o "$T/sm8250.json" 2>/dev/null
	if out=$("$G" em diff --fail-above 0 "$SRC/em-profiles/sm8250.json" "$T/sm8250.json"); then
		tap_ok "em-profiles/sm8250.json is reproduced by importing the freqbench data"
	else
		tap_fail "em-profiles/sm8250.json is reproduced by importing the freqbench data" "$(tail -n 3 <<<"$out")"
	fi
else
	tap_skip "em-profiles/sm8250.json is reproduced by importing the freqbench data" "no ../shared/data/freqbench"
fi

# an OPP that did not apply in the freqbench data is left out with a warning (msm8998's big
# 2457.6 MHz scores what 2361.6 MHz does)
if [ -f "$FB/msm8998.json" ]; then
	"$G" em import --freqbench "$FB/msm8998.json" --domains 0-3,4-7 -o "$T/m.json" 2>"$T/err"; rc=$?
	if [ $rc -eq 0 ] && grep -q "warning: .*msm8998.json: cpu 4: 2457600 kHz left out: CoreMark rose 0.0% for 4.1%" "$T/err" &&
		! grep -q '"freq_khz": 2457600' "$T/m.json" && "$G" em validate --strict "$T/m.json" >/dev/null 2>&1; then
		tap_ok "import leaves out an OPP that did not apply, with a warning"
	else
		tap_fail "import leaves out an OPP that did not apply, with a warning" "exit $rc: $(cat "$T/err")"
	fi
else
	tap_skip "import leaves out an OPP that did not apply, with a warning" "no ../shared/data/freqbench"
fi

# show: inefficient marks and costs as the kernel computes them
out=$("$G" em show "$SRC/em-profiles/sm8250.json")
if grep -q "domain 0: little (Cortex-A55), CPUs 0-3" <<<"$out" && grep -q "inefficient" <<<"$out" &&
	grep -qE "^ +2841600 +985\.967 +1024 +9628" <<<"$out"; then
	tap_ok "show prints each domain with cost and inefficient marks"
else
	tap_fail "show prints each domain with cost and inefficient marks" "$(head -n 8 <<<"$out")"
fi

# show: each domain's transition latency and idle states, per CPU and cluster, as the file has them
out=$("$G" em show "$SRC/em-profiles/msm8998.json")
if grep -qE "^  idle states: static 23\.496 mW while any CPU is out of a cluster state$" <<<"$out" &&
	grep -qE "^    cpu +big-retention +4\.699 +79 +82 +1302$" <<<"$out" &&
	grep -qE "^    cluster +little-power-collapse +0\.000 +814 +4562 +9183$" <<<"$out" &&
	[ "$(grep -c "transition latency: not in the model" <<<"$out")" -eq 2 ] &&
	"$G" em show "$SRC/em-profiles/gs101.json" | grep -qE "^  transition latency: 500 us$" &&
	"$G" em show "$SRC/em-profiles/zuma.json" | grep -q "^  idle states: none"; then
	tap_ok "show prints each domain's transition latency and idle states"
else
	tap_fail "show prints each domain's transition latency and idle states" "$(sed -n 28,36p <<<"$out")"
fi

# show: an OPP's static/dynamic split (gearbox profile --split-cpus) next to its power
sed 's/"power_uw": 20000, "perf": 100 }/"power_uw": 20000, "perf": 100, "split": { "static_uw": 6000, "dynamic_uw": 14000, "cpus": 2 } }/' \
	"$T/good.json" >"$T/split.json"
out=$("$G" em show "$T/split.json")
if grep -qE "^ +500000 +20\.000 +100 .*split 6\.000 static \+ 14\.000 dynamic mW \(2 CPUs\)$" <<<"$out" &&
	[ "$(grep -c "split" <<<"$out")" -eq 1 ]; then
	tap_ok "show prints an OPP's static/dynamic split"
else
	tap_fail "show prints an OPP's static/dynamic split" "$(head -n 6 <<<"$out")"
fi

# fmt is the identity on what gearbox wrote
if "$G" em fmt "$SRC/em-profiles/gs101.json" | cmp -s - "$SRC/em-profiles/gs101.json"; then
	tap_ok "fmt of a shipped model gives the same bytes"
else
	tap_fail "fmt of a shipped model gives the same bytes"
fi

# diff of a model against a 10% hotter copy
sed -E 's/"power_uw": ([0-9]+), "perf"/"power_uw": \1X, "perf"/' "$SRC/em-profiles/msm8998.json" |
	perl -pe 's/(\d+)X/int($1*1.1+0.5)/ge' >"$T/hot.json"
out=$("$G" em diff "$SRC/em-profiles/msm8998.json" "$T/hot.json"); rc=$?
if [ $rc -eq 0 ] && grep -q "largest difference: power 10.0%, perf 0.0%" <<<"$out" && grep -q "+10.0%" <<<"$out"; then
	tap_ok "diff reports per-OPP power differences in percent"
else
	tap_fail "diff reports per-OPP power differences in percent" "$(tail -n 2 <<<"$out")"
fi
"$G" em diff --fail-above 5 "$SRC/em-profiles/msm8998.json" "$T/hot.json" >/dev/null; rc=$?
if [ $rc -eq 1 ]; then tap_ok "diff --fail-above fails on a larger difference"; else tap_fail "diff --fail-above fails on a larger difference" "exit $rc"; fi

# diff of idle states and transition latency: a copy without them, and one with some changed
python3 - "$SRC/em-profiles/msm8998.json" "$T" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for d in m["domains"]:
    d.pop("idle_states")
json.dump(m, open(sys.argv[2] + "/noidle.json", "w"))
m = json.load(open(sys.argv[1]))
big = m["domains"][1]["idle_states"]
big["static_uw"], big["cpu"][1]["power_uw"], big["cluster"] = 20000, 4000, []
m["domains"][0]["transition_latency_us"] = 300
json.dump(m, open(sys.argv[2] + "/idlemod.json", "w"))
PY
out=$("$G" em diff "$SRC/em-profiles/msm8998.json" "$T/noidle.json"); rc=$?
out2=$("$G" em diff "$SRC/em-profiles/msm8998.json" "$T/idlemod.json")
if [ $rc -eq 0 ] && [ "$(grep -c "^  idle states: only in A$" <<<"$out")" -eq 2 ] &&
	grep -q "transition latency differ in 2 domains$" <<<"$out" &&
	grep -q "^  transition latency: A not in the model, B 300 us$" <<<"$out2" &&
	grep -q "^  idle static: A 23.496 mW, B 20.000 mW$" <<<"$out2" &&
	grep -q "^  idle cpu\[1\]: A big-retention 4.699 mW 79/82/1302 us, B big-retention 4.000 mW 79/82/1302 us$" <<<"$out2" &&
	grep -q "^  idle cluster\[0\]: A big-power-collapse 0.000 mW 724/2027/9419 us, B -$" <<<"$out2" &&
	! grep -q "^  idle cpu\[0\]" <<<"$out2" &&
	"$G" em diff "$SRC/em-profiles/msm8998.json" "$T/hot.json" | grep -q "transition latency differ in 0 domains$"; then
	tap_ok "diff reports idle states and transition latency that differ"
else
	tap_fail "diff reports idle states and transition latency that differ" "$out2"
fi

# export --dt: a device tree that dtc compiles, with every OPP's opp-microwatt
"$G" em export --dt "$SRC/em-profiles/sm8250.json" -o "$T/s.dts"; rc=$?
if [ $rc -eq 0 ] && dtc -q -I dts -O dtb -o "$T/s.dtb" "$T/s.dts" 2>"$T/err" &&
	grep -q "opp-microwatt = <985967>;" "$T/s.dts" &&
	[ "$(grep -c "opp-hz" "$T/s.dts")" -eq "$(grep -c '"freq_khz"' "$SRC/em-profiles/sm8250.json")" ]; then
	tap_ok "export --dt is a device tree that dtc compiles, with every OPP"
else
	tap_fail "export --dt is a device tree that dtc compiles, with every OPP" "exit $rc: $(cat "$T/err")"
fi
# import --dt of it (the blob and the source): the same OPPs, power and capacities (the kernel's
# capacity-dmips-mhz normalisation gives them back)
ok=1
for f in s.dtb s.dts; do
	"$G" em import --dt "$T/$f" -o "$T/s-dt.json" 2>"$T/err" || { ok=0; cat "$T/err"; }
	out=$("$G" em diff "$SRC/em-profiles/sm8250.json" "$T/s-dt.json")
	grep -q "0 unmatched, 0 domains unmatched; largest difference: power 0.0%" <<<"$out" || { ok=0; tail -n 1 <<<"$out"; }
	caps=$("$G" em show "$T/s-dt.json" | sed -n 's/.*capacity \([0-9]*\).*/\1/p' | tr '\n' ' ')
	[ "$caps" = "286 876 1024 " ] || { ok=0; echo "# capacities $caps"; }
done
if [ $ok = 1 ]; then tap_ok "import --dt of the export gives the OPPs, power and capacities back"; else tap_fail "import --dt of the export gives the OPPs, power and capacities back"; fi
# voltages become opp-microvolt, and come back
"$G" em import --dt "$SRC/tests/unit/fixtures/rk3399-cpus.dts" -o "$T/rk.json" 2>"$T/err"; rc=$?
"$G" em export --dt "$T/rk.json" -o "$T/rk.dts" && "$G" em import --dt "$T/rk.dts" -o "$T/rk2.json" 2>>"$T/err"
if [ $rc -eq 0 ] && grep -q "opp-microvolt = <1250000>;" "$T/rk.dts" && dtc -q -O dtb -o /dev/null "$T/rk.dts" &&
	"$G" em diff --fail-above 0 "$T/rk.json" "$T/rk2.json" >/dev/null &&
	grep -q '"freq_khz": 2016000, "power_uw": 1373400, "perf": 1024, "voltage_uv": 1250000' "$T/rk2.json"; then
	tap_ok "a device tree with voltages round-trips through export --dt and import --dt"
else
	tap_fail "a device tree with voltages round-trips through export --dt and import --dt" "exit $rc: $(cat "$T/err")"
fi
printf '/dts-v1/;\n/ { cpus { };\n' >"$T/bad.dts"
"$G" em import --dt "$T/bad.dts" -o "$T/bad.json" 2>"$T/err"; rc=$?
if [ $rc -eq 2 ] && [ ! -e "$T/bad.json" ] && grep -q "error: .*bad.dts: dtc could not compile it" "$T/err"; then
	tap_ok "import --dt of a broken .dts exits 2 with dtc's reason and writes nothing"
else
	tap_fail "import --dt of a broken .dts exits 2 with dtc's reason and writes nothing" "exit $rc: $(cat "$T/err")"
fi

out=$("$G" em export --debugfs-text "$SRC/em-profiles/sm8250.json")
if grep -q "^cpu7/ps:2841600/power: 985967$" <<<"$out" && grep -q "^cpu0/ps:300000/inefficient: 1$" <<<"$out" && grep -q "^cpu4/cpus: 4-6$" <<<"$out"; then
	tap_ok "export --debugfs-text prints the debugfs files"
else
	tap_fail "export --debugfs-text prints the debugfs files"
fi

# import errors write nothing
"$G" em import --freqbench "$T/trunc.json" --domains 0-3 -o "$T/imp.json" 2>"$T/err"; rc=$?
if [ $rc -eq 2 ] && [ ! -e "$T/imp.json" ] && grep -q "trunc.json" "$T/err"; then
	tap_ok "a failed import writes no output"
else
	tap_fail "a failed import writes no output" "exit $rc: $(cat "$T/err")"
fi
"$G" em import --freqbench "$T/good.json" 2>"$T/err"; rc=$?
if [ $rc -eq 2 ] && grep -q -- "--domains" "$T/err"; then tap_ok "import without --domains is a usage error"; else tap_fail "import without --domains is a usage error" "exit $rc"; fi
"$G" em frobnicate 2>"$T/err"; rc=$?
if [ $rc -eq 2 ] && grep -q "unknown em command 'frobnicate'" "$T/err"; then tap_ok "an unknown em command is a usage error"; else tap_fail "an unknown em command is a usage error"; fi
if "$G" em --help | grep -q "gearbox em validate" && "$G" --help | grep -q "^  em "; then tap_ok "--help describes the em commands"; else tap_fail "--help describes the em commands"; fi

tap_done
