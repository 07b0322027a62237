# shellcheck shell=bash
# What static builds for a board need: the aarch64 cross toolchain, arm64 libraries, static
# libraries Debian ships only as shared objects, and qemu for running aarch64 binaries here.
#
# Sourced after scripts/lib/deps.sh and tests/vm/deps.sh (gb_setup_vm_deps: clang, bpftool and
# the kernel source).  gb_setup_cross_deps:
#   - apt packages: gcc-aarch64-linux-gnu, qemu-user-static (the smoke test), qemu-system-arm
#     (the arm64 guest);
#   - the arm64 architecture in dpkg, and the arm64 -dev packages that are Multi-Arch: same, so
#     that they sit beside the native ones (an install that would remove a native package is
#     refused before anything changes);
#   - libfdt for arm64, whose -dev package is not co-installable with the native one: its .debs
#     unpacked into $GB_CACHE/arm64/sysroot, never installed;
#   - libperf, libbpf (static) for arm64, cross-built from the sid kernel source;
#   - libpowercap as a static library for both architectures (Debian ships only the shared
#     one), compiled from Debian sid's source package;
#   - Debian sid's generic arm64 kernel (same series as the x86 VM's): its Image, BTF, a
#     vmlinux.h for the arm64 BPF object and its config, checked for what the guest needs
#     built in, under $GB_CACHE/vm-arm64/PKG/;
#   - Debian's static arm64 busybox for the arm64 guest ($GB_CACHE/arm64/busybox);
#   - pkg-config directories $GB_CACHE/static/x86_64/pkgconfig and
#     $GB_CACHE/static/aarch64/pkgconfig, with gearbox-vm.pc for the arm64 kernel.
# Each step leaves a marker; a rerun with everything cached does nothing.

GB_CROSS_PKGS="gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static qemu-system-arm"
# arm64 libraries beside the native ones (all Multi-Arch: same in bookworm)
GB_ARM64_LIBS="libjansson-dev libsensors-dev libncurses-dev libelf-dev zlib1g-dev libzstd-dev"
GB_CROSS="aarch64-linux-gnu-"

# gb_apt_install_arm64 PKG...: install PKG:arm64 that are missing, refusing any removal.
gb_apt_install_arm64() {
	local missing=() p plan
	for p in "$@"; do
		dpkg-query -W -f='${Architecture} ${db:Status-Status}\n' "$p" 2>/dev/null |
			grep -qx "arm64 installed" || missing+=("$p:arm64")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		gb_log "adding the arm64 architecture to dpkg (multiarch)"
		gb_sudo dpkg --add-architecture arm64 || gb_die "dpkg --add-architecture arm64 failed"
	fi
	gb_sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq || gb_die "apt-get update failed"
	plan=$(apt-get -s install --no-install-recommends "${missing[@]}" 2>&1) ||
		gb_die "apt-get cannot install ${missing[*]}: $(echo "$plan" | tail -n 3)"
	if echo "$plan" | grep -q '^Remv '; then
		gb_die "installing ${missing[*]} would remove $(echo "$plan" | awk '/^Remv / {print $2}' | tr '\n' ' ')- refused"
	fi
	gb_log "installing ${missing[*]}"
	gb_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null || gb_die "apt-get install ${missing[*]} failed"
}

# gb_apt_fetch PKG:ARCH DIR: the .deb apt would install, checked against apt's SHA256.
gb_apt_fetch() {
	local spec=$1 dir=$2 file sha deb
	file=$(apt-cache show "$spec" 2>/dev/null | awk '/^Filename: / {print $2; exit}')
	sha=$(apt-cache show "$spec" 2>/dev/null | awk '/^SHA256: / {print $2; exit}')
	[ -n "$file" ] && [ -n "$sha" ] || gb_die "$spec: not in apt's package lists"
	deb="$dir/$(basename "$file")"
	mkdir -p "$dir"
	if ! { [ -s "$deb" ] && echo "$sha  $deb" | sha256sum -c --status; }; then
		gb_log "downloading $(basename "$file") from the apt mirror"
		curl -fsSL --retry 2 -o "$deb.tmp" "$(gb_mirror)/$file" || gb_die "cannot download $file"
		echo "$sha  $deb.tmp" | sha256sum -c --status || { rm -f "$deb.tmp"; gb_die "$file: SHA256 mismatch"; }
		mv "$deb.tmp" "$deb"
	fi
	echo "$deb"
}

