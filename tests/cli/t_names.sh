#!/usr/bin/env bash
# What the summaries say of the dump and its run (docs/summary.md):
#   - summary.json's "input" and summary.html's title and heading name the
#     dump as it was given (a folder, a folder with a trailing slash, an
#     absolute path, a gzip file, a path with markup and quotes in it), with
#     its size on disk; the op name first when OP_BASIC_INFO has one; once
#     for --run all;
#   - "clock unknown" says why, one reason per way the clock can be missing
#     (no API_INSTR, counts that never match the slices, pipes that
#     disagree, a value no simulator clock, --window), in the table and on
#     the page; a clock that is derived says so;
#   - OP_BASIC_INFO's duration is shown in µs on the page when it is a number.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_HTML:?set CSIM_HTML to the html_facts executable}"

# One core: MTE2 1 µs at 1.0, VECTOR 0.5 µs at 2.0.
cat >"$tmp/trace.json" <<'JSON'
{"traceEvents":[
{"name":"MOV","ph":"X","pid":"core0.veccore0","tid":"MTE2","ts":1.0,"dur":1.0,"args":{}},
{"name":"VADD","ph":"X","pid":"core0.veccore0","tid":"VECTOR","ts":2.0,"dur":0.5,"args":{}}
]}
JSON

# instr NAME MTE2_CYCLES MTE2_EXECUTED VECTOR_CYCLES: an API_INSTR of two rows.
instr() {
	printf '{"Cores":["core0.veccore0"],"Instructions":[\n{"Address":"0x100","Cycles":[%s],"Instructions Executed":[%s],"Pipe":"MTE2","Source":"MOV"},\n{"Address":"0x104","Cycles":[%s],"Instructions Executed":[1],"Pipe":"VEC","Source":"VADD"}\n]}\n' \
		"$2" "$3" "$4" >"$tmp/$1.instr.json"
}

# dump NAME RECIPE_LINES...: $tmp/NAME/sim/visualize_data.bin from the lines.
dump() {
	local name=$1
	shift
	mkdir -p "$tmp/$name/sim"
	printf '%s\n' "trace $tmp/trace.json" "$@" >"$tmp/$name/recipe"
	"$CSIM_GEN" "$tmp/$name/recipe" "$tmp/$name/sim/visualize_data.bin"
}

# page_row NAME TH: the text of the page's facts row TH.
page_row() {
	sed -n "s|^<tr><th>$2</th><td>\\(.*\\)</td></tr>\$|\\1|p" "$tmp/$1/out/summary.html"
}

# --- why the clock is unknown -------------------------------------------------
# MTE2 1850 cycles in its 1 µs and VECTOR 925 in its 0.5 µs: both 1850 MHz,
# a simulator clock: derived. 1000 and 500: both 1000 MHz, no simulator
# clock. 1850 and 500: 1850 against 1000 MHz. MTE2 executed twice for its
# one slice and no VECTOR row: no pipe to derive it from. The derived
# dump under --window: not derived.
instr derived 1850 1 925
instr notsim 1000 1 500
instr disagree 1850 1 500
printf '{"Cores":["core0.veccore0"],"Instructions":[\n{"Address":"0x100","Cycles":[1850],"Instructions Executed":[2],"Pipe":"MTE2","Source":"MOV"}\n]}\n' \
	>"$tmp/nomatch.instr.json"
dump noinstr
for k in derived notsim disagree nomatch; do
	dump "$k" "instr $tmp/$k.instr.json version=0"
done
mkdir -p "$tmp/window"
cp -r "$tmp/derived/sim" "$tmp/window/"

# clock NAME WANT [ARGS...]: the table's clock line and the page's clock row.
clock() {
	local name=$1 want=$2
	shift 2
	run "$tmp/$name" sim -o out --no-copy-raw "$@"
	check "$name: exit 0" [ "$status" -eq 0 ]
	check "$name: the table says: $want" contains "$out" $'\n'"$want"$'\n'
	check "$name: the page says the same" [ "$(page_row "$name" clock)" = "${want#clock }" ]
	check "$name: table within 80 columns" [ -z "$(awk 'length > 80' <<<"$out")" ]
}
clock noinstr "clock unknown: no OP_BASIC_INFO, no API_INSTR cycles to derive it from"
clock derived "clock 1850 MHz (derived)"
clock notsim "clock unknown: no OP_BASIC_INFO; API_INSTR cycles/slice time: no simulator clock"
check "notsim: the API_INSTR cycles the line speaks of are printed below it" \
	contains "$out" "API_INSTR cycles: MTE2 1000, VECTOR 500"
