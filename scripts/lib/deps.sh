# shellcheck shell=bash
# Dependency setup shared by scripts/demo and scripts/test.
#
# Everything here is idempotent: a package already installed is not asked for again, a cached
# download whose checksum matches is not fetched again, and a library already built into the
# cache is not rebuilt.  The mirror is never written into the repository: it is read from this
# machine's apt configuration, and the same mirror serves Debian sid, from which we take the
# kernel source (libperf, libbpf 1.8, bpftool 7.8) and the sched_ext kernel for the VM tests.

GB_CACHE=${GEARBOX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gearbox}
GB_KVER_SERIES=7.2            # the sid kernel series whose source and image we use

gb_log() { printf '%s\n' "setup: $*" >&2; }
gb_die() { printf '%s\n' "setup: error: $*" >&2; exit 1; }

# Packages needed to build and run everything but the VM tests.
GB_BUILD_PKGS="ca-certificates curl xz-utils zstd git meson ninja-build pkg-config gcc clang \
libc6-dev libjansson-dev libpowercap-dev libsensors-dev libncurses-dev make flex bison \
libelf-dev zlib1g-dev python3 libclang-rt-14-dev device-tree-compiler libfdt-dev clang-format-14"

gb_sudo() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# gb_apt_install PKG...: install those of PKG that are not installed yet for this machine's
# architecture (or as Architecture: all).  A PKG:ARCH is checked for that architecture; another
# architecture's copy of a package (multiarch, e.g. arm64 libraries for a cross build) neither
# counts as the native one nor hides it.
gb_apt_install() {
	local missing=() p arch native
	native=$(dpkg --print-architecture)
	for p in "$@"; do
		arch=$native
		case $p in *:*) arch=${p##*:} ;; esac
		dpkg-query -W -f='${Architecture} ${db:Status-Status}\n' "${p%%:*}" 2>/dev/null |
			grep -qE "^($arch|all) installed\$" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	gb_log "installing ${missing[*]}"
	gb_sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq ||
		gb_die "apt-get update failed"
	gb_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null || gb_die "apt-get install ${missing[*]} failed"
}

# gb_mirror: the Debian mirror URL from apt's configuration (deb822 or one-line format).
gb_mirror() {
	local f u
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		# the first stanza serving the main Debian archive (not -security, not third party)
		u=$(awk '/^URIs:/ {uri=$2} /^Suites:/ && uri != "" && uri !~ /security/ {
			for (i = 2; i <= NF; i++) if ($i !~ /security/ && $i !~ /-/) { print uri; exit } }' "$f")
		[ -n "$u" ] && { echo "${u%/}"; return 0; }
	done
	if [ -f /etc/apt/sources.list ]; then
		u=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^(https?|file):/) {
			if ($i !~ /security/) { print $i; exit } } }' /etc/apt/sources.list)
		[ -n "$u" ] && { echo "${u%/}"; return 0; }
	fi
	gb_die "no Debian mirror found in /etc/apt/sources.list{,.d}"
}

# gb_sid_index [ARCH]: path of a cached sid Packages index for ARCH (amd64 unless given),
# refreshed when older than a day.
gb_sid_index() {
	local arch=${1:-amd64} idx
	idx="$GB_CACHE/sid/Packages"
	[ "$arch" = amd64 ] || idx="$GB_CACHE/sid/Packages-$arch"
	mkdir -p "$GB_CACHE/sid"
	if [ ! -s "$idx" ] || [ -n "$(find "$idx" -mmin +1440 2>/dev/null)" ]; then
		local m; m=$(gb_mirror)
		gb_log "fetching the sid $arch package index from the apt mirror"
		curl -fsSL --retry 2 -o "$idx.xz.tmp" "$m/dists/sid/main/binary-$arch/Packages.xz" ||
			{ [ -s "$idx" ] && { gb_log "offline: using the cached index"; echo "$idx"; return 0; }
			  gb_die "cannot download dists/sid/main/binary-$arch/Packages.xz from the apt mirror (offline?)"; }
		xz -dc "$idx.xz.tmp" >"$idx.tmp" && mv "$idx.tmp" "$idx" && rm -f "$idx.xz.tmp"
	fi
	echo "$idx"
}

# gb_sid_field PKG FIELD [ARCH]: a field of PKG's stanza in the sid index.
gb_sid_field() {
	awk -v pkg="$1" -v fld="$2" '
		/^Package: / { inpkg = ($2 == pkg) }
		inpkg && index($0, fld ": ") == 1 { print substr($0, length(fld) + 3); exit }' "$(gb_sid_index "${3:-amd64}")"
}