# gb_arm64_sysroot: libfdt's arm64 .debs unpacked into $GB_CACHE/arm64/sysroot.
gb_arm64_sysroot() {
	local root="$GB_CACHE/arm64/sysroot" p deb
	[ -f "$root/.complete" ] && return 0
	rm -rf "$root"; mkdir -p "$root"
	for p in libfdt-dev libfdt1; do
		deb=$(gb_apt_fetch "$p:arm64" "$GB_CACHE/arm64/debs") || exit 1
		dpkg-deb -x "$deb" "$root" || gb_die "unpacking $deb failed"
	done
	touch "$root/.complete"
}

# gb_arm64_busybox: Debian's static arm64 busybox, for the arm64 guest's initramfs, as
# $GB_CACHE/arm64/busybox (busybox-static is not co-installable across architectures).
gb_arm64_busybox() {
	local deb dir="$GB_CACHE/arm64/busybox-deb"
	[ -x "$GB_CACHE/arm64/busybox" ] && return 0
	deb=$(gb_apt_fetch busybox-static:arm64 "$GB_CACHE/arm64/debs") || exit 1
	rm -rf "$dir"; dpkg-deb -x "$deb" "$dir" || gb_die "unpacking $deb failed"
	cp "$dir/bin/busybox" "$GB_CACHE/arm64/busybox.tmp" && mv "$GB_CACHE/arm64/busybox.tmp" "$GB_CACHE/arm64/busybox"
	rm -rf "$dir"
}

# gb_arm64_rt_app: rt-app for the arm64 guest (scripts/demo --live --arch aarch64) as a root
# tree $GB_CACHE/arm64/rt-app-root: usr/bin/rt-app and, in lib/, the shared libraries it loads
# (its dynamic loader, libc, libm, libpthread, libjson-c, and libgcc_s, which glibc loads at
# pthread_exit), unpacked from Debian's arm64 .debs (rt-app:arm64 is not co-installable with
# the native one).  Prints the tree's path.
gb_arm64_rt_app() {
	local root="$GB_CACHE/arm64/rt-app-root" tmp="$GB_CACHE/arm64/rt-app-debs" p deb f
	if [ ! -f "$root/.complete" ]; then
		rm -rf "$root" "$tmp"; mkdir -p "$root/usr/bin" "$root/lib"
		for p in rt-app libjson-c5 libc6 libgcc-s1; do
			deb=$(gb_apt_fetch "$p:arm64" "$GB_CACHE/arm64/debs") || exit 1
			dpkg-deb -x "$deb" "$tmp" || gb_die "unpacking $deb failed"
		done
		cp "$tmp/usr/bin/rt-app" "$root/usr/bin/" || gb_die "no usr/bin/rt-app in rt-app:arm64"
		for f in ld-linux-aarch64.so.1 libc.so.6 libm.so.6 libpthread.so.0 libjson-c.so.5 \
			libgcc_s.so.1; do
			cp -L "$(find "$tmp" -name "$f" | head -n 1)" "$root/lib/" ||
				gb_die "no $f in the arm64 .debs"
		done
		rm -rf "$tmp"; touch "$root/.complete"
	fi
	echo "$root"
}