clock disagree "clock unknown: no OP_BASIC_INFO; API_INSTR cycles/slice time differ by pipe"
clock nomatch "clock unknown: no OP_BASIC_INFO; no pipe's API_INSTR executions equal its slices"
clock window "clock unknown: no OP_BASIC_INFO; not derived under --window (whole-run cycles)" \
	--window 0:10

# --- the dump named -------------------------------------------------------------
# No op name in OP_BASIC_INFO, a numeric duration: µs on the page.
printf '{"soc":"Ascend910B1","duration":"2.5","block_dim":"1","cur_freq":"1850"}\n' >"$tmp/noname.json"
dump noname "block 5 $tmp/noname.json"
run "$tmp/noname" sim/ -o out --no-copy-raw
check "noname: exit 0" [ "$status" -eq 0 ]
names_dump "noname (PATH sim/)" "$tmp/noname/out" sim/visualize_data.bin "$tmp/noname/sim/visualize_data.bin"
check "noname: the header says OP_BASIC_INFO names no op" grep -qF \
	"<header><h1>sim/visualize_data.bin</h1><p>$(stat -c %s "$tmp/noname/sim/visualize_data.bin") bytes, no op name in its OP_BASIC_INFO; summary of run 1 of 1</p></header>" \
	"$tmp/noname/out/summary.html"
check "noname: the page gives the duration in µs, to the ns" [ "$(page_row noname duration)" = "2.500 µs" ]
check "noname: block_dim has no unit" [ "$(page_row noname block_dim)" = 1 ]
# The producer writes numbers as strings ("2.5", "1"): summary.json gives
# them as numbers, as written (docs/summary.md, "run").
check "noname: summary.json gives the duration, block_dim and cur_freq as numbers" \
	grep -qF '"duration":2.5,"cur_freq":1850' "$tmp/noname/out/summary.json"
check "noname: ... block_dim too" grep -qF '"block_dim":1,' "$tmp/noname/out/summary.json"

# An op name, a duration that is no number (shown as written), a path with
# markup and quotes, given absolute.
printf '{"name":"add<&>","soc":"Ascend910B1","duration":"n/a"}\n' >"$tmp/named.json"
dump named "block 5 $tmp/named.json"
odd="$tmp/named/a&b <\"c\">"
mv "$tmp/named/sim" "$odd"
mkdir -p "$tmp/named/out"
run "$tmp/named" "$odd/visualize_data.bin" -o out --no-copy-raw
check "named: exit 0" [ "$status" -eq 0 ]
names_dump "named (absolute, odd path)" "$tmp/named/out" "$odd/visualize_data.bin" "$odd/visualize_data.bin"
check "named: the title is escaped" grep -qF \
	"<title>add&lt;&amp;&gt; — $(sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g' <<<"$odd")/visualize_data.bin — clean_sim_trace summary</title>" \
	"$tmp/named/out/summary.html"
check "named: no raw markup of the path" eval '! grep -qF "<\"c\">" "$tmp/named/out/summary.html"'
check "named: a duration that is no number has no unit" [ "$(page_row named duration)" = "n/a" ]
check "named: ... and stays a string in summary.json" grep -qF '"duration":"n/a"' "$tmp/named/out/summary.json"

# gzip: the file on disk, said to be gzip.
mkdir -p "$tmp/gz"
gzip -c "$tmp/noinstr/sim/visualize_data.bin" >"$tmp/gz/dump.bin.gz"
run "$tmp/gz" dump.bin.gz -o out --no-copy-raw
check "gzip: exit 0" [ "$status" -eq 0 ]
names_dump "gzip" "$tmp/gz/out" dump.bin.gz "$tmp/gz/dump.bin.gz"
check "gzip: the header says so" grep -qF \
	"<p>$(stat -c %s "$tmp/gz/dump.bin.gz") bytes (gzip), no OP_BASIC_INFO: no op name;" "$tmp/gz/out/summary.html"

# --run all: the dump is named once, before the runs.
dump runs "block 5 $tmp/named.json" "trace $tmp/trace.json"
run "$tmp/runs" sim --run all -o out --no-copy-raw
check "--run all: exit 0" [ "$status" -eq 0 ]
names_dump "--run all" "$tmp/runs/out" sim/visualize_data.bin "$tmp/runs/sim/visualize_data.bin"
check "--run all: input once, before the runs" \
	[ "$(head -n 3 "$tmp/runs/out/summary.json" | sed -n '2s/^"input":.*/input/p;3s/^"runs":\[$/runs/p' | tr '\n' ' ')" = "input runs " ]
check "--run all: input once" [ "$(grep -c '"input":' "$tmp/runs/out/summary.json")" -eq 1 ]
finish
