#!/usr/bin/env bash
# Self-test of the summary recheck (tests/tools/summary_recheck.c): on a
# small hand-written trace and the summary worked out by hand for it, it
# must agree; each planted error in the summary (a busy union, a count, a
# depth, a missing lane, a span, the load balance) must make it fail. A
# recheck that always agrees would let a wrong summary.json golden pass.
#
# The trace: core p0, MTE2 [1000,1100) [1050,1150) on two sub-lanes
# (union 150), VECTOR [1200,1200) zero-length; a cache companion lane that
# is no instruction. Span of p0 (kept slices) 1000..1200 = 200.
#
# Env: CSIM_SUMCHECK = built summary_recheck.
set -euo pipefail
: "${CSIM_SUMCHECK:?set CSIM_SUMCHECK to the summary_recheck executable}"
source "$(dirname "$0")/checks.sh"

cat >"$tmp/t.json" <<'JSON'
{"traceEvents":[
{"name":"a","ph":"X","pid":"p0","tid":"MTE2","ts":1,"dur":0.1},
{"name":"b","ph":"X","pid":"p0","tid":"MTE2#1","ts":1.05,"dur":0.1},
{"name":"c","ph":"X","pid":"p0","tid":"VECTOR","ts":1.2,"dur":0},
{"name":"cache_time","ph":"X","pid":"p0","tid":"MTE2 cache","ts":1.0,"dur":0.01}
]}
JSON
good='{"schema":1,"run":null,"clock":null,"cores":[
{"core":"p0","first_ns":900,"last_ns":1200,"span_ns":300,"span_us":0.300,"span_cycles":null,"cross_core_wait_ns":0,"pipes":[
{"pipe":"MTE2","kept":true,"instructions":2,"busy_ns":150,"busy_us":0.150,"busy_share":0.5000,"peak_depth":2,"wait_flag_ns":0,"wait_flag_by_producer":[]},
{"pipe":"VECTOR","kept":true,"instructions":1,"busy_ns":0,"busy_us":0.000,"busy_share":0.0000,"peak_depth":1,"wait_flag_ns":0,"wait_flag_by_producer":[]},
{"pipe":"SCALAR","kept":false,"instructions":1,"busy_ns":100,"busy_us":0.100,"busy_share":0.3333,"peak_depth":1,"wait_flag_ns":0,"wait_flag_by_producer":[]}]}],
"load_balance":{"cores":1,"min_span_ns":300,"median_span_ns":300,"max_span_ns":300,"slowest_core":"p0"},
"top_instructions":null,"diagnosis":null}'

# verdict NAME FROM TO EXPECT: the recheck on the good summary with FROM
# replaced by TO must exit EXPECT.
verdict() {
	local st=0
	printf '%s\n' "${good/"$2"/"$3"}" >"$tmp/s.json"
	if [ "$2" != "" ] && ! grep -Fq -- "$3" "$tmp/s.json"; then
		flunk "$1: the plant did not apply"
		return
	fi
	"$CSIM_SUMCHECK" "$tmp/t.json" "$tmp/s.json" >"$tmp/out" 2>&1 || st=$?
	check "$1: exit $4" [ "$st" -eq "$4" ]
}

verdict "hand-worked summary agrees" "" "" 0
verdict "busy union off by one" '"busy_ns":150,"busy_us":0.150' '"busy_ns":151,"busy_us":0.151' 1
verdict "busy as a sum (200)" '"busy_ns":150,"busy_us":0.150,"busy_share":0.5000' '"busy_ns":200,"busy_us":0.200,"busy_share":0.6667' 1
verdict "instruction count" '"instructions":2' '"instructions":3' 1
verdict "peak depth" '"peak_depth":2' '"peak_depth":1' 1
verdict "busy_share" '"busy_share":0.5000' '"busy_share":0.5001' 1
verdict "kept lane reported dropped" '"pipe":"VECTOR","kept":true' '"pipe":"VECTOR","kept":false' 1
verdict "span misses a kept slice" '"first_ns":900,"last_ns":1200,"span_ns":300,"span_us":0.300' '"first_ns":900,"last_ns":1150,"span_ns":250,"span_us":0.250' 1
verdict "span_ns not last - first" '"span_ns":300,"span_us":0.300' '"span_ns":301,"span_us":0.301' 1
verdict "median span" '"median_span_ns":300' '"median_span_ns":299' 1
verdict "schema" '"schema":1' '"schema":2' 1
# A summary windowed to [1000,1100] (--window 1:1.1): the recheck clips the
# trace's intervals first, so the whole-run numbers above no longer agree
# (MTE2's union clipped is 100), a --core cut cannot be rechecked (exit 2).
cut='"cut":{"cores":null,"window_us":[1.000,1.100],"window_ns":[1000,1100],"summary_windowed":true},'
verdict "whole-run numbers under a window" '"run":null,' "\"run\":null,$cut" 1
verdict "a --core cut" '"run":null,' '"run":null,"cut":{"cores":["p*"],"window_us":null,"window_ns":null,"summary_windowed":false},' 2
good=${good/'"run":null,'/"\"run\":null,$cut"}
verdict "windowed summary worked out by hand" '"busy_ns":150,"busy_us":0.150,"busy_share":0.5000' '"busy_ns":100,"busy_us":0.100,"busy_share":0.3333' 0
verdict "windowed depth is the highest sub-lane + 1" '"peak_depth":2' '"peak_depth":1' 1
finish
