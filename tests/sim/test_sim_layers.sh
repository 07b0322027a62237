#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# test_sim_layers.sh ARCHIVE - the simulator's files call each other in one direction.  Each
# object of ARCHIVE (the simulator's static library) that uses a symbol another of its objects
# defines (a function called, a table read) has an arrow to it; a circle of arrows fails, with
# its files and the symbols that tie them.  A passing run lists the files, each caller before
# the files it uses.  The check itself is shown able to fail on two objects built to call each
# other.
set -u
lib=$1
NM=${NM:-nm}
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# arrows ARCHIVE: "FROM TO SYMBOL" for every symbol FROM uses and TO defines, FROM != TO
arrows() {
	"$NM" -A -P "$1" | awk '
	{
		m = $1; sub(/^[^[]*\[/, "", m); sub(/\]:$/, "", m); sub(/^.*\//, "", m)
		sub(/\.o$/, "", m); sub(/\.c$/, "", m)
		if ($3 == "U") { n++; from[n] = m; sym[n] = $2 }
		else if ($3 ~ /^[TDRBGSVW]$/) def[$2] = m
	}
	END {
		for (i = 1; i <= n; i++)
			if ((sym[i] in def) && def[sym[i]] != from[i])
				print from[i], def[sym[i]], sym[i]
	}' | sort -u
}

# layers ARCHIVE: the files in calling order; on a circle, status 1 and on stderr every arrow
# that lies on one (FROM -> TO: its symbols), TO reaching back to FROM
layers() {
	local a
	a=$(arrows "$1")
	if [ -z "$a" ]; then
		echo "no object of $1 uses another's symbol: is it the right archive?" >&2
		return 1
	fi
	if ! echo "$a" | awk '
	{
		if (!(($1, $2) in sy)) { sy[$1, $2] = $3; reach[$1, $2] = 1 }
		else sy[$1, $2] = sy[$1, $2] ", " $3
		node[$1] = node[$2] = 1
	}
	END {
		for (k in node) for (i in node) if ((i, k) in reach)
			for (j in node) if ((k, j) in reach) reach[i, j] = 1
		for (e in sy) {
			split(e, f, SUBSEP)
			if ((f[2], f[1]) in reach) { print "  " f[1] " -> " f[2] ": " sy[e]; bad = 1 }
		}
		exit bad
	}' >"$tmp/circle"; then
		echo "circle (each arrow below lies on one):" >&2
		sort "$tmp/circle" >&2
		return 1
	fi
	echo "$a" | awk '{print $1, $2}' | sort -u | tsort
}

echo "1..2"
bad=0
if out=$(layers "$lib" 2>&1); then
	echo "ok 1 - the simulator's files call each other in one direction (no circle)"
	echo "# callers before the files they use: $(echo "$out" | tr "\n" " ")"
else
	bad=1
	echo "not ok 1 - the simulator's files call each other in a circle"
	echo "$out" | sed 's/^/# /'
fi

printf 'int pong(int n);\nint ping(int n) { return n ? pong(n - 1) : 0; }\n' >"$tmp/ping.c"
printf 'int ping(int n);\nint pong(int n) { return n ? ping(n - 1) : 1; }\n' >"$tmp/pong.c"
printf 'int ping(int n);\nint top(void) { return ping(3); }\n' >"$tmp/top.c"
if (cd "$tmp" && "$CC" -c ping.c pong.c top.c && ar rc circle.a ping.o pong.o top.o) 2>"$tmp/cc.log"; then
	if out=$(layers "$tmp/circle.a" 2>&1); then
		bad=1
		echo "not ok 2 - two objects that call each other passed the check"
	elif echo "$out" | grep -q 'ping -> pong: pong' && echo "$out" | grep -q 'pong -> ping: ping' &&
		! echo "$out" | grep -q 'top ->'; then
		echo "ok 2 - two objects that call each other are found, with the symbols that tie them"
	else
		bad=1
		echo "not ok 2 - the circle of two objects was reported wrongly"
		echo "$out" | sed 's/^/# /'
	fi
else
	bad=1
	echo "not ok 2 - could not build the objects of the check's own circle"
	sed 's/^/# /' "$tmp/cc.log"
fi
exit $bad
