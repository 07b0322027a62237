#!/usr/bin/env bash
# tests/vm-arm64/arm64-dt.sh - a device tree for qemu's arm64 virt machine that describes the
# SoC of an em-profile, so that the kernel sees CPUs of different capacities.
#
#   arm64-dt.sh MODEL.json QEMU.dtb OUT.dtb
#
# QEMU.dtb is qemu's own tree (`-machine virt,dumpdtb=QEMU.dtb` with the same -smp and -m as the
# boot).  Every CPU of the model gets capacity-dmips-mhz = its domain's capacity (the perf of the
# domain's highest OPP), and /cpus/cpu-map is replaced by one cluster per model domain.  The
# guest has no cpufreq and the CPU nodes no clocks, so the kernel's
# topology_normalize_cpu_scale() scales capacity-dmips-mhz alone to 1024 at the fastest CPU:
# cpuN/cpu_capacity shows the model's capacities (a model's fastest domain is 1024), and the
# scheduler domains become asymmetric (SD_ASYM_CPUCAPACITY).  (`gearbox em export --dt` writes
# a board's tree, where capacity-dmips-mhz is scaled by each domain's highest frequency.)
# Needs fdtget/fdtput (device-tree-compiler) and python3.  Exit status 1 when the model does
# not fit qemu's tree (more CPUs than it has), 2 on bad usage.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: arm64-dt.sh MODEL.json QEMU.dtb OUT.dtb" >&2; exit 2; }
model=$1 in=$2 out=$3
# "CPU DOMAIN CAPACITY" per model CPU
layout=$(python3 - "$model" <<'PY'
import json, sys
def cpus(s):
    out = []
    for part in s.split(','):
        a, _, b = part.partition('-')
        out += range(int(a), int(b or a) + 1)
    return out
m = json.load(open(sys.argv[1]))
for d, dom in enumerate(m['domains']):
    cap = dom['opps'][-1]['perf']
    for c in cpus(dom['cpus']):
        print(c, d, cap)
PY
) || { echo "arm64-dt.sh: $model: not an em-profile with domains, cpus and opps" >&2; exit 1; }
tmp="$out.tmp"
cp "$in" "$tmp"
fdtput -r "$tmp" /cpus/cpu-map 2>/dev/null || true
# new phandles above every CPU node's
max=0
for node in $(fdtget -l "$tmp" /cpus); do
	for p in $(fdtget -t x "$tmp" "/cpus/$node" phandle 2>/dev/null); do
		[ $((16#$p)) -gt $max ] && max=$((16#$p))
	done
done
while read -r cpu dom cap; do
	node=/cpus/cpu@$cpu
	fdtget "$tmp" "$node" reg >/dev/null 2>&1 ||
		{ echo "arm64-dt.sh: the model's CPU $cpu is not in $in" >&2; rm -f "$tmp"; exit 1; }
	fdtput -t u "$tmp" "$node" capacity-dmips-mhz "$cap"
	ph=$(fdtget -t x "$tmp" "$node" phandle 2>/dev/null || true)
	if [ -z "$ph" ]; then
		max=$((max + 1)); ph=$(printf '%x' $max)
		fdtput -t x "$tmp" "$node" phandle "$ph"
	fi
	core=$(fdtget -l "$tmp" "/cpus/cpu-map/cluster$dom" 2>/dev/null | wc -l || true)
	fdtput -c -p "$tmp" "/cpus/cpu-map/cluster$dom/core$core"
	fdtput -t x "$tmp" "/cpus/cpu-map/cluster$dom/core$core" cpu "$ph"
done <<<"$layout"
mv "$tmp" "$out"
