#!/usr/bin/env bash
# Every fixtures/invalid/*.bin: exit 1, a message naming the file, the block
# offset and the reason, and no output file left behind (nor an older one
# touched).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# case | text the error message must contain
expect=$(cat <<'TABLE'
empty_file|no TRACE block: the file is empty
eleven_bytes|no TRACE block
bad_reserve_byte|corrupt block at offset 0: reserve byte is 0x41, expected 0x5a
padding_4|corrupt block at offset 296: padding 4 is larger than 3
padding_exceeds_size|corrupt block at offset 0: padding 3 is larger than the content size 2
block_past_eof|corrupt block at offset 0: block of 1296 bytes runs past the end of the file (296 bytes left)
content_size_near_2_64|corrupt block at offset 296: content size 18446744073709551600 overflows
source_size_overflow|corrupt block at offset 296: SOURCE block size 18446744073709547520 overflows
trace_not_json|TRACE block at offset 0: payload byte 0: TRACE payload is neither an object nor an array
trace_truncated_json|TRACE block at offset 0: payload byte 381: unexpected end of JSON text
trace_events_not_array|TRACE block at offset 0: payload byte 15: traceEvents is not an array
details_only|no TRACE block (only simulator dumps carry a timeline
api_instr_not_json|API_INSTR block at offset 296: unexpected end of JSON text at payload byte 10
gzip_block_past_eof|corrupt block at offset 0: block of 296 bytes runs past the end of the file
gzip_stream_truncated|corrupt gzip data near offset 281: unexpected end of file
gzip_huge_block_size|corrupt block at offset 0: block of 1099511627788 bytes runs past the end of the file
source_inclusive_size_wraps|corrupt block at offset 0: block of 8204 bytes runs past the end of the file (4404 bytes left)
TABLE
)

seen=0
while IFS='|' read -r name text; do
	bin="$CSIM_ROOT/fixtures/invalid/$name.bin"
	seen=$((seen + 1))
	work="$tmp/$name"
	mkdir -p "$work/sim" "$work/old"
	cp "$bin" "$work/sim/visualize_data.bin"
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

{
	run "$tmp/eleven_bytes" sim -o x
	check "eleven_bytes: trailing-bytes warning" contains "$err" \
		"warning: sim/visualize_data.bin: 11 trailing byte(s) at offset 0 ignored"
}
# A simulator folder whose run died before writing visualize_data.bin.
cp -r "$CSIM_ROOT/fixtures/invalid/no_dump" "$tmp/no_dump"
run "$tmp" no_dump -o out
check "no_dump: exit 1" [ "$status" -eq 1 ]
check "no_dump: says what was looked for" [ "$err" = "error: no_dump: no visualize_data.bin found: looked for no_dump/visualize_data.bin and no_dump/simulator/visualize_data.bin" ]
check "no_dump: nothing written" [ ! -e "$tmp/out" ]

count=$(find "$CSIM_ROOT/fixtures/invalid" -maxdepth 1 -name '*.bin' | wc -l)
check "every invalid fixture has an expectation ($seen of $count)" [ "$seen" -eq "$count" ]
finish