# gb_arm64_kernel_source SRC: the arm64 parts of the kernel source that libperf needs, added to
# the tree gb_kernel_source extracted.
gb_arm64_kernel_source() {
	local src=$1 deb ver
	[ -f "$src/.arm64-complete" ] && return 0
	ver=${src##*/linux-}
	deb=$(gb_sid_fetch "linux-source-$GB_KVER_SERIES") || exit 1
	gb_log "extracting the arm64 kernel headers (linux-source $ver)"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
		tar -xJ -C "$src" --strip-components=1 --wildcards '*/tools/arch/arm64' \
			'*/arch/arm64/include/uapi' 2>/dev/null
	[ -f "$src/tools/arch/arm64/include/asm/barrier.h" ] || gb_die "extracting the arm64 headers failed"
	touch "$src/.arm64-complete"
}

# gb_arm64_kernel_libs SRC: libperf and static libbpf for arm64 under $GB_CACHE/arm64/.
gb_arm64_kernel_libs() {
	local src=$1 p
	for p in libperf libbpf; do
		local prefix="$GB_CACHE/arm64/$p" obj="$GB_CACHE/build/arm64-$p"
		[ -f "$prefix/.complete" ] && continue
		rm -rf "$prefix" "$obj"; mkdir -p "$obj"
		if [ $p = libperf ]; then
			gb_vm_make "libperf (arm64)" "$obj.log" -C "$src/tools/lib/perf" ARCH=arm64 \
				CROSS_COMPILE=$GB_CROSS OUTPUT="$obj/" prefix="$prefix" -j"$(nproc)" \
				install_lib install_headers install_pkgconfig
		else
			gb_vm_make "libbpf (arm64)" "$obj.log" -C "$src/tools/lib/bpf" ARCH=arm64 \
				CROSS_COMPILE=$GB_CROSS BUILD_STATIC_ONLY=1 OBJDIR="$obj" OUTPUT="$obj/" \
				prefix="$prefix" \
				-j"$(nproc)" install
		fi
		touch "$prefix/.complete"
	done
}

# gb_sid_source_fetch SRCPKG SUFFIX: a file of sid's source package SRCPKG whose name ends in
# SUFFIX (e.g. .orig.tar.gz), checked against the sid Sources index; prints its path.
gb_sid_source_fetch() {
	local spkg=$1 suffix=$2 idx="$GB_CACHE/sid/Sources" dir name sha out
	if [ ! -s "$idx" ] || [ -n "$(find "$idx" -mmin +1440 2>/dev/null)" ]; then
		gb_log "fetching the sid source index from the apt mirror"
		curl -fsSL --retry 2 -o "$idx.xz.tmp" "$(gb_mirror)/dists/sid/main/source/Sources.xz" ||
			{ [ -s "$idx" ] || gb_die "cannot download dists/sid/main/source/Sources.xz from the apt mirror"; }
		[ -s "$idx.xz.tmp" ] && xz -dc "$idx.xz.tmp" >"$idx.tmp" && mv "$idx.tmp" "$idx"
		rm -f "$idx.xz.tmp"
	fi
	read -r dir name sha < <(awk -v pkg="$spkg" -v suf="$suffix" 'BEGIN { RS = ""; FS = "\n" }
		{
			p = ""; d = ""; f = ""; s = ""; insha = 0
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^Package: /) p = substr($i, 10)
				else if ($i ~ /^Directory: /) d = substr($i, 12)
				else if ($i ~ /^Checksums-Sha256:/) insha = 1
				else if (insha && $i ~ /^ /) {
					split($i, a, " ")
					if (substr(a[3], length(a[3]) - length(suf) + 1) == suf) { f = a[3]; s = a[1] }
				} else insha = 0
			}
			if (p == pkg && f != "") { print d, f, s; exit }
		}' "$idx")
	[ -n "$name" ] || gb_die "no $suffix file of source package $spkg in the sid Sources index"
	out="$GB_CACHE/sid/$name"
	if ! { [ -s "$out" ] && echo "$sha  $out" | sha256sum -c --status; }; then
		gb_log "downloading $name from the apt mirror"
		curl -fsSL --retry 2 -o "$out.tmp" "$(gb_mirror)/$dir/$name" || gb_die "cannot download $dir/$name"
		echo "$sha  $out.tmp" | sha256sum -c --status || { rm -f "$out.tmp"; gb_die "$name: SHA256 mismatch"; }
		mv "$out.tmp" "$out"
	fi
	echo "$out"
}

