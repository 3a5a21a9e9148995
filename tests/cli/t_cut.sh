#!/usr/bin/env bash
# --core and --window (SPEC §1; docs/decisions.md "Cuts") through the binary,
# on fixtures/cut/trace.json. Expected values derived by hand on the ns grid
# (every ts/dur there is a short decimal, so start = ts*1000 exactly):
#   core0.cubecore0: M1 MTE1 [500,1000), C1 CUBE [4000,5000)
#   core0.veccore0:  A1 MTE2 [1000,2000), A3 MTE2#1 [1500,2000) (overlaps A1),
#                    A2 MTE2 [2500,3500), S0 MTE3 [2000,3200), S2 MTE3
#                    [6000,6500), S1 MTE3 [7000,8000), V1 VECTOR [3000,4000),
#                    V3 VECTOR#1 [3500,3700), V2 VECTOR [5000,7000), P VECTOR#1
#                    a point at 6000
#   core1.veccore0:  W1 VECTOR [1000,1500), W2 MTE2 [8000,9000)
#   flag f2: SET 1500 -> no MTE2 slice has completed by then: the fallback,
#     the last MTE2 start <= 1500, A3 (mid 1.75); WAIT [2800,3250] ends 3250
#     -> first VECTOR start >= 3250 is V3 (mid 3.6)
#   flag f1: SET 3500 -> A2 ends then, the MTE2 slice completed last (mid
#     3.0); WAIT [4000,4900] -> V2 (mid 6.0)
#   counters: core0.veccore0 at 1.0, 3.199, 3.2, 6.0, 6.001; core1 at 4.0
#   process_bytes: A1 1000, A2 300 (a window counts a slice's bytes in
#     proportion to its part inside)
#   API_INSTR: one CUBE row of core0.cubecore0, 1850 cycles, 1 execution:
#     with C1's 1000 ns the clock is derived as 1850 MHz (no OP_BASIC_INFO)
# --window 3.2:6 = [3200,6000]: a slice [s,e) is in when s <= 6000 and
# (e > 3200 or, a point, s >= 3200). In: A2, V1, V3, C1, V2, P (point at B),
# S2 (starts at B); out: S0 (ends at A), A1, A3, M1, W1, S1, W2. Arrows: f2
# has its producer A3 out -> dropped; f1 kept, renumbered 1. Counters
# 3.2, 6.0 (bounds inclusive) and core1's 4.0 -> 3.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_FACTS:?set CSIM_FACTS to the trace_facts executable}"
: "${CSIM_SUMCHECK:?set CSIM_SUMCHECK to the summary_recheck executable}"
: "${CSIM_ARROWCHECK:?set CSIM_ARROWCHECK to the arrow_recheck executable}"

mkdir -p "$tmp/sim"
"$CSIM_GEN" "$CSIM_ROOT/fixtures/cut/dump.recipe" "$tmp/sim/visualize_data.bin"

facts() { "$CSIM_FACTS" "$1/trace.clean.json"; }
has_fact() { grep -qxF "$2" <<<"$(facts "$1")"; }
lacks() { ! grep -q "$2" <<<"$(facts "$1")"; }
valid() { "$CSIM_CHECK" --disjoint "$@"; }
# A member of summary.json: the line of core $2 (or of the file) holds $3.
core_line() { grep -F "{\"core\":\"$2\"" "$1/summary.json"; }
# The pipe line $3 of core $2.
pipe_line() {
	awk -v core="{\"core\":\"$2\"" -v pipe="{\"pipe\":\"$3\"" '
		index($0, "{\"core\":") { on = index($0, core) > 0 }
		on && index($0, pipe) { print; exit }' "$1/summary.json"
}

# --- the whole run: the reference the cuts are compared with -------------
run "$tmp" sim -o full --no-copy-raw
check "no cut: exit 0" [ "$status" -eq 0 ]
check "no cut: 14 slices, 2 arrows, 6 counters" valid --expect-slices 14 --expect-arrows 2 \
	--expect-counters 6 "$tmp/full/trace.clean.json"
check "no cut: no cut note" eval '! contains "$err" "cut ("'
check "no cut: f2 anchored on A3, still running at its SET, and counted" \
	contains "$err" "note: 1 arrow(s) anchored on a still-running producer"
check "no cut: arrows causal and anchored by completion" "$CSIM_ARROWCHECK" \
	"$tmp/full/trace.clean.json" --running 1 --input "$CSIM_ROOT/fixtures/cut/trace.json"
