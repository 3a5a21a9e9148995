#!/usr/bin/env bash
# Write failures and a SIGTERM or SIGINT in the middle of an output: a file-size limit (ulimit -f,
# with SIGXFSZ ignored so write() fails with EFBIG as on a full disk) makes
# the n-th kilobyte unwritable. The run must exit 3 with a message, leave
# the previous good outputs byte for byte, and leave no temporary file.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo" "$tmp/OPPROF_demo"
run "$tmp" OPPROF_demo -o out
check "first run: exit 0" [ "$status" -eq 0 ]
cp -r "$tmp/out" "$tmp/good"

# limited KB: runs the converter with files capped at that size (the
# command in limited_bin when set, else CSIM_BIN).
limited_bin=()
limited() {
	local kb=$1
	shift
	status=0
	(cd "$tmp" && ulimit -f "$kb" && trap '' XFSZ &&
		"${limited_bin[@]:-$CSIM_BIN}" "$@" >"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
	out=$(cat "$tmp/.stdout")
	err=$(cat "$tmp/.stderr")
}

leftovers() { find "$tmp/out" -name '.*' | wc -l; }

# The 7.5 KB trace cannot be written: nothing may change.
limited 4 OPPROF_demo -o out
check "trace write fails: exit 3" [ "$status" -eq 3 ]
check "trace write fails: message" contains "$err" "error: cannot write out/trace.clean.json: File too large"
check "trace write fails: older trace untouched" cmp "$tmp/good/trace.clean.json" "$tmp/out/trace.clean.json"
check "trace write fails: older metrics untouched" cmp "$tmp/good/instr_metrics.json" "$tmp/out/instr_metrics.json"
check "trace write fails: older raw copy untouched" diff -r "$tmp/good/raw_simulator" "$tmp/out/raw_simulator"
check "trace write fails: no temporary file" [ "$(leftovers)" -eq 0 ]
check "trace write fails: nothing announced" [ -z "$out" ]
check "trace write fails: says what was kept" \
	[ "$err" = "error: cannot write out/trace.clean.json: File too large; older outputs in out kept: trace.clean.json, instr_metrics.json, summary.json, summary.html, raw_simulator/" ]

# Into a folder the run makes: the folder goes with the failure (every
# folder the run made, and nothing else), and the message says so.
limited 4 OPPROF_demo -o new
check "trace write fails, new -o: exit 3" [ "$status" -eq 3 ]
check "trace write fails, new -o: no folder left" [ ! -e "$tmp/new" ]
check "trace write fails, new -o: says so" \
	[ "$err" = "error: cannot write new/trace.clean.json: File too large; no older outputs in new; removed new (created by this run)" ]
mkdir -p "$tmp/there"
limited 4 OPPROF_demo -o there/a/b
check "trace write fails, new -o two folders deep: exit 3" [ "$status" -eq 3 ]
check "trace write fails, new -o two folders deep: the folders it made removed, the one before kept" \
	[ "$(ls -A "$tmp/there" 2>&1)" = "" ]
check "trace write fails, new -o two folders deep: says so" \
	[ "$err" = "error: cannot write there/a/b/trace.clean.json: File too large; no older outputs in there/a/b; removed there/a/b and the folders above it up to there/a (created by this run)" ]
# A folder there before the run, without outputs: kept as it was.
mkdir -p "$tmp/empty"
echo mine >"$tmp/empty/notes.txt"
limited 4 OPPROF_demo -o empty
check "trace write fails, folder without outputs: exit 3" [ "$status" -eq 3 ]
check "trace write fails, folder without outputs: kept as it was" [ "$(ls -A "$tmp/empty")" = notes.txt ]
check "trace write fails, folder without outputs: says so" \
	[ "$err" = "error: cannot write empty/trace.clean.json: File too large; no older outputs in empty" ]

# Outputs fit, a 64 KB file of the simulator folder in the raw copy does
# not (SPEC §8: the set commits as one, so exit 3 and the whole older set
# stays, the older raw copy and the older outputs): the limit is the first
# whole KB above the largest output (summary.html, larger than the demo's
# 16 KB dump). The copy must write bytes: clean_sim_trace_failio refuses
# the reflink (EOPNOTSUPP, as ext4 does), whatever this file system is.
: "${CSIM_FAILIO:?set CSIM_FAILIO to the clean_sim_trace_failio executable}"
head -c 65536 /dev/zero >"$tmp/OPPROF_demo/simulator/big.log"
largest=$(for f in "$tmp/good"/*.json "$tmp/good"/*.html; do wc -c <"$f"; done | sort -n | tail -n 1)
kb=$((largest / 1024 + 1))
check "raw copy fails: a limit between the outputs and the big file" \
	[ $((kb * 1024)) -lt 65536 ]
echo older >"$tmp/out/raw_simulator/marker"
echo '{"older":1}' >"$tmp/out/summary.json"
limited_bin=(env 'CSIM_FAIL_IO=ioctl:*' "$CSIM_FAILIO")
limited "$kb" OPPROF_demo -o out
check "raw copy fails: exit 3" [ "$status" -eq 3 ]
check "raw copy fails: names the destination" contains "$err" "error: cannot write out/raw_simulator/big.log: File too large"
check "raw copy fails: older copy kept" [ "$(cat "$tmp/out/raw_simulator/marker")" = older ]
check "raw copy fails: no temporary folder" [ "$(leftovers)" -eq 0 ]
check "raw copy fails: older outputs kept" [ "$(cat "$tmp/out/summary.json")" = '{"older":1}' ]
check "raw copy fails: nothing announced" [ -z "$out" ]
limited "$kb" OPPROF_demo -o newraw
check "raw copy fails, new -o: exit 3" [ "$status" -eq 3 ]
check "raw copy fails, new -o: no folder left (nor raw_simulator/)" [ ! -e "$tmp/newraw" ]
check "raw copy fails, new -o: says so" contains "$err" \
	"error: cannot write newraw/raw_simulator/big.log: File too large; no older outputs in newraw; removed newraw (created by this run)"
limited_bin=()
rm "$tmp/OPPROF_demo/simulator/big.log"

# A run waiting for the lock of a folder another run made finds it removed
# when that run fails (it removes it before letting the lock go): it makes
# the folder again and writes its set. The first run pauses at its first
# fsync (clean_sim_trace_failio), the outputs written, then fails there.
: "${CSIM_FAILIO:?set CSIM_FAILIO to the clean_sim_trace_failio executable}"
waited=0
for attempt in 1 2 3; do
	rm -rf "$tmp/shared"
	(cd "$tmp" && exec env CSIM_PAUSE_AT=fsync:1 CSIM_PAUSE_MS=1500 CSIM_FAIL_IO=fsync:1 \
		"$CSIM_FAILIO" OPPROF_demo -o shared --no-copy-raw >/dev/null 2>"$tmp/.first") &
	first=$!
	for _ in $(seq 1000); do
		compgen -G "$tmp/shared/.trace.clean.json.*" >/dev/null && break
		kill -0 "$first" 2>/dev/null || break
		sleep 0.005
	done
	run "$tmp" OPPROF_demo -o shared --no-copy-raw
	first_status=0
	wait "$first" || first_status=$?
	if contains "$err" "note: waiting for another run writing into shared"; then
		waited=1
		break
	fi
done
check "a run waiting for the lock (attempt $attempt): it waited" [ "$waited" -eq 1 ]
check "a run waiting for the lock: the first run failed, exit 3" [ "$first_status" -eq 3 ]
check "a run waiting for the lock: the first run removed the folder it made" contains \
	"$(cat "$tmp/.first")" "No space left on device; no older outputs in shared; removed shared (created by this run)"
check "a run waiting for the lock: the second run made it again, exit 0 ($err)" [ "$status" -eq 0 ]
check "a run waiting for the lock: its set is there" \
	[ "$(ls -A "$tmp/shared" | tr '\n' ' ')" = "instr_metrics.json summary.html summary.json trace.clean.json " ]

# The run that made the folder and failed removes it once, under its lock:
# a removal after the lock goes would take the folder a waiting run has
# just made again (seen under TSan: that run's trace then had no folder).
rm -rf "$tmp/once"
status=0
(cd "$tmp" && exec env CSIM_FAIL_IO=fsync:1 CSIM_FAIL_IO_REPORT=1 \
	"$CSIM_FAILIO" OPPROF_demo -o once --no-copy-raw >/dev/null 2>"$tmp/.first") || status=$?
rmdirs=$(sed -n 's/^failio: .* rmdir \([0-9]*\) .*/\1/p' "$tmp/.first")
check "a failed run into a folder it made: exit 3" [ "$status" -eq 3 ]
check "a failed run into a folder it made: removed" [ ! -e "$tmp/once" ]
check "a failed run into a folder it made: one removal, under the lock (${rmdirs:-none})" \
	[ "${rmdirs:-0}" -eq 1 ]
rm -rf "$tmp/deep"
status=0
(cd "$tmp" && exec env CSIM_FAIL_IO=fsync:1 CSIM_FAIL_IO_REPORT=1 \
	"$CSIM_FAILIO" OPPROF_demo -o deep/a/b --no-copy-raw >/dev/null 2>"$tmp/.first") || status=$?
rmdirs=$(sed -n 's/^failio: .* rmdir \([0-9]*\) .*/\1/p' "$tmp/.first")
check "a failed run into folders it made: exit 3" [ "$status" -eq 3 ]
check "a failed run into folders it made: all removed" [ ! -e "$tmp/deep" ]
check "a failed run into folders it made: says so" contains "$(cat "$tmp/.first")" \
	"removed deep/a/b and the folders above it up to deep (created by this run)"
check "a failed run into folders it made: each removed once (${rmdirs:-none})" \
	[ "${rmdirs:-0}" -eq 3 ]

# SIGTERM while the trace is being written (a CI timeout): the process ends
# by SIGTERM (status 143) after removing its temporary file; the older
# output stays. The signal is sent once the temporary file exists; should
# the run finish first, it is tried again.
: "${CSIM_SYNTH:?set CSIM_SYNTH to the gen_synth executable}"
mb=40
[ -n "${CSIM_REAL_BIN:-}" ] && mb=4   # under valgrind: 4 MB is slow enough
mkdir -p "$tmp/big/sim" "$tmp/big/out"
"$CSIM_SYNTH" --seed 3 "$mb" "$tmp/big/sim/visualize_data.bin"
convert_big() { cd "$tmp/big" && exec "$CSIM_BIN" sim -o "$1" --no-copy-raw >"$tmp/.stdout" 2>"$tmp/.stderr"; }
signal_reset='echo "{\"old\":true}" >"$tmp/big/out/trace.clean.json"'
signal_when TERM 143 5 12000 'compgen -G "$tmp/big/out/.trace.clean.json.*" >/dev/null' convert_big out
err=$(cat "$tmp/.stderr")
check "SIGTERM mid-write: ends by SIGTERM (attempt $attempt, status $status)" [ "$caught" -eq 1 ]
check "SIGTERM mid-write: says what was kept" \
	[ "$err" = "error: interrupted by SIGTERM: temporary files removed; older outputs in out kept: trace.clean.json" ]
check "SIGTERM mid-write: older output untouched" [ "$(cat "$tmp/big/out/trace.clean.json")" = '{"old":true}' ]
check "SIGTERM mid-write: no temporary file" [ -z "$(find "$tmp/big/out" -name '.*')" ]
check "SIGTERM mid-write: nothing else written" [ "$(ls -A "$tmp/big/out")" = trace.clean.json ]

# SIGINT (Ctrl-C) late, the trace being written into a folder the run
# made: the folder goes. Job control leaves SIGINT caught in the job (a
# background job of a script ignores it otherwise).
signal_reset='rm -rf "$tmp/big/fresh"'
signal_when INT 130 5 12000 'compgen -G "$tmp/big/fresh/.trace.clean.json.*" >/dev/null' convert_big fresh
err=$(cat "$tmp/.stderr")
check "SIGINT mid-write into a new folder: ends by SIGINT (attempt $attempt, status $status)" [ "$caught" -eq 1 ]
check "SIGINT mid-write into a new folder: the folder removed" [ ! -e "$tmp/big/fresh" ]
check "SIGINT mid-write into a new folder: says so" \
	[ "$err" = "error: interrupted by SIGINT: no older outputs in fresh; removed fresh (created by this run)" ]
finish
