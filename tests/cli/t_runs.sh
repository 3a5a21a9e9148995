#!/usr/bin/env bash
# Files holding several runs (SPEC §1 --run, §2.1, §5.1-5.2, §7):
# the default converts the last run with the SPEC's warning; --run K picks
# run K (K beyond the count is an input error, exit 1; 0, x, ... are usage
# errors, exit 2); --run all converts every run side by side, each in
# processes of its own with its own metrics and summary; unequal API_INSTR /
# OP_BASIC_INFO counts warn and take the last; gzip input works the same; a
# one-run file is unchanged.
#
# Two runs of one vector core. Each has a slice A on MTE2 and B on VECTOR,
# a flag "p" (MTE2 -> VECTOR) that anchors A -> B, and half of a flag "x":
# run 1 its SET only, run 2 its WAIT only. Were runs converted together,
# --run all would pair run 1's SET x with run 2's WAIT x and draw a third
# arrow (A1 -> B2).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_FACTS:?set CSIM_FACTS to the trace_facts executable}"

w="$tmp/w"
mkdir -p "$w"

# run_trace N T0 SCHEMA: the trace of run N, its events at T0 + small offsets (µs).
run_trace() {
	local n=$1 t=$2 schema=$3 x
	if [ "$n" = 1 ]; then
		x="{\"args\":{\"detail\":\"PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:1,\"},\"id\":\"x\",\"name\":\"SET_FLAG\",\"ph\":\"B\",\"pid\":\"core0.veccore0\",\"tid\":\"MTE2\",\"ts\":$t.07},
{\"id\":\"x\",\"name\":\"SET_FLAG\",\"ph\":\"E\",\"pid\":\"core0.veccore0\",\"tid\":\"MTE2\",\"ts\":$t.08}"
	else
		x="{\"id\":\"x\",\"name\":\"WAIT_FLAG\",\"ph\":\"B\",\"pid\":\"core0.veccore0\",\"tid\":\"VECTOR\",\"ts\":$t.0},
{\"id\":\"x\",\"name\":\"WAIT_FLAG\",\"ph\":\"E\",\"pid\":\"core0.veccore0\",\"tid\":\"VECTOR\",\"ts\":$t.15}"
	fi
	cat <<EOF
{"displayTimeUnit":"ns","profilingType":"op","schemaVersion":$schema,"traceEvents":[
{"args":{"run":$n},"dur":0.1,"name":"A$n","ph":"X","pid":"core0.veccore0","tid":"MTE2","ts":$t.0},
{"args":{"run":$n},"dur":0.1,"name":"B$n","ph":"X","pid":"core0.veccore0","tid":"VECTOR","ts":$t.2},
{"args":{"detail":"PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:0,"},"id":"p","name":"SET_FLAG","ph":"B","pid":"core0.veccore0","tid":"MTE2","ts":$t.05},
{"id":"p","name":"SET_FLAG","ph":"E","pid":"core0.veccore0","tid":"MTE2","ts":$t.06},
{"id":"p","name":"WAIT_FLAG","ph":"B","pid":"core0.veccore0","tid":"VECTOR","ts":$t.0},
{"id":"p","name":"WAIT_FLAG","ph":"E","pid":"core0.veccore0","tid":"VECTOR","ts":$t.15},
$x
]}
EOF
}
run_trace 1 1 1 >"$w/r1.json"
run_trace 2 2 2 >"$w/r2.json"
for n in 1 2; do
	printf '{"Cores":["core0.veccore0"],"Instructions":[{"Pipe":"MTE2","Source":"run%s"}]}' "$n" >"$w/i$n.json"
	printf '{"run":%s}' "$n" >"$w/b$n.json"
done
sed 's/core0\.veccore0/core0.veccore1/' "$w/r2.json" >"$w/r2_core1.json"   # run 2 on another core
printf '{"traceEvents":[' >"$w/bad.json"   # a TRACE payload that is not JSON

# dump NAME RECIPE-LINES...: builds $w/NAME/visualize_data.bin.
dump() {
	local name=$1
	shift
	mkdir -p "$w/$name"
	printf '%s\n' "$@" >"$w/$name.recipe"
	sed -i "s|@|$w/|g" "$w/$name.recipe"
	"$CSIM_GEN" "$w/$name.recipe" "$w/$name/visualize_data.bin"
}
dump two "trace @r1.json" "instr @i1.json" "block 5 @b1.json" \
	"trace @r2.json" "instr @i2.json" "block 5 @b2.json"
dump two_gz "trace @r1.json" "instr @i1.json" "block 5 @b1.json" \
	"trace @r2.json" "instr @i2.json" "block 5 @b2.json" "gzip"
dump two_cores "trace @r1.json" "instr @i1.json" "trace @r2_core1.json" "instr @i2.json"
dump one_instr "trace @r1.json" "instr @i1.json" "trace @r2.json"
dump three_instr "instr @i1.json" "trace @r1.json" "instr @i2.json" "trace @r2.json" "instr @i1.json"
dump one_basic "block 5 @b1.json" "trace @r1.json" "instr @i1.json" "trace @r2.json" "instr @i2.json"
dump one "trace @r2.json" "instr @i2.json"
dump bad_first "block 2 @bad.json" "instr @i1.json" "trace @r2.json" "instr @i2.json"
dump bad_last "trace @r1.json" "instr @i1.json" "block 2 @bad.json" "instr @i2.json"

# facts DIR: what trace_facts prints for DIR/trace.clean.json, plus run args.
facts() { "$CSIM_FACTS" "$1/trace.clean.json"; }
has_fact() { grep -Fxq "$2" <<<"$1"; }
first_line() { head -n 1 "$1/trace.clean.json"; }

arrow1="arrow 1 MTE2->VECTOR flag0 core0.veccore0 MTE2 1.05 core0.veccore0 VECTOR 1.25"
arrow2_alone="arrow 1 MTE2->VECTOR flag0 core0.veccore0 MTE2 2.05 core0.veccore0 VECTOR 2.25"
arrow2_merged="arrow 2 MTE2->VECTOR flag0 core0.veccore0 MTE2 2.05 core0.veccore0 VECTOR 2.25"
warn_two="warning: two/visualize_data.bin holds 2 runs (a re-run appended to the same file): converting run 2; use --run K or --run all"

# --- default: the last run, with the SPEC's warning --------------------------
run "$w" two -o o_def --no-copy-raw
f=$(facts "$w/o_def")
check "default: exit 0" [ "$status" -eq 0 ]
check "default: the SPEC's warning, exactly" contains "$err" "$warn_two"$'\n'
check "default: one warning" [ "$(grep -c '^warning:' <<<"$err")" = 1 ]
check "default: run 2's slices only" has_fact "$f" "slices 2"
check "default: no run-1 slice" eval '! grep -q "\"A1\"" "$w/o_def/trace.clean.json"'
check "default: run 2's arrow" has_fact "$f" "$arrow2_alone"
check "default: one arrow" has_fact "$f" "arrows 1"
check "default: run 2's WAIT x has no SET" contains "$err" "1 sync flag(s) could not be re-anchored: 1 no matching SET"
check "default: events of one TRACE block" contains "$err" "note: 8 event(s) in 1 TRACE block(s)"
check "default: run 2's metrics" grep -q '"source":"run2"' "$w/o_def/instr_metrics.json"
check "default: run 2's schemaVersion" contains "$(first_line "$w/o_def")" '"schemaVersion":2'
check "default: viewer rules hold" "$CSIM_CHECK" --expect-slices 2 --expect-arrows 1 "$w/o_def/trace.clean.json"

# --- --run 1, --run 2 ----------------------------------------------------------
run "$w" two -o o_r1 --no-copy-raw --run 1
f=$(facts "$w/o_r1")
check "--run 1: exit 0" [ "$status" -eq 0 ]
check "--run 1: no warning" eval '! contains "$err" "warning:"'
check "--run 1: says which run" contains "$err" "note: two/visualize_data.bin holds 2 runs: converting run 1"$'\n'
check "--run 1: run 1's slices" has_fact "$f" "slices 2"
check "--run 1: no run-2 slice" eval '! grep -q "\"B2\"" "$w/o_r1/trace.clean.json"'
check "--run 1: run 1's arrow" has_fact "$f" "$arrow1"
check "--run 1: run 1's SET x has no WAIT" contains "$err" "1 sync flag(s) could not be re-anchored: 1 no matching WAIT"
check "--run 1: run 1's metrics (the 1st of 2 API_INSTR)" grep -q '"source":"run1"' "$w/o_r1/instr_metrics.json"
check "--run 1: run 1's schemaVersion" contains "$(first_line "$w/o_r1")" '"schemaVersion":1'
check "--run 1: viewer rules hold" "$CSIM_CHECK" --expect-slices 2 --expect-arrows 1 "$w/o_r1/trace.clean.json"
run "$w" two -o o_r2 --no-copy-raw --run=2
check "--run=2: exit 0" [ "$status" -eq 0 ]
check "--run=2: no warning" eval '! contains "$err" "warning:"'
check "--run=2: the default's trace" cmp "$w/o_r2/trace.clean.json" "$w/o_def/trace.clean.json"
check "--run=2: the default's metrics" cmp "$w/o_r2/instr_metrics.json" "$w/o_def/instr_metrics.json"

# --- --run all: side by side, each run in processes of its own (SPEC §2.1) ----
run "$w" two -o o_all --no-copy-raw --run all
f=$(facts "$w/o_all")
r1="core0.veccore0 run 1"
r2="core0.veccore0 run 2"
check "--run all: exit 0" [ "$status" -eq 0 ]
check "--run all: no warning" eval '! contains "$err" "warning:"'
check "--run all: says so" contains "$err" "note: two/visualize_data.bin holds 2 runs: converted side by side, each in processes of its own (\"<pid> run <k>\") with its own metrics and summary"$'\n'
check "--run all: both runs' slices" has_fact "$f" "slices 4"
check "--run all: a process per run" has_fact "$f" "processes 2"
check "--run all: run 1's process first" has_fact "$f" "process $r1 0"
check "--run all: run 2's process next" has_fact "$f" "process $r2 1"
check "--run all: run 1's MTE2 lane alone, one sub-lane" has_fact "$f" "lane $r1 MTE2 1 1"
check "--run all: run 2's MTE2 lane alone, one sub-lane" has_fact "$f" "lane $r2 MTE2 1 1"
check "--run all: timestamps verbatim (run 2 at its own 2.0)" has_fact "$f" "slice $r2 MTE2 A2 2"
check "--run all: run 1's arrow" has_fact "$f" \
	"arrow 1 MTE2->VECTOR flag0 $r1 MTE2 1.05 $r1 VECTOR 1.25"
check "--run all: run 2's arrow" has_fact "$f" \
	"arrow 2 MTE2->VECTOR flag0 $r2 MTE2 2.05 $r2 VECTOR 2.25"
check "--run all: x does not pair across runs (2 arrows, not 3)" has_fact "$f" "arrows 2"
check "--run all: run 1's SET x unmatched" contains "$err" \
	"note: run 1: 1 sync flag(s) could not be re-anchored: 1 no matching WAIT"
check "--run all: run 2's WAIT x unmatched" contains "$err" \
	"note: run 2: 1 sync flag(s) could not be re-anchored: 1 no matching SET"
check "--run all: run 1's events" contains "$err" "note: run 1: 8 event(s) in 1 TRACE block(s)"
check "--run all: run 2's events" contains "$err" "note: run 2: 8 event(s) in 1 TRACE block(s)"
check "--run all: every run's metrics, in run order" \
	grep -Ezq '^\{"runs":\[.*"source":"run1".*"source":"run2".*\]\}'$'\n''$' "$w/o_all/instr_metrics.json"
check "--run all: a summary per run" grep -q '^"runs":\[$' "$w/o_all/summary.json"
check "--run all: run 1's and run 2's summaries" \
	grep -Ezq '"index":1,"of":2,"side_by_side":true.*"index":2,"of":2,"side_by_side":true' \
	"$w/o_all/summary.json"
check "--run all: the span's change from run 1 to run 2" \
	grep -q '^{"from":1,"to":2,"slowest_span_ns":\[300,300\],"change_ns":0,"change_share":0.0000,"cores":\[$' \
	"$w/o_all/summary.json"
check "--run all: a table per run" [ "$(grep -c '^summary: (no op name) (run [12] of 2)$' <<<"$out")" = 2 ]
check "--run all: the compare view from run 1 to run 2" contains "$out" \
	$'compare: run 1 -> run 2\n'
check "--run all: its kernel line" grep -Eq '^  kernel \(slowest core\) +0\.300 +0\.300 +\+0\.0 %' <<<"$out"
check "--run all: schemaVersion of the first block" contains "$(first_line "$w/o_all")" '"schemaVersion":1'
check "--run all: viewer rules hold" "$CSIM_CHECK" --expect-slices 4 --expect-arrows 2 "$w/o_all/trace.clean.json"
check "--run all: one page with a section per run" \
	grep -Ezq '<section class="run" id="run-1">.*<section class="run" id="run-2">.*id="runs"' \
	"$w/o_all/summary.html"

# --- --run all --core: a pattern need match a core of one run only -----------
# two_cores: run 1 on core0.veccore0, run 2 on core0.veccore1.
run "$w" two_cores -o o_cut1 --no-copy-raw --run all --core core0.veccore1
f=$(facts "$w/o_cut1")
check "--run all --core of run 2 only: exit 0" [ "$status" -eq 0 ]
check "--run all --core of run 2 only: run 2's process alone" has_fact "$f" "processes 1"
check "--run all --core of run 2 only: it is run 2's" has_fact "$f" "process core0.veccore1 run 2 0"
check "--run all --core of run 2 only: run 2's slices" has_fact "$f" "slices 2"
check "--run all --core of run 2 only: run 1 keeps nothing, said so" contains "$err" \
	"note: run 1: cut (--core/--window): the trace holds 0 of 2 slice(s), 0 of 1 arrow(s), 0 of 0 counter(s)"
check "--run all --core of run 2 only: a summary per run still" \
	[ "$(grep -c '^summary: (no OP_BASIC_INFO) (run [12] of 2)$' <<<"$out")" = 2 ]
run "$w" two_cores -o o_cut2 --no-copy-raw --run all --core core0.veccore0 --core 'core0.veccore1'
f=$(facts "$w/o_cut2")
check "--run all, a pattern per run: both processes" has_fact "$f" "processes 2"
check "--run all, a pattern per run: run 1's" has_fact "$f" "process core0.veccore0 run 1 0"
run "$w" two_cores -o o_cut3 --no-copy-raw --run all --core 'core9*'
check "--run all --core of no run: exit 2, names the runs' cores" [ "$status:$err" = \
	"2:error: option --core 'core9*' matches no core of any of the 2 runs; their cores: core0.veccore0, core0.veccore1"$'\n' ]
check "--run all --core of no run: nothing written" [ ! -e "$w/o_cut3" ]
run "$w" two_cores -o o_cut4 --no-copy-raw --run all --core core0.veccore0 --core 'core9*'
check "--run all, one pattern of no run: exit 2" [ "$status" -eq 2 ]
run "$w" two_cores -o o_cut5 --no-copy-raw --run 2 --core core0.veccore0
check "--run 2 --core of run 1 only: exit 2, names run 2's cores" [ "$status:$err" = \
	"2:error: option --core 'core0.veccore0' matches no core of the run; its 1 core(s): core0.veccore1"$'\n' ]

# --- --run beyond the count: input error; bad values: usage errors -----------
run "$w" two -o o_r3 --no-copy-raw --run 3
check "--run 3 of 2: exit 1" [ "$status" -eq 1 ]
check "--run 3 of 2: names the count" lines "$err" "error: two/visualize_data.bin: --run 3, but the file holds 2 run(s)"
check "--run 3 of 2: nothing written" [ ! -e "$w/o_r3" ]
run "$w" one -o o_one_r2 --no-copy-raw --run 2
check "--run 2 of 1: exit 1, names the count" [ "$status:$err" = "1:error: one/visualize_data.bin: --run 2, but the file holds 1 run(s)"$'\n' ]
for bad in 0 x -1 1.5 ''; do
	run "$w" two -o o_bad --no-copy-raw --run "$bad"
	check "--run '$bad': exit 2" [ "$status" -eq 2 ]
	check "--run '$bad': message" lines "$err" "error: option --run: '$bad' is not a run number (1, 2, ...) or all"
done
check "usage errors: nothing written" [ ! -e "$w/o_bad" ]
run "$w" two --run
check "--run without a value: exit 2" [ "$status:$err" = "2:error: option --run needs a run number or all"$'\n' ]

# --- gzip input with two runs ----------------------------------------------------
for args in "" "--run 1" "--run all"; do
	name=$(tr -d ' -' <<<"gz$args")
	ref=o_def
	[ "$args" = "--run 1" ] && ref=o_r1
	[ "$args" = "--run all" ] && ref=o_all
	# shellcheck disable=SC2086
	run "$w" two_gz -o "$name" --no-copy-raw $args
	check "gzip $args: exit 0" [ "$status" -eq 0 ]
	check "gzip $args: same trace as the plain file" cmp_but_names "$w/$name/trace.clean.json" "$w/$ref/trace.clean.json"
	check "gzip $args: same metrics as the plain file" cmp "$w/$name/instr_metrics.json" "$w/$ref/instr_metrics.json"
done
run "$w" two_gz -o gz_warn --no-copy-raw
check "gzip: the SPEC's warning" contains "$err" "warning: two_gz/visualize_data.bin holds 2 runs (a re-run appended to the same file): converting run 2; use --run K or --run all"

# --- unequal API_INSTR / OP_BASIC_INFO counts: the last, with a warning -------
run "$w" one_instr -o o_1i --no-copy-raw --run 2
check "2 runs, 1 API_INSTR: exit 0" [ "$status" -eq 0 ]
check "2 runs, 1 API_INSTR: warning" contains "$err" \
	"warning: one_instr/visualize_data.bin: 2 TRACE block(s) but 1 API_INSTR block(s): metrics come from the last API_INSTR block, at offset "
check "2 runs, 1 API_INSTR: run 2 takes it" grep -q '"source":"run1"' "$w/o_1i/instr_metrics.json"
run "$w" three_instr -o o_3i --no-copy-raw --run 1
check "2 runs, 3 API_INSTR: warning" contains "$err" \
	"2 TRACE block(s) but 3 API_INSTR block(s): metrics come from the last API_INSTR block"
check "2 runs, 3 API_INSTR: --run 1 takes the last, not the 1st" grep -q '"source":"run1"' "$w/o_3i/instr_metrics.json"
check "2 runs, 3 API_INSTR: (the 1st and last are i1; the 2nd, i2, is not used)" \
	eval '! grep -q run2 "$w/o_3i/instr_metrics.json"'
run "$w" three_instr -o o_3i_def --no-copy-raw
check "2 runs, 3 API_INSTR, default: the last" grep -q '"source":"run1"' "$w/o_3i_def/instr_metrics.json"
run "$w" one_basic -o o_1b --no-copy-raw
check "2 runs, 1 OP_BASIC_INFO: warning naming its offset" contains "$err" \
	"warning: one_basic/visualize_data.bin: 2 TRACE block(s) but 1 OP_BASIC_INFO block(s): run 2 takes the last OP_BASIC_INFO block, at offset 0"
check "2 runs, 1 OP_BASIC_INFO: no API_INSTR warning" eval '! contains "$err" "API_INSTR"'
run "$w" two -o o_def2 --no-copy-raw
check "2 runs, one of each per run: no count warning" eval '! contains "$err" "block(s) but"'

# --- one run: unchanged, whatever --run says -----------------------------------
run "$w" one -o o_one --no-copy-raw
check "one run: exit 0" [ "$status" -eq 0 ]
check "one run: no warning" eval '! contains "$err" "warning:"'
check "one run: no runs note" eval '! contains "$err" "holds"'
for args in "--run 1" "--run all"; do
	# shellcheck disable=SC2086
	run "$w" one -o o_one_x --no-copy-raw $args
	check "one run, $args: same trace" cmp "$w/o_one_x/trace.clean.json" "$w/o_one/trace.clean.json"
	check "one run, $args: no runs note" eval '! contains "$err" "holds"'
done
check "one run: the same trace as run 2 of two" cmp_but_names "$w/o_one/trace.clean.json" "$w/o_def/trace.clean.json"

# --- a corrupt TRACE block: an error when its run is read -----------------------
run "$w" bad_first -o o_bf2 --no-copy-raw --run 2
check "run 1 corrupt, --run 2: not parsed, exit 0" [ "$status" -eq 0 ]
check "run 1 corrupt, --run 2: run 2's trace" cmp_but_names "$w/o_bf2/trace.clean.json" "$w/o_def/trace.clean.json"
run "$w" bad_first -o o_bfd --no-copy-raw
check "run 1 corrupt, default: exit 1 (every block is read: the last is known only at the end)" \
	contains "$status:$err" "1:error: bad_first/visualize_data.bin: TRACE block at offset 0: "
run "$w" bad_first -o o_bfa --no-copy-raw --run all
check "run 1 corrupt, --run all: exit 1 naming the block" \
	contains "$status:$err" "1:error: bad_first/visualize_data.bin: TRACE block at offset 0: "
run "$w" bad_last -o o_bl --no-copy-raw
check "run 2 corrupt, default: exit 1" [ "$status" -eq 1 ]
check "run 2 corrupt, default: names its block" contains "$err" "TRACE block at offset "
check "run 2 corrupt: nothing written" [ ! -e "$w/o_bl/trace.clean.json" ]
run "$w" bad_last -o o_bl1 --no-copy-raw --run 1
check "run 2 corrupt, --run 1: exit 0" [ "$status" -eq 0 ]
check "run 2 corrupt, --run 1: run 1's trace" cmp_but_names "$w/o_bl1/trace.clean.json" "$w/o_r1/trace.clean.json"

finish
