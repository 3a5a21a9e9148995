#!/usr/bin/env bash
# gzip input on the second thread (read/gz_source.h: a .gz of 256 KiB or
# more is inflated ahead of the scan, through a ring of four 1 MiB chunks).
# On producer-format dumps big enough for it:
#   - the outputs are byte for byte those of the plain dump, also from
#     several concatenated members followed by bytes that are no member;
#   - a corrupt member in the middle and a cut file: exit 1, the error names
#     the file, the offset reached and zlib's reason, no output is written;
#   - SIGINT while the thread runs: exit 130 soon after, the older outputs
#     kept, no temporary file;
#   - --check reads a big .gz trace as its inflated bytes.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_SYNTH:?set CSIM_SYNTH to the gen_synth executable}"

d=$tmp/d
mkdir -p "$d"
"$CSIM_SYNTH" --profile producer --seed 9 24 "$d/plain.bin"
gzip -1 -c "$d/plain.bin" >"$d/big.gz"
gz_size=$(stat -c %s "$d/big.gz")
check "the .gz is big enough for the thread ($gz_size bytes)" [ "$gz_size" -ge 524288 ]

run "$d" plain.bin -o plain --no-copy-raw
check "plain dump: exit 0" [ "$status" -eq 0 ]

# same NAME OUT: OUT's trace and metrics are the plain run's.
same() {
	check "$1: trace.clean.json as from the plain dump" cmp_but_names "$d/plain/trace.clean.json" "$d/$2/trace.clean.json"
	check "$1: instr_metrics.json as from the plain dump" cmp "$d/plain/instr_metrics.json" "$d/$2/instr_metrics.json"
}

run "$d" big.gz -o gz --no-copy-raw
check "one member: exit 0" [ "$status" -eq 0 ]
same "one member" gz

# Three members (the middle one empty) and bytes after them, as gzread has it.
half=$(( $(stat -c %s "$d/plain.bin") / 2 ))
head -c "$half" "$d/plain.bin" | gzip -1 >"$d/first.gz"
first=$(stat -c %s "$d/first.gz")
{
	cat "$d/first.gz"
	gzip -1 </dev/null
	tail -c +$((half + 1)) "$d/plain.bin" | gzip -1
	printf 'bytes that are no gzip member'
} >"$d/members.gz"
run "$d" members.gz -o members --no-copy-raw
check "three members and trailing bytes: exit 0" [ "$status" -eq 0 ]
same "three members and trailing bytes" members

# fails NAME FILE REASON: exit 1 with the gzip error, at a compressed byte
# of the file and an inflated offset that the inflated bytes reach, and
# nothing written. REASON "cut": the file ends inside a member.
fails() {
	local name=$1 file=$2 reason=$3 raw

	run "$d" "$file" -o "out_$file" --no-copy-raw
	check "$name: exit 1" [ "$status" -eq 1 ]
	if [ "$reason" = cut ]; then
		raw=$(echo "$err" | sed -n "s/^error: $file: truncated gzip stream: the file ends at compressed byte \([0-9]*\) (inflated offset [0-9]*)\$/\1/p")
		check "$name: the cut is at the file's end ($raw)" [ "${raw:-x}" = "$(wc -c <"$d/$file")" ]
	else
		raw=$(echo "$err" | sed -n "s/^error: $file: corrupt gzip data near compressed byte \([0-9]*\) (inflated offset [0-9]*): $reason\$/\1/p")
		check "$name: the compressed byte lies in the file (${raw:-?})" \
			[ "${raw:-999999999999}" -le "$(wc -c <"$d/$file")" ]
	fi
	at=$(echo "$err" | sed -n "s/^error: $file: .* (inflated offset \([0-9]*\)).*/\1/p")
	check "$name: error names the file, the compressed byte and the reason: $err" [ -n "$raw" ]
	check "$name: and the inflated offset" [ -n "$at" ]
	check "$name: the inflated offset lies within the dump (${at:-?} < $((2 * half + 2)))" \
		[ "${at:-999999999999}" -lt $((2 * half + 2)) ]
	check "$name: no output written" [ -z "$(ls -A "$d/out_$file" 2>/dev/null)" ]
	echo "# $name: $err"
}

# The second member's compression method byte (8) made 9: every byte of the
# first member comes, then inflate refuses the header.
cp "$d/members.gz" "$d/badmember.gz"
printf '\x09' | dd of="$d/badmember.gz" bs=1 seek=$((first + 2)) conv=notrunc 2>/dev/null
fails "corrupt member in the middle" badmember.gz "unknown compression method"
check "corrupt member in the middle: at the first member's end at most" \
	[ "${at:-999999999999}" -le "$half" ]

head -c $((gz_size / 2)) "$d/big.gz" >"$d/cut.gz"
fails "cut in the middle" cut.gz cut

# --- SIGINT while the thread inflates ------------------------------------
# The thread shows in /proc/PID/task; the signal is sent once it does. Job
# control leaves SIGINT caught (a script's background job ignores it).
"$CSIM_SYNTH" --profile producer --seed 10 60 "$d/sig.bin"
gzip -1 -c "$d/sig.bin" >"$d/sig.gz"
rm "$d/sig.bin"
caught=0
for attempt in 1 2 3 4 5; do
	# Afresh each time: an attempt the signal missed converted into it.
	rm -rf "$d/sigout"
	mkdir -p "$d/sigout"
	echo '{"old":true}' >"$d/sigout/trace.clean.json"
	set -m
	(cd "$d" && exec "$CSIM_BIN" sig.gz -o sigout --no-copy-raw >"$tmp/.stdout" 2>"$tmp/.stderr") &
	pid=$!
	set +m
	seen=0
	for _ in $(seq 4000); do
		if [ "$(ls /proc/"$pid"/task 2>/dev/null | wc -l)" -ge 2 ]; then
			seen=1
			break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.002
	done
	sent=$(date +%s%N)
	kill -INT "$pid" 2>/dev/null || true
	status=0
	wait "$pid" || status=$?
	took_ms=$((($(date +%s%N) - sent) / 1000000))
	echo "# SIGINT attempt $attempt: thread seen $seen, exit $status, $took_ms ms"
	if [ "$seen" -eq 1 ] && [ "$status" -eq 130 ]; then
		caught=1
		break
	fi
done
err=$(cat "$tmp/.stderr")
check "SIGINT while inflating: exit 130 (attempt $attempt, status $status)" [ "$caught" -eq 1 ]
check "SIGINT while inflating: says so" [ "$err" = \
	"error: interrupted by SIGINT: temporary files removed; older outputs in sigout kept: trace.clean.json" ]
check "SIGINT while inflating: ends within 2 s ($took_ms ms)" [ "$took_ms" -lt 2000 ]
check "SIGINT while inflating: older output untouched" [ "$(cat "$d/sigout/trace.clean.json")" = '{"old":true}' ]
check "SIGINT while inflating: nothing else in the folder" [ "$(ls -A "$d/sigout")" = trace.clean.json ]

# --- --check over a big .gz trace ------------------------------------------
gzip -1 -c "$d/plain/trace.clean.json" >"$d/trace.gz"
check "the trace's .gz is big enough for the thread" [ "$(stat -c %s "$d/trace.gz")" -ge 262144 ]
run "$d" --check plain/trace.clean.json
check "--check plain trace: exit 0" [ "$status" -eq 0 ]
plain_line=${out#*: }
run "$d" --check trace.gz
check "--check big .gz trace: exit 0" [ "$status" -eq 0 ]
check "--check big .gz trace: the plain trace's counts" [ "${out#*: }" = "$plain_line" ]
finish
