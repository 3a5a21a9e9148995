#!/usr/bin/env bash
# The critical path (SPEC §13, docs/critical-path.md) against kernels whose
# path is known by construction. tests/tools/gen_path simulates programs of
# tiles on one to three cores (mix, vector-only, cube-only, Ascend950's
# vector family, cross-core waits on the cube core's FIXP, two appended
# runs), transfer-, vector-, scalar- and sync-bound, with and without
# pipelined pipes, and records which term started every instruction; its
# schedules are unambiguous for the documented rules (every binding term
# wins by more than 3 ns, TOL being 2), so the path walked back along the
# recorded causes is the one the rules must find. Per shape and seed,
# path_recheck wants summary.json's critical_path equal to that truth
# exactly: span_ns, segments, busy ns per pipe, wait ns per producer ->
# consumer pair, cross_core_wait_ns, issue_ns. No tolerance: every time is
# a whole ns, and the construction leaves no start within TOL of a second
# explanation. It also checks docs/summary.md's invariants on every core
# (the sums make span_ns, shares to 4 decimals, lists in order, what_if
# smallest first and within the span). The what-if estimates are checked
# by t_critical_path_what_if.sh.
#
# On the cross-core shape, whose SETs are written at the producer's end or,
# as newer producers write them, at issue, arrow_recheck wants every arrow
# on the producer its SET's release (E) names (SPEC §13).
#
# The recheck itself must fail on planted errors: a busy, wait, issue or
# segment figure of the truth changed, a wait pair renamed, a share or a
# what-if span of the summary changed. And the path is the same whatever
# the options (SCALAR kept or not: docs/critical-path.md).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/path_cases.sh"
: "${CSIM_ARROWCHECK:?set CSIM_ARROWCHECK to the arrow_recheck executable}"

# sizes LOG: "N instructions, F flags, C cross-core" over gen_path's runs.
sizes() {
	grep -o '[0-9]* [a-z-]*' "$1" | awk '$2 ~ /^(instructions|flags|cross-core)$/ { n[$2] += $1 }
		END { printf "%d instructions, %d flags, %d cross-core", n["instructions"], n["flags"], n["cross-core"] }'
}

for shape in $path_shapes; do
	for seed in $path_seeds; do
		d="$tmp/$shape-$seed"
		if path_case "$shape" "$seed"; then
			check "$shape seed $seed: the critical paths are the simulated ones ($(sizes "$d/gen.log"))" \
				"$CSIM_PATHCHECK" "$d/truth.json" "$d/out/summary.json"
			# a cross-core SET written at issue names its producer by its end
			if [ "$shape" = cross ]; then
				check "$shape seed $seed: every arrow on the producer its SET released (arrow_recheck)" \
					"$CSIM_ARROWCHECK" "$d/out/trace.clean.json" --input "$d/visualize_data.bin"
			fi
		else
			flunk "$shape seed $seed: generated, built and converted"
		fi
	done
done

# The same kernel with SCALAR kept in the trace: the same paths.
if path_case mix 2 --keep-scalar; then
	check "mix seed 2 with --keep-scalar: the same paths" \
		"$CSIM_PATHCHECK" "$tmp/mix-2/truth.json" "$tmp/mix-2/out/summary.json"
else
	flunk "mix seed 2 with --keep-scalar: converted"
fi

# Planted errors, on a kernel whose path has busy, wait and issue time.
d="$tmp/mix-2"
planted() {
	local what=$1 file=$2 expr=$3 truth=$d/truth.json summary=$d/out/summary.json
	sed "$expr" "$d/$file" >"$d/planted.json"
	if cmp -s "$d/planted.json" "$d/$file"; then
		flunk "planted: $what (the plant changed nothing)"
		return
	fi
	if [ "$file" = truth.json ]; then truth=$d/planted.json; else summary=$d/planted.json; fi
	check "planted: $what is caught" eval '! "$CSIM_PATHCHECK" "$truth" "$summary" >/dev/null'
}
planted "a busy figure of the truth" truth.json '0,/"busy":\[{"pipe":"[A-Z0-9]*","ns":/s//&1/'
planted "a wait figure of the truth" truth.json '0,/"wait":\[{"producer":"[A-Z0-9]*","consumer":"[A-Z0-9]*","ns":/s//&1/'
planted "a wait pair of the truth renamed" truth.json '0,/"consumer":"VECTOR"/s//"consumer":"MTE3"/'
planted "the truth's issue time" truth.json '0,/"issue_ns":/s//&1/'
planted "the truth's segment count" truth.json '0,/"segments":/s//&1/'
planted "an instruction's time in the truth" truth.json '0,/"instructions":\[{"pc_addr":"0x[0-9a-f]*","name":"[A-Z0-9_]*","ns":/s//&1/'
planted "an instruction of the truth renamed" truth.json '0,/"instructions":\[{"pc_addr":"0x[0-9a-f]*","name":"/s//&X/'
planted "a top instruction's address in the summary" out/summary.json '0,/"top_instructions":\[{"pc_addr":"0x/s//&f/'
planted "a share of the summary" out/summary.json '0,/"share":0\./s//&9/'
planted "a what-if span beyond the span" out/summary.json '0,/"what_if":\[{"pipe":"[A-Z0-9]*","span_ns":/s//&9/'

finish
