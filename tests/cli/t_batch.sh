#!/usr/bin/env bash
# Batch mode (SPEC §11, docs/batch.md): a tree of 20 dumps in both layouts
# of realdata-notes (kernel_insight_all_funcs_<ts>/funcs/<k>/collect/out/
# OPPROF_*/simulator/ and a multi-operator OPPROF_*/<op>/<launch>/simulator/),
# plus a bare visualize_data.bin.gz; two of them corrupt. Checks the mirrored
# tree, -j 2 == -j 1 == single mode byte for byte, the summary rows against
# hand-derived expectations and each trace's own counts, --shard 0/3+1/3+2/3
# == the whole, a symbolic-link loop, and Ctrl-C mid-batch.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_FACTS:?set CSIM_FACTS to the trace_facts executable}"
: "${CSIM_SYNTH:?set CSIM_SYNTH to the gen_synth executable}"

ki=tree/kernel_insight_all_funcs_20260101_120000/funcs
multi=tree/OPPROF_20260101_130000_MULTI
good=(mix_kernel many_cores multi_block gzip_input appended_runs flags_310p
      flat_lanes mte1_depth5 cache_ccu_counters diag_sync_bound diag_transfer_bound
      diag_scalar_bound diag_truncated diag_near_empty diag_load_imbalance
      diag_vector_shaped_wrong samples_minimal)
declare -A src   # rel dump folder -> the .bin copied there
expected=()      # rel dump folders (under tree/)

# place REL BIN [NAME]: copies BIN to tree/REL/NAME (default simulator/visualize_data.bin).
place() {
	local rel=$1 bin=$2 name=${3:-simulator/visualize_data.bin}
	mkdir -p "$(dirname "$tmp/tree/$rel/$name")"
	cp "$bin" "$tmp/tree/$rel/$name"
	src[$rel]=$bin
	expected+=("$rel")
}

cp "$CSIM_ROOT/fixtures/demo/OPPROF_demo/simulator/visualize_data.bin" "$tmp/demo.bin"
for s in "${good[@]}"; do
	"$CSIM_GEN" "$CSIM_ROOT/fixtures/scenarios/$s/dump.recipe" "$tmp/$s.bin"
done
# Layout 1: one kernel per folder (9 dumps, one corrupt).
n=0
for s in demo mix_kernel many_cores multi_block gzip_input appended_runs flags_310p flat_lanes; do
	n=$((n + 1))
	place "${ki#tree/}/k_$s/collect/out/OPPROF_20260101_12000${n}_X" "$tmp/$s.bin"
done
place "${ki#tree/}/k_broken/collect/out/OPPROF_20260101_129999_X" \
	"$CSIM_ROOT/fixtures/invalid/bad_reserve_byte.bin"
# Layout 2: one multi-operator run, <op>/<launch>/simulator (10 dumps, one corrupt).
launch=0
for s in mte1_depth5 cache_ccu_counters diag_sync_bound diag_transfer_bound diag_scalar_bound \
	 diag_truncated diag_near_empty diag_load_imbalance diag_vector_shaped_wrong; do
	place "${multi#tree/}/Op_${s%%_*}/$launch" "$tmp/$s.bin"
	launch=$((launch + 1))
done
place "${multi#tree/}/Op_broken/0" "$CSIM_ROOT/fixtures/invalid/trace_truncated_json.bin"
# A bare visualize_data.bin.gz: 20 dumps in all.
gzip -c "$tmp/samples_minimal.bin" >"$tmp/samples_minimal.bin.gz"
place loose "$tmp/samples_minimal.bin.gz" visualize_data.bin.gz
# A symbolic-link loop and a link to a dump folder: never followed.
ln -s .. "$tmp/$ki/loop"
ln -s "../$(basename "$multi")/Op_mte1/0" "$tmp/tree/link_to_dump"
check "the tree holds 20 dumps" [ "${#expected[@]}" -eq 20 ]

sorted=$(printf '%s\n' "${expected[@]}" | LC_ALL=C sort)
bad1="${ki#tree/}/k_broken/collect/out/OPPROF_20260101_129999_X"
bad2="${multi#tree/}/Op_broken/0"

