#!/bin/sh
# tests/sched/test-unit.sh BUILD_DIR - what `meson install` gives an operator of scx_gearbox:
# the loader, the systemd unit with this installation's paths, and the page its
# Documentation= names; the unit passes `systemd-analyze verify` without a warning (skipped where
# systemd-analyze is missing).  Installs into a temporary DESTDIR (the tag `sched` only).
build=$1 n=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
echo "1..4"
dest="$tmp/dest"
out=$(meson install -C "$build" --destdir "$dest" --no-rebuild --tags sched 2>&1); st=$?
unit=$(find "$dest" -path '*/lib/systemd/system/scx_gearbox.service' 2>/dev/null | head -n 1)
exe=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$unit" 2>/dev/null)
if [ "$st" = 0 ] && [ -n "$unit" ] && [ -n "$exe" ] && [ -x "$dest$exe" ]; then
	ok "meson_install_installs_the_unit_and_the_loader_it_starts ($exe)"
else not_ok "meson_install_installs_the_unit_and_the_loader_it_starts" "status $st, unit '$unit', ExecStart '$exe'" "$out"; fi
doc=$(sed -n 's|^Documentation=file://||p' "$unit" 2>/dev/null)
if [ -n "$doc" ] && [ -s "$dest$doc" ]; then ok "documentation_names_an_installed_page ($doc)"
else not_ok "documentation_names_an_installed_page" "Documentation=file://$doc, installed: $(find "$dest" -type f)"; fi
# StartLimit* belong in [Unit]: in [Service] systemd ignores them (with a warning)
if awk '/^\[/ { sec = $0 } /^StartLimit/ && sec != "[Unit]" { bad = 1 } END { exit bad }' "$unit" &&
	grep -q '^StartLimitIntervalSec=' "$unit"; then ok "start_limits_are_in_the_unit_section"
else not_ok "start_limits_are_in_the_unit_section" "$(grep -n '^\[\|^StartLimit' "$unit")"; fi
if ! command -v systemd-analyze >/dev/null 2>&1; then
	ok "systemd_analyze_verify_passes_without_warnings # SKIP no systemd-analyze"
else
	# verify checks that ExecStart exists: point it at the binary in DESTDIR, nothing else
	sed "s|^ExecStart=$exe|ExecStart=$dest$exe|" "$unit" >"$tmp/scx_gearbox.service"
	out=$(systemd-analyze verify "$tmp/scx_gearbox.service" 2>&1); st=$?
	if [ "$st" = 0 ] && [ -z "$out" ]; then ok "systemd_analyze_verify_passes_without_warnings"
	else not_ok "systemd_analyze_verify_passes_without_warnings" "status $st" "$out"; fi
fi
