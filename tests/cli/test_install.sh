#!/usr/bin/env bash
# test_install.sh GEARBOX SRCDIR BUILDDIR - the shipped models are installed by meson install
# into share/gearbox/em-profiles, and a model is found by name from any directory: `-p sm8250`
# from /, `gearbox em list`, a name that matches nothing (src/em/em_catalog.h).
set -u
G=$1
SRC=$2
BUILD=$3
. "$SRC/tests/cli/tap.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
has() { "$G" --help | grep -q "^  $1 "; }

begin() { why=; }
need() { [ -n "$why" ] && return 0; "$@" || why="failed: $*"; }
result() {
	if [ -z "$why" ]; then tap_ok "$1"; else tap_fail "$1" "$why" "$(head -n 3 "$T/err" 2>/dev/null)"; fi
}

# an install into a staging directory, as a package build does
if ! meson install -C "$BUILD" --no-rebuild --quiet --destdir "$T/root" >"$T/err" 2>&1; then
	tap_fail "meson install works" "$(tail -n 3 "$T/err")"
	tap_done
	exit 1
fi
bin=$(find "$T/root" -path '*/bin/gearbox' -type f | head -n 1)
# meson drops the build's rpath on install: the installed binary gets the libraries the build
# linked (libperf from the dependency cache) the way a packaged one gets them from the system
for lib in $(ldd "$G" | awk '$3 ~ /^\// { print $3 }'); do
	case $lib in /lib/* | /usr/lib/*) ;; *) LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$(dirname "$lib") ;; esac
done
export LD_LIBRARY_PATH
dir=$(find "$T/root" -path '*/share/gearbox/em-profiles' -type d | head -n 1)

begin
need test -x "$bin"
need test -d "$dir"
(cd "$SRC/em-profiles" && ls *.json) >"$T/shipped"
(cd "$dir" 2>/dev/null && ls *.json) >"$T/installed"
need cmp -s "$T/shipped" "$T/installed"
need test -s "$dir/README.md"
result "meson install puts every shipped model in share/gearbox/em-profiles"

# from a directory with no em-profiles/ in it, the installed binary finds the installed models
begin
env -u GEARBOX_EM_PROFILES bash -c "cd / && '$bin' em list" >"$T/list" 2>"$T/err"; rc=$?
need test $rc = 0
for f in $(cat "$T/shipped"); do
	need grep -Eq "^${f%.json} .* $(realpath "$dir")/$f\$" "$T/list"
done
result "em list shows every installed model with the file a name loads"

begin
env -u GEARBOX_EM_PROFILES bash -c "cd / && '$bin' em show sm8250" >"$T/out" 2>"$T/err"; rc=$?
need test $rc = 0
need grep -q "^sm8250: 3 perf domains, 8 CPUs" "$T/out"
if has sim; then
	env -u GEARBOX_EM_PROFILES bash -c "cd / && '$bin' sim -p sm8250 -d 0.2 '$SRC/workloads/demo-mobile.json'" \
		>"$T/out" 2>"$T/err"; rc=$?
	need test $rc = 0
	need grep -q sm8250 "$T/out"
fi
if has profile; then
	env -u GEARBOX_EM_PROFILES bash -c "cd / && '$bin' profile --sim gs101 -q" >"$T/out" 2>"$T/err"; rc=$?
	need test $rc = 0
	need grep -q gearbox-em/1 "$T/out"
fi
result "-p NAME, em show NAME and profile --sim NAME work outside the source tree"

# a name that is no model: exit 2, where it looked, how to list; GEARBOX_EM_PROFILES first
begin
env -u GEARBOX_EM_PROFILES bash -c "cd / && '$bin' em show sm9999" >"$T/out" 2>"$T/err"; rc=$?
need test $rc = 2
need grep -q "gearbox em: error: sm9999: no such file, and no model of that name in .*$(realpath "$dir")" "$T/err"
need grep -q "gearbox em list" "$T/err"
mkdir "$T/mine"
sed 's/"soc": "sm8250"/"soc": "mine"/' "$SRC/em-profiles/sm8250.json" >"$T/mine/sm8250.json"
GEARBOX_EM_PROFILES=$T/mine bash -c "cd / && '$bin' em show sm8250" >"$T/out" 2>"$T/err"; rc=$?
need test $rc = 0
need grep -q "^mine: 3 perf domains, 8 CPUs" "$T/out"
GEARBOX_EM_PROFILES=$T/mine bash -c "cd / && '$bin' em list" >"$T/list" 2>"$T/err"
need grep -q "^sm8250 .* $T/mine/sm8250.json\$" "$T/list"
need test "$(grep -c '^sm8250 ' "$T/list")" = 1
result "an unknown name says where it looked; GEARBOX_EM_PROFILES comes first"

tap_done
