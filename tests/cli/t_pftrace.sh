#!/usr/bin/env bash
# --format (SPEC §1, §15): which traces a run writes, and trace.pftrace as a
# file of the output set. The option's grammar and its refusals (exit 2);
# --format perfetto writes trace.pftrace alone and removes an older
# trace.clean.json (both forms), --format json removes an older
# trace.pftrace (both forms); the `wrote` lines; -z writes trace.pftrace.gz
# as one gzip member holding the plain run's bytes; the .pftrace of
# --format perfetto is the one of json,perfetto, byte for byte, and the
# same on a second run; a failed write leaves the folder as it was. Then
# the content on a synthetic dump big enough for many buffer flushes,
# rechecked against its trace.clean.json (pftrace_recheck), and times
# before 0 (shifted, with a note).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_GZ:?set CSIM_GZ to the gz_member executable}"
: "${CSIM_SYNTH:?set CSIM_SYNTH to the gen_synth executable}"
: "${CSIM_PFTRACE_RECHECK:?set CSIM_PFTRACE_RECHECK to the pftrace_recheck executable}"

not() { ! "$@"; }
demo="$CSIM_ROOT/fixtures/demo/OPPROF_demo"

# The grammar: names json and perfetto, each once, comma-separated.
for bad in pftrace json,json 'json,' ',perfetto' '' JSON 'json perfetto'; do
	run "$tmp" "$demo" -o out --format "$bad"
	check "--format '$bad': exit 2" [ "$status" -eq 2 ]
	check "--format '$bad': says what it takes" \
		contains "$err" "option --format: '$bad' is not json, perfetto or json,perfetto"
done
run "$tmp" "$demo" -o out --format json --format perfetto
check "--format twice: exit 2" [ "$status" -eq 2 ]
check "--format twice: said" contains "$err" "option --format given twice"
run "$tmp" "$demo" --summary-only --format perfetto
check "--format with --summary-only: exit 2" [ "$status" -eq 2 ]
check "--format with --summary-only: named" contains "$err" "--format has nothing to shape"
run "$tmp" "$demo" --compare "$demo" --format perfetto
check "--format with --compare: exit 2" [ "$status" -eq 2 ]
check "--format with --compare: named" contains "$err" "--format has nothing to shape"
check "no folder made by the refusals" [ ! -e "$tmp/out" ]

# --format perfetto: trace.pftrace alone; an older trace of either form goes.
mkdir -p "$tmp/a"
echo '{"old":"trace"}' >"$tmp/a/trace.clean.json"
echo old >"$tmp/a/trace.clean.json.gz"
run "$tmp" "$demo" -o a --no-copy-raw --format perfetto
check "perfetto: exit 0" [ "$status" -eq 0 ]
check "perfetto: trace.pftrace written" [ -s "$tmp/a/trace.pftrace" ]
check "perfetto: older trace.clean.json removed" [ ! -e "$tmp/a/trace.clean.json" ]
check "perfetto: older trace.clean.json.gz removed" [ ! -e "$tmp/a/trace.clean.json.gz" ]
check "perfetto: the other outputs written" [ -s "$tmp/a/summary.json" -a -s "$tmp/a/instr_metrics.json" ]
check "perfetto: wrote line" contains "$out" "wrote a/trace.pftrace"
check "perfetto: no wrote line for the JSON" not contains "$out" "trace.clean.json"

# json,perfetto: both; perfetto's bytes the same as --format perfetto's.
run "$tmp" "$demo" -o b --no-copy-raw --format json,perfetto
check "json,perfetto: exit 0" [ "$status" -eq 0 ]
check "json,perfetto: both written" [ -s "$tmp/b/trace.clean.json" -a -s "$tmp/b/trace.pftrace" ]
check "json,perfetto: the .pftrace is --format perfetto's" cmp -s "$tmp/a/trace.pftrace" "$tmp/b/trace.pftrace"
check "json,perfetto: wrote lines in order, JSON first" \
	[ "$(grep -n wrote "$tmp/.stdout" | grep -c 'trace\.')" -eq 2 ]