# --- -j 2 and -j 1 ---------------------------------------------------------
run "$tmp" tree -o out2 -j 2
status2=$status out2=$out err2=$err
run "$tmp" tree -o out1 -j 1
check "-j 2: exit 1 (two dumps failed)" [ "$status2" -eq 1 ]
check "-j 1: exit 1" [ "$status" -eq 1 ]
check "-j 2: converted 18/20" contains "$out2" $'\nconverted 18/20 dumps\n'
check "-j 2: last line is the count" [ "$(printf '%s' "$out2" | tail -n 1)" = "converted 18/20 dumps" ]
check "-j 2: 23 stdout lines (20 dumps, 2 wrote, count)" [ "$(printf '%s' "$out2" | wc -l)" -eq 23 ]
# The summaries' wrote lines, as single mode's, right before the count;
# no dump's own.
check "-j 2: wrote lines of the two summaries, then the count" \
	contains "$out2" $'\nwrote out2/batch_summary.json\nwrote out2/batch_summary.csv\nconverted 18/20 dumps\n'
check "-j 2: no other 'wrote' line" [ "$(printf '%s' "$out2" | grep -c '^wrote ' || true)" -eq 2 ]
check "-j 2: FAILED line of the corrupt kernel" \
	contains "$out2" "FAILED tree/$bad1: tree/$bad1/simulator/visualize_data.bin: corrupt block at offset 0: reserve byte is 0x41, expected 0x5a"
check "-j 2: stderr names both failures and the total" [ "$(printf '%s' "$err2" | grep -c '^error: ')" -eq 3 ]
check "-j 2: stderr ends with the total" contains "$err2" "error: 2 of 20 dump(s) failed"
# stdout and stderr in one log (2>&1, a terminal): each failure's message
# once, on its FAILED line; the total still on an error: line.
st=0
(cd "$tmp" && "$CSIM_BIN" tree -o out_one -j 2 >"$tmp/one.log" 2>&1) || st=$?
check "one log: exit 1" [ "$st" -eq 1 ]
check "one log: the corrupt kernel's message once" \
	[ "$(grep -c "reserve byte is 0x41, expected 0x5a" "$tmp/one.log")" -eq 1 ]
check "one log: the total" grep -qx "error: 2 of 20 dump(s) failed" "$tmp/one.log"
check "-j 1: lines in sorted order" [ "$(printf '%s' "$out" | sed -n 's/^\(ok\|FAILED\) \(tree\/[^:]*\):.*/\2/p' | tr '\n' ' ')" = "$(printf 'tree/%s\n' $sorted | tr '\n' ' ')" ]

# Mirrored tree: each good dump's four outputs under out/<rel>, none for the bad.
miss=0
for rel in "${expected[@]}"; do
	for f in trace.clean.json instr_metrics.json summary.json summary.html; do
		case "$rel" in
		"$bad1" | "$bad2") [ ! -e "$tmp/out2/$rel" ] || { echo "output for $rel"; miss=$((miss + 1)); } ;;
		*) [ -f "$tmp/out2/$rel/$f" ] || [ "$f" = instr_metrics.json ] || { echo "missing out2/$rel/$f"; miss=$((miss + 1)); } ;;
		esac
	done
done
check "mirrored tree: every output where it belongs" [ "$miss" -eq 0 ]
check "mirrored tree: raw folder copied" cmp "$tmp/out2/${ki#tree/}/k_demo/collect/out/OPPROF_20260101_120001_X/raw_simulator/visualize_data.bin" "$tmp/demo.bin"
check "link to a dump folder not followed" [ ! -e "$tmp/out2/link_to_dump" ]
check "-j 1 and -j 2 outputs byte-identical" \
	diff -r -x batch_summary.json -x batch_summary.csv "$tmp/out1" "$tmp/out2"
check "no temporary file left" [ -z "$(find "$tmp/out1" "$tmp/out2" -name '.*')" ]

# Single mode gives the same bytes for every good dump.
diffs=0 compared=0
for rel in "${expected[@]}"; do
	[ "$rel" = "$bad1" ] || [ "$rel" = "$bad2" ] && continue
	run "$tmp" "tree/$rel" -o "single/$rel"
	for f in trace.clean.json instr_metrics.json summary.json summary.html; do
		[ -e "$tmp/single/$rel/$f" ] || continue
		compared=$((compared + 1))
		cmp -s "$tmp/single/$rel/$f" "$tmp/out2/$rel/$f" || { echo "differs: $rel/$f"; diffs=$((diffs + 1)); }
	done
done
check "batch outputs == single-mode outputs (18 dumps, $compared files)" [ "$diffs" -eq 0 -a "$compared" -ge 54 ]

