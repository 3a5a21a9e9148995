#!/usr/bin/env bash
# Hostile structures (issue #4): each case is built here (some are too big to
# commit) and must end in a clear error or the documented tolerant
# behaviour (docs/robustness.md), never a crash or a hang.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

X='{"dur":0.5,"name":"OK","ph":"X","pid":"p","tid":"VECTOR","ts":1}'

# dump NAME PAYLOAD_FILE: a one-TRACE-block dump in $tmp/NAME/sim.
dump() {
	mkdir -p "$tmp/$1/sim"
	printf 'block 2 %s\n' "$2" >"$tmp/$1/r.recipe"
	"$CSIM_GEN" "$tmp/$1/r.recipe" "$tmp/$1/sim/visualize_data.bin"
}

repeat() { head -c "$2" /dev/zero | tr '\0' "$1"; }

# 1. args nested 100 000 levels: that event is skipped and counted.
{ printf '{"traceEvents":[{"args":{"a":'; repeat '[' 100000; repeat ']' 100000
  printf '},"dur":1,"name":"DEEP","ph":"X","pid":"p","tid":"VECTOR","ts":3},%s]}' "$X"; } >"$tmp/deep.json"
dump deep "$tmp/deep.json"
run "$tmp/deep" sim -o out --no-copy-raw
check "deep nesting: exit 0" [ "$status" -eq 0 ]
check "deep nesting: skipped and counted" contains "$err" "1 values nested deeper than 512 levels"
check "deep nesting: the rest converts" "$CSIM_CHECK" --disjoint --expect-slices 1 "$tmp/deep/out/trace.clean.json"

# 2. a 100 MB string inside args: copied through.
{ printf '{"traceEvents":[{"args":{"code":"'; repeat 'x' 100000000
  printf '"},"dur":1,"name":"BIG","ph":"X","pid":"p","tid":"VECTOR","ts":3}]}'; } >"$tmp/big.json"
dump big "$tmp/big.json"
rm -f "$tmp/big.json"
run "$tmp/big" sim -o out --no-copy-raw
check "100 MB string: exit 0" [ "$status" -eq 0 ]
check "100 MB string: copied whole" [ "$(stat -c %s "$tmp/big/out/trace.clean.json")" -gt 100000000 ]
rm -rf "$tmp/big"

# 3. a raw NUL byte inside a string is not JSON.
printf '{"traceEvents":[{"name":"A\0B","ph":"X","pid":"p","tid":"VECTOR","ts":1}]}' >"$tmp/nul.json"
dump nul "$tmp/nul.json"
run "$tmp/nul" sim -o out
check "raw NUL: exit 1" [ "$status" -eq 1 ]
check "raw NUL: reason and byte" contains "$err" "TRACE block at offset 0: payload byte 26: control character in string"

# 4. escaped NUL and invalid UTF-8 are passed through byte for byte.
printf '{"traceEvents":[{"args":{"detail":"\xff\xfe bad"},"dur":1,"name":"A\\u0000B","ph":"X","pid":"p","tid":"VECTOR","ts":1}]}' >"$tmp/utf.json"
dump utf "$tmp/utf.json"
run "$tmp/utf" sim -o out --no-copy-raw
check "bad UTF-8: exit 0" [ "$status" -eq 0 ]
check "bad UTF-8: bytes kept" grep -q $'\xff\xfe bad' "$tmp/utf/out/trace.clean.json"
check "escaped NUL: kept escaped" grep -qF '"name":"A\u0000B"' "$tmp/utf/out/trace.clean.json"

# 5. odd numbers: 1e999 and 1e20 are out of range, -0 is zero, a negative
#    dur is bad, duplicate keys keep the last one.
printf '{"traceEvents":[%s,%s,%s,%s,%s]}' \
	'{"dur":1,"name":"INF","ph":"X","pid":"p","tid":"MTE2","ts":1e999}' \
	'{"dur":1,"name":"HUGE","ph":"X","pid":"p","tid":"MTE2","ts":1e20}' \
	'{"dur":-0,"name":"ZERO","ph":"X","pid":"p","tid":"MTE2","ts":-0}' \
	'{"dur":-1,"name":"NEG","ph":"X","pid":"p","tid":"MTE2","ts":2}' \
	'{"dur":1,"name":"DUP","ph":"X","pid":"p","tid":"MTE2","ts":"x","ts":3}' >"$tmp/num.json"
