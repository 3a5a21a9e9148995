# Counting assertions shared by the script tests: a temp dir removed on
# exit, check/pass/flunk, and the closing "N passed, N failed" line.

passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { passed=$((passed + 1)); echo "ok   - $1"; }
flunk() { failed=$((failed + 1)); echo "FAIL - $1"; }

# check DESC CMD...: one assertion; a failing CMD does not stop the script.
check() {
	local desc=$1
	shift
	if "$@"; then pass "$desc"; else flunk "$desc"; fi
}

finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