# gb_sid_pkg_matching REGEX [ARCH]: the newest sid package whose name matches REGEX.
gb_sid_pkg_matching() {
	grep -E "^Package: $1\$" "$(gb_sid_index "${2:-amd64}")" | awk '{print $2}' | sort -V | tail -n 1
}

# gb_sid_fetch PKG [ARCH]: download PKG's .deb from sid into the cache, verify SHA256, print
# its path.
gb_sid_fetch() {
	local pkg=$1 arch=${2:-amd64} file sha deb
	file=$(gb_sid_field "$pkg" Filename "$arch")
	sha=$(gb_sid_field "$pkg" SHA256 "$arch")
	[ -n "$file" ] && [ -n "$sha" ] || gb_die "package $pkg not in the sid $arch index of the apt mirror"
	deb="$GB_CACHE/sid/$(basename "$file")"
	if [ -s "$deb" ] && echo "$sha  $deb" | sha256sum -c --status; then
		echo "$deb"; return 0
	fi
	gb_log "downloading $(basename "$file") from the apt mirror"
	curl -fsSL --retry 2 -o "$deb.tmp" "$(gb_mirror)/$file" ||
		gb_die "cannot download $file from the apt mirror (offline, or superseded in sid?)"
	echo "$sha  $deb.tmp" | sha256sum -c --status ||
		{ rm -f "$deb.tmp"; gb_die "$file: SHA256 mismatch"; }
	mv "$deb.tmp" "$deb"
	echo "$deb"
}

# gb_kernel_source: a cached, partially extracted sid linux-source tree; prints its path.
# One extraction takes what libperf, libbpf and bpftool need, since untarring costs the same
# whatever subset is taken.
gb_kernel_source() {
	local pkg ver dir deb
	pkg="linux-source-$GB_KVER_SERIES"
	ver=$(gb_sid_field "$pkg" Version)
	[ -n "$ver" ] || gb_die "$pkg not found in sid"
	dir="$GB_CACHE/src/linux-$ver"
	if [ -f "$dir/.complete" ]; then echo "$dir"; return 0; fi
	deb=$(gb_sid_fetch "$pkg")
	gb_log "extracting kernel tools source ($pkg $ver)"
	rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
		tar -xJ -C "$dir.tmp" --strip-components=1 --wildcards \
			'*/tools/lib' '*/tools/include' '*/tools/scripts' '*/tools/build' '*/tools/arch/x86' \
			'*/tools/bpf' '*/tools/perf/perf-sys.h' '*/tools/sched_ext' \
			'*/include/uapi' '*/arch/x86/include/uapi' '*/scripts/bpf_doc.py' \
			'*/kernel/bpf/disasm.c' '*/kernel/bpf/disasm.h' '*/Makefile' \
			'*/scripts/Makefile.include' '*/scripts/subarch.include' 2>/dev/null ||
		[ -d "$dir.tmp/tools/lib/perf" ] || gb_die "extracting $pkg failed"
	rm -rf "$dir"; mv "$dir.tmp" "$dir"; touch "$dir/.complete"
	echo "$dir"
}

# gb_libperf: make dependency('libperf') resolvable; exports PKG_CONFIG_PATH.
gb_libperf() {
	if pkg-config --exists libperf 2>/dev/null; then return 0; fi
	local prefix="$GB_CACHE/libperf"
	if [ ! -f "$prefix/.complete" ]; then
		local src; src=$(gb_kernel_source)
		gb_log "building libperf from $src"
		rm -rf "$prefix" "$GB_CACHE/build/libperf"; mkdir -p "$GB_CACHE/build/libperf"
		make -s -C "$src/tools/lib/perf" OUTPUT="$GB_CACHE/build/libperf/" prefix="$prefix" \
			-j"$(nproc)" install_lib install_headers install_pkgconfig >/dev/null 2>"$GB_CACHE/build/libperf.log" ||
			{ tail -n 20 "$GB_CACHE/build/libperf.log" >&2; gb_die "building libperf failed"; }
		touch "$prefix/.complete"
	fi
	local pc; pc=$(dirname "$(find "$prefix" -name libperf.pc | head -n 1)")
	export PKG_CONFIG_PATH="$pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
	export LD_LIBRARY_PATH="$(dirname "$pc")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}

# gb_setup_build_deps: everything needed to build gearbox (not the VM tests).
gb_setup_build_deps() {
	# shellcheck disable=SC2086
	gb_apt_install $GB_BUILD_PKGS
	gb_libperf
}
