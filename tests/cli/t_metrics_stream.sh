#!/usr/bin/env bash
# instr_metrics.json without holding the API_INSTR: a plain
# file's payload is read where it lies, twice, through a bounded window.
#   - a row larger than the window: the same bytes as from the gzip copy
#     (whose payload is held in memory), as derived by hand, and
#     --raw-metrics gives the payload back byte for byte;
#   - peak RSS does not grow with the API_INSTR (3 vs 12 MB, same trace);
#   - a write failure in a part written in place (a file-size limit, as in
#     t_faults) exits 3, keeps the older outputs and leaves no temporary file.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_SYNTH:?set CSIM_SYNTH to the gen_synth executable}"

big=1600000   # bytes of one Source value: the window holds 1 MiB
mkdir -p "$tmp/big" "$tmp/bigz"
cp "$CSIM_ROOT/fixtures/scenarios/instr_no_dtype/trace.json" "$tmp/big/"
long=$(head -c "$big" /dev/zero | tr '\0' 'a')
printf '{"Cores":["core0.veccore0","core0.veccore1"],"Instructions":[{"Address":"0x1","Cycles":[5,6],"Pipe":"MTE2","Source":"%s"},\n{"Address":"0x2","Cycles":[7,8],"Pipe":"VEC","Source":"B"}]}' \
	"$long" >"$tmp/big/instr.json"
printf 'trace trace.json\ninstr instr.json\n' >"$tmp/big/dump.recipe"
"$CSIM_GEN" "$tmp/big/dump.recipe" "$tmp/big/visualize_data.bin"
gzip -c "$tmp/big/visualize_data.bin" >"$tmp/bigz/visualize_data.bin.gz"

run "$tmp/big" visualize_data.bin -o out --no-copy-raw
check "big row: exit 0" [ "$status" -eq 0 ]
# By hand: core c takes element c of Cycles; the other fields are whole.
printf '{"cores":["core0.veccore0","core0.veccore1"],\n"instructions":{\n"core0.veccore0":[\n{"address":"0x1","cycles":5,"pipe":"MTE2","source":"%s"},\n{"address":"0x2","cycles":7,"pipe":"VEC","source":"B"}\n],\n"core0.veccore1":[\n{"address":"0x1","cycles":6,"pipe":"MTE2","source":"%s"},\n{"address":"0x2","cycles":8,"pipe":"VEC","source":"B"}\n]},\n"column_types":{}}\n' \
	"$long" "$long" >"$tmp/want.json"
check "big row: instr_metrics.json as derived by hand" cmp "$tmp/big/out/instr_metrics.json" "$tmp/want.json"
run "$tmp/bigz" visualize_data.bin.gz -o out --no-copy-raw
check "big row, gzip input: exit 0" [ "$status" -eq 0 ]
check "big row: instr_metrics.json from the file = from memory (gzip)" \
	cmp "$tmp/big/out/instr_metrics.json" "$tmp/bigz/out/instr_metrics.json"
for f in trace.clean.json summary.json; do
	check "big row: $f from the file = from memory (gzip) but its input" \
		cmp_but_names "$tmp/big/out/$f" "$tmp/bigz/out/$f"
done
names_dump "big row, gzip input" "$tmp/bigz/out" visualize_data.bin.gz "$tmp/bigz/visualize_data.bin.gz"
run "$tmp/big" visualize_data.bin -o raw --no-copy-raw --raw-metrics
check "big row, --raw-metrics: the payload byte for byte" cmp "$tmp/big/raw/instr_metrics.json" "$tmp/big/instr.json"

# Peak RSS with a 3 and a 12 MB API_INSTR: the trace is the same, the
# reshaped file 8x larger; holding the payload grew RSS by ~4.5x its size.
rss() {
	/usr/bin/time -f %M "$CSIM_BIN" "$tmp/rss/$1.bin" -o "$tmp/rss/out$1" --no-copy-raw -q \
		2>"$tmp/rss/$1.time"
	tail -n 1 "$tmp/rss/$1.time"
}
mkdir -p "$tmp/rss"
"$CSIM_SYNTH" --profile dense --instr-mb 3 1 "$tmp/rss/3.bin"
"$CSIM_SYNTH" --profile dense --instr-mb 12 1 "$tmp/rss/12.bin"
small=$(rss 3)
large=$(rss 12)
echo "# peak RSS: ${small} KB with a 3 MB API_INSTR, ${large} KB with 12 MB"
if [ -z "${CSIM_SANITIZER:-}" ]; then
	check "RSS does not grow with the API_INSTR (within 4 MB)" [ "$((large - small))" -lt 4096 ]
fi
rm -rf "$tmp/rss/out12"

# The reshaped file (~22 MB) is larger than the 1 MiB buffer, so its parts
# are written in place; the trace (~0.5 MB) fits under the limit.
mkdir -p "$tmp/lim"
cp "$tmp/rss/3.bin" "$tmp/lim/visualize_data.bin"
run "$tmp/lim" visualize_data.bin -o out --no-copy-raw
check "limit: first run exit 0" [ "$status" -eq 0 ]
cp -r "$tmp/lim/out" "$tmp/lim/good"
status=0
(cd "$tmp/lim" && ulimit -f 2048 && trap '' XFSZ &&
	"$CSIM_BIN" visualize_data.bin -o out --no-copy-raw >"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
err=$(cat "$tmp/.stderr")
check "limit: exit 3" [ "$status" -eq 3 ]
check "limit: message" contains "$err" "error: cannot write out/instr_metrics.json: File too large"
for f in instr_metrics.json summary.json summary.html trace.clean.json; do
	check "limit: older $f untouched" cmp "$tmp/lim/good/$f" "$tmp/lim/out/$f"
done
check "limit: no temporary file" [ "$(find "$tmp/lim/out" -name '.*' | wc -l)" -eq 0 ]
finish
