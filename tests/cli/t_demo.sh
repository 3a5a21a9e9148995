#!/usr/bin/env bash
# The README's demo: the shipped dump is reproducible from its recipe, and
# converting it as the README says gives both outputs plus the raw copy.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

demo="$CSIM_ROOT/fixtures/demo"
"$CSIM_GEN" "$demo/demo.recipe" "$tmp/regen.bin"
check "demo dump reproduces from demo.recipe" \
	cmp "$tmp/regen.bin" "$demo/OPPROF_demo/simulator/visualize_data.bin"

cp -r "$demo/OPPROF_demo" "$tmp/OPPROF_demo"
run "$tmp" OPPROF_demo -o demo-out
check "exit 0" [ "$status" -eq 0 ]
# The "wrote" lines, then (after a blank line) the summary table.
check "stdout lists the five outputs" lines "${out%%$'\n\n'*}"$'\n' "wrote demo-out/trace.clean.json
wrote demo-out/instr_metrics.json
wrote demo-out/summary.json
wrote demo-out/summary.html
wrote demo-out/raw_simulator/"
check "the summary table follows every wrote line" \
	contains "$out" $'raw_simulator/\n\nsummary: (no OP_BASIC_INFO) (run 1 of 1)\n'
check "no warning" eval '! contains "$err" "warning:"'
check "viewer rules" "$CSIM_CHECK" --disjoint --expect-slices 13 --expect-arrows 4 \
	"$tmp/demo-out/trace.clean.json"
check "trace equals the mix_kernel golden" cmp_but_names "$tmp/demo-out/trace.clean.json" \
	"$CSIM_ROOT/fixtures/scenarios/mix_kernel/expected/default/trace.clean.json"
check "metrics equal the mix_kernel golden" cmp "$tmp/demo-out/instr_metrics.json" \
	"$CSIM_ROOT/fixtures/scenarios/mix_kernel/expected/default/instr_metrics.json"
# The same dump under another path: the summaries but the lines naming it.
names_dump demo "$tmp/demo-out" OPPROF_demo/simulator/visualize_data.bin \
	"$demo/OPPROF_demo/simulator/visualize_data.bin"
check "summary equals the mix_kernel golden but its input" \
	cmp <(grep -v '^"input":' "$tmp/demo-out/summary.json") \
	<(grep -v '^"input":' "$CSIM_ROOT/fixtures/scenarios/mix_kernel/expected/default/summary.json")
check "summary page equals the mix_kernel golden but its title and header" \
	cmp <(grep -v '^<title>\|^<header>' "$tmp/demo-out/summary.html") \
	<(grep -v '^<title>\|^<header>' "$CSIM_ROOT/fixtures/scenarios/mix_kernel/expected/default/summary.html")
check "raw copy holds the dump" cmp "$tmp/demo-out/raw_simulator/visualize_data.bin" \
	"$demo/OPPROF_demo/simulator/visualize_data.bin"
check "raw copy holds the core folder" \
	[ -f "$tmp/demo-out/raw_simulator/core0.cubecore0/trace.json" ]
check "source folder untouched" diff -r "$demo/OPPROF_demo" "$tmp/OPPROF_demo"
finish
