#!/usr/bin/env bash
# --compare BASE NEW (SPEC §14, docs/compare.md): generated pairs whose
# change is known by construction (gen_path --slower LANE doubles one
# pipe's durations and simulates the kernel again), identical results,
# a batch pair (one dump slower, one removed, one added); compare.json
# rechecked from the two summaries by compare_recheck (cJSON, no code of
# the converter's); every table line within 80 columns; the gate's exit 4;
# the errors of a side that cannot be read and of a bad command line.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_GENPATH:?set CSIM_GENPATH to the gen_path executable}"
: "${CSIM_CMPCHECK:?set CSIM_CMPCHECK to the compare_recheck executable}"

# kernel SHAPE SEED DIR [--slower LANE]: a generated dump DIR/sim/visualize_data.bin.
kernel() {
	local shape=$1 seed=$2 dir=$3
	shift 3
	mkdir -p "$dir/sim"
	"$CSIM_GENPATH" "$shape" "$seed" "$dir" "$@" >/dev/null
	"$CSIM_GEN" "$dir/dump.recipe" "$dir/sim/visualize_data.bin"
}

# narrow TEXT: every line of the table within 80 columns ("wrote" lines are paths).
# awk counts bytes: the one wide character the table writes, '…', counts as one.
narrow() { ! sed 's/…/./g' <<<"$1" | awk '!/^wrote / && length($0) > 80 { bad = 1 } END { exit !bad }'; }

# --- the same kernel with MTE2 made twice as slow ---------------------------
kernel mix 8 "$tmp/g/base"
kernel mix 8 "$tmp/g/new" --slower MTE2
run "$tmp/g/base" sim -o out -q --no-copy-raw
run "$tmp/g/new" sim -o out -q --no-copy-raw
B=$tmp/g/base/out
N=$tmp/g/new/out
truth_span() { sed -n 's/.*"core":"core0.cubecore0","span_ns":\([0-9]*\).*/\1/p' "$1/truth.json"; }
tb=$(truth_span "$tmp/g/base")
tn=$(truth_span "$tmp/g/new")
check "generator: MTE2 twice as slow lengthens the cube core ($tb -> $tn ns)" [ "${tn:-0}" -gt "${tb:-0}" ]

run "$tmp" --compare "$B" "$N" -o "$tmp/cmp"
check "one pipe slower: exit 0 without a threshold ($err)" [ "$status" -eq 0 ]
check "one pipe slower: wrote compare.json first" contains "$out" "wrote $tmp/cmp/compare.json"
check "one pipe slower: within 80 columns" narrow "$out"
us() { awk -v n="$1" 'BEGIN { printf "%.3f", n / 1000 }'; }
check "one pipe slower: the kernel's span as generated ($tb -> $tn ns)" contains "$out" \
	"$(printf '  %-28s %11s %11s' "kernel (slowest core)" "$(us "$tb")" "$(us "$tn")")"
check "one pipe slower: MTE2's busy time doubled" \
	grep -Eq '^  MTE2 +[0-9.]+ +[0-9.]+ +\+100\.0 %' <<<"$out"
check "one pipe slower: CUBE's unchanged" grep -Eq '^  CUBE +[0-9.]+ +[0-9.]+ +\+0\.0 %' <<<"$out"
check "one pipe slower: compare.json rechecked from the two summaries" \
	"$CSIM_CMPCHECK" "$B/summary.json" "$N/summary.json" "$tmp/cmp/compare.json"
html=$(cat "$tmp/cmp/compare.html")
check "compare.html: written, after compare.json" contains "$out" \
	"wrote $tmp/cmp/compare.json"$'\n'"wrote $tmp/cmp/compare.html"
