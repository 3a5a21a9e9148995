# Counting assertions shared by the script tests: a temp dir removed on
# exit, check/pass/flunk, and the closing "N passed, N failed" line.
#
# A script test is red unless it ran at least one check and none failed: a
# run that checked nothing (a missing fixture folder, a loop that never ran)
# proves nothing. The goldens are never written from here: the variable
# CSIM_UPDATE of older versions is refused, so an environment that still
# sets it cannot turn a comparison into a copy (docs/testing.md, "Updating
# goldens").

passed=0
failed=0
# On tmpfs where there is one with room (fsync is free there: every
# conversion fsyncs its outputs, which on a disk made the failalloc sweeps
# twice as slow); else $TMPDIR. CSIM_TEST_TMP overrides.
tmp_root() {
	if [ -n "${CSIM_TEST_TMP:-}" ]; then
		echo "$CSIM_TEST_TMP"
	elif [ -d /dev/shm ] && [ -w /dev/shm ] &&
		[ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')" -gt 2097152 ] 2>/dev/null; then
		echo /dev/shm
	else
		echo "${TMPDIR:-/tmp}"
	fi
}
tmp=$(mktemp -d -p "$(tmp_root)")
trap 'rm -rf "$tmp"' EXIT

pass() { passed=$((passed + 1)); echo "ok   - $1"; }
flunk() { failed=$((failed + 1)); echo "FAIL - $1"; }

# check DESC CMD...: one assertion; a failing CMD does not stop the script.
check() {
	local desc=$1
	shift
	if "$@"; then pass "$desc"; else flunk "$desc"; fi
}

# timed CMD...: runs CMD in this shell and sets $cpu to the CPU seconds
# (user + system, children included) it took. Wall time would measure the
# machine's load; a hang guard must not fail because CI is busy.
timed() {
	local TIMEFORMAT='%3U %3S' t
	{ time "$@" 2>&3 3>&-; } 3>&2 2>"$tmp/.time"
	t=$(tail -n 1 "$tmp/.time")
	cpu=$(echo "$t" | awk '{ printf "%.1f", $1 + $2 }')
}

# below SECONDS: is $cpu under that many seconds?
below() { awk -v c="$cpu" -v l="$1" 'BEGIN { exit !(c < l) }'; }

# skip_missing WHAT: the test cannot run here for want of WHAT (a tool it
# drives): exit 77, which ctest reports as skipped, naming what is missing;
# where CSIM_NO_SKIP=1 (.ci/run, which installs every such tool) a failure.
skip_missing() {
	if [ "${CSIM_NO_SKIP:-0}" = 1 ]; then
		flunk "cannot run, and CSIM_NO_SKIP=1: $1"
		echo "$passed passed, $failed failed"
		exit 1
	fi
	echo "SKIP: $1"
	exit 77
}

finish() {
	if [ -n "${CSIM_UPDATE:-}" ]; then
		flunk "CSIM_UPDATE is set in the environment; tests never update goldens (use the update-goldens target)"
	fi
	if [ $((passed + failed)) -eq 0 ]; then
		flunk "no check ran"
	fi
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
