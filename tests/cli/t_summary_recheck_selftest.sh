#!/usr/bin/env bash
# Self-test of the summary recheck (tests/tools/summary_recheck.c): on a
# small hand-written trace and the summary worked out by hand for it, it
# must agree; each planted error in the summary (a busy union, a count, a
# depth or rows, a missing lane, a span, the load balance, API_INSTR cycles
# and utilization per pipe, bytes and bandwidth, the overlap with compute,
# the top_instructions and top_source_lines rows and their order, a
# diagnosis line's numbers, mark, cores and evidence, a rule on two lines)
# and in the trace's thread names, and in the critical path (its summary
# figures, and the lane's tiling, segments, busy time outside instructions,
# a flag wait along no arrow), and in the timeline (a bin, the last ns of
# a zero-length instruction, the bin width, the core, the row order, the
# member itself) must make it fail. A recheck that always
# agrees would let a wrong summary.json golden pass.
#
# The trace: core p0, MTE2 [1000,1100) [1050,1150) on two sub-lanes
# (union 150; true intervals [1000,1099.75) [1050,1149.75): depth 2)
# moving 100 + 57 bytes (157000 / 150 = 1046.67 MB/s, half up 1.047
# GB/s), VECTOR [1200,1200) zero-length (a point: depth 1); CUBE
# [1100,1110) and, on CUBE#1, a = 1109.9 (grid [1110,1120)): in flight one
# after the other (the first ends at 1109.75), depth 1 on 2 rows, CUBE#1
# labelled "(rounding)", union 20 (0.0667 of the span); MTE2 runs with
# compute (CUBE) during [1100,1120): overlap 20 of 150, 0.1333; a cache
# companion lane that is no instruction. Span of p0 (kept slices)
# 1000..1200 = 200.
#
# The API_INSTR (m.json, reshaped), Cycles / Instructions Executed / Vector
# Utilization per core p0 | p1:
#   row0 0x10 MTE2    MOV_OUT_TO_UB  40/2/-1 | 10/1/-1   total 50
#   row1 0x14 MTE2    SET_FLAG       5/1/-1  | 0/0/-1    total 5 (sync)
#   row2 0x20 VEC     VADD           30/3/50 | 45/-1/-1  total 75
#   row3 0x24 VECTOR  VMULS          10/1/100| 0/0/-1    total 10
#   row4 0x30 FIXPIPE FIX            0/0/-1  | 0/0/-1    total 0
#   row5 0x34 SCALAR  ADD            50/5/-1 | 0/0/-1    total 50
# p0: MTE2 cycles 40, sync 5, executed 2, utilization null (all -1);
# VECTOR (VEC + VECTOR) 40 / 0 / 4, utilization (50*30 + 100*10) / 40 =
# 62.50; SCALAR 50 / 0 / 5; FIXP all 0: null. All cycles 190; top: row2
# (75, 3 executed, 2 cores, 0.3947), row0 (50, 3, 2, 0.2632; before row5
# on the tie), row5 (50, 5, 1, 0.2632), row3 (10, 1, 1, 0.0526); row1 is a
# flag row (SET_FLAG: a wait), counted apart as flag_cycles (1 row, 5
# cycles, 0.0263); row4 has no cycles. Inner Code: 0x10 and 0x14 k.cpp:1,
# 0x20 k.cpp:5, 0x24 k.cpp:6, 0x34 k.cpp:9, 0x30 none. Source lines: k.cpp:5
# 75 (3 executed, 1 address, 0.3947), k.cpp:1 50 + 5 = 55 (3 + 1 = 4, 2
# addresses, 0.2895), k.cpp:9 50 (5, 1, 0.2632), k.cpp:6 10 (1, 1, 0.0526).
# The same file as the converter writes it (SPEC §7) leaves out the rows a
# core executed 0 times (p0 row4; p1 rows 1, 3, 4, 5): the cores' lists
# then differ in length and the recheck matches rows by address.
#
# Env: CSIM_SUMCHECK = built summary_recheck.
set -euo pipefail
: "${CSIM_SUMCHECK:?set CSIM_SUMCHECK to the summary_recheck executable}"
source "$(dirname "$0")/checks.sh"