check "no cut: the clock derived from API_INSTR (1850 cycles / 1000 ns)" \
	grep -qx '"clock":{"mhz":1850.000,"source":"derived"},' "$tmp/full/summary.json"
check "no cut: summary says so" grep -qx '"cut":null,' "$tmp/full/summary.json"
check "no cut: no cut line in the table" eval '! contains "$out" "cut:"'

# --- --window 3.2:6 ---------------------------------------------------------
run "$tmp" sim -o w --no-copy-raw --window 3.2:6
check "window: exit 0" [ "$status" -eq 0 ]
check "window: a note counts what the trace holds" \
	contains "$err" "note: cut (--core/--window): the trace holds 7 of 14 slice(s), 1 of 2 arrow(s), 3 of 6 counter(s)"
check "window: viewer rules hold" valid --expect-slices 7 --expect-arrows 1 \
	--expect-counters 3 "$tmp/w/trace.clean.json"
for s in "core0.veccore0 MTE2 MOV_A2 2.5" "core0.veccore0 VECTOR VADD_V1 3" \
	 "core0.veccore0 VECTOR#1 VMUL_V3 3.5" "core0.cubecore0 CUBE MMAD_C1 4" \
	 "core0.veccore0 VECTOR VADD_V2 5" "core0.veccore0 VECTOR#1 VNOP_P 6" \
	 "core0.veccore0 MTE3 MOV_S2 6"; do
	check "window: keeps $s" has_fact "$tmp/w" "slice $s"
done
check "window: a slice ending exactly at A is out" lacks "$tmp/w" "MOV_S0"
check "window: slices before A are out" lacks "$tmp/w" "MOV_A1\|MOV_A3\|LOAD_2D\|VADD_W1"
check "window: slices after B are out" lacks "$tmp/w" "MOV_S1\|MOV_W2"
check "window: the arrow with one end outside is dropped, the other kept as id 1" \
	has_fact "$tmp/w" "arrow 1 MTE2->VECTOR flag1 core0.veccore0 MTE2 3 core0.veccore0 VECTOR 6"
check "window: one arrow only" has_fact "$tmp/w" "arrows 1"
check "window: the emptied sub-lane MTE2#1 has no metadata" lacks "$tmp/w" "^thread core0.veccore0 [0-9]* MTE2#1 "
check "window: the kept sub-lane VECTOR#1 keeps its name and index" \
	has_fact "$tmp/w" "tsort core0.veccore0 VECTOR#1 301"
check "window: the emptied MTE1 lane has no metadata" lacks "$tmp/w" "MTE1"
check "window: a process with only a counter in the window keeps its name" \
	has_fact "$tmp/w" "process core1.veccore0 2"
check "window: counters at both bounds kept" \
	grep -q '"args":{"MTE2":3},.*"ts":3.2}\|"ts":3.2.*"args":{"MTE2":3}' "$tmp/w/trace.clean.json"
check "window: counter at 6.0 kept" grep -q '{"MTE2":4}' "$tmp/w/trace.clean.json"
check "window: counters at 3.199 and 6.001 dropped" \
	eval '! grep -q "{\"MTE2\":2}\|{\"MTE2\":5}\|{\"MTE2\":1}" "$tmp/w/trace.clean.json"'
check "window: no clock derived from whole-run cycles against clipped slices" \
	grep -qx '"clock":null,' "$tmp/w/summary.json"
check "window: summary states the cut" grep -qx \
	'"cut":{"cores":null,"window_us":\[3.200,6.000\],"window_ns":\[3200,6000\],"summary_windowed":true,"summary_cores":false,"trace_slices":7,"trace_arrows":1,"trace_counters":3},' \
	"$tmp/w/summary.json"
# Summary clipped to [3200,6000]: veccore0 spans 3200..6000; MTE2 is A2
# [3200,3500] 300; VECTOR V1 [3200,4000] V3 V2 [5000,6000] P: 4 instructions,
# busy 800 + 1000, 2 sub-lanes used; WAIT f2 [3200,3250] + f1 [4000,4900]
# = 950; MTE3 only S2 [6000,6000]: 0 ns. core1.veccore0 has no slice in it.
check "window: core span clipped" contains "$(core_line "$tmp/w" core0.veccore0)" \
	'"first_ns":3200,"last_ns":6000,"span_ns":2800,'
check "window: MTE2 clipped" contains "$(pipe_line "$tmp/w" core0.veccore0 MTE2)" \
	'"instructions":1,"busy_ns":300,'