# gb_static_powercap ARCH CC: libpowercap.a and its headers under $GB_CACHE/static/ARCH/.
gb_static_powercap() {
	local arch=$1 cc=$2 prefix="$GB_CACHE/static/$1" tgz obj f
	[ -f "$prefix/.powercap-complete" ] && return 0
	tgz=$(gb_sid_source_fetch powercap .orig.tar.gz) || exit 1
	obj="$GB_CACHE/build/powercap-$arch"
	rm -rf "$obj"; mkdir -p "$obj" "$prefix/lib" "$prefix/include/powercap"
	tar -xzf "$tgz" -C "$obj" --strip-components=1 || gb_die "unpacking $tgz failed"
	gb_log "building libpowercap.a for $arch"
	for f in "$obj"/src/powercap*.c; do
		$cc -O2 -fPIC -I"$obj/inc" -I"$obj/src" -c "$f" -o "${f%.c}.o" 2>>"$obj.log" ||
			{ tail -n 20 "$obj.log" >&2; gb_die "compiling $f failed"; }
	done
	rm -f "$prefix/lib/libpowercap.a"
	${cc%gcc}ar rcs "$prefix/lib/libpowercap.a" "$obj"/src/powercap*.o || gb_die "ar failed"
	cp "$obj"/inc/powercap*.h "$prefix/include/powercap/"
	basename "$tgz" | sed -e 's/^powercap_//' -e 's/\.orig\.tar\.gz$//' >"$prefix/powercap-version"
	touch "$prefix/.powercap-complete"
}

# gb_static_libapi ARCH SRC [CROSS_COMPILE]: the kernel's tools/lib/api as
# $GB_CACHE/static/ARCH/lib/libapi.a (libperf.a needs it; the shared libperf has it inside).
gb_static_libapi() {
	local arch=$1 src=$2 cross=${3:-} prefix="$GB_CACHE/static/$1" obj="$GB_CACHE/build/libapi-$1"
	[ -f "$prefix/.libapi-complete" ] && return 0
	rm -rf "$obj"; mkdir -p "$obj" "$prefix/lib"
	gb_vm_make "libapi ($arch)" "$obj.log" -C "$src/tools/lib/api" ${cross:+ARCH=arm64} \
		${cross:+CROSS_COMPILE=$cross} OUTPUT="$obj/" -j"$(nproc)" "$obj/libapi.a"
	cp "$obj/libapi.a" "$prefix/lib/libapi.a"
	touch "$prefix/.libapi-complete"
}

# What the arm64 guest needs of its kernel, built in: its initramfs loads no modules.
# sched_ext, BTF and uclamp for the scheduler and its tests; the PL011 serial console, virtio
# over PCI on qemu's generic ECAM host and the virtio console (vm-run-arm64's devices); the
# gzipped initramfs; CPU hotplug and debugfs (the sched domains) for the tests.
GB_ARM64_KCONFIG="CONFIG_SCHED_CLASS_EXT CONFIG_DEBUG_INFO_BTF CONFIG_UCLAMP_TASK
	CONFIG_SERIAL_AMBA_PL011_CONSOLE CONFIG_PCI_HOST_GENERIC CONFIG_VIRTIO_PCI
	CONFIG_VIRTIO_CONSOLE CONFIG_BLK_DEV_INITRD CONFIG_RD_GZIP CONFIG_HOTPLUG_CPU CONFIG_DEBUG_FS"

