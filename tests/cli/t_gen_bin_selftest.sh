#!/usr/bin/env bash
# Self-test of the fixture generator tests/tools/gen_bin.c.
#  (a) every committed fixtures/invalid/*.bin is reproduced byte for byte by
#      its reviewed .recipe, so no opaque binary sneaks into the repo;
#  (b) small recipes built here give exactly the header bytes the producer
#      would write (see docs: SPEC.md §2, format-notes.md §1-3).
# Env: CSIM_GEN = built gen_bin, CSIM_ROOT = repository root.
set -euo pipefail

: "${CSIM_GEN:?set CSIM_GEN to the gen_bin executable}"
: "${CSIM_ROOT:?set CSIM_ROOT to the repository root}"

source "$(dirname "$0")/checks.sh"

# The 12 header bytes at offset OFF, as "xx xx ..." on one line.
hdr_at() {
	od -An -tx1 -j "$2" -N 12 "$1" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'
}

# Little-endian hex bytes of a non-negative integer, width 8.
le64() {
	local n=$1 i out=""
	for i in 0 1 2 3 4 5 6 7; do
		out+=$(printf '%02x ' $(((n >> (8 * i)) & 255)))
	done
	echo "${out% }"
}

# The header string gen_bin should write: SIZE TYPE PAD VERSION.
want_hdr() {
	printf '%s %02x %02x %02x 5a' "$(le64 "$1")" "$2" "$3" "$4"
}