check "window: VECTOR clipped" contains "$(pipe_line "$tmp/w" core0.veccore0 VECTOR)" \
	'"instructions":4,"busy_ns":1800,'
check "window: VECTOR depth and WAIT clipped" contains "$(pipe_line "$tmp/w" core0.veccore0 VECTOR)" \
	'"depth":2,"rows":2,"wait_flag_ns":950,"wait_flag_by_producer":[{"producer":"MTE2","ns":950}]'
# A2 moves 300 bytes in [2500,3500); 300 of its 1000 ns are in the window:
# 90 bytes, 0.3 GB/s inside as over the slice, below the run's 0.65 (a
# whole 300 over the clipped 300 ns would read 1.0).
check "window: MTE2 bytes in proportion to A2's part in the window (not A1's)" \
	contains "$(pipe_line "$tmp/w" core0.veccore0 MTE2)" '"bytes":90,"bandwidth_gbps":0.300,'
check "no cut: MTE2 bytes of the whole run (1300 over 2000 ns)" \
	contains "$(pipe_line "$tmp/full" core0.veccore0 MTE2)" '"bytes":1300,"bandwidth_gbps":0.650,'
check "window: MTE3 clipped" contains "$(pipe_line "$tmp/w" core0.veccore0 MTE3)" \
	'"instructions":1,"busy_ns":0,'
check "window: a core with no slice in the window is not summarised" \
	eval '! grep -q "\"core\":\"core1.veccore0\"" "$tmp/w/summary.json"'
check "window: the table states the cut under its header" \
	contains "$out" $'clock unknown: no OP_BASIC_INFO; not derived under --window (whole-run cycles)\ncut: --window 3.200:6.000 us\n  the summary covers the window, on every core; API_INSTR\'s figures and\n  instr_metrics.json (no times) the whole run\n'
# The whole run, for contrast: VECTOR waits 450 + 900, MTE2 3 instructions.
check "no cut: whole-run VECTOR WAIT" contains "$(pipe_line "$tmp/full" core0.veccore0 VECTOR)" \
	'"wait_flag_ns":1350,'
check "no cut: whole-run span" contains "$(core_line "$tmp/full" core0.veccore0)" \
	'"first_ns":1000,"last_ns":8000,'

# --- open bounds, ":" and an instant ---------------------------------------
run "$tmp" sim -o from --no-copy-raw --window 3.2:
# in: A2 V1 V3 C1 V2 P S2 S1 W2; counters 3.2 6.0 6.001 4.0; f1 kept.
check "3.2: viewer rules hold" valid --expect-slices 9 --expect-arrows 1 \
	--expect-counters 4 "$tmp/from/trace.clean.json"
run "$tmp" sim -o to --no-copy-raw --window=:3.2
# in: M1 A1 W1 A3 S0 A2 V1 (starts <= 3200); f2 loses V3, f1 loses V2.
check ":3.2: viewer rules hold" valid --expect-slices 7 --expect-arrows 0 \
	--expect-counters 3 "$tmp/to/trace.clean.json"
check ":3.2: the slice ending at 3.2 is in" has_fact "$tmp/to" "slice core0.veccore0 MTE3 MOV_S0 2"
run "$tmp" sim -o colon --no-copy-raw --window :
check "':' cuts nothing" cmp -s "$tmp/full/trace.clean.json" "$tmp/colon/trace.clean.json"
check "':': no option in the metadata" has_fact "$tmp/colon" "meta options "
check "':' leaves the summary whole" cmp -s "$tmp/full/summary.json" "$tmp/colon/summary.json"
run "$tmp" sim -o at --no-copy-raw --window 6:6
# what runs at 6000: V2, the point P, S2 (starts there); the counter at 6.0
check "6:6: viewer rules hold" valid --expect-slices 3 --expect-arrows 0 \
	--expect-counters 1 "$tmp/at/trace.clean.json"

# The windowed summaries against their traces, clipped by an independent
# recount (tests/tools/summary_recheck.c).
for d in w from to at; do
	check "--window ($d): summary agrees with the trace" "$CSIM_SUMCHECK" \
		"$tmp/$d/trace.clean.json" "$tmp/$d/summary.json"
done

# --- an empty window: a valid trace with no events ------------------------
run "$tmp" sim -o empty --no-copy-raw --window 100:200
check "empty window: exit 0" [ "$status" -eq 0 ]
check "empty window: valid and empty" valid --expect-slices 0 --expect-arrows 0 \
	--expect-counters 0 "$tmp/empty/trace.clean.json"
