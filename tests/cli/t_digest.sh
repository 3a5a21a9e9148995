#!/usr/bin/env bash
# Output is byte-identical before and after every optimization: a 20 MB
# synthetic dump must convert to the digests recorded (and reviewed) before
# the performance work began (tests/bench/digest_20mb.txt). The run is also
# repeated from a gzip copy of the same dump.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_SYNTH:?set CSIM_SYNTH to the gen_synth executable}"

digests="$CSIM_ROOT/tests/bench/digest_20mb.txt"
mkdir -p "$tmp/d"
"$CSIM_SYNTH" --seed 1 20 "$tmp/d/visualize_data.bin"
run "$tmp/d" visualize_data.bin -o out --no-copy-raw
check "exit 0" [ "$status" -eq 0 ]
check "digests match the reviewed pre-optimization run" \
	bash -c "cd '$tmp/d' && grep -v '^#' '$digests' | sha256sum --quiet -c -"
names_dump "plain" "$tmp/d/out" visualize_data.bin "$tmp/d/visualize_data.bin"
gzip -c "$tmp/d/visualize_data.bin" >"$tmp/d/gz.bin"
run "$tmp/d" gz.bin -o gzout --no-copy-raw
names_dump "gzip" "$tmp/d/gzout" gz.bin "$tmp/d/gz.bin"
check "gzip input gives the same trace" cmp_but_names "$tmp/d/out/trace.clean.json" "$tmp/d/gzout/trace.clean.json"
check "gzip input: the metadata names the gzip copy" \
	grep -q '"dump":"gz.bin","dump_bytes":'"$(stat -c %s "$tmp/d/gz.bin")"',' "$tmp/d/gzout/trace.clean.json"
check "gzip input gives the same metrics" cmp "$tmp/d/out/instr_metrics.json" "$tmp/d/gzout/instr_metrics.json"
finish