# --- batch_summary ----------------------------------------------------------
csv="$tmp/out2/batch_summary.csv"
check "csv: header" [ "$(head -n 1 "$csv")" = "index,dump,status,message,op_name,slowest_span_us,slowest_span_cycles,slices,arrows,skipped_events,skipped_flags,busy_MTE2,busy_MTE1,busy_CUBE,busy_VECTOR,busy_FIXP,busy_MTE3,busy_SCALAR,busy_other,diagnosis_ids,diagnosis,primary_diagnosis,primary_cores,critical_path_top,critical_path_share,input,summary,seconds" ]
check "csv: 20 rows" [ "$(tail -n +2 "$csv" | wc -l)" -eq 20 ]
check "csv: rows in sorted order, indices 0..19" \
	[ "$(tail -n +2 "$csv" | cut -d, -f1,2 | tr '\n' ' ')" = "$(printf '%s\n' $sorted | awk '{ printf "%d,%s ", NR - 1, $0 }')" ]
check "csv: first corrupt dump, hand-derived" grep -qxF \
	"$(printf '%s' "$sorted" | grep -nxF "$bad1" | cut -d: -f1 | awk '{print $1 - 1}'),$bad1,failed,\"tree/$bad1/simulator/visualize_data.bin: corrupt block at offset 0: reserve byte is 0x41, expected 0x5a\",,,,,,,,,,,,,,,,,,,,,,tree/$bad1/simulator/visualize_data.bin,,0.000" \
	<(sed 's/,[0-9.]*$/,0.000/' "$csv")
check "csv: second corrupt dump, hand-derived" grep -qF \
	",$bad2,failed,tree/$bad2/simulator/visualize_data.bin: TRACE block at offset 0: payload byte 381: unexpected end of JSON text,,,,,," "$csv"
check "json: counts" grep -q '^{"schema":1,"shard":null,"found":20,"dumps":20,"ok":18,"failed":2,"rows":\[$' "$tmp/out2/batch_summary.json"
bad=0
spans=0
while IFS=, read -r idx rel st _ _ span_us _ slices arrows _; do
	[ "$st" = ok ] || continue
	facts=$("$CSIM_FACTS" "$tmp/out2/$rel/trace.clean.json")
	want_s=$(printf '%s\n' "$facts" | sed -n 's/^slices //p')
	want_a=$(printf '%s\n' "$facts" | sed -n 's/^arrows //p')
	if [ "$slices" != "$want_s" ] || [ "$arrows" != "$want_a" ]; then
		echo "row $idx $rel: $slices/$arrows slices/arrows, trace has $want_s/$want_a"
		bad=$((bad + 1))
	fi
	# The slowest core's span: summary.json's max_span_ns, in µs.
	max=$(sed -n 's/.*"max_span_ns":\([0-9]*\).*/\1/p' "$tmp/out2/$rel/summary.json")
	if [ -n "$max" ]; then
		spans=$((spans + 1))
		want_us=$(awk -v n="$max" 'BEGIN { printf "%d.%03d", n / 1000, n % 1000 }')
		[ "$span_us" = "$want_us" ] || { echo "row $idx $rel: span $span_us, summary $want_us"; bad=$((bad + 1)); }
	fi
done < <(tail -n +2 "$csv" | grep -v '^[0-9]*,[^,]*,ok,,"')   # op names quoted: none here
check "csv: slices, arrows and slowest span of every ok row == its trace's, its summary's" [ "$bad" -eq 0 ]
check "csv: spans compared" [ "$spans" -ge 17 ]
# mix_kernel's busy shares, from the numbers of its EXPECT.md/summary.json:
# MTE2 runs on its three cores, busy 1074 + 154 + 154 ns over spans of
# 1186 + 389 + 399 ns = 1382/1974 = 0.70010; CUBE only on core0.cubecore0,
# 203 of 1186 ns = 0.17116.
mixrow=$(grep ",${ki#tree/}/k_mix_kernel/" "$csv")
check "csv: mix_kernel MTE2 and CUBE shares" [ "$(echo "$mixrow" | cut -d, -f12,14)" = "0.7001,0.1712" ]
# Op name and slowest span (EXPECT.md): mix_kernel has no OP_BASIC_INFO (no
# name, no clock: no cycles), cubecore0 spans 1186 ns; appended_runs' run 2
# is add_custom on an Ascend910B1 (1850 MHz), 700 ns = 1295 cycles.
check "csv: mix_kernel op name, span, cycles" [ "$(echo "$mixrow" | cut -d, -f5-7)" = ",1.186," ]
addrow=$(grep ",${ki#tree/}/k_appended_runs/" "$csv")
check "csv: appended_runs op name, span, cycles" [ "$(echo "$addrow" | cut -d, -f5-7)" = "add_custom,0.700,1295" ]
check "json: appended_runs op name, span, cycles" grep -q \
	"\"dump\":\"${ki#tree/}/k_appended_runs/[^\"]*\",\"status\":\"ok\",\"message\":null,\"op_name\":\"add_custom\",\"slowest_span_us\":0.700,\"slowest_span_cycles\":1295,\"slices\":3," \
	"$tmp/out2/batch_summary.json"
