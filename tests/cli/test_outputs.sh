#!/usr/bin/env bash
# test_outputs.sh GEARBOX SRCDIR - every command that writes a file, against the paths that
# damage a system when written carelessly as root: a device node, a FIFO, a symbolic link, a
# read-only directory, a full file system.  The rules are those of src/util/outfile.h: a
# device or FIFO is written in place and stays what it was; a regular file is replaced only
# when everything was written; a failure exits 1 naming the path and the reason and leaves
# what was there untouched, with no temporary file behind.
#
# Needs root (mknod, mount in a private mount namespace with unshare -m); skipped otherwise.
set -u
G=$1
SRC=$2
. "$SRC/tests/cli/tap.sh"
M=$SRC/em-profiles/sm8250.json
W=$SRC/workloads/demo-mobile.json
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	tap_skip "output paths" "needs root and unshare -m (mknod, mount)"
	tap_done
	exit 0
fi
has() { "$G" --help | grep -q "^  $1 "; }

# The writers, each as a function of its output path.  sim --trace needs a run that is
# refused after the model and workload were read (a SCHED_DEADLINE task), for the refusal cases.
cat >"$T/dl.json" <<'JSON'
{ "tasks": { "d": { "policy": "SCHED_DEADLINE", "dl-runtime": 1000, "dl-period": 10000,
  "dl-deadline": 10000, "run": 1000 } }, "global": { "duration": 1 } }
JSON
"$G" em export --debugfs-tree "$T/emtree" "$M" || echo "# cannot make the debugfs tree to import"
w_export_dt() { "$G" em export --dt "$M" -o "$1"; }
w_export_text() { "$G" em export --debugfs-text "$M" -o "$1"; }
w_import() { "$G" em import --debugfs "$T/emtree" -o "$1"; }
w_profile() { "$G" profile --sim "$M" -q -o "$1"; }
w_sim_trace() { "$G" sim -p "$M" --trace "$1" "$W" >/dev/null; }
writers="w_export_dt w_export_text w_import"
export G M W T
# run WRITER PATH: the writer with a time limit (a FIFO whose reader is gone would block)
run() { timeout 120 bash -c "$(declare -f "$1"); $1 \"\$1\"" _ "$2"; }
has profile && writers="$writers w_profile"
has sim && writers="$writers w_sim_trace"

# no_tmp DIR: no temporary file of ours left in DIR
no_tmp() { ! ls -A "$1" | grep -q '\.tmp\.'; }

# A test is a sequence of steps; "need COND..." records the first that does not hold.
# result NAME prints the TAP line, with what failed and the command's stderr.
begin() { why=; }
need() { [ -n "$why" ] && return 0; "$@" || why="failed: $*"; }
result() {
	if [ -z "$why" ]; then tap_ok "$1"; else tap_fail "$1" "$why" "$(head -n 3 "$T/err" 2>/dev/null)"; fi
}

