#!/usr/bin/env bash
# Allocation failures in --check (docs/robustness.md; the approach of
# t_failalloc.sh): clean_sim_trace_failalloc counts every malloc, calloc,
# realloc and strdup (zlib's included) and CSIM_FAIL_ALLOC=k fails the k-th.
# For each input, one counting run gives N and the reference output; then
# for every k in 1..N (every 7th under a sanitizer, plus the last few) the
# run must end cleanly: exit 1 with "error: out of memory" on stderr and no
# count line on stdout (violation lines found before the failure may stand;
# no verdict is given), no crash, no hang, no sanitizer report. Inputs: a clean trace, one with violations (the formatting path),
# the same as gzip, and a gzip trace with a 200-byte pid and a 3 MB event
# (the interning and window-growth paths; an overlap, reported once, and
# notes for a sub-lane without metadata).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_FAILALLOC:?set CSIM_FAILALLOC to the clean_sim_trace_failalloc executable}"

failalloc_env

dir="$CSIM_ROOT/tests/checker"
cp "$dir/good_minimal.json" "$tmp/good.json"
cp "$dir/bad_nest_rounded_end.json" "$tmp/bad.json"
gzip -c "$dir/bad_flow_duplicate_id.json" >"$tmp/bad.json.gz"
long=$(printf 'core%0200d' 0)
pad=$(head -c 3000000 /dev/zero | tr '\0' 'a')
cat >"$tmp/big.json" <<JSON
{"traceEvents":[
{"name":"process_name","ph":"M","pid":"$long","args":{"name":"p"}},
{"name":"process_sort_index","ph":"M","pid":"$long","args":{"sort_index":0}},
{"name":"thread_name","ph":"M","pid":"$long","tid":"VECTOR","args":{"name":"v"}},
{"name":"thread_sort_index","ph":"M","pid":"$long","tid":"VECTOR","args":{"sort_index":0}},
{"name":"op","ph":"X","pid":"$long","tid":"VECTOR","ts":1,"dur":1,"args":{"pad":"$pad"}},
{"name":"op","ph":"X","pid":"$long","tid":"VECTOR#1","ts":1.5,"dur":1},
{"name":"op2","ph":"X","pid":"$long","tid":"VECTOR","ts":1.5,"dur":1}
]}
JSON
gzip "$tmp/big.json"

# input:exit status of the run that fails nothing
for case in good.json:0 bad.json:1 bad.json.gz:1 big.json.gz:1; do
	input=${case%:*}
	status=0
	(cd "$tmp" && CSIM_FAIL_ALLOC_REPORT=1 "$CSIM_FAILALLOC" --check "$input" \
		>"$tmp/ref.out" 2>"$tmp/ref.err") || status=$?
	n=$(sed -n 's/^failalloc: \([0-9]*\) allocation(s)$/\1/p' "$tmp/ref.err")
	check "$input: counting run: exit ${case#*:}" [ "$status" -eq "${case#*:}" ]
	check "$input: counting run: the verdict" grep -q "^$input: [0-9]* violation(s); " "$tmp/ref.out"
	check "$input: allocations counted ($n)" [ "${n:-0}" -gt 5 ]
	bad=""
	for k in $(sweep_points 1 "${n:-0}"); do
		status=0
		(cd "$tmp" && CSIM_FAIL_ALLOC=$k timeout 60 "$CSIM_FAILALLOC" --check "$input" \
			>"$tmp/k.out" 2>"$tmp/k.err") || status=$?
		if [ "$status" -ne 1 ] || ! grep -q '^error: out of memory' "$tmp/k.err" ||
			grep -q "^$input: [0-9]* violation(s)" "$tmp/k.out" ||
			grep -q Sanitizer "$tmp/k.err"; then
			bad+=" k=$k(exit $status: $(head -c 120 "$tmp/k.err"))"
		fi
	done
	check "$input: each failed allocation tried ends with exit 1, out of memory${bad:+:$bad}" [ -z "$bad" ]
done
finish