check "empty window: no metadata" eval '! grep -q "\"ph\":\"M\"" "$tmp/empty/trace.clean.json"'
check "empty window: the summary has no core" grep -qx '"cores":\[\],' "$tmp/empty/summary.json"

# --- --core ----------------------------------------------------------------
run "$tmp" sim -o c0 --no-copy-raw --core 'core0.*'
check "--core core0.*: exit 0" [ "$status" -eq 0 ]
check "--core core0.*: core1's slices and counter are out" valid --expect-slices 12 \
	--expect-arrows 2 --expect-counters 5 "$tmp/c0/trace.clean.json"
check "--core core0.*: two processes" has_fact "$tmp/c0" "processes 2"
# The critical-path lanes (docs/critical-path.md): those of the kept cores,
# first on each, their segments as in the whole run; none of core1's.
check "--core core0.*: the kept cores' critical-path lanes, first" \
	[ "$(facts "$tmp/c0" | grep '^path ' | tr '\n' ' ')" = "path core0.cubecore0 0 3 path core0.veccore0 0 7 " ]
check "--core core0.*: their segments are the whole run's" \
	[ "$(facts "$tmp/c0" | grep '^pathseg ')" = "$(facts "$tmp/full" | grep '^pathseg core0\.')" ]
check "--core core0.*: core1's lane is out" lacks "$tmp/c0" '^path.* core1\.'
# The summary holds the cores the cut keeps (SPEC §10): core0's two, each
# as the whole run has it; instr_metrics.json too, and both say so.
check "--core core0.*: the summary holds core0's cores only" \
	[ "$(grep -o '^ *{"core":"[^"]*"' "$tmp/c0/summary.json" | tr -d ' ' | tr '\n' ' ')" = \
	  '{"core":"core0.cubecore0" {"core":"core0.veccore0" ' ]
for k in core0.cubecore0 core0.veccore0; do
	check "--core core0.*: $k as in the whole run" \
		[ "$(core_line "$tmp/c0" "$k" | head -n 1)" = "$(core_line "$tmp/full" "$k" | head -n 1)" ]
done
check "--core: summary states the cut" grep -qx \
	'"cut":{"cores":\["core0.\*"\],"window_us":null,"window_ns":null,"summary_windowed":false,"summary_cores":true,"trace_slices":12,"trace_arrows":2,"trace_counters":5},' \
	"$tmp/c0/summary.json"
check "--core: the table says what the summary covers" \
	contains "$out" $'\ncut: --core core0.*\n  the summary covers the cores --core keeps, API_INSTR\'s figures and\n  instr_metrics.json too\n'
check "--core: summary.html says so under its heading" \
	grep -qF '<p class="cut">cut: <code>--core core0.*</code>: the summary covers the cores --core keeps' "$tmp/c0/summary.html"
# API_INSTR holds one row of core0.cubecore0 (MMAD_C1, 1850 cycles): kept.
check "--core core0.*: instr_metrics.json holds core0.cubecore0 and says why" \
	grep -q '^"cut":{"cores":\["core0\.\*"\]}}$' "$tmp/c0/instr_metrics.json"
check "--core core0.*: the top instruction is MMAD_C1's 1850 cycles" grep -q '"cycles":1850,' "$tmp/c0/summary.json"
run "$tmp" sim -o c1 --no-copy-raw --core 'core1.*'
check "--core core1.*: exit 0" [ "$status" -eq 0 ]
check "--core core1.*: the summary holds core1.veccore0 only" \
	[ "$(grep -o '^ *{"core":"[^"]*"' "$tmp/c1/summary.json" | tr -d ' ')" = '{"core":"core1.veccore0"' ]
check "--core core1.*: API_INSTR has none of its rows: no top instruction" \
	grep -qx '"top_instructions":\[\],' "$tmp/c1/summary.json"
check "--core core1.*: instr_metrics.json holds no core" \
	grep -q '^{"cores":\[\],$' "$tmp/c1/instr_metrics.json"
check "--core core1.*: the load balance is core1's alone" \
	grep -q '"load_balance":{"cores":1,' "$tmp/c1/summary.json"
for d in c0 c1; do
	check "--core ($d): summary agrees with the trace and instr_metrics.json" "$CSIM_SUMCHECK" \
		"$tmp/$d/trace.clean.json" "$tmp/$d/summary.json" "$tmp/$d/instr_metrics.json"
done
# Every pattern is printed whole within 80 columns: the options wrap onto
# lines of their own (indented 5), a pattern wider than a line breaks (the
# lines joined without their indent give the options back).
many=()
for i in $(seq 20); do many+=(--core '*'); done
run "$tmp" sim -o many --no-copy-raw "${many[@]}"
check "20 patterns: every one on the cut lines" \
	[ "$(sed -n '/^cut:/,/^  the summary covers/p' <<<"$out" | grep -o -- '--core \*' | wc -l)" -eq 20 ]
check "20 patterns: the cut lines wrap" contains "$out" $' --core *\n     --core * '
check "20 patterns: no stdout line over 80 columns" [ -z "$(awk 'length > 80' <<<"$out")" ]
long="core0.$(printf '%*s' 100 '' | tr ' ' '*')"
run "$tmp" sim -o long --no-copy-raw --core 'core1.*' --core "$long" --window 3.2:6
check "a 106-column pattern: exit 0" [ "$status" -eq 0 ]
check "a 106-column pattern: printed whole, broken at 80 columns" \
	[ "$(sed -n '/^cut:/,/^  the summary/p' <<<"$out" | sed 's/^     //' | tr -d '\n')" = \
	  "cut: --core core1.*--core $long --window 3.200:6.000 us  the summary covers the cores --core keeps, within the window; API_INSTR's" ]
check "a 106-column pattern: no stdout line over 80 columns" [ -z "$(awk 'length > 80' <<<"$out")" ]
run "$tmp" sim -o rep --no-copy-raw --core core1.veccore0 --core='core0.cube*'
# W1 W2 M1 C1; core1's counter; no arrow (both on core0.veccore0)
check "repeated --core: any pattern keeps a core" valid --expect-slices 4 --expect-arrows 0 \
	--expect-counters 1 "$tmp/rep/trace.clean.json"
check "repeated --core: core0.veccore0 is out" lacks "$tmp/rep" "core0.veccore0"
# The trace's metadata names the cut as the command line spells it back
# (docs/format.md): --core=P as --core P, a glob quoted for the shell.
check "repeated --core: the metadata's options" has_fact "$tmp/rep" \
	"meta options --core core1.veccore0 --core 'core0.cube*'"
run "$tmp" sim -o both --no-copy-raw --core core0.veccore0 --window 3.2:6
# A2 V1 V3 V2 P S2; f1; counters 3.2 and 6.0
check "--core and --window together" valid --expect-slices 6 --expect-arrows 1 \
	--expect-counters 2 "$tmp/both/trace.clean.json"
check "--core and --window: the metadata's options" has_fact "$tmp/both" \
	"meta options --core core0.veccore0 --window 3.2:6"
run "$tmp" sim -o quote --no-copy-raw --window 0.001: --core "core0.veccore[0']" --core 'core1.veccore0'
check "a pattern with a quote: the metadata's options" has_fact "$tmp/quote" \
	"meta options --core 'core0.veccore[0'\\'']' --core core1.veccore0 --window 0.001:"

# --- a pattern matching nothing: exit 2 after the input is read ------------
run "$tmp" sim -o none --no-copy-raw --core 'core0.*' --core 'core9*'
check "no match: exit 2" [ "$status" -eq 2 ]
check "no match: names the pattern and the cores" lines "$err" \
	"error: option --core 'core9*' matches no core of the run; its 3 core(s): core0.cubecore0, core0.veccore0, core1.veccore0"
check "no match: nothing written" [ ! -e "$tmp/none" ]
head -c 200 "$tmp/sim/visualize_data.bin" >"$tmp/cut.bin"
run "$tmp" cut.bin -o none --core 'core9*'
check "no match on a corrupt input: the input error first (exit 1)" [ "$status" -eq 1 ]

# --- bad values: exit 2 before the input is read ---------------------------
for v in 5:3 x 1:2:3 nan: :inf -1:2 1e999: ''; do
	run "$tmp" missing.bin --window "$v"
	check "--window '$v': exit 2" [ "$status" -eq 2 ]
	check "--window '$v': one error line" [ "$(grep -c '^error: option --window' <<<"$err")" = 1 ]
done
run "$tmp" missing.bin --core
check "--core without a pattern: exit 2" [ "$status" -eq 2 ]
run "$tmp" --help
check "--help lists --core" contains "$out" "--core PATTERN"
check "--help lists --window" contains "$out" "--window A:B"
finish
