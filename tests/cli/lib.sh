# Shared helpers for the script tests that run the converter.
# Env (set by ctest): CSIM_BIN, CSIM_CHECK, CSIM_GEN, CSIM_ROOT.
: "${CSIM_BIN:?set CSIM_BIN to the clean_sim_trace executable}"
: "${CSIM_CHECK:?set CSIM_CHECK to the trace_check executable}"
: "${CSIM_GEN:?set CSIM_GEN to the gen_bin executable}"
: "${CSIM_ROOT:?set CSIM_ROOT to the repository root}"

source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

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
