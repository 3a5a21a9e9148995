# Shared helpers for the script tests that run the converter.
# Env (set by ctest): CSIM_BIN, CSIM_CHECK, CSIM_GEN, CSIM_ROOT.
: "${CSIM_BIN:?set CSIM_BIN to the clean_sim_trace executable}"
: "${CSIM_CHECK:?set CSIM_CHECK to the trace_check executable}"
: "${CSIM_GEN:?set CSIM_GEN to the gen_bin executable}"
: "${CSIM_ROOT:?set CSIM_ROOT to the repository root}"

source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

# run DIR ARGS...: runs the converter in DIR; sets $status, and $out and
# $err to the exact bytes of stdout and stderr, trailing newlines included
# (also kept in $tmp/.stdout and $tmp/.stderr until the next run).
run() {
	local dir=$1
	shift
	status=0
	(cd "$dir" && "$CSIM_BIN" "$@" >"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
	out=$(cat "$tmp/.stdout"; printf x)
	out=${out%x}
	err=$(cat "$tmp/.stderr"; printf x)
	err=${err%x}
}

contains() { [[ "$1" == *"$2"* ]]; }

# lines TEXT WANT: TEXT is exactly the line(s) WANT, each ending in a newline
# (a missing or extra trailing newline fails).
lines() { [ "$1" = "$2"$'\n' ]; }

# failalloc_env: for an allocation-failure sweep (tests/tools/failalloc.c),
# sets $step, which allocations to fail: every one, or every
# CSIM_FAILALLOC_SAMPLE-th (7) under a sanitizer, whose runs are ~10x slower
# (CI runs the whole suite again under it); a sanitizer report exits 86.
failalloc_env() {
	step=1
	if [ -n "${CSIM_SANITIZER:-}" ]; then
		step=${CSIM_FAILALLOC_SAMPLE:-7}
	fi
	export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=1:exitcode=86"
	export UBSAN_OPTIONS="${UBSAN_OPTIONS:-}:halt_on_error=1:exitcode=86"
}
