# tests/vm/guest-check.sh - runs in the VM: `gearbox check` on one scheduler, as TAP.
#   guest-check.sh LABEL KNOWN-FAILURES SCHEDULER-COMMAND [ARGS]
# KNOWN-FAILURES: comma-separated checks this scheduler is known to fail (findings documented in
# docs/testing.md).  Such a failure is reported as "ok ... # SKIP known finding: FAIL ..." (the
# FAIL and its detail stay visible) so that it does not fail the suite, while any other check
# failing does.  "-" for none.
# An optional "--only LIST" after KNOWN-FAILURES runs only those checks (the others are
# reported as skipped): for a check that hangs a scheduler's guest, until that is fixed.
# An optional "--attach-timeout S" (after --only, if both) is passed to gearbox check: for a
# scheduler whose BPF verification alone takes seconds under the emulator.
label=$1 known=$2; shift 2
only= opts=
if [ "${1:-}" = --only ]; then only=$2; shift 2; fi
if [ "${1:-}" = --attach-timeout ]; then opts="--attach-timeout $2"; shift 2; fi
if [ -n "$only" ]; then
	# shellcheck disable=SC2086
	gearbox-check --sched-log /tmp/sched.log $opts --only "$only" -- "$@" >/tmp/check.out 2>/tmp/check.err
else
	# shellcheck disable=SC2086
	gearbox-check --sched-log /tmp/sched.log $opts -- "$@" >/tmp/check.out 2>/tmp/check.err
fi
rc=$?
# the human output is also the record in the serial log
cat /tmp/check.out >&2
awk -v label="$label" -v known=",$known," -v rc="$rc" '
	$1 == "pass" || $1 == "FAIL" || $1 == "skip" {
		name = $2; detail = $0; sub(/^[^ ]+ +[^ ]+ +/, "", detail)
		n++
		if ($1 == "pass") print "ok " n " - " label ": " name ": " detail
		else if ($1 == "skip") print "ok " n " - " label ": " name " # SKIP " detail
		else if (index(known, "," name ",")) print "ok " n " - " label ": " name " # SKIP known finding: FAIL " detail
		else print "not ok " n " - " label ": " name ": " detail
		if ($1 == "FAIL") any_fail = 1
	}
	/^gearbox check: / { summary = $0 }
	END {
		n++
		if (summary == "") print "not ok " n " - " label ": gearbox check printed no summary (status " rc ")"
		else if ((rc != 0) != (any_fail == 1))
			print "not ok " n " - " label ": exit status " rc " disagrees with the results"
		else print "ok " n " - " label ": exit status " rc " matches the results; " summary
		print "1.." n
	}' /tmp/check.out
if [ -s /tmp/check.err ]; then sed 's/^/# stderr: /' /tmp/check.err; fi
echo "--- scheduler log (tail) ---" >&2
tail -n 20 /tmp/sched.log >&2
exit 0