check "json: mix_kernel without a name or clock" grep -q \
	"\"dump\":\"${ki#tree/}/k_mix_kernel/[^\"]*\",\"status\":\"ok\",\"message\":null,\"op_name\":null,\"slowest_span_us\":1.186,\"slowest_span_cycles\":null," \
	"$tmp/out2/batch_summary.json"
# The primary diagnosis and its cores (the scenarios' EXPECT.md): the
# near-empty mix_kernel on its three cores, diag_sync_bound (launch 2) on
# core0.veccore0, diag_load_imbalance (launch 7) on core2.veccore0; the
# two fields before input.
primary() { grep "$1" "$csv" | awk -F, '{ print $(NF - 6) "," $(NF - 5) }'; }
# critical_path_top and _share: the slowest core's largest part of its path.
path_top() { grep "$1" "$csv" | awk -F, '{ print $(NF - 4) "," $(NF - 3) }'; }
check "csv: mix_kernel's primary diagnosis" \
	[ "$(primary ",${ki#tree/}/k_mix_kernel/")" = "near_empty,core0.cubecore0 core0.veccore0 core0.veccore1" ]
check "csv: diag_sync_bound's primary diagnosis (from its critical path: MTE2)" \
	[ "$(primary ",${multi#tree/}/Op_diag/2,")" = "path_bound,core0.veccore0" ]
check "csv: diag_load_imbalance's primary diagnosis" \
	[ "$(primary ",${multi#tree/}/Op_diag/7,")" = "load_imbalance,core2.veccore0" ]
# mix_kernel's slowest core is core0.cubecore0, whose path is
# docs/critical-path.md's worked example: MTE2 537 of 1186 ns.
check "csv: mix_kernel's critical path" \
	[ "$(path_top ",${ki#tree/}/k_mix_kernel/")" = "MTE2,0.4528" ]
check "json: diag_load_imbalance's primary diagnosis" grep -qF \
	'"primary_diagnosis":"load_imbalance","primary_cores":["core2.veccore0"],"critical_path_top":' \
	"$tmp/out2/batch_summary.json"
check "json: a failed dump has none" grep -qF \
	'"diagnosis_ids":null,"diagnosis":null,"primary_diagnosis":null,"primary_cores":null,"critical_path_top":null,"critical_path_share":null,' \
	"$tmp/out2/batch_summary.json"

# Each row links its dump's page: "summary", relative to the batch folder,
# is the summary.html of that dump, whose summary.json names the row's input
# (lib.sh names_dump: path as found, size on disk); a failed row links none.
pages=0
while IFS=$'\t' read -r input page; do
	if [ "$page" = null ]; then
		continue
	fi
	pages=$((pages + 1))
	check "row of $input: its page exists" [ -f "$tmp/out2/$page" ]
	names_dump "row of $input" "$(dirname "$tmp/out2/$page")" "$input" "$tmp/$input"
done < <(sed -n 's/.*"input":"\([^"]*\)","summary":\(null\|"[^"]*"\),.*/\1\t\2/p' \
	"$tmp/out2/batch_summary.json" | tr -d '"')
check "json: 18 rows link a page" [ "$pages" -eq 18 ]
check "json: the failed rows link none" \
	[ "$(grep -c '"status":"failed".*"summary":null,' "$tmp/out2/batch_summary.json")" -eq 2 ]
check "csv: mix_kernel's page, the field after input" [ "$(echo "$mixrow" | awk -F, '{ print $(NF - 1) }')" = \
	"$(echo "$mixrow" | cut -d, -f2)/summary.html" ]

# --- --shard: three shards merge into the whole ------------------------------
for k in 0 1 2; do
	run "$tmp" tree -o "shard$k" --shard "$k/3" -j 2
done
merged=$( { head -n 1 "$tmp/shard0/batch_summary.shard-0-of-3.csv"
	    for k in 0 1 2; do tail -n +2 "$tmp/shard$k/batch_summary.shard-$k-of-3.csv"; done |
		sort -t, -k1,1n; } |
	  sed 's/,[0-9.]*$//')
whole=$(sed 's/,[0-9.]*$//' "$csv")
check "shards 0/3+1/3+2/3 merge into the whole summary (but seconds)" [ "$merged" = "$whole" ]
check "shard 1/3 converts indices 1,4,7,..." [ "$(tail -n +2 "$tmp/shard1/batch_summary.shard-1-of-3.csv" | cut -d, -f1 | tr '\n' ' ')" = "1 4 7 10 13 16 19 " ]
check "shard json says so" grep -q '"shard":{"k":1,"n":3},"found":20,"dumps":7,' "$tmp/shard1/batch_summary.shard-1-of-3.json"
check "shard 0/3 output byte-identical to the whole run's" \
	diff -r -x 'batch_summary.*' "$tmp/shard0/${ki#tree/}/k_demo" "$tmp/out2/${ki#tree/}/k_demo"

# --- several PATHs, duplicates ---------------------------------------------
run "$tmp" "$multi" "$multi/Op_mte1/0" "$multi/" -o several --no-copy-raw
check "several PATHs: duplicates converted once" [ "$(printf '%s' "$out" | tail -n 1)" = "converted 9/10 dumps" ]
check "several PATHs: no warning for a PATH given twice" [ "$(printf '%s' "$err" | grep -c 'again: converted once' || true)" -eq 0 ]
check "several PATHs: relative to the common parent" [ -f "$tmp/several/$(basename "$multi")/Op_mte1/0/trace.clean.json" ]
# Without -o: outputs beside each .bin, summaries in the walked folder.
cp -r "$tmp/tree/${multi#tree/}/Op_diag" "$tmp/inplace"
run "$tmp" inplace
check "no -o: exit 0" [ "$status" -eq 0 ]
check "no -o: outputs beside the .bin" [ -f "$tmp/inplace/3/simulator/trace.clean.json" ]
check "no -o: summaries in PATH" [ -f "$tmp/inplace/batch_summary.csv" ]
check "no -o: their wrote lines name the base folder, absolute" \
	contains "$out" $'\nwrote '"$(cd "$tmp" && pwd)"$'/inplace/batch_summary.json\nwrote '"$(cd "$tmp" && pwd)"$'/inplace/batch_summary.csv\nconverted'
check "no -o: a row links the page beside its .bin" \
	grep -qF ',inplace/3/simulator/visualize_data.bin,3/simulator/summary.html,' "$tmp/inplace/batch_summary.csv"
names_dump "no -o" "$tmp/inplace/3/simulator" inplace/3/simulator/visualize_data.bin \
	"$tmp/inplace/3/simulator/visualize_data.bin"
# The walk never takes the tool's own outputs for dumps (SPEC §11): three
# dumps, a batch with -o inside the tree twice, then with another -o, then
# twice without -o (outputs beside each dump, the earlier -o folders' raw
# copies still there): 3 dumps every time, never their raw_simulator copies.
t3="$tmp/t3"
mkdir -p "$t3/A/simulator" "$t3/B/simulator" "$t3/C"
cp "$tmp/demo.bin" "$t3/A/simulator/visualize_data.bin"
cp "$tmp/demo.bin" "$t3/B/simulator/visualize_data.bin"
cp "$tmp/demo.bin" "$t3/C/visualize_data.bin"
for pass in "-o t3/conv" "-o t3/conv again" "-o t3/conv2" "no -o" "no -o again"; do
	case $pass in
	"-o t3/conv2") run "$tmp" t3 -o t3/conv2 ;;
	"-o t3/conv"*) run "$tmp" t3 -o t3/conv ;;
	*) run "$tmp" t3 ;;
	esac
	check "own outputs ($pass): converted 3/3" [ "$(printf '%s' "$out" | tail -n 1)" = "converted 3/3 dumps" ]
	check "own outputs ($pass): the three dumps" [ "$(printf '%s' "$out" | sed -n 's/^ok \([^:]*\):.*/\1/p' | tr '\n' ' ')" = "t3/A t3/B t3/C " ]
done
check "own outputs: a raw copy of -o t3/conv" [ -f "$t3/conv/A/raw_simulator/visualize_data.bin" ]
check "own outputs: a raw copy of -o t3/conv2" [ -f "$t3/conv2/C/raw_simulator/visualize_data.bin" ]
check "own outputs: outputs beside the dumps" [ -f "$t3/C/summary.json" ]
check "own outputs: no output of a copy" [ -z "$(find "$t3" -path '*raw_simulator*' -name summary.json)" ]
# A raw_simulator folder beside no output is someone's folder: walked.
mkdir -p "$tmp/t4/D/raw_simulator"
cp "$tmp/demo.bin" "$tmp/t4/D/raw_simulator/visualize_data.bin"
echo notes >"$tmp/t4/D/readme.txt"
run "$tmp" t4 -o o4
check "raw_simulator beside no output: converted" [ "$(printf '%s' "$out" | tail -n 1)" = "converted 1/1 dumps" ]
check "raw_simulator beside no output: its outputs" [ -f "$tmp/o4/D/raw_simulator/summary.json" ]
# One PATH that is one dump stays single mode: wrote lines, no summary.
run "$tmp" "tree/${multi#tree/}/Op_mte1/0" -o one
check "one dump: single mode" contains "$out" "wrote one/trace.clean.json"
check "one dump: no batch summary" [ ! -e "$tmp/one/batch_summary.csv" ]

# -q: only the error lines.
run "$tmp" tree -o outq -q -j 2
check "-q: exit 1" [ "$status" -eq 1 ]
check "-q: nothing on stdout" [ -z "$out" ]
check "-q: only error lines on stderr" [ "$(printf '%s' "$err" | grep -vc '^error: ' || true)" -eq 0 ]
check "-q: three error lines" [ "$(printf '%s' "$err" | wc -l)" -eq 3 ]
# An unusable -o is reported before any dump is read: exit 3, nothing made.
printf x >"$tmp/afile"
run "$tmp" tree -o afile/out -j 2
check "-o under a file: exit 3" [ "$status" -eq 3 ]
check "-o under a file: no dump line" [ -z "$out" ]
check "-o under a file: says so" lines "$err" "error: cannot create output folder afile/out: Not a directory"
# --shard makes one dump a batch too (every shard of a matrix alike).
run "$tmp" "tree/${multi#tree/}/Op_mte1/0" -o shone --shard 1/2
check "--shard 1/2 of one dump: exit 0, nothing to convert" [ "$status" -eq 0 ]
check "--shard 1/2 of one dump: converted 0/0" \
	lines "$out" $'wrote shone/batch_summary.shard-1-of-2.json\nwrote shone/batch_summary.shard-1-of-2.csv\nconverted 0/0 dumps'
check "--shard 1/2 of one dump: a header-only summary" [ "$(wc -l <"$tmp/shone/batch_summary.shard-1-of-2.csv")" -eq 1 ]
run "$tmp" "tree/${multi#tree/}/Op_mte1/0" -o shzero// --shard 0/2
check "--shard 0/2 of one dump: converted 1/1" [ "$(printf '%s' "$out" | tail -n 1)" = "converted 1/1 dumps" ]
check "-o DIR//: the wrote lines name DIR without its slashes" \
	contains "$out" $'\nwrote shzero/batch_summary.shard-0-of-2.json\nwrote shzero/batch_summary.shard-0-of-2.csv\n'
check "--shard 0/2 of one dump: outputs under its folder name" [ -f "$tmp/shzero/0/trace.clean.json" ]

# An unreadable folder in the walk: a warning, the rest converted. Root
# reads any folder, so as root (CI) the converter runs as user nobody.
p="$tmp/perm"
mkdir -p "$p/a/simulator" "$p/locked/b/simulator"
cp "$tmp/demo.bin" "$p/a/simulator/visualize_data.bin"
cp "$tmp/demo.bin" "$p/locked/b/simulator/visualize_data.bin"
as_user=()
if [ "$(id -u)" -eq 0 ]; then
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
	chmod a+rx "$tmp"
	chmod -R a+rwX "$p"
fi
chmod 000 "$p/locked"
status=0
(cd "$p" && "${as_user[@]}" "$CSIM_BIN" . -o out --no-copy-raw >"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
chmod 755 "$p/locked"
check "unreadable folder: exit 0" [ "$status" -eq 0 ]
check "unreadable folder: warned" grep -qx \
	"warning: cannot read folder ./locked: Permission denied; dumps below it are not converted" "$tmp/.stderr"
check "unreadable folder: the rest converted" grep -qx "converted 1/1 dumps" "$tmp/.stdout"
check "unreadable folder: its output" [ -f "$p/out/a/trace.clean.json" ]

# --- Ctrl-C mid-batch ---------------------------------------------------------
# Four 30 MB dumps, -j 2: SIGINT to the parent once a worker has a
# temporary file. Job control gives the run a process group of its own and
# leaves SIGINT caught (a background job of a script ignores it otherwise).
for i in 1 2 3 4; do
	mkdir -p "$tmp/big/d$i/simulator"
	"$CSIM_SYNTH" --seed "$i" 30 "$tmp/big/d$i/simulator/visualize_data.bin"
done
convert_big() { cd "$tmp" && exec "$CSIM_BIN" big -o bigout -j 2 >"$tmp/.stdout" 2>"$tmp/.stderr"; }
for target in parent group; do
	rm -rf "$tmp/bigout"
	signal_group=0
	[ "$target" = parent ] || signal_group=1
	signal_when INT 130 3 6000 '[ -n "$(find "$tmp/bigout" -name ".trace.clean.json.*" 2>/dev/null)" ]' convert_big
	sleep 0.2   # a worker outliving the parent would show below
	check "Ctrl-C to the $target: exit 130 (attempt $attempt, status $status)" [ "$caught" -eq 1 ]
	check "Ctrl-C to the $target: no temporary or partial file" \
		[ -z "$(find "$tmp/bigout" -name '.*' 2>/dev/null)" ]
	check "Ctrl-C to the $target: no summary written" [ ! -e "$tmp/bigout/batch_summary.csv" ]
	check "Ctrl-C to the $target: no worker left" \
		[ -z "$(pgrep -f "$CSIM_BIN big -o bigout" || true)" ]
	check "Ctrl-C to the $target: says so" grep -q '^error: interrupted by SIGINT' "$tmp/.stderr"
	# Each stopped dump's folder goes; bigout too when no dump was converted.
	said=$(grep '^error: interrupted by SIGINT: ' "$tmp/.stderr" | tail -n 1)
	if [ "$said" = "error: interrupted by SIGINT: 0 of 4 dump(s) converted before it; removed bigout (created by this run)" ]; then
		check "Ctrl-C to the $target: no dump converted, bigout removed" [ ! -e "$tmp/bigout" ]
	else
		check "Ctrl-C to the $target: says what was kept ($said)" \
			[[ $said =~ ^error:\ interrupted\ by\ SIGINT:\ [1-3]\ of\ 4\ dump\(s\)\ converted\ before\ it,\ their\ outputs\ in\ bigout\ kept$ ]]
		check "Ctrl-C to the $target: only converted dumps' folders left" \
			[ "$(find "$tmp/bigout" -mindepth 1 -maxdepth 1 | wc -l)" -eq "$(find "$tmp/bigout" -name summary.json | wc -l)" ]
	fi
done
# SIGKILL of the batch (it cannot pass anything on): its workers die with
# it (a parent-death signal). Each worker of clean_sim_trace_failio pauses
# 3 s just before its commit point (its first renameat): the batch is
# killed while both wait there, so a worker that outlived it would be
# alive 0.1 s later and would commit its dump 3 s later.
: "${CSIM_FAILIO:?set CSIM_FAILIO to the clean_sim_trace_failio executable}"
mkdir -p "$tmp/pk/a/simulator" "$tmp/pk/b/simulator"
cp "$CSIM_ROOT/fixtures/demo/OPPROF_demo/simulator/visualize_data.bin" "$tmp/pk/a/simulator/"
"$CSIM_GEN" "$CSIM_ROOT/fixtures/cut/dump.recipe" "$tmp/pk/b/simulator/visualize_data.bin"
(cd "$tmp" && exec env CSIM_PAUSE_AT=renameat:1 CSIM_PAUSE_MS=3000 \
	"$CSIM_FAILIO" pk -o pkout -j 2 >/dev/null 2>&1) &
batch=$!
for _ in $(seq 500); do
	[ "$(find "$tmp/pkout" -name ".clean_sim_trace.commit.*" 2>/dev/null | wc -l)" -ge 2 ] && break
	sleep 0.01
done
check "SIGKILL of the batch: both workers at their commit point" \
	[ "$(find "$tmp/pkout" -name ".clean_sim_trace.commit.*" 2>/dev/null | wc -l)" -ge 2 ]
kill -KILL "$batch"
wait "$batch" 2>/dev/null || true
sleep 0.1
check "SIGKILL of the batch: no worker alive 0.1 s later" \
	[ -z "$(pgrep -f "$CSIM_FAILIO pk -o pkout" || true)" ]
sleep 3.5
check "SIGKILL of the batch: no dump committed after it" \
	[ -z "$(find "$tmp/pkout" -name summary.json 2>/dev/null)" ]

# Two batches into one -o: the second waits for the first's end (the
# folder's lock, held across the batch), so its summary describes the
# folders as its own workers left them. The first's workers pause 2 s at
# their commit point; the second, started meanwhile, is still running
# when the first has returned (without the lock it was long done).
(cd "$tmp" && exec env CSIM_PAUSE_AT=renameat:1 CSIM_PAUSE_MS=2000 \
	"$CSIM_FAILIO" pk -o pktwo -j 2 >/dev/null 2>"$tmp/first.err") &
first=$!
for _ in $(seq 500); do
	[ "$(find "$tmp/pktwo" -name ".clean_sim_trace.commit.*" 2>/dev/null | wc -l)" -ge 2 ] && break
	sleep 0.01
done
(cd "$tmp" && exec "$CSIM_BIN" pk -o pktwo -j 2 >/dev/null 2>"$tmp/second.err") &
second=$!
sleep 0.3
st=0
wait "$first" || st=$?
check "two batches into one -o: the first exits 0" [ "$st" -eq 0 ]
check "two batches into one -o: the second still runs when the first has returned" \
	kill -0 "$second"
st=0
wait "$second" || st=$?
check "two batches into one -o: the second exits 0" [ "$st" -eq 0 ]
check "two batches into one -o: the second said it waited" \
	grep -qx "note: waiting for another run writing into pktwo" "$tmp/second.err"
check "two batches into one -o: its summary lists both dumps ok" \
	[ "$(grep -c '"status":"ok"' "$tmp/pktwo/batch_summary.json")" -eq 2 ]
rm -rf "$tmp/bigout"

# A dump whose outputs cannot be written (a file-size limit the demo's fit
# under) into a folder the batch makes: that dump's folder goes, the
# converted dump's and the batch folder stay.
mkdir -p "$tmp/fs/small/simulator" "$tmp/fs/large/simulator"
cp "$tmp/demo.bin" "$tmp/fs/small/simulator/visualize_data.bin"
cp "$tmp/big/d1/simulator/visualize_data.bin" "$tmp/fs/large/simulator/visualize_data.bin"
status=0
(cd "$tmp" && ulimit -f 1024 && trap '' XFSZ &&
	"$CSIM_BIN" fs -o fsout --no-copy-raw >"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
check "a dump's write fails in a batch: exit 1" [ "$status" -eq 1 ]
check "a dump's write fails in a batch: its folder removed, said" grep -qx \
	"FAILED fs/large: cannot write fsout/large/trace.clean.json: File too large; no older outputs in fsout/large; removed fsout/large (created by this run)" "$tmp/.stdout"
check "a dump's write fails in a batch: no folder of it left" [ ! -e "$tmp/fsout/large" ]
check "a dump's write fails in a batch: the other dump's outputs and the summaries stay" \
	[ "$(ls "$tmp/fsout" | tr '\n' ' ')" = "batch_summary.csv batch_summary.json small " ]
# Folder names from the tree are printed escaped: an ESC sequence cannot
# colour the terminal, a newline cannot split a line a script reads.
esc=$'k\e[31m\nred'
mkdir -p "$tmp/ctl/$esc/simulator" "$tmp/ctl/plain/simulator"
cp "$tmp/demo.bin" "$tmp/ctl/$esc/simulator/visualize_data.bin"
cp "$tmp/demo.bin" "$tmp/ctl/plain/simulator/visualize_data.bin"
run "$tmp" ctl -o ctl_out --no-copy-raw
check "control characters in a folder name: exit 0" [ "$status" -eq 0 ]
check "control characters in a folder name: the ok line escaped" contains "$out" 'ok ctl/k\x1b[31m\x0ared: '
check "control characters in a folder name: no ESC byte printed" [ "$(printf '%s%s' "$out" "$err" | tr -d -c '\033' | wc -c)" -eq 0 ]
check "control characters in a folder name: one line per dump" [ "$(printf '%s' "$out" | grep -c '^ok ')" -eq 2 ]

# A dump whose simulator folder is a link out of the tree: not followed,
# said; -o at a dump folder of the tree: that dump is not converted, said.
mkdir -p "$tmp/lk/tree/real/simulator" "$tmp/lk/outside/simulator" "$tmp/lk/tree/linked"
cp "$tmp/demo.bin" "$tmp/lk/tree/real/simulator/visualize_data.bin"
cp "$tmp/demo.bin" "$tmp/lk/outside/simulator/visualize_data.bin"
ln -s ../../outside/simulator "$tmp/lk/tree/linked/simulator"
run "$tmp/lk" tree -o out
check "simulator link out of the tree: exit 0" [ "$status" -eq 0 ]
check "simulator link out of the tree: said" contains "$err" "warning: not converting tree/linked: its simulator folder is a link, and the walk follows no link (pass the link's target)"
check "simulator link out of the tree: not converted, nothing copied from outside" [ ! -e "$tmp/lk/out/linked" ]
check "simulator link out of the tree: the other dump converted" [ -e "$tmp/lk/out/real/trace.clean.json" ]
rm -rf "$tmp/lk/out"
run "$tmp/lk" tree -o tree/real
check "-o at a dump folder: said" contains "$err" "warning: not converting tree/real: it is the output folder (-o); give -o a folder that holds no dump"

finish
