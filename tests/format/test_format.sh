#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# test_format.sh SRCDIR - every C file of the tree is formatted as its .clang-format says, by
# Debian bookworm's clang-format 14 (scripts/lib/deps.sh installs it; another version formats
# differently).  One TAP line per directory; a failure lists the files and the first lines
# clang-format would change.  Fix with: clang-format-14 -i FILE...
set -u
SRC=$1
FMT=$(command -v clang-format-14 || true)
echo "1..6"
n=0
if [ -z "$FMT" ]; then
	for d in src bpf tui tests bench self-test; do
		n=$((n + 1)); echo "not ok $n - $d: clang-format-14 is not installed (scripts/test installs it)"
	done
	exit 1
fi
bad=0
for d in src bpf tui tests bench; do
	n=$((n + 1))
	files=$(cd "$SRC" && find "$d" -name '*.[ch]' -not -path '*/seeds-*' -not -path '*/corpus/*' | sort)
	diffs=""
	for f in $files; do
		if ! (cd "$SRC" && "$FMT" --dry-run -Werror "$f" >/dev/null 2>&1); then
			diffs="$diffs $f"
		fi
	done
	if [ -z "$diffs" ]; then
		echo "ok $n - $d: $(echo $files | wc -w) files formatted"
	else
		bad=1
		echo "not ok $n - $d: not formatted:$diffs"
		for f in $diffs; do
			(cd "$SRC" && "$FMT" --dry-run "$f" 2>&1 | head -n 6 | sed 's/^/# /')
		done
	fi
done
n=$((n + 1))
# the check itself can fail: a file formatted wrongly on purpose is found
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$SRC/.clang-format" "$tmp/"
printf 'int  f( void ){return 0;}\n' >"$tmp/bad.c"
if (cd "$tmp" && ! "$FMT" --dry-run -Werror bad.c >/dev/null 2>&1); then
	echo "ok $n - a badly formatted file is found"
else
	bad=1; echo "not ok $n - a badly formatted file passed the check"
fi
exit $bad