run "$tmp" "$demo" -o b2 --no-copy-raw --format perfetto,json
check "perfetto,json: the same files" cmp -s "$tmp/b/trace.pftrace" "$tmp/b2/trace.pftrace"
run "$tmp" "$demo" -o c --no-copy-raw
check "json,perfetto: the JSON is the default run's" cmp -s "$tmp/b/trace.clean.json" "$tmp/c/trace.clean.json"

# --format json (and the default) removes an older trace.pftrace, both forms.
echo old >"$tmp/a/trace.pftrace.gz"
run "$tmp" "$demo" -o a --no-copy-raw
check "json: exit 0" [ "$status" -eq 0 ]
check "json: older trace.pftrace removed" [ ! -e "$tmp/a/trace.pftrace" ]
check "json: older trace.pftrace.gz removed" [ ! -e "$tmp/a/trace.pftrace.gz" ]

# -z: one gzip member, the plain bytes; an older plain trace.pftrace goes.
cp "$tmp/b/trace.pftrace" "$tmp/a/trace.pftrace"
run "$tmp" "$demo" -o a --no-copy-raw --format perfetto -z
check "-z: exit 0" [ "$status" -eq 0 ]
check "-z: trace.pftrace.gz is one gzip member" "$CSIM_GZ" "$tmp/a/trace.pftrace.gz"
check "-z: it inflates to the plain run's bytes" \
	cmp -s <("$CSIM_GZ" "$tmp/a/trace.pftrace.gz") "$tmp/b/trace.pftrace"
check "-z: older plain trace.pftrace removed" [ ! -e "$tmp/a/trace.pftrace" ]
check "-z: wrote line names the .gz" contains "$out" "wrote a/trace.pftrace.gz"