dump num "$tmp/num.json"
run "$tmp/num" sim -o out --no-copy-raw
check "numbers: exit 0" [ "$status" -eq 0 ]
check "numbers: counted" contains "$err" "3 event(s) skipped for missing or bad fields: 1 \"dur\" not a non-negative number, 2 \"ts\"/\"dur\" out of range"
check "numbers: -0 and the last duplicate kept" "$CSIM_CHECK" --disjoint --expect-slices 2 "$tmp/num/out/trace.clean.json"
printf '{"traceEvents":[{"name":"N","ph":"X","pid":"p","tid":"MTE2","ts":NaN}]}' >"$tmp/nan.json"
dump nan "$tmp/nan.json"
run "$tmp/nan" sim -o out
check "NaN token: exit 1" [ "$status" -eq 1 ]
check "NaN token: reason" contains "$err" "payload byte 65: expected a JSON value"

# 6. a million SET/WAIT flags on one key (no ids): FIFO pairs them all.
{ printf '{"traceEvents":[{"dur":0.001,"name":"L","ph":"X","pid":"p","tid":"MTE2","ts":0.5},'
  printf '{"dur":0.001,"name":"V","ph":"X","pid":"p","tid":"VECTOR","ts":300000}'
  awk 'BEGIN { for (i = 0; i < 250000; i++) {
	printf ",{\"args\":{\"detail\":\"PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:1,\"},\"name\":\"SET_FLAG\",\"ph\":\"B\",\"pid\":\"p\",\"tid\":\"MTE2\",\"ts\":%d}", i + 1
	printf ",{\"name\":\"SET_FLAG\",\"ph\":\"E\",\"pid\":\"p\",\"tid\":\"MTE2\",\"ts\":%d.001}", i + 1
	printf ",{\"args\":{\"detail\":\"PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:1,\"},\"name\":\"WAIT_FLAG\",\"ph\":\"B\",\"pid\":\"p\",\"tid\":\"VECTOR\",\"ts\":%d}", i + 2
	printf ",{\"name\":\"WAIT_FLAG\",\"ph\":\"E\",\"pid\":\"p\",\"tid\":\"VECTOR\",\"ts\":%d.5}", i + 2 } }'
  printf ']}'; } >"$tmp/flags.json"
dump flags "$tmp/flags.json"
SECONDS=0
run "$tmp/flags" sim -o out --no-copy-raw
check "10^6 flag records on one key: exit 0" [ "$status" -eq 0 ]
check "10^6 flag records on one key: 250000 arrows" "$CSIM_CHECK" --disjoint --expect-arrows 250000 "$tmp/flags/out/trace.clean.json"
check "10^6 flag records on one key: under 60 s (took ${SECONDS}s)" [ "$SECONDS" -lt 60 ]
rm -rf "$tmp/flags" "$tmp/flags.json"

# 7. a SOURCE path without a NUL in its 4096 bytes, and 10 000 tiny blocks
#    and blocks of type 0 and 255 before the TRACE: all skipped.
mkdir -p "$tmp/blocks/sim"
printf '%s' "{\"traceEvents\":[$X]}" >"$tmp/one.json"
{ repeat a 4096; echo "int kernel;"; } >"$tmp/source_no_nul"
{ echo "block 1 $tmp/source_no_nul"
  for i in $(seq 10000); do echo "text 5 {}"; done
  echo "text 0 junk"; echo "text 255 junk"; echo "block 2 $tmp/one.json"; } >"$tmp/blocks/r.recipe"
check "odd blocks: generated" "$CSIM_GEN" "$tmp/blocks/r.recipe" "$tmp/blocks/sim/visualize_data.bin"
run "$tmp/blocks" sim -o out --no-copy-raw
check "odd blocks: exit 0" [ "$status" -eq 0 ]
check "odd blocks: the TRACE converts" "$CSIM_CHECK" --disjoint --expect-slices 1 "$tmp/blocks/out/trace.clean.json"

# 8. a TRACE block claiming 5 GiB in a sparse file: rejected at its first byte.
mkdir -p "$tmp/sparse/sim"
printf '\x00\x00\x00\x40\x01\x00\x00\x00\x02\x00\x5a\x5a' >"$tmp/sparse/sim/visualize_data.bin"
truncate -s $((12 + 5 * 1024 * 1024 * 1024)) "$tmp/sparse/sim/visualize_data.bin"
SECONDS=0
run "$tmp/sparse" sim -o out
check "5 GiB sparse block: exit 1" [ "$status" -eq 1 ]
check "5 GiB sparse block: reason" contains "$err" "TRACE block at offset 0: payload byte 0: TRACE payload is neither an object nor an array"
check "5 GiB sparse block: fast (${SECONDS}s)" [ "$SECONDS" -lt 10 ]
finish
