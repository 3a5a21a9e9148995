#!/usr/bin/env bash
# Allocation-failure injection (the SQLite approach; docs/robustness.md).
# clean_sim_trace_failalloc is the converter with every malloc, calloc,
# realloc and strdup (zlib's and cJSON's included) counted by
# tests/tools/failalloc.c; CSIM_FAIL_ALLOC=k makes the k-th one fail.
#
# For each dump: one counting run gives the total N and the reference
# outputs; then for each k tried (lib.sh's sweep_points: a sample spread
# over the code paths, or every k), the run must
#   - exit 1 or 3 (never crash, never hang) with "error: out of memory",
#   - leave the output folder exactly as it was: four older outputs, byte for
#     byte, and no new or temporary file,
#   - under ASan/LSan, report no leak or memory error;
# except where the failed allocation is best-effort (the table's size
# estimate): then the run must succeed with the reference bytes.
# A last sweep covers the raw copy and the commit over an older
# raw_simulator/: exit 3 there, and the older set (that copy alone) must
# stay as it was, with no new output and no temporary folder. A run over 60 s counts as a hang (exit 124).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_FAILALLOC:?set CSIM_FAILALLOC to the clean_sim_trace_failalloc executable}"

failalloc_env

benign=0
exits=""   # exit status of each tried k, for the summary line