# A failed write (file-size limit below the trace) leaves the folder as it was.
: "${CSIM_SYNTH:?}"
"$CSIM_SYNTH" --seed 3 8 "$tmp/big.bin"
mkdir -p "$tmp/f"
echo '{"old":"trace"}' >"$tmp/f/trace.clean.json"
status=0
(cd "$tmp" && ulimit -f 200 && trap '' XFSZ && "$CSIM_BIN" big.bin -o f --no-copy-raw --format perfetto \
	>"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
check "failed write: exit 3" [ "$status" -eq 3 ]
check "failed write: the older trace stays" [ "$(cat "$tmp/f/trace.clean.json")" = '{"old":"trace"}' ]
check "failed write: nothing else left" [ "$(ls -A "$tmp/f" | tr '\n' ' ')" = "trace.clean.json " ]

# A trace big enough for many buffer flushes, rechecked slice for slice;
# and deterministic.
run "$tmp" big.bin -o g --no-copy-raw --format json,perfetto
check "synthetic 8 MB: exit 0" [ "$status" -eq 0 ]
check "synthetic 8 MB: the .pftrace holds the JSON's slices, tracks, flows, counters" \
	"$CSIM_PFTRACE_RECHECK" "$tmp/g/trace.pftrace" "$tmp/g/trace.clean.json"
check "synthetic 8 MB: at most 0.4x the JSON's size" \
	[ "$(stat -c %s "$tmp/g/trace.pftrace")" -le "$(($(stat -c %s "$tmp/g/trace.clean.json") * 2 / 5))" ]
run "$tmp" big.bin -o g2 --no-copy-raw --format perfetto
check "synthetic 8 MB: deterministic" cmp -s "$tmp/g/trace.pftrace" "$tmp/g2/trace.pftrace"

# Float noise and a true overlap that both round to touching ns (SPEC §4,
# §15), tol 0.25 ns at these times. A [10000, 10100.6) and B from 10100.4:
# 0.2 ns of float noise, which the exact ns make a 1 ns overlap (A ends at
# 10101, B begins at 10100): one track, A cut at 10100. C [20000, 20100)
# and D from 20099.5: a true half-ns overlap (over tol), rounding to
# touching ns (D begins at 20100, half away from zero): two tracks, nothing
# cut, as the summary's depth 2 says.
mkdir -p "$tmp/noise/sim"
cat >"$tmp/noise/trace.json" <<'EOF'
{"traceEvents":[
{"name":"A","ph":"X","pid":"core0.veccore0","tid":"VECTOR","ts":10.0,"dur":0.1006,"args":{}},
{"name":"B","ph":"X","pid":"core0.veccore0","tid":"VECTOR","ts":10.1004,"dur":0.05,"args":{}},
{"name":"C","ph":"X","pid":"core0.veccore0","tid":"MTE2","ts":20.0,"dur":0.1,"args":{}},
{"name":"D","ph":"X","pid":"core0.veccore0","tid":"MTE2","ts":20.0995,"dur":0.1,"args":{}}
]}
EOF
printf 'trace trace.json\n' >"$tmp/noise/dump.recipe"
(cd "$tmp/noise" && "$CSIM_GEN" dump.recipe sim/visualize_data.bin)
run "$tmp/noise" sim -o out --no-copy-raw --format json,perfetto
check "noise: exit 0" [ "$status" -eq 0 ]
check "noise: rechecked against the JSON" \
	"$CSIM_PFTRACE_RECHECK" "$tmp/noise/out/trace.pftrace" "$tmp/noise/out/trace.clean.json"
"$CSIM_PFTRACE_RECHECK" --facts "$tmp/noise/out/trace.pftrace" >"$tmp/noise/facts"
for fact in "pslice core0.veccore0 VECTOR (compute) A 10000 10100" \
	"pslice core0.veccore0 VECTOR (compute) B 10100 10150" \
	"pslice core0.veccore0 MTE2 (load GM->L1/UB) C 20000 20100" \
	"pslice core0.veccore0 MTE2 (load GM->L1/UB) #1 D 20100 20200"; do
	check "noise: $fact" grep -Fxq -- "$fact" "$tmp/noise/facts"
done
check "noise: the summary's MTE2 depth is 2" \
	grep -q '"pipe":"MTE2"[^}]*"depth":2' "$tmp/noise/out/summary.json"

# Times before 0: Perfetto's are unsigned, so every time moves by the same
# amount, and the run says so.
mkdir -p "$tmp/neg/sim"
cat >"$tmp/neg/trace.json" <<'EOF'
{"traceEvents":[
{"name":"VADD","ph":"X","pid":"core0.veccore0","tid":"VECTOR","ts":-0.5,"dur":0.25,"args":{}},
{"name":"VMUL","ph":"X","pid":"core0.veccore0","tid":"VECTOR","ts":-0.25,"dur":0.5,"args":{}}
]}
EOF
printf 'trace trace.json\n' >"$tmp/neg/dump.recipe"
(cd "$tmp/neg" && "$CSIM_GEN" dump.recipe sim/visualize_data.bin)
run "$tmp/neg" sim -o out --no-copy-raw --format json,perfetto
check "negative times: exit 0" [ "$status" -eq 0 ]
check "negative times: a note says by how much" \
	contains "$err" "note: trace.pftrace: every time is 500 ns later than the input's"
# VADD [-500, -250) and VMUL [-250, 250) ns, 500 ns later: 0, 250 and 750
# (the critical path's segments lie on the same instants).
check "negative times: the slices at 0..250 and 250..750" \
	[ "$("${CSIM_PROTOC:-protoc}" --decode=perfetto.protos.Trace -I "$CSIM_ROOT/tests/perfetto" \
		pftrace.proto <"$tmp/neg/out/trace.pftrace" | grep -o 'timestamp: [0-9]*' | sort -un -k2 |
		tr '\n' ' ')" = "timestamp: 0 timestamp: 250 timestamp: 750 " ]

finish