cat >"$tmp/t.json" <<'JSON'
{"traceEvents":[
{"name":"a","ph":"X","pid":"p0","tid":"MTE2","ts":1,"dur":0.1,"args":{"process_bytes":"100","pc_addr":"0x10","source":"k.cpp:1"}},
{"name":"b","ph":"X","pid":"p0","tid":"MTE2#1","ts":1.05,"dur":0.1,"args":{"process_bytes":"57"}},
{"name":"c","ph":"X","pid":"p0","tid":"VECTOR","ts":1.2,"dur":0},
{"name":"m","ph":"X","pid":"p0","tid":"CUBE","ts":1.1,"dur":0.01},
{"name":"n","ph":"X","pid":"p0","tid":"CUBE#1","ts":1.1099,"dur":0.01},
{"name":"thread_name","ph":"M","pid":"p0","tid":"MTE2#1","args":{"name":"MTE2 (load GM->L1/UB) #1"}},
{"name":"thread_name","ph":"M","pid":"p0","tid":"CUBE","args":{"name":"CUBE (matmul)"}},
{"name":"thread_name","ph":"M","pid":"p0","tid":"CUBE#1","args":{"name":"CUBE (matmul) #1 (rounding)"}},
{"name":"cache_time","ph":"X","pid":"p0","tid":"MTE2 cache","ts":1.0,"dur":0.01},
{"name":"SCALAR","ph":"X","pid":"p0","tid":"critical path","ts":0.9,"dur":0.1},
{"name":"MTE2","ph":"X","pid":"p0","tid":"critical path","ts":1,"dur":0.1},
{"name":"CUBE","ph":"X","pid":"p0","tid":"critical path","ts":1.1,"dur":0.01},
{"name":"issue","ph":"X","pid":"p0","tid":"critical path","ts":1.11,"dur":0.09}
]}
JSON
row() { # address pipe source cycles executed util [inner code]
	printf '{"address":"%s","pipe":"%s","source":"%s","cycles":%s,"instructions_executed":%s,"vector_utilization_percentage":%s,"ascendc_inner_code":"%s"}' "$@"
}
{
	printf '{"cores":["p0","p1"],"instructions":{"p0":['
	row 0x10 MTE2 "MOV_OUT_TO_UB X1" 40 2 -1 k.cpp:1; printf ,
	row 0x14 MTE2 "SET_FLAG MTE2 ID:0" 5 1 -1 k.cpp:1; printf ,
	row 0x20 VEC "VADD X2" 30 3 50 k.cpp:5; printf ,
	row 0x24 VECTOR "VMULS X3" 10 1 100 k.cpp:6; printf ,
	row 0x30 FIXPIPE "FIX X4" 0 0 -1; printf ,
	row 0x34 SCALAR "ADD X5" 50 5 -1 k.cpp:9
	printf '],"p1":['
	row 0x10 MTE2 "MOV_OUT_TO_UB X1" 10 1 -1 k.cpp:1; printf ,
	row 0x14 MTE2 "SET_FLAG MTE2 ID:0" 0 0 -1 k.cpp:1; printf ,
	row 0x20 VEC "VADD X2" 45 -1 -1 k.cpp:5; printf ,
	row 0x24 VECTOR "VMULS X3" 0 0 -1 k.cpp:6; printf ,
	row 0x30 FIXPIPE "FIX X4" 0 0 -1; printf ,
	row 0x34 SCALAR "ADD X5" 0 0 -1 k.cpp:9
	printf ']},"column_types":{}}\n'
} >"$tmp/m.json"
good='{"schema":1,"run":null,"clock":null,"cores":[
{"core":"p0","first_ns":900,"last_ns":1200,"span_ns":300,"span_us":0.300,"span_cycles":null,"cross_core_wait_ns":150,"pipes":[
{"pipe":"MTE2","kept":true,"instructions":2,"busy_ns":150,"busy_us":0.150,"busy_share":0.5000,"depth":2,"rows":2,"wait_flag_ns":0,"wait_flag_by_producer":[],"cycles":40,"sync_cycles":5,"executed":2,"vector_utilization":null,"bytes":157,"bandwidth_gbps":1.047,"overlap_ns":20,"overlap_share":0.1333},
{"pipe":"CUBE","kept":true,"instructions":2,"busy_ns":20,"busy_us":0.020,"busy_share":0.0667,"depth":1,"rows":2,"wait_flag_ns":0,"wait_flag_by_producer":[],"cycles":null,"sync_cycles":null,"executed":null,"vector_utilization":null,"bytes":null,"bandwidth_gbps":null,"overlap_ns":null,"overlap_share":null},
{"pipe":"VECTOR","kept":true,"instructions":1,"busy_ns":0,"busy_us":0.000,"busy_share":0.0000,"depth":1,"rows":1,"wait_flag_ns":0,"wait_flag_by_producer":[],"cycles":40,"sync_cycles":0,"executed":4,"vector_utilization":62.50,"bytes":null,"bandwidth_gbps":null,"overlap_ns":null,"overlap_share":null},
{"pipe":"SCALAR","kept":false,"instructions":1,"busy_ns":100,"busy_us":0.100,"busy_share":0.3333,"depth":1,"rows":null,"wait_flag_ns":0,"wait_flag_by_producer":[],"cycles":50,"sync_cycles":0,"executed":5,"vector_utilization":null,"bytes":null,"bandwidth_gbps":null,"overlap_ns":null,"overlap_share":null},
{"pipe":"FIXP","kept":false,"instructions":0,"busy_ns":0,"busy_us":0.000,"busy_share":0.0000,"depth":0,"rows":null,"wait_flag_ns":0,"wait_flag_by_producer":[],"cycles":null,"sync_cycles":null,"executed":null,"vector_utilization":null,"bytes":null,"bandwidth_gbps":null,"overlap_ns":null,"overlap_share":null}],
"critical_path":{"span_ns":300,"segments":4,"busy":[{"pipe":"SCALAR","ns":100,"share":0.3333},{"pipe":"MTE2","ns":100,"share":0.3333},{"pipe":"CUBE","ns":10,"share":0.0333}],"wait":[],"cross_core_wait_ns":0,"issue_ns":90,"top_instructions":[{"pc_addr":"0x34","name":"ADD","source":"k.cpp:9","ns":100,"busy_ns":100,"released_ns":0,"share":0.3333},{"pc_addr":"0x10","name":"a","source":"k.cpp:1","ns":100,"busy_ns":100,"released_ns":0,"share":0.3333},{"pc_addr":null,"name":"m","source":null,"ns":10,"busy_ns":10,"released_ns":0,"share":0.0333}],"what_if":[]}}],
"load_balance":{"cores":1,"min_span_ns":300,"median_span_ns":300,"max_span_ns":300,"slowest_core":"p0","what_if":[]},
"top_instructions":[
{"address":"0x20","pipe":"VECTOR","mnemonic":"VADD","source":"k.cpp:5","cycles":75,"cycle_share":0.3947,"executed":3,"cores":2},
{"address":"0x10","pipe":"MTE2","mnemonic":"MOV_OUT_TO_UB","source":"k.cpp:1","cycles":50,"cycle_share":0.2632,"executed":3,"cores":2},
{"address":"0x34","pipe":"SCALAR","mnemonic":"ADD","source":"k.cpp:9","cycles":50,"cycle_share":0.2632,"executed":5,"cores":1},
{"address":"0x24","pipe":"VECTOR","mnemonic":"VMULS","source":"k.cpp:6","cycles":10,"cycle_share":0.0526,"executed":1,"cores":1}],
"flag_cycles":{"rows":1,"cycles":5,"cycle_share":0.0263},
"top_source_lines":[
{"source":"k.cpp:5","cycles":75,"cycle_share":0.3947,"executed":3,"addresses":1},
{"source":"k.cpp:1","cycles":55,"cycle_share":0.2895,"executed":4,"addresses":2},
{"source":"k.cpp:9","cycles":50,"cycle_share":0.2632,"executed":5,"addresses":1},
{"source":"k.cpp:6","cycles":10,"cycle_share":0.0526,"executed":1,"addresses":1}],
"diagnosis":[
{"id":"cross_core_wait","primary":true,"core":"p0","cores":["p0"],"evidence_share":0.0000,"text":"t","numbers":{"cross_core_wait_ns":150,"span_ns":300,"partner_core":null,"partner_pipe":null,"partner_waits":0,"waits":0,"path_ns":0},"per_core":[{"core":"p0","numbers":{"cross_core_wait_ns":150,"span_ns":300,"partner_core":null,"partner_pipe":null,"partner_waits":0,"waits":0,"path_ns":0}}]}]}'

