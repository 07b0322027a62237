#!/usr/bin/env bash
# test_cli_misc.sh GEARBOX SRCDIR - what every command shares: help text printed as written
# (no printf escapes left in it), one error prefix ("gearbox CMD: error: "), and the em
# loader's size limit enforced to the byte.
set -u
G=$1
SRC=$2
. "$SRC/tests/cli/tap.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cmds=$("$G" --help | sed -n 's/^  \([a-z]*\) .*/\1/p')

# --help of every command: a '%%' is a printf escape printed with fputs
bad=
for c in "" $cmds; do
	"$G" $c --help >"$T/help" 2>&1
	grep -q '%%' "$T/help" && bad="$bad ${c:-gearbox}"
done
"$G" em --help | grep -q 'B against A, in %;' || bad="$bad em(diff line)"
if [ -z "$bad" ]; then tap_ok "no --help prints a printf escape"; else tap_fail "no --help prints a printf escape" "in:$bad"; fi

# one bad input per command: the message starts "gearbox CMD: error: "
bad=
check_prefix() {
	local c=$1; shift
	"$G" "$c" "$@" >/dev/null 2>"$T/err"
	grep -q "^gearbox $c: error: " "$T/err" || bad="$bad $c($(head -n 1 "$T/err"))"
}
for c in $cmds; do
	case $c in
	em) check_prefix em show "$T/missing.json"; check_prefix em validate "$T/missing.json" ;;
	sim) check_prefix sim -p "$T/missing.json" "$SRC/workloads/demo-mobile.json" ;;
	profile) check_prefix profile --sim "$T/missing.json" ;;
	top) check_prefix top --replay "$T/missing.ndjson" ;;
	check) check_prefix check --duration x -- true ;;
	esac
done
if [ -z "$bad" ]; then tap_ok "every command's errors start 'gearbox CMD: error: '"; else tap_fail "every command's errors start 'gearbox CMD: error: '" "$bad"; fi

# the em loader reads at most 64 MiB: a file of exactly 64 MiB is read (and then fails as
# JSON), one byte more is refused by size
truncate -s $((64 * 1024 * 1024)) "$T/at-limit.json"
truncate -s $((64 * 1024 * 1024 + 1)) "$T/over.json"
"$G" em validate "$T/at-limit.json" >/dev/null 2>"$T/err1"; rc1=$?
"$G" em validate "$T/over.json" >/dev/null 2>"$T/err2"; rc2=$?
if [ $rc1 = 2 ] && ! grep -q "larger than 64 MiB" "$T/err1" && [ $rc2 = 2 ] &&
	grep -q "over.json: larger than 64 MiB" "$T/err2"; then
	tap_ok "the em loader refuses a file one byte over 64 MiB and reads one at 64 MiB"
else
	tap_fail "the em loader refuses a file one byte over 64 MiB and reads one at 64 MiB" \
		"exit $rc1: $(head -c 200 "$T/err1")" "exit $rc2: $(head -c 200 "$T/err2")"
fi

# profile --sim-stuck D:K outside the model is refused (it used to be ignored)
if grep -qx profile <<<"$cmds"; then
	"$G" profile --sim "$SRC/em-profiles/sm8250.json" -q --sim-stuck 5:3 >/dev/null 2>"$T/err1"; rc1=$?
	"$G" profile --sim "$SRC/em-profiles/sm8250.json" -q --sim-stuck 0:99 >/dev/null 2>"$T/err2"; rc2=$?
	"$G" profile --sim "$SRC/em-profiles/sm8250.json" -q --sim-stuck 2:0 >/dev/null 2>"$T/err3"; rc3=$?
	if [ $rc1 = 2 ] && grep -q -- "--sim-stuck 5:3: the model has 3 domains (0-2)" "$T/err1" &&
		[ $rc2 = 2 ] && grep -q -- "--sim-stuck 0:99: domain 0 has 17 OPPs (0-16)" "$T/err2" &&
		[ $rc3 = 0 ]; then
		tap_ok "profile --sim-stuck outside the model exits 2 naming the range"
	else
		tap_fail "profile --sim-stuck outside the model exits 2 naming the range" \
			"exit $rc1: $(head -n 1 "$T/err1")" "exit $rc2: $(head -n 1 "$T/err2")" "exit $rc3: $(head -n 1 "$T/err3")"
	fi
fi

tap_done
