#!/usr/bin/env bash
# instr_metrics.json written on a second thread (write/metrics_thread.h)
# while the passes and the other outputs run on the main one:
#   - the outputs are byte for byte those of the in-line write (-j 2 writes
#     in line), whether the output folder exists before the run (the thread
#     starts after the reading) or is made by it (the thread starts at the
#     writing), reshaped and --raw-metrics, from a plain and a gzip dump;
#   - SIGINT while the thread runs: exit 130, the older outputs kept, no
#     temporary file.
# The sanitizer build writes every dump's metrics on the thread (CI sets
# CSIM_METRICS_THREAD_MIN_BYTES=1), so the whole suite covers it too.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_SYNTH:?set CSIM_SYNTH to the gen_synth executable}"

d=$tmp/d
mkdir -p "$d"
# A 3 MB API_INSTR: over the 1 MiB below which the write stays in line.
"$CSIM_SYNTH" --profile dense --instr-mb 3 1 "$d/m.bin"
gzip -1 -c "$d/m.bin" >"$d/m.bin.gz"

# same NAME A B: the four outputs of folders A and B are the same bytes
# (the summaries but the lines naming the dump, when B is of the gzip copy).
same() {
	local cmp=cmp

	[ "$3" = gz ] && cmp=cmp_but_names
	for f in trace.clean.json instr_metrics.json summary.json summary.html; do
		check "$1: $f as in line" "$cmp" "$d/$2/$f" "$d/$3/$f"
	done
}

run "$d" m.bin -o line --no-copy-raw -j 2
check "in line (-j 2): exit 0" [ "$status" -eq 0 ]
run "$d" m.bin -o new --no-copy-raw
check "thread, folder made by the run: exit 0" [ "$status" -eq 0 ]
same "thread, folder made by the run" line new
mkdir -p "$d/old"
echo '{"old":"metrics"}' >"$d/old/instr_metrics.json"
run "$d" m.bin -o old --no-copy-raw
check "thread, folder there before: exit 0" [ "$status" -eq 0 ]
same "thread, folder there before" line old
check "thread: no temporary file" [ -z "$(find "$d/new" "$d/old" -name '.*')" ]
run "$d" m.bin.gz -o gz --no-copy-raw
check "thread, gzip input: exit 0" [ "$status" -eq 0 ]
same "thread, gzip input" line gz
names_dump "thread, gzip input" "$d/gz" m.bin.gz "$d/m.bin.gz"

run "$d" m.bin -o rawline --no-copy-raw --raw-metrics -j 2
run "$d" m.bin -o raw --no-copy-raw --raw-metrics
check "--raw-metrics on the thread: exit 0" [ "$status" -eq 0 ]
same "--raw-metrics on the thread" rawline raw

# --- SIGINT while the thread writes ------------------------------------------
# The thread shows in /proc/PID/task as csim_metrics; the signal is sent
# once it does. Job control leaves SIGINT caught (a script's background
# job ignores it).
"$CSIM_SYNTH" --profile dense --instr-mb 40 4 "$d/sig.bin"
mkdir -p "$d/sigout"
convert_sig() { cd "$d" && exec "$CSIM_BIN" sig.bin -o sigout --no-copy-raw >"$tmp/.stdout" 2>"$tmp/.stderr"; }
signal_reset='echo "{\"old\":\"metrics\"}" >"$d/sigout/instr_metrics.json"' signal_poll=0.002
signal_when INT 130 5 4000 'grep -qx csim_metrics /proc/"$pid"/task/*/comm 2>/dev/null' convert_sig
err=$(cat "$tmp/.stderr")
check "SIGINT while the thread writes: exit 130 (attempt $attempt, status $status)" [ "$caught" -eq 1 ]
check "SIGINT while the thread writes: says so" [ "$err" = \
	"error: interrupted by SIGINT: temporary files removed; older outputs in sigout kept: instr_metrics.json" ]
check "SIGINT while the thread writes: older output untouched" \
	[ "$(cat "$d/sigout/instr_metrics.json")" = '{"old":"metrics"}' ]
check "SIGINT while the thread writes: nothing else in the folder" \
	[ "$(ls -A "$d/sigout")" = instr_metrics.json ]
finish