# gb_arm64_kernel_config PKG FILE: the config of sid's arm64 kernel package PKG (it ships in
# PKG's linux-base package) as FILE, or an error naming each option of GB_ARM64_KCONFIG that
# it does not build in.
gb_arm64_kernel_config() {
	local pkg=$1 out=$2 deb opt absent=
	deb=$(gb_sid_fetch "linux-base-${pkg#linux-binary-}" arm64) || exit 1
	dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards './usr/lib/modules/*/config' >"$out"
	[ -s "$out" ] || gb_die "$deb: no ./usr/lib/modules/*/config"
	for opt in $GB_ARM64_KCONFIG; do
		grep -qx "$opt=y" "$out" || absent="$absent $opt"
	done
	[ -z "$absent" ] ||
		gb_die "$pkg: the arm64 guest needs${absent} built in (=y); its config has $(
			for opt in $absent; do grep -E "^(# )?${opt}[= ]" "$out" || echo "no $opt"; done |
				tr '\n' ';' | sed 's/;$//; s/;/; /g')"
}

# gb_arm64_vm_kernel PKG KDIR: Image, BTF, vmlinux.h and config of sid's arm64 kernel package
# PKG.  The arm64 Image is not compressed and not ELF: its BTF is found by the header's magic.
gb_arm64_vm_kernel() {
	local pkg=$1 dir=$2 deb
	[ -f "$dir/.complete" ] && return 0
	rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
	gb_arm64_kernel_config "$pkg" "$dir.tmp/config"
	deb=$(gb_sid_fetch "$pkg" arm64) || exit 1
	gb_log "extracting the arm64 kernel image and BTF from $(basename "$deb")"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards './usr/lib/modules/*/vmlinuz' >"$dir.tmp/Image"
	[ -s "$dir.tmp/Image" ] || gb_die "$deb: no ./usr/lib/modules/*/vmlinuz"
	python3 - "$dir.tmp/Image" "$dir.tmp/vmlinux.btf" <<'EOF' || gb_die "no BTF in the arm64 kernel image"
import struct, sys
data = open(sys.argv[1], 'rb').read()
# struct btf_header: magic 0xeB9F, version 1, flags 0, hdr_len 24, then type/str offsets
at = data.find(b'\x9f\xeb\x01\x00\x18\x00\x00\x00')
if at < 0:
    sys.exit(1)
hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from('<IIIII', data, at + 4)
open(sys.argv[2], 'wb').write(data[at:at + hdr_len + str_off + str_len])
EOF
	"$GB_CACHE/bpftool/bpftool" btf dump file "$dir.tmp/vmlinux.btf" format c >"$dir.tmp/vmlinux.h" ||
		gb_die "generating the arm64 vmlinux.h failed"
	echo "$pkg" >"$dir.tmp/package"
	rm -rf "$dir"; mv "$dir.tmp" "$dir"; touch "$dir/.complete"
}

# gb_static_pc ARCH: the pkg-config directory of a static build for ARCH.
gb_static_pc() {
	local arch=$1 pcdir="$GB_CACHE/static/$1/pkgconfig" p="$GB_CACHE/static/$1"
	mkdir -p "$pcdir"
	cat >"$pcdir/powercap.pc" <<EOF
# generated by scripts/lib/cross.sh: libpowercap.a built from Debian's source
prefix=$p
Name: powercap
Description: libpowercap, static
Version: $(cat "$p/powercap-version")
Libs: -L\${prefix}/lib -lpowercap
Cflags: -I\${prefix}/include
EOF
	# libperf.a and the libapi.a it needs (the shared libperf carries libapi inside)
	local perf="$GB_CACHE/libperf"
	[ "$arch" = aarch64 ] && perf="$GB_CACHE/arm64/libperf"
	cat >"$pcdir/libperf.pc" <<EOF
# generated by scripts/lib/cross.sh: static libperf with libapi
prefix=$perf
Name: libperf
Description: libperf, static, with libapi
Version: 0.0.1
Libs: -L\${prefix}/lib64 -lperf -L$p/lib -lapi
Cflags: -I\${prefix}/include
EOF
	[ "$arch" = aarch64 ] || return 0
	cat >"$pcdir/libfdt.pc" <<EOF
# generated by scripts/lib/cross.sh: Debian's arm64 libfdt unpacked, not installed
prefix=$GB_CACHE/arm64/sysroot/usr
Name: libfdt
Description: libfdt for arm64
Version: $(dpkg-deb -f "$(ls "$GB_CACHE"/arm64/debs/libfdt-dev_*_arm64.deb | head -n 1)" Version)
Libs: -L\${prefix}/lib/aarch64-linux-gnu -lfdt
Cflags: -I\${prefix}/include
EOF
}

