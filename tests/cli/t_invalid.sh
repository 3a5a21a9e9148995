#!/usr/bin/env bash
# Every fixtures/invalid/*.bin. An error case: exit 1, a message naming the
# file, the block offset and the reason, and no output file left behind (nor
# an older one touched). A tolerated hostile case: exit 0, the warning or
# note that says what was skipped, and an output the viewer-rule checker
# accepts with the expected number of slices and arrows.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# case | exit | text stdout or stderr must contain | slices arrows
expect=$(cat <<'TABLE'
empty_file|1|no TRACE block: the file is empty
eleven_bytes|1|too short: 11 bytes, a block header is 12 bytes
three_bytes|1|too short: 3 bytes, a block header is 12 bytes
bad_reserve_byte|1|corrupt block at offset 0: reserve byte is 0x41, expected 0x5a
padding_4|1|corrupt block at offset 296: padding 4 is larger than 3
padding_exceeds_size|1|corrupt block at offset 0: padding 3 is larger than the content size 2
block_past_eof|1|corrupt block at offset 0: block of 1296 bytes runs past the end of the file (296 bytes left)
content_size_near_2_64|1|corrupt block at offset 296: content size 18446744073709551600 overflows
source_size_overflow|1|corrupt block at offset 296: SOURCE block size 18446744073709547520 overflows
trace_not_json|1|TRACE block at offset 0: payload byte 0: TRACE payload is neither an object nor an array
trace_truncated_json|1|TRACE block at offset 0: payload byte 381: unexpected end of JSON text
trace_events_not_array|1|TRACE block at offset 0: payload byte 15: traceEvents is not an array
last_run_trace_truncated|1|TRACE block at offset 296: payload byte 381: unexpected end of JSON text
details_only|1|no TRACE block (only simulator dumps carry a timeline
api_instr_not_json|1|API_INSTR block at offset 296: unexpected end of JSON text at payload byte 10
gzip_block_past_eof|1|corrupt block at offset 0: block of 296 bytes runs past the end of the file
gzip_stream_truncated|1|truncated gzip stream: the file ends at compressed byte 225 (inflated offset 281)
xz_compressed_dump|1|xz-compressed, not a visualize_data.bin container: decompress it first (xz -dc sim/visualize_data.bin > visualize_data.unpacked.bin); clean_sim_trace reads visualize_data.bin and its gzip form visualize_data.bin.gz
zstd_compressed_dump|1|zstd-compressed, not a visualize_data.bin container: decompress it first (zstd -dc sim/visualize_data.bin > visualize_data.unpacked.bin); clean_sim_trace reads visualize_data.bin and its gzip form visualize_data.bin.gz
bzip2_compressed_dump|1|bzip2-compressed, not a visualize_data.bin container: decompress it first (bzip2 -dc sim/visualize_data.bin > visualize_data.unpacked.bin); clean_sim_trace reads visualize_data.bin and its gzip form visualize_data.bin.gz
zip_archive_as_input|1|a zip archive, not a visualize_data.bin container: extract it first (unzip sim/visualize_data.bin) and pass the OPPROF_* folder or the visualize_data.bin in it
tar_gz_archive_as_input|1|a gzip-compressed tar archive, not a visualize_data.bin container: extract it first (tar xzf sim/visualize_data.bin) and pass the OPPROF_* folder or the visualize_data.bin in it
gzip_huge_block_size|1|corrupt block at offset 0: block of 1099511627788 bytes runs past the end of the file
gzip_api_instr_size_256gib|1|corrupt block at offset 296: block of 274877906956 bytes runs past the end of the file
source_inclusive_size_wraps|1|corrupt block at offset 0: block of 8204 bytes runs past the end of the file (4404 bytes left)
string_with_raw_nul|1|TRACE block at offset 0: payload byte 26: control character in string
string_with_lone_surrogate|1|TRACE block at offset 0: payload byte 40: unpaired UTF-16 surrogate escape in string
trace_json_as_input|1|a JSON file (such as trace.json), not a visualize_data.bin container: pass the OPPROF_* folder or the visualize_data.bin next to it; clean_sim_trace --check sim/visualize_data.bin checks a trace against the viewer rules
text_file_as_input|1|a text file, not a visualize_data.bin container: pass the OPPROF_* folder or the visualize_data.bin next to it
short_text_file_as_input|1|a text file, not a visualize_data.bin container: pass the OPPROF_* folder or the visualize_data.bin next to it
nan_token|1|TRACE block at offset 0: payload byte 65: expected a JSON value
string_with_bad_utf8|0|1 event(s) in 1 TRACE block(s): 1 slice(s)|1 0
counter_ts_out_of_range|0|2 event(s) skipped for missing or bad fields: 2 "ts"/"dur" out of range|1 0
odd_numbers|0|3 event(s) skipped for missing or bad fields: 1 "dur" not a non-negative number, 2 "ts"/"dur" out of range|2 0
events_missing_fields|0|7 event(s) skipped for missing or bad fields: 1 not a JSON object, 1 no "ph" string, 1 no "name" string, 2 no "pid", 1 no "tid", 1 no numeric "ts"|1 0
flag_records_unbalanced|0|3 sync flag(s) could not be re-anchored: 2 begin or end record missing, 1 no matching WAIT|2 2
source_path_without_nul|0|1 event(s) in 1 TRACE block(s): 1 slice(s)|1 0
block_types_0_and_255|0|1 event(s) in 1 TRACE block(s): 1 slice(s)|1 0
nesting_at_limit|0|1 event(s) skipped for missing or bad fields: 1 values nested deeper than 512 levels|2 0
api_instr_dtype_code_huge|0|wrote out/instr_metrics.json|1 0
api_instr_long_key|0|wrote out/instr_metrics.json|1 0
api_instr_reshape_unbounded|0|API_INSTR block at offset 296: its reshape would write more than 19533248 bytes (64x its 43063-byte payload + 16 MiB; a value that is not an array as long as Cores is copied into each of its 800 cores' records): instr_metrics.json not written (--raw-metrics writes the payload as it is), and the summary has no API_INSTR figures|1 0
basic_info_not_json|0|warning: sim/visualize_data.bin: OP_BASIC_INFO block at offset 296: unexpected end of JSON text at payload byte 29; the summary has no run facts|1 0
unplaced_events_dropped_anyway|0|1 event(s) skipped for missing or bad fields: 1 "dur" not a non-negative number|1 0
TABLE
)

# tolerated NAME TEXT SLICES ARROWS: the run converts what it can.
tolerated() {
	local name=$1 text=$2 slices=$3 arrows=$4 work="$tmp/$1"

	run "$work" sim -o out --no-copy-raw
	check "$name: exit 0" [ "$status" -eq 0 ]
	check "$name: says '$text'" contains "$out$err" "$text"
	check "$name: viewer rules, $slices slice(s), $arrows arrow(s)" "$CSIM_CHECK" --disjoint \
		--expect-slices "$slices" --expect-arrows "$arrows" "$work/out/trace.clean.json"
}

seen=0
while IFS='|' read -r name code text counts; do
	bin="$CSIM_ROOT/fixtures/invalid/$name.bin"
	seen=$((seen + 1))
	work="$tmp/$name"
	mkdir -p "$work/sim" "$work/old"
	cp "$bin" "$work/sim/visualize_data.bin"
	if [ "$code" -eq 0 ]; then
		# shellcheck disable=SC2086 # two numbers
		tolerated "$name" "$text" $counts
		continue
	fi
	# An older good output must survive a failed run untouched.
	echo '{"old":true}' >"$work/old/trace.clean.json"
	run "$work" sim -o old
	check "$name: exit 1" [ "$status" -eq 1 ]
	check "$name: message '$text'" contains "$err" "error: sim/visualize_data.bin: $text"
	check "$name: older output untouched" [ "$(cat "$work/old/trace.clean.json")" = '{"old":true}' ]
	check "$name: nothing else written" [ "$(ls -A "$work/old")" = "trace.clean.json" ]
	run "$work" sim -o new
	check "$name: no output folder created" [ ! -e "$work/new" ]
	check "$name: stdout empty" [ -z "$out" ]
done <<<"$expect"

# A file shorter than a header is said to be so, once: no trailing-bytes warning.
for name in eleven_bytes three_bytes; do
	run "$tmp/$name" sim -o x
	check "$name: the one error line" [ "$(printf '%s' "$err" | wc -l)" -eq 1 ]
done
# Under the name its tool unpacks in place, the command is that tool's.
for kind in xz:xz:unxz zstd:zst:unzstd bzip2:bz2:bunzip2; do
	IFS=: read -r name suffix tool <<<"$kind"
	cp "$CSIM_ROOT/fixtures/invalid/${name}_compressed_dump.bin" "$tmp/dump.bin.$suffix"
	run "$tmp" "dump.bin.$suffix"
	check "${name}_compressed_dump as dump.bin.$suffix: exit 1" [ "$status" -eq 1 ]
	check "${name}_compressed_dump as dump.bin.$suffix: '$tool dump.bin.$suffix'" lines "$err" \
		"error: dump.bin.$suffix: $name-compressed, not a visualize_data.bin container: decompress it first ($tool dump.bin.$suffix); clean_sim_trace reads visualize_data.bin and its gzip form visualize_data.bin.gz"
done
# Invalid UTF-8 and escapes are copied byte for byte (docs/decisions.md).
out_trace="$tmp/string_with_bad_utf8/out/trace.clean.json"
check "string_with_bad_utf8: bad bytes kept" grep -q $'\xff\xfe bad \xc0\xaf overlong' "$out_trace"
check "string_with_bad_utf8: escapes kept" grep -qF '\ud83d\ude00 pair"}}' "$out_trace"
check "string_with_bad_utf8: escaped NUL kept" grep -qF '"name":"A\u0000B"' "$out_trace"
# The run is chosen by the reader, not by the error: --run 1 skips run 2's
# corrupt block unparsed and converts run 1 (SPEC §2.1).
run "$tmp/last_run_trace_truncated" sim -o run1 --no-copy-raw --run 1
check "last_run_trace_truncated: --run 1 converts run 1" [ "$status" -eq 0 ]
check "last_run_trace_truncated: --run 1: its one slice" "$CSIM_CHECK" --expect-slices 1 \
	"$tmp/last_run_trace_truncated/run1/trace.clean.json"
# -0 is zero; of the duplicate "ts" keys the last one wins.
check "odd_numbers: ZERO and DUP kept" grep -qF '"name":"DUP"' "$tmp/odd_numbers/out/trace.clean.json"
check "odd_numbers: -0 kept as written" grep -qF '"name":"ZERO","ph":"X","pid":"p","tid":"MTE2","ts":-0,"dur":-0,' "$tmp/odd_numbers/out/trace.clean.json"

# SPEC §3: only events that would have been kept are warned about; the
# others are counted with the dropped slices, under the rule's reason.
work="$tmp/unplaced_events_dropped_anyway"
run "$work" sim -o out --no-copy-raw
check "unplaced_events_dropped_anyway: counted as dropped" \
	contains "$err" "note: dropped slices: 1 SET/WAIT slices, 1 BAR slices, 1 cache_time/ccu_time slices"$'\n'
run "$work" sim -o kept --no-copy-raw --keep-scalar --keep-cache-ccu
check "unplaced_events_dropped_anyway: kept by the options, so warned about" \
	contains "$err" 'warning: 2 event(s) skipped for missing or bad fields: 2 "dur" not a non-negative number'
check "unplaced_events_dropped_anyway: then only the flag and BAR are dropped" \
	contains "$err" "note: dropped slices: 1 SET/WAIT slices, 1 BAR slices"$'\n'

# A Dtype code beyond any integer is just not 5: that column is split.
check "api_instr_dtype_code_huge: metrics as reviewed" [ "$(cat "$tmp/api_instr_dtype_code_huge/out/instr_metrics.json")" = '{"cores":["a","b"],
"instructions":{
"a":[
{"cycles":1,"gpr_status":[{},{}]}
],
"b":[
{"cycles":2,"gpr_status":[{},{}]}
]},
"column_types":{"Instructions":{"Cycles":1e60,"GPR Status":5}}}' ]

# A key longer than the writer's stack buffer is converted like any other.
long_key="long_key$(printf '_of_many_words%.0s' $(seq 21))"
check "api_instr_long_key: 302-byte key converted" [ "$(cat "$tmp/api_instr_long_key/out/instr_metrics.json")" = '{"cores":["a"],
"instructions":{
"a":[
{"'"$long_key"'":7,"cycles":1}
]},
"column_types":{}}' ]

# A reshape past its bound is refused whole: no file (an older one is
# removed with the set), no figures from the rows read before the bound;
# --raw-metrics still writes the payload byte for byte.
w="$tmp/api_instr_reshape_unbounded"
check "reshape refused: no instr_metrics.json" [ ! -e "$w/out/instr_metrics.json" ]
check "reshape refused: no API_INSTR cycles" contains "$(cat "$w/out/summary.json")" '"cycles":null'
check "reshape refused: no top instructions" contains "$(cat "$w/out/summary.json")" '"top_instructions":null'
echo '{"old":true}' >"$w/out/instr_metrics.json"
run "$w" sim -o out --no-copy-raw
check "reshape refused over an older output: exit 0" [ "$status" -eq 0 ]
check "reshape refused over an older output: the older metrics removed" [ ! -e "$w/out/instr_metrics.json" ]
run "$w" sim -o raw --no-copy-raw --raw-metrics
check "reshape refused, --raw-metrics: exit 0" [ "$status" -eq 0 ]
check "reshape refused, --raw-metrics: says the payload is written" contains "$err" "instr_metrics.json holds the payload as it is (--raw-metrics), and the summary has no API_INSTR figures"
check "reshape refused, --raw-metrics: the payload byte for byte" \
	cmp -s "$w/raw/instr_metrics.json" "$CSIM_ROOT/fixtures/invalid/src/api_instr_reshape_unbounded.json"
check "reshape refused, --raw-metrics: no API_INSTR cycles" contains "$(cat "$w/raw/summary.json")" '"cycles":null'

# A simulator folder whose run died before writing visualize_data.bin.
cp -r "$CSIM_ROOT/fixtures/invalid/no_dump" "$tmp/no_dump"
run "$tmp" no_dump -o out
check "no_dump: exit 1" [ "$status" -eq 1 ]
check "no_dump: says what was looked for, and that trace.json is not the dump" lines "$err" "error: no_dump: no visualize_data.bin found: looked for no_dump/visualize_data.bin(.gz) and no_dump/simulator/visualize_data.bin(.gz); no_dump/simulator/trace.json is the simulator's Chrome trace, not its dump: the converter reads the visualize_data.bin the simulator writes beside it (a run that stopped early leaves none); clean_sim_trace --check no_dump/simulator/trace.json checks the trace itself against the viewer rules"
check "no_dump: nothing written" [ ! -e "$tmp/out" ]

count=$(find "$CSIM_ROOT/fixtures/invalid" -maxdepth 1 -name '*.bin' | wc -l)
check "every invalid fixture has an expectation ($seen of $count)" [ "$seen" -eq "$count" ]
finish