check "compare.html: self-contained (no src or href out of the page)" \
	[ -z "$(grep -oE '(src|href)="[^#][^"]*"' <<<"$html")" ]
check "compare.html: the two timelines of the slowest core" \
	[ "$(grep -c '^<h3>\(base\|new\): core0.cubecore0</h3>$' <<<"$html")" -eq 2 ]
check "compare.html: a row per pipe of each side's timeline" \
	[ "$(grep -o '<g><text x="112" y="[0-9]*">MTE2</text>' <<<"$html" | wc -l)" -eq 2 ]
check "compare.html: one time scale, the longer span's ($tn ns)" \
	[ "$(grep -o "$(us "$tn") µs</text>" <<<"$html" | wc -l)" -eq 2 ]
check "compare.html: MTE2's change as a bar" \
	grep -q '<td class="up">+100.0 %</td><td class="l"><i class="bar up"><i style="width:110px">' <<<"$html"
# what_if: one line per entry, the array's last ending in "}]"
nw=$(awk '/^"what_if":\[/ { on = 1; next } on && /^\{"pipe":/ { n++ } on && /\}\]/ { exit }
	END { print n + 0 }' "$tmp/cmp/compare.json")
check "compare.html: a what-if row per entry of compare.json's what_if ($nw)" \
	[ "$nw" -gt 0 -a "$(grep -o '<tr class="whatif">' <<<"$html" | wc -l)" -eq "$nw" ]
wi=$(sed -n '/^the kernel with one pipe 2x faster/,/^$/p' <<<"$out")
check "one pipe slower: the kernel's what-if on each side in the table" \
	grep -Eq '^  MTE2 +-[0-9]+ % +-[0-9]+ %$' <<<"$wi"

run "$tmp" --compare "$B" "$N" --fail-if-slower 5 -o "$tmp/cmp5" -q
check "gate 5 %: exit 4" [ "$status" -eq 4 ]
check "gate 5 %: nothing on stdout with -q" [ -z "$out" ]
check "gate 5 %: counts the spans" contains "$err" "error: slower than 5 % in 4 span(s), each on a line above"
check "gate 5 %: the kernel on a line of its own" grep -qF "slower: kernel (slowest core) $tb -> $tn ns (" <<<"$err"
check "gate 5 %: a line per span" [ "$(grep -c '^slower: ' <<<"$err")" -eq 4 ]
check "gate 5 %: then the error" [ "$(printf %s "$err" | tail -n 1 | cut -c1-7)" = "error: " ]
check "gate 5 %: names each core" grep -q '^slower: core0.veccore1 ' <<<"$err"
check "gate 5 %: compare.json's slower list rechecked" \
	"$CSIM_CMPCHECK" "$B/summary.json" "$N/summary.json" "$tmp/cmp5/compare.json" 5
run "$tmp" --compare "$B" "$N" --fail-if-slower 200
check "gate 200 %: exit 0 (the kernel grew less)" [ "$status" -eq 0 ]
run "$tmp" --compare "$N" "$B" --fail-if-slower 0
check "faster: exit 0 under a threshold of 0" [ "$status" -eq 0 ]
check "faster: MTE2's busy time halved" grep -Eq '^  MTE2 +[0-9.]+ +[0-9.]+ +-50\.0 %' <<<"$out"

# --- identical results: every change 0, exit 0 under any threshold --------
run "$tmp" --compare "$B" "$B/summary.json" --fail-if-slower 0 -o "$tmp/same"
check "identical: exit 0 at 0 %" [ "$status" -eq 0 ]
check "identical: no change but +0.0 %" [ -z "$(grep -E '[+-][1-9][0-9]*\.[0-9] %|[+-]0\.[1-9] %' <<<"$out")" ]
check "identical: no instruction, line or diagnosis listed" \
	[ -z "$(grep -E 'moved most|diagnosis lines' <<<"$out")" ]
check "identical: rechecked" "$CSIM_CMPCHECK" "$B/summary.json" "$B/summary.json" "$tmp/same/compare.json" 0
check "identical: every change_ns 0" [ -z "$(grep -oE '"change(_ns)?":-?[1-9][0-9]*' "$tmp/same/compare.json")" ]

# --- a demo with API_INSTR: instructions and diagnosis -------------------
run "$tmp" "$CSIM_ROOT/fixtures/demo/OPPROF_demo" -o "$tmp/demo" -q --no-copy-raw
sed -e 's/"cycles":993/"cycles":1993/' -e 's/"id":"near_empty"/"id":"transfer_bound"/' \
	"$tmp/demo/summary.json" >"$tmp/demo_edit.json"
run "$tmp" --compare "$tmp/demo" "$tmp/demo_edit.json" -o "$tmp/demo_cmp"
check "edited demo: exit 0" [ "$status" -eq 0 ]
check "edited demo: the instruction whose cycles moved, its source line under it" \
	contains "$out" "$(printf '  %9s %9s %9s  %s\n%33s%s' 993 1993 +1000 MOV_OUT_TO_L1_MULTI_ND2NZ "" \
		matmul_leakyrelu.cpp:18)"
check "edited demo: the rule that appeared and the one that went away" \
	[ "$(grep -cE '^(\+ new|- gone): ' <<<"$out")" -eq 2 ]
check "edited demo: within 80 columns" narrow "$out"
check "edited demo: rechecked" "$CSIM_CMPCHECK" "$tmp/demo/summary.json" "$tmp/demo_edit.json" \
	"$tmp/demo_cmp/compare.json"

# --- every instruction, not only the top ten --------------------------------
# summary.json's "instructions" lists every row with cycles: rows far below
# the top ten are compared too, by mnemonic and line. By hand: 12 rows VX1..12
# of 1 cycle each on both sides but VX12 (1 -> 5); VGONE only in BASE, VNEW
# only in NEW; the demo's own rows the same. So the instructions that moved
# are VX12 (+4), VGONE (1 -> none), VNEW (none -> 1); the lines extra.cpp:12
# (+4), gone.cpp:1 and new.cpp:1; nothing else.
extra() {   # extra VX12_CYCLES LAST_NAME LAST_LINE
	for i in $(seq 1 12); do
		printf '  {"address":"0x9%02d","pipe":"VECTOR","mnemonic":"VX%d","source":"extra.cpp:%d","cycles":%d},\n' \
			"$i" "$i" "$i" "$([ "$i" -eq 12 ] && echo "$1" || echo 1)"
	done
	printf '  {"address":"0x999","pipe":"VECTOR","mnemonic":"%s","source":"%s","cycles":1},\n' "$2" "$3"
}
{ sed -n '1,/^"instructions":\[$/p' "$tmp/demo/summary.json"; extra 1 VGONE gone.cpp:1
  sed -n '/^"instructions":\[$/,$p' "$tmp/demo/summary.json" | tail -n +2; } >"$tmp/rows_base.json"
{ sed -n '1,/^"instructions":\[$/p' "$tmp/demo/summary.json"; extra 5 VNEW new.cpp:1
  sed -n '/^"instructions":\[$/,$p' "$tmp/demo/summary.json" | tail -n +2; } >"$tmp/rows_new.json"
run "$tmp" --compare "$tmp/rows_base.json" "$tmp/rows_new.json" -o "$tmp/rows_cmp"
check "every instruction: exit 0" [ "$status" -eq 0 ]
check "every instruction: compare.json says so" grep -q '"items_complete":true' "$tmp/rows_cmp/compare.json"
items=$(sed -n '/^"instructions":\[/,/\],$/p' "$tmp/rows_cmp/compare.json" | grep -o '"mnemonic":"[^"]*"' | tr '\n' ' ' || true)
check "every instruction: VX12, then VGONE and VNEW, nothing else" \
	[ "$items" = '"mnemonic":"VX12" "mnemonic":"VGONE" "mnemonic":"VNEW" ' ]
check "every instruction: VX12 from 1 to 5" \
	grep -qF '{"mnemonic":"VX12","address":"0x912","source":"extra.cpp:12","cycles":[1,5],"change":4}' "$tmp/rows_cmp/compare.json"
lines=$(sed -n '/^"source_lines":\[/,/\],$/p' "$tmp/rows_cmp/compare.json" | grep -o '"source":"[^"]*"' | sort | tr '\n' ' ' || true)
check "every line: extra.cpp:12, gone.cpp:1 and new.cpp:1 only" \
	[ "$lines" = '"source":"extra.cpp:12" "source":"gone.cpp:1" "source":"new.cpp:1" ' ]
check "every instruction: the table says none on that side" contains "$out" "instructions whose cycles moved most (-: none on that side):"
check "every instruction: rechecked" "$CSIM_CMPCHECK" "$tmp/rows_base.json" "$tmp/rows_new.json" \
	"$tmp/rows_cmp/compare.json"
# The recheck must see a wrong sum, a lost item and a list out of order.
sed 's/"cycles":\[1,5\],"change":4}/"cycles":[1,6],"change":5}/' "$tmp/rows_cmp/compare.json" >"$tmp/rows_bad1.json"
sed '/"mnemonic":"VGONE"/d' "$tmp/rows_cmp/compare.json" >"$tmp/rows_bad2.json"
check "the plants changed the file" eval '! cmp -s "$tmp/rows_bad1.json" "$tmp/rows_cmp/compare.json" &&
	! cmp -s "$tmp/rows_bad2.json" "$tmp/rows_cmp/compare.json"'
for bad in rows_bad1 rows_bad2; do
	check "the recheck fails on $bad" \
		eval '! "$CSIM_CMPCHECK" "$tmp/rows_base.json" "$tmp/rows_new.json" "$tmp/$bad.json" >"$tmp/$bad.out"'
	check "... naming the instructions" grep -q "compare_recheck: instructions: " "$tmp/$bad.out"
done
check "every instruction: compare.html says every one that moved" \
	grep -qF "every one that moved, largest change first" "$tmp/rows_cmp/compare.html"
# A summary without "instructions" (older): the top tens, as before.
sed '/^"instructions":\[$/,/^\],$/d; /^"instructions":null,$/d' "$tmp/demo/summary.json" >"$tmp/rows_old.json"
check "an older summary: no instructions member left" eval '! grep -q "^\"instructions\"" "$tmp/rows_old.json"'
run "$tmp" --compare "$tmp/rows_old.json" "$tmp/rows_new.json" -o "$tmp/rows_cmp_old"
check "an older side: the top tens compared" grep -q '"items_complete":false' "$tmp/rows_cmp_old/compare.json"

# --- different ops, SoCs, clocks: a warning each ----------------------------
run "$tmp" --compare "$CSIM_ROOT/fixtures/scenarios/mix_kernel/expected/default/summary.json" \
	"$CSIM_ROOT/fixtures/scenarios/appended_runs/expected/all/summary.json"
check "other op: exit 0" [ "$status" -eq 0 ]
check "other op: says so" contains "$err" "warning: comparing different ops: none in BASE, add_custom in NEW"
check "other clock: says so" contains "$err" "warning: comparing different clocks: 0.000 MHz in BASE, 1850.000 MHz in NEW"
check "several runs: compared by the last" contains "$err" "note: a summary of several runs is compared by its last run"
check "other op: both runs' lines" contains "$out" $'base: clock unknown\nnew:  op add_custom, SoC Ascend910B1, clock 1850.000 MHz'

# --- two sides whose slowest cores differ: each labelled as its own -------
# The demo's slowest is core0.cubecore0, fixtures/cut's core1.veccore0
# (its W2 ends at 9 us); summary.json keeps the slowest core's timeline only.
mkdir -p "$tmp/apart/sim"
"$CSIM_GEN" "$CSIM_ROOT/fixtures/cut/dump.recipe" "$tmp/apart/sim/visualize_data.bin"
run "$tmp" apart/sim -o apart_out -q --no-copy-raw
run "$tmp" "$CSIM_ROOT/fixtures/demo/OPPROF_demo" -o demo_out -q --no-copy-raw
run "$tmp" --compare demo_out apart_out -o apart_cmp -q
check "slowest cores apart: exit 0" [ "$status" -eq 0 ]
check "slowest cores apart: the heading says each side's" \
	grep -qF "<h2 id=\"timelines\">Timelines of each side's slowest core</h2>" "$tmp/apart_cmp/compare.html"
check "slowest cores apart: base's labelled" \
	grep -qF "<h3>base: core0.cubecore0 <span class=\"tag\">BASE's slowest</span></h3>" "$tmp/apart_cmp/compare.html"
check "slowest cores apart: new's labelled" \
	grep -qF "<h3>new: core1.veccore0 <span class=\"tag\">NEW's slowest</span></h3>" "$tmp/apart_cmp/compare.html"
check "one slowest core (B against N): the plain heading, no label" \
	eval 'grep -qF "<h2 id=\"timelines\">Timelines of the slowest core</h2>" "$tmp/cmp/compare.html" &&
	      ! grep -qF "slowest</span>" "$tmp/cmp/compare.html"'

# --- a batch pair: x the same, y slower, z removed, w added ----------------
kernel vec 12 "$tmp/tb/x"
kernel vec 13 "$tmp/tb/y"
kernel vec 14 "$tmp/tb/z"
kernel vec 12 "$tmp/tn/x"
kernel vec 13 "$tmp/tn/y" --slower VECTOR
kernel vec 15 "$tmp/tn/w"
rm -f "$tmp"/t[bn]/*/trace.json "$tmp"/t[bn]/*/truth.json "$tmp"/t[bn]/*/dump.recipe
run "$tmp" tb -o bout -q --no-copy-raw
run "$tmp" tn -o nout -q --no-copy-raw
check "batch: both converted" [ -f "$tmp/bout/batch_summary.json" ] && [ -f "$tmp/nout/batch_summary.json" ]
run "$tmp" --compare bout nout --fail-if-slower 1 -o bcmp
check "batch: exit 4" [ "$status" -eq 4 ]
check "batch: only y named" [ "$(sed -n 's/^slower: \([^ ]*\) .*/\1/p' <<<"$err")" = "y/sim" ] &&
	contains "$err" "in 1 span(s)"
check "batch: within 80 columns" narrow "$out"
check "batch: counts" contains "$out" "batch: 2 dump(s) in both, 1 added, 1 removed"
check "batch: x unchanged" grep -Eq '^  x/sim +[0-9.]+ +[0-9.]+ +\+0\.0 %$' <<<"$out"
check "batch: added" contains "$out" $'added (1):\n  w/sim\n'
check "batch: removed" contains "$out" $'removed (1):\n  z/sim\n'
check "batch: compare.html lists the dumps in both, added and removed" \
	[ "$(grep -oE '<h2 id="dumps[012]">' "$tmp/bcmp/compare.html" | tr -d '\n')" = \
	  '<h2 id="dumps0"><h2 id="dumps1"><h2 id="dumps2">' ]
check "batch: rechecked" "$CSIM_CMPCHECK" "$tmp/bout/batch_summary.json" \
	"$tmp/nout/batch_summary.json" "$tmp/bcmp/compare.json" 1

# --- builds whose levels carry time stamps: matched by place ---------------
# msprof's trees (docs/compare.md, "Batches"): kernel_insight_all_funcs_<ts>
# above, OPPROF_<ts> below each kernel; two builds share neither stamp.
stamped() {   # stamped ROOT TS KERNEL_DIR...: each kernel under ROOT's stamped tree
	local root=$1 ts=$2 k
	shift 2
	for k in "$@"; do
		mkdir -p "$root/kernel_insight_all_funcs_$ts/funcs/$(basename "$k")/collect/out/OPPROF_${ts}_$(basename "$k")"
		cp -r "$k/sim" "$root/kernel_insight_all_funcs_$ts/funcs/$(basename "$k")/collect/out/OPPROF_${ts}_$(basename "$k")/simulator"
	done
}
stamped "$tmp/s1" 20261201 "$tmp/tb/x" "$tmp/tb/y"
stamped "$tmp/s2" 20261207 "$tmp/tn/x" "$tmp/tn/y"
run "$tmp" s1 -o s1out -q --no-copy-raw
run "$tmp" s2 -o s2out -q --no-copy-raw
run "$tmp" --compare s1out s2out --fail-if-slower 1
check "stamped builds: matched across stamps, y slower: exit 4" [ "$status" -eq 4 ]
check "stamped builds: both dumps in both" contains "$out" "batch: 2 dump(s) in both, 0 added, 0 removed"
check "stamped builds: y named by NEW's path" contains "$err" \
	"slower: kernel_insight_all_funcs_20261207/funcs/y/collect/out/OPPROF_20261207_y "
run "$tmp" --compare s1out s2out -o s12cmp -q
check "stamped builds: rechecked (paired by place)" "$CSIM_CMPCHECK" "$tmp/s1out/batch_summary.json" \
	"$tmp/s2out/batch_summary.json" "$tmp/s12cmp/compare.json"
# Two OPPROF runs of one kernel on a side: which is which is unknown, so
# only exact paths pair; the stamped ones stay apart.
stamped "$tmp/s3" 20261207 "$tmp/tb/x"
mkdir -p "$tmp/s3/kernel_insight_all_funcs_20261207/funcs/x/collect/out/OPPROF_second"
cp -r "$tmp/tb/x/sim" "$tmp/s3/kernel_insight_all_funcs_20261207/funcs/x/collect/out/OPPROF_second/simulator"
run "$tmp" s3 -o s3out -q --no-copy-raw
run "$tmp" --compare s1out s3out
check "two runs of one kernel: not paired by place" contains "$out" "batch: 0 dump(s) in both, 2 added, 2 removed"
run "$tmp" --compare s1out s3out -o s13cmp -q
check "two runs of one kernel: rechecked" "$CSIM_CMPCHECK" "$tmp/s1out/batch_summary.json" \
	"$tmp/s3out/batch_summary.json" "$tmp/s13cmp/compare.json"

# --- a gate that matches nothing: no dump in both ---------------------------
mkdir -p "$tmp/n1" "$tmp/n2"
cp -r "$tmp/tb/x" "$tmp/n1/a"
cp -r "$tmp/tb/x" "$tmp/n2/b"
run "$tmp" n1 -o n1out -q --no-copy-raw
run "$tmp" n2 -o n2out -q --no-copy-raw
run "$tmp" --compare n1out n2out --fail-if-slower 2
check "no dump in both: the gate fails, exit 5" [ "$status" -eq 5 ]
check "no dump in both: says why" contains "$err" \
	"error: --fail-if-slower compared nothing: no dump is in both batches (1 only in BASE, 1 only in NEW)"
run "$tmp" --compare n1out n2out
check "no dump in both, no gate: exit 0" [ "$status" -eq 0 ]

# --- a dump of BASE missing from NEW, or failed there: not vouched for -----
mkdir -p "$tmp/m1" "$tmp/m2"
cp -r "$tmp/tb/x" "$tmp/tb/z" "$tmp/m1/"
cp -r "$tmp/tb/x" "$tmp/m2/"
run "$tmp" m1 -o m1out -q --no-copy-raw
run "$tmp" m2 -o m2out -q --no-copy-raw
run "$tmp" --compare m1out m2out --fail-if-slower 2
check "missing from NEW: exit 5" [ "$status" -eq 5 ]
check "missing from NEW: the dump on a line" contains "$err" $'not compared: z/sim (in BASE, not in NEW)\n'
check "missing from NEW: the error counts it" contains "$err" \
	"error: --fail-if-slower cannot vouch for 1 dump(s) of BASE, each on a line above"
run "$tmp" --compare m2out m1out --fail-if-slower 2
check "added in NEW: the gate passes" [ "$status" -eq 0 ]
cp -r "$tmp/tb/z" "$tmp/m2/"
printf 'not a dump' >"$tmp/m2/z/sim/visualize_data.bin"
run "$tmp" m2 -o m2out -q --no-copy-raw
check "a dump failed in NEW: its batch exits 1" [ "$status" -eq 1 ]
run "$tmp" --compare m1out m2out --fail-if-slower 2
check "failed in NEW: exit 5" [ "$status" -eq 5 ]
check "failed in NEW: the dump on a line" contains "$err" $'not compared: z/sim (converted in BASE, failed in NEW)\n'

# --- shards into one folder: each keeps its summaries; compared whole -------
for k in 0 1 2; do
	run "$tmp" tb -o shout -q --no-copy-raw --shard "$k/3"
	check "shard $k/3: exit 0" [ "$status" -eq 0 ]
done
check "shards: three summaries side by side, no whole one" \
	[ "$(cd "$tmp/shout" && LC_ALL=C ls batch_summary* | tr '\n' ' ')" = \
	  "batch_summary.shard-0-of-3.csv batch_summary.shard-0-of-3.json batch_summary.shard-1-of-3.csv batch_summary.shard-1-of-3.json batch_summary.shard-2-of-3.csv batch_summary.shard-2-of-3.json " ]
check "shards: each keeps its own rows (x, y, z: one each)" \
	[ "$(cat "$tmp"/shout/batch_summary.shard-*-of-3.csv | grep -c '^[0-9]')" -eq 3 ]
run "$tmp" --compare bout shout --fail-if-slower 1
check "shards read whole: exit 0" [ "$status" -eq 0 ]
check "shards read whole: every dump in both" contains "$out" "batch: 3 dump(s) in both, 0 added, 0 removed"
mv "$tmp/shout/batch_summary.shard-1-of-3.json" "$tmp/shard1.json"
run "$tmp" --compare bout shout
check "a shard missing: exit 1" [ "$status" -eq 1 ]
check "a shard missing: names it" contains "$err" \
	"error: cannot read shout: shard 1 of 3 is missing (batch_summary.shard-1-of-3.json): a batch is compared whole"
mv "$tmp/shard1.json" "$tmp/shout/batch_summary.shard-1-of-3.json"
run "$tmp" tb -o shout -q --no-copy-raw
check "the whole batch into the shards' folder: their summaries go" \
	[ "$(cd "$tmp/shout" && LC_ALL=C ls batch_summary* | tr '\n' ' ')" = "batch_summary.csv batch_summary.json " ]
run "$tmp" tb -o shout -q --no-copy-raw --shard 1/2
check "a shard into a whole batch's folder: the whole one goes" \
	[ "$(cd "$tmp/shout" && LC_ALL=C ls batch_summary* | tr '\n' ' ')" = "batch_summary.shard-1-of-2.csv batch_summary.shard-1-of-2.json " ]

# --- docs/ci.md's shell gate, as written there ------------------------------
gate_script=$(awk '/<!-- tests\/cli\/t_compare.sh runs this block -->/ { on = 1; next }
	on && /^```sh$/ { inside = 1; next } inside && /^```$/ { exit } inside' "$CSIM_ROOT/docs/ci.md")
mkdir -p "$tmp/bin" "$tmp/ci"
ln -sf "$CSIM_BIN" "$tmp/bin/clean_sim_trace"
ci_gate() { (cd "$tmp/ci" && PATH="$tmp/bin:$PATH" BUILD=$1 bash -c "$gate_script" >/dev/null 2>&1); }
check "ci.md gate: the block is there" [ -n "$gate_script" ]
st=0; ci_gate "$tmp/tb" || st=$?
check "ci.md gate: the first run converts and keeps a baseline (exit $st)" \
	[ "$st" -eq 0 ] && [ -f "$tmp/ci/baseline/batch_summary.json" ]
cp "$tmp/ci/baseline/batch_summary.json" "$tmp/ci_first.json"
st=0; ci_gate "$tmp/tn" || st=$?
check "ci.md gate: a slower batch fails with exit 4 ($st)" [ "$st" -eq 4 ]
check "ci.md gate: ... and keeps the last good baseline" \
	cmp -s "$tmp/ci/baseline/batch_summary.json" "$tmp/ci_first.json"
check "ci.md gate: ... and says what moved" [ -f "$tmp/ci/compare/compare.json" ]
st=0; ci_gate "$tmp/tb" || st=$?
check "ci.md gate: a batch as fast passes and becomes the baseline ($st)" \
	[ "$st" -eq 0 ] && [ ! -e "$tmp/ci/baseline.old" ] && [ -f "$tmp/ci/baseline/x/sim/summary.json" ]

# --- sides that cannot be read: exit 1 --------------------------------------
run "$tmp" --compare "$tmp/missing" "$B"
check "missing side: exit 1" [ "$status" -eq 1 ]
check "missing side: names it" lines "$err" "error: cannot read $tmp/missing: No such file or directory"
run "$tmp" --compare "$tmp/g" "$B"
check "a folder without a summary: exit 1" [ "$status" -eq 1 ]
check "a folder without a summary: says what to give" contains "$err" \
	"it holds no summary.json, batch_summary.json or batch_summary.shard-K-of-N.json"
# A dump given for a result: told to convert it first.
run "$tmp" --compare "$CSIM_ROOT/fixtures/demo/OPPROF_demo/simulator/visualize_data.bin" "$B"
check "a .bin given: exit 1" [ "$status" -eq 1 ]
check "a .bin given: convert it first" contains "$err" \
	"byte 0: not JSON but binary data: a dump (visualize_data.bin) is converted first (clean_sim_trace PATH -o DIR), then DIR compared"
run "$tmp" --compare "$CSIM_ROOT/fixtures/demo/OPPROF_demo" "$B"
check "a dump folder given: exit 1" [ "$status" -eq 1 ]
check "a dump folder given: convert it first" contains "$err" \
	"; it is a dump: convert it first (clean_sim_trace PATH -o DIR), then compare DIR"
run "$tmp" --compare "$B/trace.clean.json" "$B"
check "a trace given: exit 1" [ "$status" -eq 1 ]
check "a trace given: not a summary" contains "$err" "not a summary.json or batch_summary.json of clean_sim_trace"
for f in "$CSIM_ROOT"/fixtures/invalid/compare_*.json; do
	name=$(basename "$f" .json)
	want=$(cat "${f%.json}.expect")
	run "$tmp" --compare "$f" "$B"
	check "$name: exit 1" [ "$status" -eq 1 ]
	check "$name: $want" contains "$err" "$want"
done
run "$tmp" --compare bout "$B"
check "a batch against one dump: exit 2" [ "$status" -eq 2 ]
check "a batch against one dump: says so" contains "$err" "give two batch results or two single ones"

# --- out of memory: the allocations of a comparison fail in turn -----------
# (tests/tools/failalloc.c): exit 1 while reading, 3 while writing
# compare.json, exactly "error: out of memory", no compare.json and no
# folder left; past the count the comparison succeeds.
: "${CSIM_FAILALLOC:?set CSIM_FAILALLOC to the clean_sim_trace_failalloc executable}"
failalloc_env
sweep_compare() {
	local name=$1 base=$2 new=$3 total k bad=0 tried=0 st
	shift 3
	CSIM_FAIL_ALLOC=0 CSIM_FAIL_ALLOC_REPORT=1 "$CSIM_FAILALLOC" --compare "$base" "$new" \
		-o "$tmp/fa" -q 2>"$tmp/.fa" || true
	total=$(sed -n 's/^failalloc: \([0-9]*\) allocation(s)$/\1/p' "$tmp/.fa")
	rm -rf "$tmp/fa"
	for k in $(sweep_points 1 "${total:-0}"); do
		tried=$((tried + 1))
		st=0
		CSIM_FAIL_ALLOC=$k "$CSIM_FAILALLOC" --compare "$base" "$new" -o "$tmp/fa" -q \
			2>"$tmp/.fa" || st=$?
		if { [ "$st" -ne 1 ] && [ "$st" -ne 3 ]; } ||
			[ "$(grep -v '^note: ' "$tmp/.fa" | head -c 40)" != "error: out of memory" ] ||
			[ -e "$tmp/fa" ]; then
			echo "# $name k=$k: exit $st, $(head -c 200 "$tmp/.fa")"
			bad=$((bad + 1))
		fi
		rm -rf "$tmp/fa"
	done
	check "$name: $tried of $total failing allocations end cleanly" \
		[ "${total:-0}" -gt 10 -a "$tried" -gt 0 -a "$bad" -eq 0 ]
}
# TSan's runtime owns malloc, which the sweep wraps (.ci/run leaves every
# sweep to the other builds): there it is said, not run.
if [[ ${CSIM_SANITIZER:-} == *thread* ]]; then
	echo "# out of memory: not swept under ThreadSanitizer (the Release and ASan builds sweep it)"
else
	sweep_compare "out of memory, one dump" "$B" "$N"
	sweep_compare "out of memory, batches" "$tmp/bout" "$tmp/nout"
fi

# --- the command line -----------------------------------------------------
run "$tmp" --compare "$B"
check "NEW missing: exit 2" [ "$status" -eq 2 ] && contains "$err" "NEW is missing"
run "$tmp" --compare "$B" "$N" "$N"
check "two NEWs: exit 2" [ "$status" -eq 2 ]
run "$tmp" --fail-if-slower 5 "$B"
check "--fail-if-slower alone: exit 2" [ "$status" -eq 2 ] && contains "$err" "needs --compare"
run "$tmp" --compare "$B" "$N" --fail-if-slower five
check "a bad percentage: exit 2" [ "$status" -eq 2 ] && contains "$err" "'five' is not a percentage"
run "$tmp" --compare "$B" "$N" -z
check "a conversion option: exit 2" [ "$status" -eq 2 ] && contains "$err" "--compare converts nothing: -z/--gzip"
touch "$tmp/afile"
run "$tmp" --compare "$B" "$N" -o "$tmp/afile/sub"
check "-o not writable: exit 3" [ "$status" -eq 3 ]
finish
