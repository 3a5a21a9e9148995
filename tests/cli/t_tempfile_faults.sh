#!/usr/bin/env bash
# Faults of the reading's temporary file (slice_store: the kept rows'
# locations past 64 Ki rows go to a file with no name, O_TMPFILE), injected
# by clean_sim_trace_failio on the calls made on unnamed files only
# (pread-unlinked, pwrite-unlinked). A file that cannot be made or written
# leaves the rows in memory: exit 0 and the same bytes. A location that
# cannot be read back is exit 1 naming the dump and what failed, the older
# outputs kept byte for byte, no temporary file left.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_FAILIO:?set CSIM_FAILIO to the clean_sim_trace_failio executable}"
: "${CSIM_SYNTH:?set CSIM_SYNTH to the gen_synth executable}"

# 34 MB of the dense-heavy shape: 79 k kept rows, so the first 64 Ki go to
# the file (the step the store spills at).
mkdir -p "$tmp/d/sim"
"$CSIM_SYNTH" --seed 1 --profile dense-heavy 34 "$tmp/d/sim/visualize_data.bin"
outputs="trace.clean.json instr_metrics.json summary.json summary.html"

# fio OUT VAR=VALUE...: the failio build converts the dump into d/OUT with
# VAR set; sets $status, $err and $counts (its call counts).
fio() {
	local o=$1
	shift
	status=0
	(cd "$tmp/d" && env CSIM_FAIL_IO_REPORT=1 "$@" "$CSIM_FAILIO" sim -o "$o" --no-copy-raw -q \
		>"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
	counts=$(sed -n 's/^failio: //p' "$tmp/.stderr")
	err=$(grep -v '^failio: ' "$tmp/.stderr" || true)
}
count() { awk -v op="$1" '{ for (i = 1; i < NF; i++) if ($i == op) print $(i + 1) }' <<<"$counts"; }
same_as_ref() {
	local f
	for f in $outputs; do
		cmp -s "$tmp/d/ref/$f" "$tmp/d/$1/$f" || return 1
	done
}

fio ref
check "reference: exit 0" [ "$status" -eq 0 ]
check "reference: the locations went to the file ($(count pwrite-unlinked) write(s))" \
	[ "$(count pwrite-unlinked)" -ge 1 ]
check "reference: and came back from it ($(count pread-unlinked) read(s))" \
	[ "$(count pread-unlinked)" -ge 2 ]
reads=$(count pread-unlinked)

# The file cannot be written (ENOSPC): the rows stay in memory.
fio nowrite CSIM_FAIL_IO=pwrite-unlinked:1
check "write fails: exit 0" [ "$status" -eq 0 ]
check "write fails: nothing read back from the file" [ "$(count pread-unlinked)" -eq 0 ]
check "write fails: the same outputs" same_as_ref nowrite

# No file can be made (TMPDIR a folder that does not exist).
fio nofile TMPDIR="$tmp/no-such-dir"
check "no file: exit 0" [ "$status" -eq 0 ]
check "no file: nothing written to one" [ "$(count pwrite-unlinked)" -eq 0 ]
check "no file: the same outputs" same_as_ref nofile

# Every read back fails (EIO), over an older set: exit 1, the set kept.
cp -r "$tmp/d/ref" "$tmp/d/older"
fio older CSIM_FAIL_IO='pread-unlinked:*'
check "reads fail: exit 1" [ "$status" -eq 1 ]
check "reads fail: the message" [ "$err" = "error: sim/visualize_data.bin: cannot read back the slice locations kept in a temporary file: Input/output error; older outputs in older kept: trace.clean.json, instr_metrics.json, summary.json, summary.html" ]
check "reads fail: older outputs untouched" same_as_ref older
check "reads fail: no temporary file" [ -z "$(find "$tmp/d/older" -name '.*')" ]

# Each read back failing in turn (lib.sh's sweep_points: a sample, or
# every read): a read the writers can do without (planning the trace's
# stretches, or the trace thread's, which hands the rows to the main
# thread) gives the same bytes; any other ends the run with the message and
# no folder. Nothing else may happen, and, without a sanitizer (whose
# threads interleave otherwise), both must.
recovered=0 ended=0 other=""
for k in $(sweep_points 1 "$reads"); do
	rm -rf "$tmp/d/k"
	fio k CSIM_FAIL_IO="pread-unlinked:$k"
	if [ "$status" -eq 0 ] && same_as_ref k; then
		recovered=$((recovered + 1))
	elif [ "$status" -eq 1 ] && [ ! -e "$tmp/d/k" ] &&
		contains "$err" "error: sim/visualize_data.bin: cannot read back the slice locations kept in a temporary file: Input/output error"; then
		ended=$((ended + 1))
	else
		other+=" $k(status $status)"
	fi
done
check "read k fails: the same bytes or exit 1, nothing else (${other:-none})" [ -z "$other" ]
if [ -z "${CSIM_SANITIZER:-}" ]; then
	check "read k fails: some recovered ($recovered), some ended the run ($ended)" \
		[ "$recovered" -ge 1 -a "$ended" -ge 1 ]
fi
finish
