#!/usr/bin/env bash
# tests/vm-arm64/test-vm-arm64.sh - one arm64 guest run of the vm-arm64 suite.
#
#   test-vm-arm64.sh SOURCE_ROOT BUILD_ROOT NAME GUEST-SCRIPT [ARGS]
#
# Builds the static aarch64 programs with scripts/release (build directory
# BUILD_ROOT/release-build/aarch64, shared with the release suite) and gb-sched-probe and
# gb-live-relay there, then boots the sid arm64 kernel on vm4.json's SoC (vm-run-arm64) with
# scx_gearbox, gearbox-check, gb-sched-probe, gb-live-relay, vm4.json, vm2.json and
# vm4-caps.json (vm4.json with CPU 1 in domain mid) in /opt/gb.  The guest script gets ARGS; the word @CAPS@ becomes the model's
# capacity of each CPU, @CLUSTERS@ each CPU's domain as a CPU list.
set -uo pipefail
src=$1 build=$2 name=$3 guest=$4
shift 4
# shellcheck source=../../scripts/lib/deps.sh
. "$src/scripts/lib/deps.sh"
out=$build/vm-arm64
mkdir -p "$out"
"$src/scripts/release" --arch aarch64 -o "$out/release" --build-dir "$build/release-build" \
	>"$out/$name.release.log" 2>&1 ||
	{ echo "Bail out! scripts/release --arch aarch64 failed"; tail -n 20 "$out/$name.release.log" | sed 's/^/# /'; exit 1; }
b=$build/release-build/aarch64
ninja -C "$b" tests/sched/gb-sched-probe tests/live/gb-live-relay >"$out/$name.ninja.log" 2>&1 ||
	{ echo "Bail out! building gb-sched-probe and gb-live-relay for aarch64 failed"; tail -n 20 "$out/$name.ninja.log" | sed 's/^/# /'; exit 1; }
pkg=$(cat "$GB_CACHE/vm-arm64/kernel-package" 2>/dev/null) ||
	{ echo "Bail out! no arm64 kernel in $GB_CACHE/vm-arm64 (scripts/lib/cross.sh sets it up)"; exit 1; }
model=$src/tests/sched/vm4.json
read -r caps clusters < <(python3 - "$model" "$out/vm4-caps.json" <<'PY'
import json, sys
def cpus(s):
    out = []
    for part in s.split(','):
        a, _, b = part.partition('-')
        out += range(int(a), int(b or a) + 1)
    return out
m = json.load(open(sys.argv[1]))
cap, cl = {}, {}
for d in m['domains']:
    for c in cpus(d['cpus']):
        cap[c] = str(d['opps'][-1]['perf'])
        cl[c] = d['cpus']
n = max(cap) + 1
print(','.join(cap[c] for c in range(n)), ','.join(cl[c] for c in range(n)))
# CPU 1 moved from little into mid
m['domains'][0]['cpus'] = '0'
m['domains'][1]['cpus'] = '1-2'
m['soc'] = 'vm4-caps'
json.dump(m, open(sys.argv[2], 'w'), indent=2)
PY
)
args=()
for a in "$@"; do
	case $a in
	@CAPS@) args+=("${caps//,/ }") ;;
	@CLUSTERS@) args+=("${clusters//,/ }") ;;
	*) args+=("$a") ;;
	esac
done
exec "$src/tests/vm-arm64/vm-run-arm64" --kernel "$GB_CACHE/vm-arm64/$pkg/Image" \
	--busybox "$GB_CACHE/arm64/busybox" --model "$model" --outdir "$out" --name "$name" \
	--timeout "${GB_VM_ARM64_TIMEOUT:-1500}" \
	--add "$b/src/sched/scx_gearbox" --add "$b/src/check/gearbox-check" \
	--add "$b/tests/sched/gb-sched-probe" --add "$b/tests/live/gb-live-relay" --add "$model" --add "$src/tests/sched/vm2.json" \
	--add "$out/vm4-caps.json" -- "$guest" ${args[@]+"${args[@]}"}
