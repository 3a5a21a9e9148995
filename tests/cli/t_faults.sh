#!/usr/bin/env bash
# Write failures and a SIGTERM in the middle of an output: a file-size limit (ulimit -f,
# with SIGXFSZ ignored so write() fails with EFBIG as on a full disk) makes
# the n-th kilobyte unwritable. The run must exit 3 with a message, leave
# the previous good outputs byte for byte, and leave no temporary file.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo" "$tmp/OPPROF_demo"
run "$tmp" OPPROF_demo -o out
check "first run: exit 0" [ "$status" -eq 0 ]
cp -r "$tmp/out" "$tmp/good"

# limited KB: runs the converter with files capped at that size.
limited() {
	local kb=$1
	shift
	status=0
	(cd "$tmp" && ulimit -f "$kb" && trap '' XFSZ &&
		"$CSIM_BIN" "$@" >"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
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

# Outputs fit, the 16 KB dump in the raw copy does not (SPEC §8: the set
# commits as one, so exit 3 and the whole older set stays, the older raw
# copy and the older outputs): the limit is the first whole KB above the
# largest output.
largest=$(for f in "$tmp/good"/*.json "$tmp/good"/*.html; do wc -c <"$f"; done | sort -n | tail -n 1)
kb=$((largest / 1024 + 1))
check "raw copy fails: a limit between the outputs and the dump" \
	[ $((kb * 1024)) -lt "$(wc -c <"$tmp/OPPROF_demo/simulator/visualize_data.bin")" ]
echo older >"$tmp/out/raw_simulator/marker"
echo '{"older":1}' >"$tmp/out/summary.json"
limited "$kb" OPPROF_demo -o out
check "raw copy fails: exit 3" [ "$status" -eq 3 ]
check "raw copy fails: names the destination" contains "$err" "error: cannot write out/raw_simulator/visualize_data.bin: File too large"
check "raw copy fails: older copy kept" [ "$(cat "$tmp/out/raw_simulator/marker")" = older ]
check "raw copy fails: no temporary folder" [ "$(leftovers)" -eq 0 ]
check "raw copy fails: older outputs kept" [ "$(cat "$tmp/out/summary.json")" = '{"older":1}' ]
check "raw copy fails: nothing announced" [ -z "$out" ]

# SIGTERM while the trace is being written (a CI timeout): the process ends
# by SIGTERM (status 143) after removing its temporary file; the older
# output stays. The signal is sent once the temporary file exists; should
# the run finish first, it is tried again.
: "${CSIM_SYNTH:?set CSIM_SYNTH to the gen_synth executable}"
mb=40
[ -n "${CSIM_REAL_BIN:-}" ] && mb=4   # under valgrind: 4 MB is slow enough
mkdir -p "$tmp/big/sim" "$tmp/big/out"
"$CSIM_SYNTH" --seed 3 "$mb" "$tmp/big/sim/visualize_data.bin"
caught=0
for attempt in 1 2 3 4 5; do
	echo '{"old":true}' >"$tmp/big/out/trace.clean.json"
	(cd "$tmp/big" && exec "$CSIM_BIN" sim -o out --no-copy-raw >"$tmp/.stdout" 2>"$tmp/.stderr") &
	pid=$!
	seen=0
	for _ in $(seq 12000); do
		if compgen -G "$tmp/big/out/.trace.clean.json.*" >/dev/null; then
			seen=1
			break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.005
	done
	kill -TERM "$pid" 2>/dev/null || true
	status=0
	wait "$pid" || status=$?
	if [ "$seen" -eq 1 ] && [ "$status" -eq 143 ]; then
		caught=1
		break
	fi
done
err=$(cat "$tmp/.stderr")
check "SIGTERM mid-write: ends by SIGTERM (attempt $attempt, status $status)" [ "$caught" -eq 1 ]
check "SIGTERM mid-write: says so" contains "$err" "error: interrupted by SIGTERM: temporary files removed, older outputs kept"
check "SIGTERM mid-write: older output untouched" [ "$(cat "$tmp/big/out/trace.clean.json")" = '{"old":true}' ]
check "SIGTERM mid-write: no temporary file" [ -z "$(find "$tmp/big/out" -name '.*')" ]
check "SIGTERM mid-write: nothing else written" [ "$(ls -A "$tmp/big/out")" = trace.clean.json ]
finish
