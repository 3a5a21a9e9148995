#!/usr/bin/env bash
# Hostile structures too big to commit, built here: each must end
# in a clear error or the documented tolerant behaviour (docs/robustness.md),
# never a crash or a hang. The small ones are fixtures in fixtures/invalid/
# (t_invalid).
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

# 3. a million SET/WAIT flags on one key (no ids): FIFO pairs them all.
{ printf '{"traceEvents":[{"dur":0.001,"name":"L","ph":"X","pid":"p","tid":"MTE2","ts":0.5},'
  printf '{"dur":0.001,"name":"V","ph":"X","pid":"p","tid":"VECTOR","ts":300000}'
  awk 'BEGIN { for (i = 0; i < 250000; i++) {
	printf ",{\"args\":{\"detail\":\"PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:1,\"},\"name\":\"SET_FLAG\",\"ph\":\"B\",\"pid\":\"p\",\"tid\":\"MTE2\",\"ts\":%d}", i + 1
	printf ",{\"name\":\"SET_FLAG\",\"ph\":\"E\",\"pid\":\"p\",\"tid\":\"MTE2\",\"ts\":%d.001}", i + 1
	printf ",{\"args\":{\"detail\":\"PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:1,\"},\"name\":\"WAIT_FLAG\",\"ph\":\"B\",\"pid\":\"p\",\"tid\":\"VECTOR\",\"ts\":%d}", i + 2
	printf ",{\"name\":\"WAIT_FLAG\",\"ph\":\"E\",\"pid\":\"p\",\"tid\":\"VECTOR\",\"ts\":%d.5}", i + 2 } }'
  printf ']}'; } >"$tmp/flags.json"
dump flags "$tmp/flags.json"
timed run "$tmp/flags" sim -o out --no-copy-raw
check "10^6 flag records on one key: exit 0" [ "$status" -eq 0 ]
check "10^6 flag records on one key: 250000 arrows" "$CSIM_CHECK" --disjoint --expect-arrows 250000 "$tmp/flags/out/trace.clean.json"
check "10^6 flag records on one key: under 60 CPU s (took ${cpu} s)" below 60
rm -rf "$tmp/flags" "$tmp/flags.json"

# 4. 10 000 tiny blocks before the TRACE: skipped.
mkdir -p "$tmp/blocks/sim"
printf '%s' "{\"traceEvents\":[$X]}" >"$tmp/one.json"
{ for i in $(seq 10000); do echo "text 5 {}"; done
  echo "block 2 $tmp/one.json"; } >"$tmp/blocks/r.recipe"
check "tiny blocks: generated" "$CSIM_GEN" "$tmp/blocks/r.recipe" "$tmp/blocks/sim/visualize_data.bin"
run "$tmp/blocks" sim -o out --no-copy-raw
check "tiny blocks: exit 0" [ "$status" -eq 0 ]
check "tiny blocks: the TRACE converts" "$CSIM_CHECK" --disjoint --expect-slices 1 "$tmp/blocks/out/trace.clean.json"

# 5. a TRACE block claiming 5 GiB in a sparse file: rejected at its first byte,
#    before anything is sized by it (under ASan a reservation took 12 s).
mkdir -p "$tmp/sparse/sim"
printf '\x00\x00\x00\x40\x01\x00\x00\x00\x02\x00\x5a\x5a' >"$tmp/sparse/sim/visualize_data.bin"
truncate -s $((12 + 5 * 1024 * 1024 * 1024)) "$tmp/sparse/sim/visualize_data.bin"
timed run "$tmp/sparse" sim -o out
check "5 GiB sparse block: exit 1" [ "$status" -eq 1 ]
check "5 GiB sparse block: reason" contains "$err" "TRACE block at offset 0: payload byte 0: TRACE payload is neither an object nor an array"
check "5 GiB sparse block: fast, nothing reserved for it (${cpu} CPU s)" below 5
finish