# fa_run DIR K ARGS...: runs the failalloc build in DIR failing allocation K.
fa_run() {
	local dir=$1 k=$2
	shift 2
	status=0
	(cd "$dir" && CSIM_FAIL_ALLOC=$k timeout 60 "$CSIM_FAILALLOC" "$@" \
		>"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
	err=$(cat "$tmp/.stderr")
}

# A sweep converts "sim -o out", or with in_place=1 "sim/visualize_data.bin"
# into its own folder (other input and output-folder code paths); the
# options in extra (if any) are added.
in_place=0
extra=()
trace_out=trace.clean.json   # the trace a good run writes (-z: .json.gz)
conv_args() {
	if [ "$in_place" = 1 ]; then
		args=(sim/visualize_data.bin --no-copy-raw ${extra[@]+"${extra[@]}"})
		out_dir=sim
		listing="instr_metrics.json summary.html summary.json trace.clean.json visualize_data.bin "
	else
		args=(sim -o out --no-copy-raw ${extra[@]+"${extra[@]}"})
		out_dir=out
		listing="instr_metrics.json summary.html summary.json trace.clean.json "
	fi
}

tally() { echo "$exits" | tr ' ' '\n' | grep -cx "$1" || true; }

old_outputs() {
	[ "$in_place" = 1 ] || { rm -rf "$1/out"; mkdir -p "$1/out"; }
	# In place, a best-effort k's good -z run left its .gz beside the dump.
	rm -f "$1/$out_dir/trace.clean.json.gz" "$1/$out_dir/trace.pftrace"
	echo '{"old":"trace"}' >"$1/$out_dir/trace.clean.json"
	echo '{"old":"metrics"}' >"$1/$out_dir/instr_metrics.json"
	echo '{"old":"summary"}' >"$1/$out_dir/summary.json"
	echo '<p>old page</p>' >"$1/$out_dir/summary.html"
}

# one_k NAME WORK K: the verdict for one failing allocation; prints why not.
one_k() {
	local name=$1 work=$2 k=$3

	old_outputs "$work"
	fa_run "$work" "$k" "${args[@]}"
	if contains "$err" "Sanitizer"; then
		echo "$name k=$k: sanitizer report: $(grep -m1 Sanitizer "$tmp/.stderr")"
		return 1
	fi
	if [ "$status" -eq 0 ]; then
		# Best-effort allocation: the run goes on and must not differ.
		if cmp -s "$work/$out_dir/$trace_out" "$work/ref/$trace_out" &&
			{ [ ! -e "$work/ref/instr_metrics.json" ] ||
			  cmp -s "$work/$out_dir/instr_metrics.json" "$work/ref/instr_metrics.json"; } &&
			cmp -s "$work/$out_dir/summary.json" "$work/ref/summary.json" &&
			cmp -s "$work/$out_dir/summary.html" "$work/ref/summary.html"; then
			benign=$((benign + 1))
			exits="$exits 0"
			return 0
		fi
		echo "$name k=$k: exit 0 with outputs that differ from the reference"
		return 1
	fi
	if [ "$status" -ne 1 ] && [ "$status" -ne 3 ]; then
		echo "$name k=$k: exit $status"
		return 1
	fi
	exits="$exits $status"
	if [ "$err" != "error: out of memory" ]; then
		echo "$name k=$k: exit $status, stderr: $err"
		return 1
	fi
	if [ "$(cat "$work/$out_dir/trace.clean.json")" != '{"old":"trace"}' ] ||
		[ "$(cat "$work/$out_dir/instr_metrics.json")" != '{"old":"metrics"}' ] ||
		[ "$(cat "$work/$out_dir/summary.json")" != '{"old":"summary"}' ] ||
		[ "$(cat "$work/$out_dir/summary.html")" != '<p>old page</p>' ] ||
		[ "$(ls -A "$work/$out_dir" | tr '\n' ' ')" != "$listing" ]; then
		echo "$name k=$k: output folder changed: $(ls -A "$work/$out_dir" | tr '\n' ' ')"
		return 1
	fi
	return 0
}

# pick_ks SITES FIRST LAST: the k to fail among FIRST..LAST (lib.sh's
# sweep_points: the suite's sample spreads over the code paths SITES, the
# counting run's "k chain" lines, tells apart, those no earlier dump's
# sample tried first; ctest -L exhaustive tries every k).
pick_ks() {
	sweep_points "$2" "$3" "$1" "$tmp/.chains_tried"
}

# sweep NAME DUMP [in_place]: every k (or a sample) on one dump.
sweep() {
	local name=$1 dump=$2 work="$tmp/$1" total k tried=0 bad=0

	in_place=${3:-0}
	conv_args
	mkdir -p "$work/sim" "$work/ref"
	cp "$dump" "$work/sim/visualize_data.bin"
	# The counting run is also the reference (and must itself succeed).
	status=0
	(cd "$work" && CSIM_FAIL_ALLOC=0 CSIM_FAIL_ALLOC_REPORT=1 CSIM_FAIL_ALLOC_SITES="$tmp/.sites" \
		"$CSIM_FAILALLOC" "${args[@]}" >/dev/null 2>"$tmp/.stderr") || status=$?
	cp "$work/$out_dir/"*.json "$work/$out_dir/"*.html "$work/$out_dir/"*.gz \
		"$work/$out_dir/"*.pftrace "$work/ref/" 2>/dev/null || true
	rm -f "$work/$out_dir/"*.json "$work/$out_dir/"*.html "$work/$out_dir/"*.gz \
		"$work/$out_dir/"*.pftrace
	total=$(sed -n 's/^failalloc: \([0-9]*\) allocation(s)$/\1/p' "$tmp/.stderr")
	check "$name: counting run succeeds" [ "$status" -eq 0 ]
	if [ "${total:-0}" -eq 0 ]; then
		flunk "$name: no allocation count"
		return
	fi
	exits=""
	for k in $(pick_ks "$tmp/.sites" 1 "$total"); do
		tried=$((tried + 1))
		one_k "$name" "$work" "$k" || bad=$((bad + 1))
	done
	check "$name: $tried of $total failing allocations end cleanly" [ "$bad" -eq 0 ]
	# Past the total nothing fails: the count covers the whole run.
	old_outputs "$work"
	fa_run "$work" $((total + 1)) "${args[@]}"
	check "$name: k=$((total + 1)) succeeds" [ "$status" -eq 0 ]
	echo "# $name: $total allocations, $tried k tried: exit 1 $(tally 1), exit 3 $(tally 3), best-effort $(tally 0), $bad failed"
}

# The raw copy is made into the output set before its commit (SPEC §8): a
# failure there or in the commit is exit 3 and must leave the older set as
# it was (here raw_simulator/ alone): no new output, no half copy, no
# temporary folder.
old_raw() {
	rm -rf "$1/out"
	mkdir -p "$1/out/raw_simulator"
	echo old >"$1/out/raw_simulator/old.txt"
}

sweep_raw_copy() {
	local work="$tmp/raw" total k tried=0 bad=0 first

	cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo" "$work"
	# Allocations before the copy starts, then the total with it.
	status=0
	old_raw "$work"
	(cd "$work" && CSIM_FAIL_ALLOC=0 CSIM_FAIL_ALLOC_REPORT=1 "$CSIM_FAILALLOC" \
		. -o out --no-copy-raw >/dev/null 2>"$tmp/.stderr") || status=$?
	first=$(sed -n 's/^failalloc: \([0-9]*\) allocation(s)$/\1/p' "$tmp/.stderr")
	old_raw "$work"
	(cd "$work" && CSIM_FAIL_ALLOC=0 CSIM_FAIL_ALLOC_REPORT=1 CSIM_FAIL_ALLOC_SITES="$tmp/.sites" \
		"$CSIM_FAILALLOC" . -o out >/dev/null 2>"$tmp/.stderr") || status=$?
	total=$(sed -n 's/^failalloc: \([0-9]*\) allocation(s)$/\1/p' "$tmp/.stderr")
	check "raw copy: counting runs succeed" [ "$status" -eq 0 ]
	first=$((${first:-0} + 1))
	total=${total:-0}
	for k in $(pick_ks "$tmp/.sites" "$first" "$total"); do
		tried=$((tried + 1))
		old_raw "$work"
		fa_run "$work" "$k" . -o out
		if contains "$err" "Sanitizer" || [ "$status" -ne 3 ] ||
			[ "$(grep -v '^note: ' "$tmp/.stderr")" != "error: out of memory" ] ||
			[ "$(ls -A "$work/out" | tr '\n' ' ')" != "raw_simulator " ] ||
			[ "$(ls -A "$work/out/raw_simulator")" != "old.txt" ]; then
			echo "raw copy k=$k: exit $status, $(ls -A "$work/out" | tr '\n' ' '), stderr: $err"
			bad=$((bad + 1))
		fi
	done
	check "raw copy: $tried of $((total - first + 1)) failing allocations end cleanly" \
		[ "$tried" -gt 0 -a "$bad" -eq 0 ]
	echo "# raw copy: allocations $first..$total, $tried k tried"
}

scenario_dump() {
	"$CSIM_GEN" "$CSIM_ROOT/fixtures/scenarios/$1/dump.recipe" "$tmp/$1.bin"
	echo "$tmp/$1.bin"
}

sweep demo "$CSIM_ROOT/fixtures/demo/OPPROF_demo/simulator/visualize_data.bin"
sweep demo_in_place "$CSIM_ROOT/fixtures/demo/OPPROF_demo/simulator/visualize_data.bin" 1
sweep gzip_input "$(scenario_dump gzip_input)"
# A .gz big enough to be inflated on the second thread (read/gz_source.h):
# its ring, input buffer and zlib's state and window are allocated on the
# main thread and the worker allocates nothing, so the count is the same on
# every run and each failure is the main thread's to report.
: "${CSIM_SYNTH:?set CSIM_SYNTH to the gen_synth executable}"
"$CSIM_SYNTH" --profile producer --seed 4 4 "$tmp/threaded.bin"
gzip -1 -c "$tmp/threaded.bin" >"$tmp/threaded.gz"
check "gzip_threaded: the .gz is big enough for the thread" \
	[ "$(stat -c %s "$tmp/threaded.gz")" -ge 262144 ]
sweep gzip_threaded "$tmp/threaded.gz"
sweep mix_kernel "$(scenario_dump mix_kernel)"
sweep multi_block "$(scenario_dump multi_block)"
# Past 8 cores the summary table's totals are allocated (before any output
# is committed), and summary.html's totals while it is written (exit 3).
# The demo's sweeps cover the page's timeline bins and WAIT-matrix columns.
sweep many_cores "$(scenario_dump many_cores)"
# Cross-core sync records take the pair pass and pass_intra's allocations.
"$CSIM_GEN" "$CSIM_ROOT/fixtures/cross_core/dump.recipe" "$tmp/cross_core.bin"
sweep cross_core "$tmp/cross_core.bin"
# A diagnosis that reads the figures (not near-empty): its lines, the
# cross-core partners and the per-core entries.
sweep diag_cross_core_wait "$(scenario_dump diag_cross_core_wait)"
# Two appended runs with an OP_BASIC_INFO each: the held blocks, the run
# discarded at the second TRACE, and the run facts' loading.
sweep appended_runs "$(scenario_dump appended_runs)"
# --run all: a part per run, every run's API_INSTR and OP_BASIC_INFO held,
# the run labels, and the writers of several runs.
extra=(--run all)
sweep appended_runs_all "$(scenario_dump appended_runs)"
# Two runs sharing one API_INSTR, gzip input: the copy of its payload for
# the first run.
gzip -c "$(scenario_dump appended_runs_unequal)" >"$tmp/unequal.gz"
sweep appended_runs_unequal_all "$tmp/unequal.gz"
# --run all --core of a core only run 2 has: the runs judged together, run 1
# keeping nothing.
extra=(--run all --core core0.cubecore0)
sweep multi_block_all_cut "$(scenario_dump multi_block)"
extra=()
# --core and --window: the cut pass's allocations and the clipped summary.
"$CSIM_GEN" "$CSIM_ROOT/fixtures/cut/dump.recipe" "$tmp/cut.bin"
extra=(--core 'core0.*' --window 3.2:6)
sweep cut "$tmp/cut.bin"
extra=()
# -z: deflate's state and the older-trace path; a failure leaves the older
# plain trace and no .gz (the listing and old outputs are the plain ones).
extra=(-z)
trace_out=trace.clean.json.gz
sweep demo_gzip "$CSIM_ROOT/fixtures/demo/OPPROF_demo/simulator/visualize_data.bin"
sweep demo_gzip_in_place "$CSIM_ROOT/fixtures/demo/OPPROF_demo/simulator/visualize_data.bin" 1
extra=()
trace_out=trace.clean.json
# trace.pftrace (SPEC §15): the exact times, the tracks pass, the writer's
# interning, args cache and flows, the critical path, counters (with a
# process of counters only); a failure leaves no trace.pftrace. The args
# cache's allocations are best-effort: failed, the args are encoded anew.
extra=(--format json,perfetto)
sweep demo_perfetto "$CSIM_ROOT/fixtures/demo/OPPROF_demo/simulator/visualize_data.bin"
extra=(--format perfetto)
trace_out=trace.pftrace
sweep counters_perfetto "$(scenario_dump samples_pmsampling)"
extra=()
trace_out=trace.clean.json
# A metrics key longer than the writer's stack buffer: the one allocation
# made while writing instr_metrics.json (exit 3).
sweep api_instr_long_key "$CSIM_ROOT/fixtures/invalid/api_instr_long_key.bin"
sweep_raw_copy
echo "# $benign best-effort allocation(s) failed without effect"
finish