for w in $writers; do
	d=$T/$w
	mkdir -p "$d"

	# a character device (as /dev/null) and a FIFO are written in place and stay what they
	# are; a device that fails every write (as /dev/full) exits 1 naming the path and reason
	begin
	mknod "$d/null" c 1 3
	run $w "$d/null" >/dev/null 2>"$T/err"; rc=$?
	need test $rc = 0
	need test -c "$d/null"
	mkfifo "$d/fifo"
	timeout 60 cat "$d/fifo" >"$d/from-fifo" &
	reader=$!
	run $w "$d/fifo" >/dev/null 2>>"$T/err"; rc=$?
	wait $reader
	need test $rc = 0
	need test -p "$d/fifo"
	need test -s "$d/from-fifo"
	mknod "$d/full" c 1 7
	run $w "$d/full" >/dev/null 2>"$T/err"; rc=$?
	need test $rc = 1
	need test -c "$d/full"
	need grep -q "$d/full: No space left on device" "$T/err"
	result "$w: a device or FIFO is written in place and stays what it was"

	# a regular file is replaced by a new file (another name of the old one keeps the old
	# content) with the old file's permission bits; a new file gets 0666 less the umask
	begin
	echo old >"$d/file"
	chmod 600 "$d/file"
	ln "$d/file" "$d/file-old"
	run $w "$d/file" >/dev/null 2>"$T/err"; rc=$?
	need test $rc = 0
	need test -s "$d/file"
	need grep -qx old "$d/file-old"
	need test "$(stat -c %a "$d/file")" = 600
	(umask 027; run $w "$d/new" >/dev/null 2>>"$T/err")
	need test "$(stat -c %a "$d/new" 2>/dev/null)" = 640
	need no_tmp "$d"
	result "$w: a regular file is replaced whole, keeping its mode"

	# a symbolic link to a regular file is refused (link and target stay as they were); a
	# link to a device is written through, as /dev/stdout is
	begin
	echo keep >"$d/target"
	ln -s "$d/target" "$d/link"
	run $w "$d/link" >/dev/null 2>"$T/err"; rc=$?
	need test $rc = 1
	need test -L "$d/link"
	need grep -qx keep "$d/target"
	need grep -q "$d/link: is a symbolic link" "$T/err"
	ln -s "$d/null" "$d/link-null"
	run $w "$d/link-null" >/dev/null 2>"$T/err"; rc=$?
	need test $rc = 0
	need test -L "$d/link-null"
	need test -c "$d/null"
	need no_tmp "$d"
	result "$w: a symbolic link is written through only to a device"

	# a read-only directory (a bind mount, in a private mount namespace): a file there
	# cannot be replaced (exit 1, the reason, the file kept); a device there is written
	mkdir "$d/ro"
	echo keep >"$d/ro/out"
	mknod "$d/ro/null" c 1 3
	unshare -m bash -c "
		mount --bind -o ro '$d/ro' '$d/ro' || exit 9
		$(declare -f run $w)
		run $w '$d/ro/out' >/dev/null 2>'$T/err'; echo \$? >'$d/rc-ro'
		run $w '$d/ro/null' >/dev/null 2>>'$T/err'; echo \$? >>'$d/rc-ro'
	"
	begin
	need test "$(tr '\n' ' ' <"$d/rc-ro")" = "1 0 "
	need grep -qx keep "$d/ro/out"
	need grep -q "$d/ro/out: cannot create a temporary file in $d/ro: Read-only file system" "$T/err"
	need test -c "$d/ro/null"
	result "$w: a read-only directory exits 1 and keeps the file; a device there is written"

	# a full file system (a small tmpfs): exit 1, the reason, the file kept, nothing left
	mkdir "$d/small"
	unshare -m bash -c "
		mount -t tmpfs -o size=8k tmpfs '$d/small' || exit 9
		$(declare -f run $w)
		echo keep >'$d/small/out'
		head -c 4096 /dev/zero >'$d/small/filler'
		run $w '$d/small/out' >/dev/null 2>'$T/err'; echo \$? >'$d/rc-full'
		cp '$d/small/out' '$d/out-full'
		ls -A '$d/small' >'$d/ls-full'
	"
	begin
	need test "$(cat "$d/rc-full")" = 1
	need grep -qx keep "$d/out-full"
	need grep -q "$d/small/out: No space left on device" "$T/err"
	need test "$(cat "$d/ls-full")" = "$(printf 'filler\nout')"
	result "$w: a full file system exits 1 naming the reason and keeps the file"
done

