# Shared helpers for the script tests: counting, temp dirs, running the CLI.
# Env (set by ctest): CSIM_BIN, CSIM_CHECK, CSIM_GEN, CSIM_ROOT.
: "${CSIM_BIN:?set CSIM_BIN to the clean_sim_trace executable}"
: "${CSIM_CHECK:?set CSIM_CHECK to the trace_check executable}"
: "${CSIM_GEN:?set CSIM_GEN to the gen_bin executable}"
: "${CSIM_ROOT:?set CSIM_ROOT to the repository root}"

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

# run DIR ARGS...: runs the converter in DIR; sets $status, $out, $err.
run() {
	local dir=$1
	shift
	status=0
	(cd "$dir" && "$CSIM_BIN" "$@" >"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
	out=$(cat "$tmp/.stdout")
	err=$(cat "$tmp/.stderr")
}

contains() { [[ "$1" == *"$2"* ]]; }

finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
