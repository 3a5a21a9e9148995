#!/usr/bin/env bash
# "Any combination of the scenarios converts correctly": every scenario trace
# becomes one TRACE block (so one run, SPEC §2.1) of a single dump, between
# SOURCE blocks in both framings and an API_INSTR block, gzip-compressed, and
# is converted with --run all, side by side (SPEC §2.1). Slice selection is
# per event and nothing crosses a run, so the kept slices and counters must
# add up to the sum of the scenarios' goldens, every run's processes must be
# named after it, and the trace must obey the viewer rules.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

scen="$CSIM_ROOT/fixtures/scenarios"
recipe="$tmp/combined.recipe"
slices=0
counters=0
{
	echo "source kernels/a.cpp $scen/multi_block/kernel_big.cpp framing=exclusive"
	for dir in "$scen"/*/; do
		dir=${dir%/}
		golden="$dir/expected/default/trace.clean.json"
		[ -f "$dir/trace.json" ] && [ -f "$golden" ] || continue
		echo "trace $dir/trace.json"
		summary=$("$CSIM_CHECK" "$golden")
		slices=$((slices + $(sed -E 's/^ok: ([0-9]+) slices.*/\1/' <<<"$summary")))
		counters=$((counters + $(sed -E 's/.* ([0-9]+) counters$/\1/' <<<"$summary")))
		echo "source kernels/b.cpp $scen/multi_block/kernel_small.cpp framing=inclusive"
	done
	echo "instr $scen/mix_kernel/instr.json"
	echo "gzip"
} >"$recipe"
mkdir -p "$tmp/sim"
"$CSIM_GEN" "$recipe" "$tmp/sim/visualize_data.bin"
check "combined dump is gzip" [ "$(od -An -tx1 -N2 "$tmp/sim/visualize_data.bin" | tr -d ' ')" = 1f8b ]
runs=$(grep -c '^trace ' "$recipe")
run "$tmp" sim -o out --no-copy-raw --run all
check "combined: exit 0" [ "$status" -eq 0 ]
# regression: a critical-path line broke after an item that ended at column
# 80, and the comma before the break made it 81
check "combined: stdout within 80 columns" env LC_ALL=C awk 'length > 80 { exit 1 }' <<<"$out"
check "combined: the compare view from each run to the next" \
	[ "$(grep -c '^compare: run [0-9]* -> run [0-9]*$' <<<"$out")" = $((runs - 1)) ]
check "combined: $runs runs side by side" contains "$err" \
	"note: sim/visualize_data.bin holds $runs runs: converted side by side"
check "combined: one warning, the runs share one API_INSTR" \
	[ "$(grep -c '^warning:' <<<"$err")" = 1 ]
check "combined: the warning names the counts" contains "$err" \
	"warning: sim/visualize_data.bin: $runs TRACE block(s) but 1 API_INSTR block(s): every run's metrics come from the last API_INSTR block"
check "combined: a note line per run" \
	[ "$(grep -c '^note: run [0-9]*: [0-9]* event(s) in 1 TRACE block(s)' <<<"$err")" = "$runs" ]
check "combined: the last run's processes named after it" \
	grep -q "\"pid\":\"[^\"]* run $runs\"" "$tmp/out/trace.clean.json"
check "combined: a summary per run" \
	[ "$(grep -c '"side_by_side":true' "$tmp/out/summary.json")" = "$runs" ]

check "combined: $slices slices and $counters counters, viewer rules hold" \
	"$CSIM_CHECK" --disjoint --expect-slices "$slices" --expect-counters "$counters" \
	"$tmp/out/trace.clean.json"
check "combined: metrics written" [ -s "$tmp/out/instr_metrics.json" ]
finish
