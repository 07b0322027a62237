#!/usr/bin/env bash
# tests/release/test-release.sh - scripts/release gives, for aarch64 and for x86_64, a tarball
# whose binaries are static and run on another machine: the aarch64 ones under qemu-user
# (qemu-aarch64-static) with nothing of this host's libraries, the x86_64 ones natively with an
# empty environment (readelf shows they need no library).  For each: `gearbox em validate` of a
# shipped model (by path and by name, found beside the binary), `gearbox profile --sim` of the
# 4-CPU test model and `em validate` of its output; scx_gearbox and gearbox-check answer --help;
# the systemd unit names the installed binary.  Usage errors of scripts/release exit 2.
#
#   test-release.sh SOURCE_ROOT BUILD_ROOT
set -uo pipefail
src=$1 build=$2
. "$src/tests/cli/tap.sh"
# tap_check DESC CMD...: ok when CMD succeeds
tap_check() { local d=$1; shift; if "$@"; then tap_ok "$d"; else tap_fail "$d"; fi; }
# exited_with_output RC PATTERN OUTPUT: RC is 0 and OUTPUT has PATTERN
exited_with_output() { [ "$1" -eq 0 ] && grep -q -- "$2" <<<"$3"; }
work=$(mktemp -d /tmp/gb-release.XXXXXX)
trap 'rm -rf "$work"' EXIT

# check_arch ARCH MACHINE: build ARCH's tarball and check it; readelf names the machine MACHINE
check_arch() {
	local arch=$1 machine=$2 out rc tgz root f b
	"$src/scripts/release" --arch "$arch" -o "$work/out" --build-dir "$build/release-build" \
		>"$work/release-$arch.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || tail -n 30 "$work/release-$arch.log" | sed 's/^/# /'
	tap_check "release --arch $arch exits 0" test $rc -eq 0
	tgz=$(ls "$work/out"/gearbox-*-"$arch".tar.gz 2>/dev/null | head -n 1)
	tap_check "release wrote gearbox-VERSION-$arch.tar.gz" test -s "$tgz"
	tar -xzf "$tgz" -C "$work" 2>/dev/null
	root=$(ls -d "$work"/gearbox-*-"$arch" 2>/dev/null | head -n 1)
	root=${root:-$work/none}
	for f in bin/gearbox bin/scx_gearbox bin/gearbox-check share/gearbox/em-profiles/sm8250.json \
		lib/systemd/system/scx_gearbox.service share/doc/gearbox/README.md \
		share/doc/gearbox/docs/profiling.md share/doc/gearbox/docs/scheduler.md; do
		tap_check "the $arch tarball holds $f" test -s "$root/$f"
	done
	for b in gearbox scx_gearbox gearbox-check; do
		f=$root/bin/$b
		tap_check "$arch $b is an $machine executable" \
			bash -c "readelf -h '$f' | grep -q 'Machine: *$machine'"
		tap_check "$arch $b has no program interpreter (static)" \
			bash -c "readelf -l '$f' >/dev/null && ! readelf -l '$f' | grep -q INTERP"
		tap_check "$arch $b needs no shared library and has no RUNPATH" \
			bash -c "readelf -d '$f' >/dev/null 2>&1; ! readelf -d '$f' 2>/dev/null | grep -Eq 'NEEDED|RPATH|RUNPATH'"
	done

	out=$(run "$root/bin/gearbox" em validate "$root/share/gearbox/em-profiles/sm8250.json" 2>&1); rc=$?
	tap_check "$arch gearbox em validate sm8250.json exits 0" test $rc -eq 0
	tap_check "$arch: it reports sm8250's 3 domains and 8 CPUs" \
		exited_with_output 0 "ok: sm8250, 3 perf domains, 8 CPUs" "$out"
	out=$(cd "$work" && run "$root/bin/gearbox" em validate gs101 2>&1); rc=$?
	tap_check "$arch: the shipped models are found by name beside the binary" \
		exited_with_output $rc 'ok: gs101' "$out"
	out=$(cd "$work" && run "$root/bin/gearbox" profile --sim "$src/tests/sched/vm4.json" \
		-o "$work/vm4-profiled-$arch.json" 2>&1); rc=$?
	[ $rc -eq 0 ] || echo "$out" | tail -n 5 | sed 's/^/# /'
	tap_check "$arch gearbox profile --sim exits 0" test $rc -eq 0
	out=$(run "$root/bin/gearbox" em validate "$work/vm4-profiled-$arch.json" 2>&1); rc=$?
	tap_check "$arch: the profiled model validates with 4 CPUs in 3 domains" \
		exited_with_output $rc '3 perf domains, 4 CPUs' "$out"
	out=$(run "$root/bin/scx_gearbox" --help 2>&1); rc=$?
	tap_check "$arch scx_gearbox --help exits 0 and describes --force" \
		exited_with_output $rc '--force' "$out"
	out=$(run "$root/bin/gearbox-check" --help 2>&1); rc=$?
	tap_check "$arch gearbox-check --help exits 0" test $rc -eq 0
	tap_check "$arch: the unit starts /usr/local/bin/scx_gearbox" \
		grep -q '^ExecStart=/usr/local/bin/scx_gearbox' "$root/lib/systemd/system/scx_gearbox.service"
}

# run PROGRAM ARGS...: the program of the architecture being checked, with an empty
# environment; aarch64 under qemu-user with an empty library prefix, where a dynamic binary
# would find no loader
run() {
	if [ "$arch" = aarch64 ]; then
		env -i PATH=/usr/bin:/bin QEMU_LD_PREFIX=/nonexistent qemu-aarch64-static "$@"
	else
		env -i PATH=/usr/bin:/bin "$@"
	fi
}

out=$("$src/scripts/release" --arch mips 2>&1); rc=$?
tap_check "release --arch mips is bad usage (exit 2)" test $rc -eq 2
tap_check "release names the architectures it builds" \
	exited_with_output 0 "only aarch64 and x86_64" "$out"

check_arch aarch64 AArch64
check_arch x86_64 "Advanced Micro Devices X86-64"
tap_done