# The timeline of p0 (docs/summary.md "timeline"): span 300 ns from 900,
# bins of ceil(300 / 200) = 2 ns, 150 of them. Offsets from 900: MTE2 a
# [100,200) covers bins 50..99 (2 ns each), b [150,250) bins 75..124, so
# 2 ns in 50..74 and 100..124, 4 ns in 75..99; CUBE m [200,210) and n
# (grid [1110,1120)) [210,220): bins 100..109, 2 ns; VECTOR c at 1200,
# zero-length: its last ns [299,300), bin 149, 1 ns; SCALAR (dropped: not
# in the trace, only its length is checked) [0,100): bins 0..49; FIXP none.
tl_row() { # PIPE LO:HI:NS...
	local pipe=$1
	shift
	awk -v pipe="$pipe" -v spec="$*" 'BEGIN {
		for (i = 0; i < 150; i++) v[i] = 0
		n = split(spec, parts, " ")
		for (k = 1; k <= n; k++) {
			split(parts[k], r, ":")
			for (i = r[1]; i <= r[2]; i++) v[i] = r[3]
		}
		printf "{\"pipe\":\"%s\",\"busy_ns\":[", pipe
		for (i = 0; i < 150; i++) printf "%s%d", i ? "," : "", v[i]
		printf "]}"
	}'
}
timeline='"timeline":{"core":"p0","first_ns":900,"span_ns":300,"bin_ns":2,"pipes":['
timeline+="$(tl_row MTE2 50:74:2 75:99:4 100:124:2),$(tl_row CUBE 100:109:2),"
timeline+="$(tl_row VECTOR 149:149:1),$(tl_row SCALAR 0:49:2),$(tl_row FIXP)]}"
good=${good/'"clock":null,'/'"clock":null,'"$timeline,"}

# verdict NAME FROM TO EXPECT: the recheck on the good summary with FROM
# replaced by TO must exit EXPECT.
verdict() {
	local st=0
	printf '%s\n' "${good/"$2"/"$3"}" >"$tmp/s.json"
	if [ "$2" != "" ] && ! grep -Fq -- "$3" "$tmp/s.json"; then
		flunk "$1: the plant did not apply"
		return
	fi
	"$CSIM_SUMCHECK" "${trace:-$tmp/t.json}" "$tmp/s.json" "${metrics:-$tmp/m.json}" >"$tmp/out" 2>&1 || st=$?
	check "$1: exit $4" [ "$st" -eq "$4" ]
}