# contentSize (u64 LE) of the header at offset OFF of FILE.
size_at() {
	local b i n=0
	read -ra b <<<"$(od -An -tx1 -j "$2" -N 8 "$1")"
	for i in 7 6 5 4 3 2 1 0; do n=$(((n << 8) | 16#${b[$i]})); done
	echo "$n"
}

# Bytes [OFF, OFF+LEN) of FILE on stdout.
slice() {
	dd if="$1" bs=4096 iflag=skip_bytes,count_bytes skip="$2" count="$3" \
		status=none
}

fsize() { wc -c <"$1" | tr -d ' '; }

gen() { "$CSIM_GEN" "$@"; }

# same_bytes FILE OFF LEN REF: bytes [OFF, OFF+LEN) of FILE equal file REF.
same_bytes() { slice "$1" "$2" "$3" | cmp -s - "$4"; }

# regen_matches RECIPE OUT BIN: RECIPE rebuilds BIN exactly.
regen_matches() { gen "$1" "$2" && cmp "$2" "$3"; }

# gunzip_matches GZ PLAIN: GZ decompresses to exactly PLAIN.
gunzip_matches() { gzip -dc "$1" | cmp -s - "$2"; }

# --- (a) committed fixtures are reproducible from their recipes ----------
inv="$CSIM_ROOT/fixtures/invalid"
cases="empty_file eleven_bytes bad_reserve_byte padding_4 padding_exceeds_size
block_past_eof content_size_near_2_64 source_size_overflow trace_not_json
trace_truncated_json trace_events_not_array details_only api_instr_not_json"
for c in $cases; do
	check "fixture $c has a recipe and a bin" \
		test -f "$inv/$c.recipe" -a -f "$inv/$c.bin"
done
mkdir "$tmp/regen"
for r in "$inv"/*.recipe; do
	c=$(basename "$r" .recipe)
	check "fixture $c regenerates byte for byte" \
		regen_matches "$r" "$tmp/regen/$c.bin" "$inv/$c.bin"
done
check "eleven_bytes.bin is 11 bytes" test "$(fsize "$inv/eleven_bytes.bin")" = 11
check "empty_file.bin is 0 bytes" test "$(fsize "$inv/empty_file.bin")" = 0

# --- (b) header layout of small recipes ----------------------------------
w="$tmp/work"
mkdir -p "$w/sub"
# Not a multiple of 4 long (so padding shows), a number whose digits must
# survive, and no trailing newline.
trace='{"displayTimeUnit":"ns","traceEvents":[{"name":"VADD","ph":"X","pid":"core0.veccore0","tid":"VECTOR","ts":4.0289998054504395,"dur":0.027000000700354576}]}'
printf '%s' "$trace" >"$w/sub/t.json"
tlen=${#trace}
tpad=$(((4 - tlen % 4) % 4))
check "test trace needs padding" test "$tpad" -ne 0

# One TRACE block; FILE is relative to the recipe's directory.
printf 'trace sub/t.json\n' >"$w/one.recipe"
gen "$w/one.recipe" "$w/one.bin"
check "trace: header (size $((tlen + tpad)), padding $tpad, 5a 5a)" \
	test "$(hdr_at "$w/one.bin" 0)" = "$(want_hdr $((tlen + tpad)) 2 "$tpad" 0x5a)"
check "trace: file length 12 + contentSize" \
	test "$(fsize "$w/one.bin")" = $((12 + tlen + tpad))
check "trace: payload bytes exact" \
	same_bytes "$w/one.bin" 12 "$tlen" "$w/sub/t.json"
check "trace: padding bytes are zero" \
	test "$(slice "$w/one.bin" $((12 + tlen)) "$tpad" | od -An -tx1 | tr -d ' \n')" \
	= "$(printf '%0*d' $((2 * tpad)) 0)"
check "trace: no OUT.tmp left behind" test ! -e "$w/one.bin.tmp"

# compact drops whitespace outside strings only (escaped quotes included).
printf '{ "traceEvents" : [ { "name" : "a \\" b", "ts" : 1.50 } ] }\n' >"$w/pretty.json"
printf 'trace pretty.json compact\n' >"$w/compact.recipe"
gen "$w/compact.recipe" "$w/compact.bin"
want='{"traceEvents":[{"name":"a \" b","ts":1.50}]}'
check "trace compact: whitespace removed outside strings" \
	test "$(slice "$w/compact.bin" 12 ${#want})" = "$want"

# bare: only the traceEvents array.
printf 'trace sub/t.json bare\n' >"$w/bare.recipe"
gen "$w/bare.recipe" "$w/bare.bin"
bare=${trace#*\"traceEvents\":}
bare=${bare%\}}
check "trace bare: payload is the array" \
	test "$(slice "$w/bare.bin" 12 ${#bare})" = "$bare"

# API_INSTR: version byte 00 by default, overridable.
printf '{"Cores":["core0.veccore0"]}' >"$w/i.json" # 28 bytes, no padding
printf 'instr i.json\ninstr i.json version=0x5a\n' >"$w/instr.recipe"
gen "$w/instr.recipe" "$w/instr.bin"
check "instr: header type 04, version 00" \
	test "$(hdr_at "$w/instr.bin" 0)" = "$(want_hdr 28 4 0 0)"
check "instr version=0x5a: version 5a" \
	test "$(hdr_at "$w/instr.bin" 40)" = "$(want_hdr 28 4 0 0x5a)"

# SOURCE in both framings; 29 bytes of text -> padding 3, contentSize 32.
printf 'int main(void) { return 0; }\n' >"$w/k.cpp"
printf 'source /src/k.cpp k.cpp\n' >"$w/sx.recipe"
printf 'source /src/k.cpp k.cpp framing=inclusive\n' >"$w/si.recipe"
gen "$w/sx.recipe" "$w/sx.bin"
gen "$w/si.recipe" "$w/si.bin"
check "source exclusive: header size 32, padding 3" \
	test "$(hdr_at "$w/sx.bin" 0)" = "$(want_hdr 32 1 3 0x5a)"
check "source exclusive: length 12 + 4096 + size" \
	test "$(fsize "$w/sx.bin")" = $((12 + 4096 + 32))
check "source inclusive: header size 4096 + 32, padding 3" \
	test "$(hdr_at "$w/si.bin" 0)" = "$(want_hdr $((4096 + 32)) 1 3 0x5a)"
check "source inclusive: length 12 + size" \
	test "$(fsize "$w/si.bin")" = $((12 + 4096 + 32))
check "source: path then NUL padding" \
	test "$(slice "$w/sx.bin" 12 10 | od -An -c | tr -d ' \n')" = '/src/k.cpp'
check "source: path area NUL after the path" \
	test "$(slice "$w/sx.bin" 22 4086 | tr -d '\0' | wc -c | tr -d ' ')" = 0
check "source: text right after the path area" \
	same_bytes "$w/sx.bin" $((12 + 4096)) 29 "$w/k.cpp"

# split=3 of 5 events: three TRACE blocks of 1, 2, 2 events.
# Pretty-printed on purpose: event bytes, separators included, must survive.
event() {
	printf '  {"name":"e%d","ph":"X","pid":"p","tid":"t","ts":%d.0289998054504395}' "$1" "$1"
}
{
	printf '{"displayTimeUnit":"ns","profilingType":"op","schemaVersion":2,"traceEvents":[\n'
	for i in 1 2 3 4; do event "$i"; printf ',\n'; done
	event 5
	printf '\n]}\n'
} >"$w/five.json"
printf 'trace five.json split=3\n' >"$w/split.recipe"
gen "$w/split.recipe" "$w/split.bin"
off=0
nblk=0
types=""
while [ "$off" -lt "$(fsize "$w/split.bin")" ]; do
	h=$(hdr_at "$w/split.bin" "$off")
	read -ra hb <<<"$h"
	types+="${hb[8]} "
	sz=$(size_at "$w/split.bin" "$off")
	slice "$w/split.bin" $((off + 12)) $((sz - 16#${hb[9]})) >"$w/split.$nblk.json"
	nblk=$((nblk + 1))
	off=$((off + 12 + sz))
done
check "split=3: three type-2 blocks" test "$types" = "02 02 02 "
check "split=3: blocks end exactly at EOF" test "$off" = "$(fsize "$w/split.bin")"
if command -v python3 >/dev/null 2>&1; then
	check "split=3: each payload is JSON with the top-level keys, events 1/2/2 in order" \
		python3 - "$w"/split.[0-2].json <<'EOF'
import json, sys
names, sizes = [], []
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    assert doc["profilingType"] == "op" and doc["schemaVersion"] == 2, doc
    sizes.append(len(doc["traceEvents"]))
    names += [e["name"] for e in doc["traceEvents"]]
assert sizes == [1, 2, 2], sizes
assert names == ["e1", "e2", "e3", "e4", "e5"], names
EOF
else
	echo "note: python3 not found, skipping the split JSON validity check"
fi
check "split=3: event number bytes kept exactly" \
	grep -q '"ts":5.0289998054504395}' "$w/split.2.json"

# split larger than the event count: some blocks get an empty array.
printf 'trace sub/t.json split=3\n' >"$w/split_empty.recipe"
gen "$w/split_empty.recipe" "$w/split_empty.bin"
check "split=3 of 1 event: first block has an empty traceEvents" \
	grep -q '"traceEvents":\[\]}' "$w/split_empty.bin"

# set, append, truncate.
printf 'text 2 {}\nset size=0xFFFFFFFFFFFFFFF0 reserve=0x41\nappend 0102 ff\nappend-zeros 3\n' \
	>"$w/set.recipe"
gen "$w/set.recipe" "$w/set.bin"
check "set: size and reserve patched" \
	test "$(hdr_at "$w/set.bin" 0)" = "f0 ff ff ff ff ff ff ff 02 02 5a 41"
check "append/append-zeros: bytes at the end" \
	test "$(slice "$w/set.bin" 16 6 | od -An -tx1 | tr -s ' \n' ' ')" = " 01 02 ff 00 00 00 "
printf 'trace sub/t.json\ntruncate -5\n' >"$w/trunc.recipe"
gen "$w/trunc.recipe" "$w/trunc.bin"
check "truncate -5: five bytes shorter" \
	test "$(fsize "$w/trunc.bin")" = $((12 + tlen + tpad - 5))

# gzip: one gzip member that restores the plain file.
printf 'trace sub/t.json\ninstr i.json\ngzip\n' >"$w/gz.recipe"
printf 'trace sub/t.json\ninstr i.json\n' >"$w/plain.recipe"
gen "$w/gz.recipe" "$w/gz.bin"
gen "$w/plain.recipe" "$w/plain.bin"
check "gzip: magic 1f 8b" \
	test "$(od -An -tx1 -N 2 "$w/gz.bin" | tr -d ' \n')" = 1f8b
check "gzip: gzip -dc restores the plain file" \
	gunzip_matches "$w/gz.bin" "$w/plain.bin"

# Errors: RECIPE:LINE message, exit 1; usage exit 2; OUT untouched.
printf '# comment\n\ntrace missing.json\n' >"$w/bad.recipe"
rc=0
gen "$w/bad.recipe" "$w/bad.bin" 2>"$w/bad.err" || rc=$?
check "missing file: exit 1" test "$rc" = 1
check "missing file: message names RECIPE:LINE" \
	grep -q "^gen_bin: $w/bad.recipe:3: " "$w/bad.err"
check "missing file: no output written" test ! -e "$w/bad.bin" -a ! -e "$w/bad.bin.tmp"
printf 'frobnicate 1\n' >"$w/bad2.recipe"
rc=0
gen "$w/bad2.recipe" "$w/bad2.bin" 2>/dev/null || rc=$?
check "unknown directive: exit 1" test "$rc" = 1
printf 'block 2 sub/t.json split=2\n' >"$w/bad3.recipe"
rc=0
gen "$w/bad3.recipe" "$w/bad3.bin" 2>/dev/null || rc=$?
check "option not valid for the directive: exit 1" test "$rc" = 1
rc=0
gen "$w/one.recipe" 2>/dev/null || rc=$?
check "usage: exit 2" test "$rc" = 2

finish