gb_setup_cross_deps() {
	local src pkg kdir re
	# shellcheck disable=SC2086
	gb_apt_install $GB_CROSS_PKGS
	# shellcheck disable=SC2086
	gb_apt_install_arm64 $GB_ARM64_LIBS
	gb_arm64_sysroot
	gb_arm64_busybox
	src=$(gb_kernel_source) || exit 1
	gb_arm64_kernel_source "$src"
	gb_arm64_kernel_libs "$src"
	gb_static_powercap x86_64 gcc
	gb_static_powercap aarch64 "${GB_CROSS}gcc"
	gb_static_libapi x86_64 "$src"
	gb_static_libapi aarch64 "$src" "$GB_CROSS"
	gb_static_pc x86_64
	gb_static_pc aarch64
	# The generic flavour, not the cloud one: only it has CONFIG_UCLAMP_TASK.  Everything the
	# guest needs is built in (gb_arm64_kernel_config checks it), so its modules are not needed.
	re="linux-binary-${GB_KVER_SERIES//./\\.}[.0-9]*\\+deb[0-9]+-arm64"
	pkg=
	[ -s "$GB_CACHE/vm-arm64/kernel-package" ] &&
		[ "$GB_CACHE/vm-arm64/kernel-package" -nt "$(gb_sid_index arm64)" ] &&
		pkg=$(grep -Ex "$re" "$GB_CACHE/vm-arm64/kernel-package")
	if [ -z "$pkg" ]; then
		pkg=$(gb_sid_pkg_matching "$re" arm64)
		[ -n "$pkg" ] || gb_die "no linux-binary-$GB_KVER_SERIES*-arm64 package in the sid arm64 index"
		mkdir -p "$GB_CACHE/vm-arm64"; echo "$pkg" >"$GB_CACHE/vm-arm64/kernel-package"
	fi
	kdir="$GB_CACHE/vm-arm64/$pkg"
	gb_arm64_vm_kernel "$pkg" "$kdir"
	# gearbox-vm.pc of the arm64 build: the same host tools, the arm64 kernel
	sed -e "s|^kernel_package=.*|kernel_package=$pkg|" -e "s|^vmlinuz=.*|vmlinuz=$kdir/Image|" \
		-e "s|^vmlinux=.*|vmlinux=$kdir/vmlinux.btf|" -e "s|^vmlinux_h_dir=.*|vmlinux_h_dir=$kdir|" \
		-e "s|^qemu=.*|qemu=$(command -v qemu-system-aarch64)|" \
		"$GB_CACHE/vm/pkgconfig/gearbox-vm.pc" >"$GB_CACHE/static/aarch64/pkgconfig/gearbox-vm.pc"
	cp "$GB_CACHE/vm/pkgconfig/gearbox-vm.pc" "$GB_CACHE/static/x86_64/pkgconfig/gearbox-vm.pc"
	ln -sfn "$GB_CACHE/arm64/libbpf/lib64/pkgconfig/libbpf.pc" \
		"$GB_CACHE/static/aarch64/pkgconfig/libbpf.pc"
}