# trace_verdict NAME FROM TO EXPECT: the same with the plant in the trace.
trace_verdict() {
	sed "s|$2|$3|" "$tmp/t.json" >"$tmp/t2.json"
	if cmp -s "$tmp/t.json" "$tmp/t2.json"; then
		flunk "$1: the plant did not apply"
		return
	fi
	trace="$tmp/t2.json" verdict "$1" "" "" "$4"
}

verdict "hand-worked summary agrees" "" "" 0
# The critical path of p0 and its lane: SCALAR (dropped, kept:false) [900,
# 1000], MTE2 [1000, 1100] inside slice a, CUBE [1100, 1110] = slice m,
# issue [1110, 1200]; 100 + 100 + 10 + 90 = 300, the span. Its top
# instructions: the dropped SCALAR's ADD (0x34, as the converter would read
# it; the trace has no slice of it), a (0x10) and m (no pc_addr), 100, 100
# and 10 ns; only a covers [1000, 1100] (b starts at 1050), only m [1100,
# 1110] (n starts on the grid at 1110).
# The diagnosis's cross_core_wait on p0 then holds none of the path (no
# cross-core segment): path_ns 0, evidence 0.
verdict "path: path_ns of a diagnosis entry" '"waits":0,"path_ns":0}}]}' '"waits":0,"path_ns":150}}]}' 1
verdict "path: evidence by busy time where a path exists" '"evidence_share":0.0000' '"evidence_share":0.5000' 1
verdict "path: segment count" '"segments":4' '"segments":5' 1
verdict "timeline: a bin" '{"pipe":"MTE2","busy_ns":[0,' '{"pipe":"MTE2","busy_ns":[2,' 1
verdict "timeline: a zero-length instruction's last ns" ',1]}' ',0]}' 1
verdict "timeline: the bin width" '"bin_ns":2,' '"bin_ns":3,' 1
verdict "timeline: another core's" '"timeline":{"core":"p0"' '"timeline":{"core":"p1"' 1
verdict "timeline: a row out of order" '{"pipe":"CUBE","busy_ns"' '{"pipe":"CUBX","busy_ns"' 1
verdict "timeline: missing" '"timeline":{' '"timeline_":{' 1
verdict "path: issue time" '"issue_ns":90' '"issue_ns":91' 1
verdict "path: a busy share" '"ns":100,"share":0.3333},{"pipe":"MTE2"' '"ns":100,"share":0.3334},{"pipe":"MTE2"' 1
verdict "path: busy not largest first" '{"pipe":"MTE2","ns":100,"share":0.3333},{"pipe":"CUBE","ns":10,"share":0.0333}' '{"pipe":"CUBE","ns":10,"share":0.0333},{"pipe":"MTE2","ns":100,"share":0.3333}' 1
verdict "path: a pipe missing from busy" ',{"pipe":"CUBE","ns":10,"share":0.0333}' '' 1
verdict "path: top instruction's ns off by one" '"name":"m","source":null,"ns":10,"busy_ns":10,"released_ns":0,"share":0.0333' '"name":"m","source":null,"ns":11,"busy_ns":11,"released_ns":0,"share":0.0367' 1
verdict "path: a top instruction releasing a wait the path has not" '"name":"m","source":null,"ns":10,"busy_ns":10,"released_ns":0,"share":0.0333' '"name":"m","source":null,"ns":15,"busy_ns":10,"released_ns":5,"share":0.0500' 1
verdict "path: busy_ns and released_ns not adding up to ns" '"name":"m","source":null,"ns":10,"busy_ns":10,"released_ns":0,"share":0.0333' '"name":"m","source":null,"ns":10,"busy_ns":10,"released_ns":1,"share":0.0333' 1
verdict "load_balance: a kernel what-if no core estimates" '"slowest_core":"p0","what_if":[]}' '"slowest_core":"p0","what_if":[{"pipe":"MTE2","span_ns":200,"change":-0.3333,"core":"p0"}]}' 1
verdict "path: top instruction of another name" '"pc_addr":"0x10","name":"a"' '"pc_addr":"0x10","name":"b"' 1
verdict "path: top instruction of another address" '"pc_addr":"0x10","name":"a"' '"pc_addr":"0x11","name":"a"' 1
verdict "path: top instruction left out" ',{"pc_addr":null,"name":"m","source":null,"ns":10,"busy_ns":10,"released_ns":0,"share":0.0333}' '' 1
verdict "path: top instruction's source" '"name":"a","source":"k.cpp:1"' '"name":"a","source":"k.cpp:2"' 1
verdict "path: top instructions not largest first" '{"pc_addr":"0x10","name":"a","source":"k.cpp:1","ns":100,"busy_ns":100,"released_ns":0,"share":0.3333},{"pc_addr":null,"name":"m","source":null,"ns":10,"busy_ns":10,"released_ns":0,"share":0.0333}' '{"pc_addr":null,"name":"m","source":null,"ns":10,"busy_ns":10,"released_ns":0,"share":0.0333},{"pc_addr":"0x10","name":"a","source":"k.cpp:1","ns":100,"busy_ns":100,"released_ns":0,"share":0.3333}' 1
verdict "path: a dropped pipe's instruction holding more than its busy time" '"name":"ADD","source":"k.cpp:9","ns":100' '"name":"ADD","source":"k.cpp:9","ns":101' 1
verdict "path: top instruction's share" '"name":"a","source":"k.cpp:1","ns":100,"busy_ns":100,"released_ns":0,"share":0.3333' '"name":"a","source":"k.cpp:1","ns":100,"busy_ns":100,"released_ns":0,"share":0.3334' 1
verdict "path: no critical_path" ',
"critical_path":' ',
"no_path":' 1
trace_verdict "path: a segment too long (no tiling)" '"critical path","ts":1,"dur":0.1' '"critical path","ts":1,"dur":0.11' 1
trace_verdict "path: a segment left out" '{"name":"CUBE","ph":"X","pid":"p0","tid":"critical path","ts":1.1,"dur":0.01},' '' 1
trace_verdict "path: busy time on a pipe, inside none of its instructions" '"name":"CUBE","ph":"X","pid":"p0","tid":"critical path"' '"name":"VECTOR","ph":"X","pid":"p0","tid":"critical path"' 1
trace_verdict "path: a lane on a core the summary lacks" '"name":"SCALAR","ph":"X","pid":"p0","tid":"critical path"' '"name":"SCALAR","ph":"X","pid":"p9","tid":"critical path"' 1
# A flag wait whose sums agree, but along no arrow of the trace.
saved=$good
good=${good/'"wait":[],"cross_core_wait_ns":0,"issue_ns":90'/'"wait":[{"producer":"MTE2","consumer":"CUBE","ns":90,"share":0.3000}],"cross_core_wait_ns":0,"issue_ns":0'}
trace_verdict "path: a flag wait along no arrow" '"name":"issue","ph":"X","pid":"p0","tid":"critical path"' '"name":"wait MTE2->CUBE","ph":"X","pid":"p0","tid":"critical path"' 1
good=$saved
verdict "busy union off by one" '"busy_ns":150,"busy_us":0.150' '"busy_ns":151,"busy_us":0.151' 1
verdict "busy as a sum (200)" '"busy_ns":150,"busy_us":0.150,"busy_share":0.5000' '"busy_ns":200,"busy_us":0.200,"busy_share":0.6667' 1
verdict "instruction count" '"instructions":2' '"instructions":3' 1
verdict "depth" '"depth":2,"rows":2' '"depth":1,"rows":2' 1
verdict "depth as the sub-lanes" '"depth":1,"rows":2' '"depth":2,"rows":2' 1
verdict "rows" '"depth":2,"rows":2' '"depth":2,"rows":1' 1
verdict "a point as no depth" '"depth":1,"rows":1' '"depth":0,"rows":1' 1
verdict "rows of a dropped lane" '"depth":1,"rows":null' '"depth":1,"rows":1' 1
trace_verdict "a rounding row not labelled" '#1 (rounding)"' '#1"' 1
trace_verdict "a row in flight labelled rounding" 'MTE2 (load GM->L1/UB) #1"' 'MTE2 (load GM->L1/UB) #1 (rounding)"' 1
verdict "overlap" '"overlap_ns":20,"overlap_share":0.1333' '"overlap_ns":21,"overlap_share":0.1400' 1
verdict "overlap share" '"overlap_ns":20,"overlap_share":0.1333' '"overlap_ns":20,"overlap_share":0.1334' 1
verdict "overlap on a compute pipe" '"bandwidth_gbps":null,"overlap_ns":null,"overlap_share":null},
{"pipe":"VECTOR"' '"bandwidth_gbps":null,"overlap_ns":0,"overlap_share":0.0000},
{"pipe":"VECTOR"' 1
verdict "busy_share" '"busy_share":0.5000' '"busy_share":0.5001' 1
verdict "kept lane reported dropped" '"pipe":"VECTOR","kept":true' '"pipe":"VECTOR","kept":false' 1
verdict "span misses a kept slice" '"first_ns":900,"last_ns":1200,"span_ns":300,"span_us":0.300' '"first_ns":900,"last_ns":1150,"span_ns":250,"span_us":0.250' 1
verdict "span_ns not last - first" '"span_ns":300,"span_us":0.300' '"span_ns":301,"span_us":0.301' 1
verdict "median span" '"median_span_ns":300' '"median_span_ns":299' 1
verdict "schema" '"schema":1' '"schema":2' 1
# API_INSTR per pipe and bytes.
verdict "cycles" '"cycles":40,"sync_cycles":5' '"cycles":41,"sync_cycles":5' 1
verdict "SET_FLAG counted as work" '"cycles":40,"sync_cycles":5,"executed":2' '"cycles":45,"sync_cycles":0,"executed":3' 1
verdict "executed" '"executed":4' '"executed":3' 1
verdict "VEC not merged into VECTOR" '"cycles":40,"sync_cycles":0,"executed":4,"vector_utilization":62.50' '"cycles":10,"sync_cycles":0,"executed":1,"vector_utilization":100.00' 1
verdict "utilization unweighted" '"vector_utilization":62.50' '"vector_utilization":75.00' 1
verdict "utilization off by 0.01" '"vector_utilization":62.50' '"vector_utilization":62.51' 1
verdict "all-zero group not null" '"depth":0,"rows":null,"wait_flag_ns":0,"wait_flag_by_producer":[],"cycles":null' '"depth":0,"rows":null,"wait_flag_ns":0,"wait_flag_by_producer":[],"cycles":0' 1
verdict "bytes" '"bytes":157' '"bytes":156' 1
verdict "bandwidth truncated" '"bandwidth_gbps":1.047' '"bandwidth_gbps":1.046' 1
verdict "bytes on a pipe that moved none" '"vector_utilization":62.50,"bytes":null' '"vector_utilization":62.50,"bytes":0' 1
# top_instructions.
verdict "top: wrong cycles" '"mnemonic":"VADD","source":"k.cpp:5","cycles":75' '"mnemonic":"VADD","source":"k.cpp:5","cycles":74' 1
verdict "top: tie in the wrong order" '"address":"0x10","pipe":"MTE2","mnemonic":"MOV_OUT_TO_UB","source":"k.cpp:1","cycles":50,"cycle_share":0.2632,"executed":3,"cores":2},
{"address":"0x34","pipe":"SCALAR","mnemonic":"ADD","source":"k.cpp:9","cycles":50,"cycle_share":0.2632,"executed":5,"cores":1}' '"address":"0x34","pipe":"SCALAR","mnemonic":"ADD","source":"k.cpp:9","cycles":50,"cycle_share":0.2632,"executed":5,"cores":1},
{"address":"0x10","pipe":"MTE2","mnemonic":"MOV_OUT_TO_UB","source":"k.cpp:1","cycles":50,"cycle_share":0.2632,"executed":3,"cores":2}' 1
verdict "top: by one core's cycles" '"address":"0x20","pipe":"VECTOR","mnemonic":"VADD","source":"k.cpp:5","cycles":75,"cycle_share":0.3947,"executed":3,"cores":2},
{"address":"0x10","pipe":"MTE2","mnemonic":"MOV_OUT_TO_UB","source":"k.cpp:1","cycles":50,"cycle_share":0.2632,"executed":3,"cores":2},' '"address":"0x10","pipe":"MTE2","mnemonic":"MOV_OUT_TO_UB","source":"k.cpp:1","cycles":50,"cycle_share":0.2632,"executed":3,"cores":2},
{"address":"0x20","pipe":"VECTOR","mnemonic":"VADD","source":"k.cpp:5","cycles":75,"cycle_share":0.3947,"executed":3,"cores":2},' 1
verdict "top: share truncated" '"cycles":50,"cycle_share":0.2632,"executed":3' '"cycles":50,"cycle_share":0.2631,"executed":3' 1
verdict "top: pipe not canonical" '"address":"0x20","pipe":"VECTOR"' '"address":"0x20","pipe":"VEC"' 1
verdict "top: source line" '"source":"k.cpp:5"' '"source":"k.cpp:6"' 1
verdict "top: source line missing" '"source":"k.cpp:1"' '"source":null' 1
verdict "top: a flag row ranked as work" '"cycles":10,"cycle_share":0.0526,"executed":1,"cores":1}],' '"cycles":10,"cycle_share":0.0526,"executed":1,"cores":1},
{"address":"0x14","pipe":"MTE2","mnemonic":"SET_FLAG","source":"k.cpp:1","cycles":5,"cycle_share":0.0263,"executed":1,"cores":1}],' 1
verdict "flag_cycles: a row missed" '"flag_cycles":{"rows":1,"cycles":5' '"flag_cycles":{"rows":0,"cycles":0' 1
verdict "flag_cycles: share" '"cycles":5,"cycle_share":0.0263}' '"cycles":5,"cycle_share":0.0264}' 1
# top_source_lines.
verdict "lines: one address per row" '"executed":4,"addresses":2' '"executed":4,"addresses":3' 1
verdict "lines: cycles of one row only" '"cycles":55,"cycle_share":0.2895' '"cycles":50,"cycle_share":0.2632' 1
verdict "lines: executions" '"executed":4,"addresses":2' '"executed":3,"addresses":2' 1
verdict "lines: share" '"cycle_share":0.2895' '"cycle_share":0.2894' 1
verdict "lines: a line missing" ',
{"source":"k.cpp:6","cycles":10,"cycle_share":0.0526,"executed":1,"addresses":1}]' ']' 1
verdict "lines: out of order" '{"source":"k.cpp:5","cycles":75,"cycle_share":0.3947,"executed":3,"addresses":1},
{"source":"k.cpp:1","cycles":55,"cycle_share":0.2895,"executed":4,"addresses":2},' '{"source":"k.cpp:1","cycles":55,"cycle_share":0.2895,"executed":4,"addresses":2},
{"source":"k.cpp:5","cycles":75,"cycle_share":0.3947,"executed":3,"addresses":1},' 1
verdict "top: mnemonic" '"mnemonic":"VMULS"' '"mnemonic":"VMUL"' 1
verdict "top: cores" '"executed":3,"cores":2},
{"address":"0x34"' '"executed":3,"cores":1},
{"address":"0x34"' 1
verdict "top: -1 executions counted" '"cycle_share":0.3947,"executed":3' '"cycle_share":0.3947,"executed":2' 1
verdict "top: a row without cycles listed" '"cycle_share":0.0526,"executed":1,"cores":1}]' '"cycle_share":0.0526,"executed":1,"cores":1},
{"address":"0x30","pipe":"FIXP","mnemonic":"FIX","source":null,"cycles":0,"cycle_share":0.0000,"executed":0,"cores":0}]' 1
# The diagnosis: p0 waits across cores 150 of its 300 ns (50 %, on the
# threshold), the slowest core; none of it lies on p0's critical path:
# evidence 0 / 300 = 0.0000.
verdict "diagnosis: evidence_share" '"evidence_share":0.0000' '"evidence_share":0.1000' 1
verdict "diagnosis: primary unmarked" '"primary":true' '"primary":false' 1
verdict "diagnosis: a core not in the summary" '"cores":["p0"]' '"cores":["p0","p9"]' 1
verdict "diagnosis: numbers not the summary's" '"per_core":[{"core":"p0","numbers":{"cross_core_wait_ns":150' '"per_core":[{"core":"p0","numbers":{"cross_core_wait_ns":149' 1
verdict "diagnosis: below its threshold" '"cross_core_wait_ns":150,"pipes"' '"cross_core_wait_ns":149,"pipes"' 1
verdict "diagnosis: a rule on two lines" '"diagnosis":[' '"diagnosis":[
{"id":"cross_core_wait","primary":true,"core":"p0","cores":["p0"],"evidence_share":0.5000,"text":"t","numbers":{},"per_core":[]},' 1
verdict "diagnosis: a figure rule beside near_empty" '"diagnosis":[' '"diagnosis":[
{"id":"near_empty","primary":true,"core":null,"cores":["p0"],"evidence_share":1.0000,"text":"t","numbers":{"instructions":3,"cores":1},"per_core":[]},' 1
verdict "diagnosis: not an array" '"diagnosis":[' '"diagnosis":null,"x":[' 1
# The rows of 0 executions left out, as the converter writes the file.
{
	printf '{"cores":["p0","p1"],"instructions":{"p0":['
	row 0x10 MTE2 "MOV_OUT_TO_UB X1" 40 2 -1 k.cpp:1; printf ,
	row 0x14 MTE2 "SET_FLAG MTE2 ID:0" 5 1 -1; printf ,
	row 0x20 VEC "VADD X2" 30 3 50 k.cpp:5; printf ,
	row 0x24 VECTOR "VMULS X3" 10 1 100; printf ,
	row 0x34 SCALAR "ADD X5" 50 5 -1
	printf '],"p1":['
	row 0x10 MTE2 "MOV_OUT_TO_UB X1" 10 1 -1 k.cpp:1; printf ,
	row 0x20 VEC "VADD X2" 45 -1 -1 k.cpp:5
	printf ']},"column_types":{}}\n'
} >"$tmp/left.json"
metrics="$tmp/left.json"
verdict "rows left out: matched by address, agrees" "" "" 0
verdict "rows left out: p1's record of 0x20 not counted" '"cycles":75,"cycle_share":0.3947,"executed":3,"cores":2' '"cycles":30,"cycle_share":0.1579,"executed":3,"cores":1' 1
verdict "rows left out: tie in the wrong order" '"address":"0x10","pipe":"MTE2","mnemonic":"MOV_OUT_TO_UB","source":"k.cpp:1","cycles":50,"cycle_share":0.2632,"executed":3,"cores":2},
{"address":"0x34","pipe":"SCALAR","mnemonic":"ADD","source":"k.cpp:9","cycles":50,"cycle_share":0.2632,"executed":5,"cores":1}' '"address":"0x34","pipe":"SCALAR","mnemonic":"ADD","source":"k.cpp:9","cycles":50,"cycle_share":0.2632,"executed":5,"cores":1},
{"address":"0x10","pipe":"MTE2","mnemonic":"MOV_OUT_TO_UB","source":"k.cpp:1","cycles":50,"cycle_share":0.2632,"executed":3,"cores":2}' 1
unset metrics
# The same API_INSTR as --raw-metrics writes it (per-core arrays, input keys).
cat >"$tmp/raw.json" <<'JSON'
{"Cores":["p0","p1"],"Instructions":[
{"Address":"0x10","AscendC Inner Code":"k.cpp:1","Pipe":"MTE2","Source":"MOV_OUT_TO_UB X1","Cycles":[40,10],"Instructions Executed":[2,1],"Vector Utilization Percentage":[-1,-1]},
{"Address":"0x14","AscendC Inner Code":"k.cpp:1","Pipe":"MTE2","Source":"SET_FLAG MTE2 ID:0","Cycles":[5,0],"Instructions Executed":[1,0],"Vector Utilization Percentage":[-1,-1]},
{"Address":"0x20","AscendC Inner Code":"k.cpp:5","Pipe":"VEC","Source":"VADD X2","Cycles":[30,45],"Instructions Executed":[3,-1],"Vector Utilization Percentage":[50,-1]},
{"Address":"0x24","AscendC Inner Code":"k.cpp:6","Pipe":"VECTOR","Source":"VMULS X3","Cycles":[10,0],"Instructions Executed":[1,0],"Vector Utilization Percentage":[100,-1]},
{"Address":"0x30","Pipe":"FIXPIPE","Source":"FIX X4","Cycles":[0,0],"Instructions Executed":[0,0],"Vector Utilization Percentage":[-1,-1]},
{"Address":"0x34","AscendC Inner Code":"k.cpp:9","Pipe":"SCALAR","Source":"ADD X5","Cycles":[50,0],"Instructions Executed":[5,0],"Vector Utilization Percentage":[-1,-1]}]}
JSON
metrics="$tmp/raw.json"
verdict "raw API_INSTR agrees" "" "" 0
verdict "raw API_INSTR: wrong cycles" '"cycles":40,"sync_cycles":5' '"cycles":41,"sync_cycles":5' 1
# Cycles on a core that executed the row 0 times: left out of
# instr_metrics.json (SPEC §7), so of the summary too (VMULS stays 10).
sed 's/"Cycles":\[10,0\],"Instructions Executed":\[1,0\]/"Cycles":[10,7],"Instructions Executed":[1,0]/' "$tmp/raw.json" >"$tmp/raw7.json"
check "raw7.json plants cycles on p1's VMULS" grep -q '"Cycles":\[10,7\]' "$tmp/raw7.json"
metrics="$tmp/raw7.json"
verdict "raw API_INSTR: cycles of 0 executions left out" "" "" 0
# Without an instr_metrics.json, API_INSTR numbers must be null.
metrics="$tmp/none.json"
verdict "numbers without API_INSTR" "" "" 1
good=$(printf '%s\n' "$good" | sed -E 's/"(cycles|sync_cycles|executed)":[0-9]+,/"\1":null,/; s/"vector_utilization":[0-9.]+/"vector_utilization":null/' |
	sed -E 's/"(cycles|sync_cycles|executed)":[0-9]+,/"\1":null,/g' | tr -d '\n' | sed -E 's/("load_balance":\{[^}]*\},)"top_instructions":\[.*\],"diagnosis"/\1"top_instructions":null,"flag_cycles":null,"top_source_lines":null,"diagnosis"/')
