#!/usr/bin/env bash
# No helper thread can start (a process or cgroup at its thread limit):
# the scanning thread, the gzip reader's thread, the metrics writer's and
# the trace writer's second thread each fall back to doing the same work on
# the main thread. With every pthread_create failing (tests/tools/failio.c)
# a conversion must succeed with the same bytes as one with threads, on a
# dump big enough for every helper to be tried (a TRACE over 8 MiB, an
# API_INSTR over 1 MiB), plain and gzip.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_FAILIO:?set CSIM_FAILIO to the clean_sim_trace_failio executable}"
: "${CSIM_SYNTH:?set CSIM_SYNTH to the gen_synth executable}"

mkdir -p "$tmp/plain/sim" "$tmp/gz/sim"
"$CSIM_SYNTH" --seed 5 12 "$tmp/plain/sim/visualize_data.bin"
gzip -1 -c "$tmp/plain/sim/visualize_data.bin" >"$tmp/gz/sim/visualize_data.bin.gz"

no_error() { ! grep -q '^error' "$1"; }

for form in plain gz; do
	d=$tmp/$form
	st=0
	(cd "$d" && CSIM_FAIL_IO_REPORT=1 "$CSIM_FAILIO" sim -o threads --no-copy-raw \
		>/dev/null 2>"$tmp/.stderr") || st=$?
	threads=$(sed -n 's/^failio: .* pthread_create \([0-9]*\) .*/\1/p' "$tmp/.stderr")
	check "$form: with threads: exit 0" [ "$st" -eq 0 ]
	check "$form: helper threads were started (${threads:-none})" [ "${threads:-0}" -ge 1 ]
	st=0
	(cd "$d" && CSIM_FAIL_IO='pthread_create:*' "$CSIM_FAILIO" sim -o alone --no-copy-raw \
		>/dev/null 2>"$tmp/.stderr") || st=$?
	check "$form: no thread can start: exit 0" [ "$st" -eq 0 ]
	check "$form: no thread can start: no error" no_error "$tmp/.stderr"
	check "$form: no thread can start: the same bytes" diff -r "$d/threads" "$d/alone"
done
finish