# sim --trace: a refused run (a SCHED_DEADLINE task, refused after the model and the
# workload were read) leaves whatever was at the path as it was
if has sim; then
	d=$T/sim-refused
	mkdir "$d"
	echo keep >"$d/trace"
	mkfifo "$d/fifo"
	mknod "$d/null" c 1 3
	begin
	"$G" sim -p "$M" --trace "$d/trace" "$T/dl.json" >/dev/null 2>"$T/err"; rc=$?
	need test $rc = 2
	need grep -q SCHED_DEADLINE "$T/err"
	need grep -qx keep "$d/trace"
	timeout 60 cat "$d/fifo" >/dev/null &
	reader=$!
	timeout 60 "$G" sim -p "$M" --trace "$d/fifo" "$T/dl.json" >/dev/null 2>>"$T/err"; rc=$?
	wait $reader
	need test $rc = 2
	need test -p "$d/fifo"
	"$G" sim -p "$M" --trace "$d/null" "$T/dl.json" >/dev/null 2>>"$T/err"; rc=$?
	need test $rc = 2
	need test -c "$d/null"
	need no_tmp "$d"
	result "sim: a refused run keeps the file, FIFO or device given as --trace"
fi

# em export --debugfs-tree: the tree is written whole or not at all, into a new directory
# or an existing one; a device inside the tree is written in place
d=$T/tree
mkdir -p "$d/small" "$d/dev/cpu0"
unshare -m bash -c "
	mount -t tmpfs -o size=64k tmpfs '$d/small' || exit 9
	'$G' em export --debugfs-tree '$d/small/t' '$M' >/dev/null 2>'$T/err'; echo \$? >'$d/rc'
	mkdir '$d/small/u'; echo keep >'$d/small/u/note'
	'$G' em export --debugfs-tree '$d/small/u' '$M' >/dev/null 2>>'$T/err'; echo \$? >>'$d/rc'
	(cd '$d/small' && find . | sort) >'$d/list'
"
mknod "$d/dev/cpu0/cpus" c 1 3
begin
need test "$(tr '\n' ' ' <"$d/rc")" = "1 1 "
need grep -q "No space left on device" "$T/err"
need test "$(tr '\n' ' ' <"$d/list")" = ". ./u ./u/note "
"$G" em export --debugfs-tree "$d/dev" "$M" >/dev/null 2>"$T/err"; rc=$?
need test $rc = 0
need test -c "$d/dev/cpu0/cpus"
need grep -qx 0 "$d/dev/cpu0/id"
need grep -qx 985967 "$d/dev/cpu7/ps:2841600/power"
result "export --debugfs-tree writes the whole tree or nothing"

# profile -o FILE --report DIR: a report that cannot be written (DIR on a full file
# system) leaves the model at -o as it was; both are written when they can be
if has profile; then
	d=$T/report
	mkdir -p "$d/small"
	echo keep >"$d/m.json"
	unshare -m bash -c "
		mount -t tmpfs -o size=8k tmpfs '$d/small' || exit 9
		head -c 8192 /dev/zero >'$d/small/filler'
		'$G' profile --sim '$M' -q -o '$d/m.json' --report '$d/small/rep' >/dev/null 2>'$T/err'
		echo \$? >'$d/rc'
		ls -A '$d/small' >'$d/ls'
	"
	begin
	need test "$(cat "$d/rc")" = 1
	need grep -q "$d/small/rep/.*: No space left on device" "$T/err"
	need grep -qx keep "$d/m.json"
	need test "$(cat "$d/ls")" = filler
	need no_tmp "$d"
	"$G" profile --sim "$M" -q -o "$d/m.json" --report "$d/rep" >/dev/null 2>"$T/err"; rc=$?
	need test $rc = 0
	need grep -q gearbox-em/1 "$d/m.json"
	need test -s "$d/rep/power-perf.svg"
	need test -s "$d/rep/comparison.txt"
	result "profile: the model and the report are put in place together or not at all"
fi

# standard output that cannot be written is an error, not a silent success
mknod "$T/full" c 1 7
begin
"$G" em show "$M" >"$T/full" 2>"$T/err"; rc=$?
need test $rc = 1
need grep -q "standard output: No space left on device" "$T/err"
"$G" em export --dt "$M" -o - >"$T/full" 2>"$T/err"; rc=$?
need test $rc = 1
need grep -q "standard output: No space left on device" "$T/err"
result "a full standard output exits 1 with the reason"

tap_done