verdict "all null without API_INSTR" "" "" 0
verdict "top_instructions without API_INSTR" '"top_instructions":null' '"top_instructions":[]' 1
verdict "top_source_lines without API_INSTR" '"top_source_lines":null' '"top_source_lines":[]' 1
verdict "flag_cycles without API_INSTR" '"flag_cycles":null' '"flag_cycles":{"rows":0,"cycles":0,"cycle_share":0.0000}' 1
unset metrics
# (the null-metrics summary above, with no instr_metrics.json)
metrics="$tmp/none.json"
# A summary windowed to [1000,1100] (--window 1:1.1): the recheck clips the
# trace's intervals first, so the whole-run numbers above no longer agree
# (MTE2's union clipped is 100), a --core cut cannot be rechecked (exit 2).
cut='"cut":{"cores":null,"window_us":[1.000,1.100],"window_ns":[1000,1100],"summary_windowed":true},'
verdict "whole-run numbers under a window" '"run":null,' "\"run\":null,$cut" 1
verdict "a --core cut" '"run":null,' '"run":null,"cut":{"cores":["p*"],"window_us":null,"window_ns":null,"summary_windowed":false},' 2
good=${good/'"run":null,'/"\"run\":null,$cut"}
# MTE2 clipped to [1000,1100): union 100, still 2 deep on 2 rows; its
# bytes in proportion: 100 of the first, 57 x 50/100 = 28.5 -> 29 of the
# second, 129 over 100 ns; CUBE starts at the window's end: 0 ns, 1 deep
# (its slices meet the window but run in it nowhere), rows 2 (the highest
# sub-lane + 1); no overlap left.
good=${good/'"busy_ns":150,"busy_us":0.150,"busy_share":0.5000'/'"busy_ns":100,"busy_us":0.100,"busy_share":0.3333'}
good=${good/'"bytes":157,"bandwidth_gbps":1.047,"overlap_ns":20,"overlap_share":0.1333'/'"bytes":129,"bandwidth_gbps":1.290,"overlap_ns":0,"overlap_share":0.0000'}
good=${good/'"busy_ns":20,"busy_us":0.020,"busy_share":0.0667'/'"busy_ns":0,"busy_us":0.000,"busy_share":0.0000'}
verdict "windowed summary worked out by hand" "" "" 0
verdict "windowed bytes counted whole" '"bytes":129,"bandwidth_gbps":1.290' '"bytes":157,"bandwidth_gbps":1.570' 1
verdict "windowed bytes rounded down" '"bytes":129,"bandwidth_gbps":1.290' '"bytes":128,"bandwidth_gbps":1.280' 1
verdict "windowed rows are the highest sub-lane + 1" '"depth":1,"rows":2' '"depth":1,"rows":1' 1
verdict "windowed depth" '"depth":2,"rows":2' '"depth":1,"rows":2' 1
finish
