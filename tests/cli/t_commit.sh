#!/usr/bin/env bash
# The output set commits as one (SPEC §8, write/out_set.h), proved by faults
# injected at every step (tests/tools/failio.c): the k-th write or fsync
# failing with ENOSPC (a full disk), the k-th rename failing, SIGKILL before
# the k-th step (a killed run or power loss, then a run that must mend the
# folder), SIGTERM at each step. After each, the folder must hold the
# complete older set or the complete new one, byte for byte, never a mix,
# and no temporary. Also: outputs of the older set this run does not
# produce are removed, dead runs' temporaries are cleaned, a bad commit
# record is refused, and writers into one folder wait for each other.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_FAILIO:?set CSIM_FAILIO to the clean_sim_trace_failio executable}"

w=$tmp/w
mkdir -p "$w/B/simulator"
# A: the demo (API_INSTR, a simulator folder to copy). B: a dump without
# API_INSTR, so its set has no instr_metrics.json.
cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo" "$w/A"
cp -r "$CSIM_ROOT/fixtures/cross_core" "$w/cc"
"$CSIM_GEN" "$w/cc/dump.recipe" "$w/B/simulator/visualize_data.bin"

# The reference sets, each converted alone into a fresh "out".
for d in A B; do
	rm -rf "$w/out"
	run "$w" "$d" -o out
	check "reference $d: exit 0" [ "$status" -eq 0 ]
	mv "$w/out" "$tmp/ref_$d"
done
check "the two sets differ in their outputs" [ -e "$tmp/ref_A/instr_metrics.json" ]
check "set B has no instr_metrics.json" [ ! -e "$tmp/ref_B/instr_metrics.json" ]

CSIM_RECORD=.clean_sim_trace.commit
older() { rm -rf "$w/out"; cp -a "$tmp/ref_$1" "$w/out"; }
is_set() { diff -r "$w/out" "$tmp/ref_$1" >/dev/null 2>&1; }
temps() { find "$w/out" -mindepth 1 -maxdepth 1 -name '.*' | wc -l; }

# fio VAR=VALUE...: the failio build converts A into out over its older set.
fio() {
	status=0
	# (bash's "Killed" line for a SIGKILL goes with the group's stderr)
	{ (cd "$w" && exec env "$@" "$CSIM_FAILIO" A -o out >"$tmp/.stdout" 2>"$tmp/.stderr"); } 2>/dev/null || status=$?
	err=$(cat "$tmp/.stderr")
}

# mend: a later run into the folder that stops before writing (--core
# matches nothing: exit 2 after the folder was locked and mended).
mend() {
	local s=0
	(cd "$w" && "$CSIM_BIN" A -o out --core nosuch >/dev/null 2>"$tmp/.mend") || s=$?
	mend_err=$(cat "$tmp/.mend")
	[ "$s" -eq 2 ]
}

# How many of each call converting A over B makes.
older B
fio CSIM_FAIL_IO_REPORT=1
check "counting run: exit 0" [ "$status" -eq 0 ]
check "counting run: the new set" is_set A
counts=$(sed -n 's/^failio: //p' "$tmp/.stderr")
n_of() { echo "$counts" | awk -v op="$1" '{ for (i = 1; i < NF; i += 2) if ($i == op) print $(i + 1) }'; }
n_write=$(n_of write)
n_fsync=$(n_of fsync)
n_renameat=$(n_of renameat)
n_unlinkat=$(n_of unlinkat)
check "counting run: writes, fsyncs, renames, removals counted" \
	[ "$n_write" -gt 3 ] && [ "$n_fsync" -gt 5 ] && [ "$n_renameat" -gt 4 ] && [ "$n_unlinkat" -gt 0 ]
echo "# A over B: $n_write write, $n_fsync fsync, $n_renameat renameat, $n_unlinkat unlinkat"

# --- a full disk: each write and each fsync before the commit point -------
# The last three fsyncs are the folder's, after the record is in place.
bad=0
for ((k = 1; k <= n_write; k++)); do
	older B
	fio CSIM_FAIL_IO=write:$k
	if [ "$status" -ne 3 ] || ! is_set B || [ "$(temps)" -ne 0 ] ||
		! contains "$err" "No space left on device"; then
		echo "write k=$k: exit $status, temps $(temps): $err"
		bad=$((bad + 1))
	fi
done
check "ENOSPC at each of $n_write writes: exit 3, the older set byte for byte, no temporary" [ "$bad" -eq 0 ]
bad=0
for ((k = 1; k <= n_fsync - 3; k++)); do
	older B
	fio CSIM_FAIL_IO=fsync:$k
	if [ "$status" -ne 3 ] || ! is_set B || [ "$(temps)" -ne 0 ]; then
		echo "fsync k=$k: exit $status, temps $(temps): $err"
		bad=$((bad + 1))
	fi
done
check "ENOSPC at each of the $((n_fsync - 3)) fsyncs before the commit point: the older set" [ "$bad" -eq 0 ]

# --- a rename failing: the record's leaves the older set; any later one
# leaves the record, and the next run completes the commit --------------
older B
fio CSIM_FAIL_IO=renameat:1
check "the record's rename fails: exit 3" [ "$status" -eq 3 ]
check "the record's rename fails: message" contains "$err" "error: cannot commit into out: Input/output error"
check "the record's rename fails: the older set" is_set B
check "the record's rename fails: no temporary" [ "$(temps)" -eq 0 ]
bad=0
for ((k = 2; k <= n_renameat; k++)); do
	older B
	fio CSIM_FAIL_IO=renameat:$k
	if [ "$status" -ne 3 ] || ! contains "$err" "(the next run into it completes it)" ||
		[ ! -e "$w/out/.clean_sim_trace.commit" ] || ! mend || ! is_set A ||
		[ "$(temps)" -ne 0 ] || ! contains "$mend_err" "note: completed the commit an interrupted run left in out"; then
		echo "renameat k=$k: exit $status: $err / mend: $mend_err"
		bad=$((bad + 1))
	fi
done
check "rename k=2..$n_renameat fails: exit 3, then the next run rolls the commit forward to the new set" [ "$bad" -eq 0 ]

# --- SIGKILL before each step, then a run into the folder ------------------
# Before the record's rename the next run rolls back to the older set;
# from it on, forward to the new one. Never a mix; no temporary survives.
kill_sweep() {
	local op=$1 n=$2 from_new=$3 k want bad=0
	for ((k = 1; k <= n; k++)); do
		older B
		fio CSIM_KILL_AT=$op:$k
		want=B
		[ "$k" -ge "$from_new" ] && want=A
		if [ "$status" -ne 137 ] || ! mend || ! is_set "$want" || [ "$(temps)" -ne 0 ]; then
			echo "SIGKILL at $op k=$k: exit $status, want set $want, temps $(temps): $mend_err"
			bad=$((bad + 1))
		fi
	done
	check "SIGKILL before each of $n $op calls, then a run: the $( [ "$from_new" -gt "$n" ] && echo older || echo 'older, then from call '"$from_new"' the new') set, no temporary" [ "$bad" -eq 0 ]
}
kill_sweep write "$n_write" $((n_write + 1))
kill_sweep fsync "$n_fsync" $((n_fsync - 2))
kill_sweep renameat "$n_renameat" 2
kill_sweep unlinkat "$n_unlinkat" 1

# --- SIGTERM at each step: before the commit point the run ends with the
# older set; from it on the signal is held off until the set is in place ---
bad=0
for ((k = 1; k <= n_renameat; k++)); do
	older B
	fio CSIM_SIGNAL_AT=renameat:$k
	if [ "$status" -ne 143 ] || ! is_set A || [ "$(temps)" -ne 0 ] ||
		! contains "$err" "error: interrupted by SIGTERM: the new outputs were committed first"; then
		echo "SIGTERM at renameat k=$k: exit $status: $err"
		bad=$((bad + 1))
	fi
done
check "SIGTERM at each of $n_renameat renames: exit 143, the new set whole, said so" [ "$bad" -eq 0 ]
bad=0
for ((k = 1; k <= n_fsync - 3; k++)); do
	older B
	fio CSIM_SIGNAL_AT=fsync:$k
	if [ "$status" -ne 143 ] || ! is_set B || [ "$(temps)" -ne 0 ] ||
		[ "$err" != "error: interrupted by SIGTERM: temporary files removed; older outputs in out kept: trace.clean.json, summary.json, summary.html, raw_simulator/" ]; then
		echo "SIGTERM at fsync k=$k: exit $status: $err"
		bad=$((bad + 1))
	fi
done
check "SIGTERM at each fsync before the commit point: exit 143, the older set" [ "$bad" -eq 0 ]

# --- what the new set does not produce goes in the same commit -------------
older A
run "$w" B -o out
check "B over A: exit 0" [ "$status" -eq 0 ]
check "B over A: the older instr_metrics.json is removed" [ ! -e "$w/out/instr_metrics.json" ]
check "B over A: exactly set B" is_set B
older A
run "$w" A -o out --no-copy-raw
check "--no-copy-raw over a set with a copy: the older copy (of another run) goes" [ ! -e "$w/out/raw_simulator" ]

# --- dead runs' temporaries, and only those, are removed -------------------
older B
: >"$w/out/.trace.clean.json.AbC123"
: >"$w/out/.summary.json.q1w2e3"
mkdir -p "$w/out/.raw_simulator.tmp.Zz9Yy8/core0" "$w/out/.raw_simulator.old.Qq1Ww2"
: >"$w/out/.raw_simulator.tmp.Zz9Yy8/core0/x.json"
: >"$w/out/.keep"
: >"$w/out/.trace.clean.json.toolong1"
: >"$w/out/.unrelated.json.AbC123"
run "$w" A -o out
check "leftovers: exit 0" [ "$status" -eq 0 ]
check "leftovers: a note counts them" contains "$err" "note: removed 4 temporary file(s) an interrupted run left in out"
check "leftovers: the tool's temporaries are gone" \
	[ ! -e "$w/out/.trace.clean.json.AbC123" ] && [ ! -e "$w/out/.raw_simulator.tmp.Zz9Yy8" ] &&
	[ ! -e "$w/out/.summary.json.q1w2e3" ] && [ ! -e "$w/out/.raw_simulator.old.Qq1Ww2" ]
check "leftovers: other hidden files stay" \
	[ -e "$w/out/.keep" ] && [ -e "$w/out/.trace.clean.json.toolong1" ] && [ -e "$w/out/.unrelated.json.AbC123" ]

# --- a commit record is trusted only as far as it names the folder's own ---
older B
printf 'garbage\n' >"$w/out/.clean_sim_trace.commit"
run "$w" A -o out
check "a record that is none: exit 0" [ "$status" -eq 0 ]
check "a record that is none: a warning" contains "$err" "warning: ignoring out/.clean_sim_trace.commit: line 1 is not a commit record's"
check "a record that is none: gone, the new set" is_set A
older B
echo outside >"$w/victim"
printf 'clean_sim_trace commit 1\nsummary.json\t../victim\t-\nend\n' >"$w/out/.clean_sim_trace.commit"
run "$w" A -o out
check "a record naming ../victim: refused at its line 2" contains "$err" "warning: ignoring out/.clean_sim_trace.commit: line 2 is not a commit record's"
check "a record naming ../victim: nothing outside touched" [ "$(cat "$w/victim")" = outside ]
check "a record naming ../victim: the new set" is_set A

# --- one writer per folder -------------------------------------------------
# A lock held on the folder (flock(1), as another run holds it) is waited for.
older B
flock "$w/out" sleep 1.5 &
holder=$!
sleep 0.3
run "$w" A -o out
wait "$holder"
check "a locked folder: exit 0 once it is free" [ "$status" -eq 0 ]
check "a locked folder: a note says what it waits for" contains "$err" "note: waiting for another run writing into out"
check "a locked folder: then the new set" is_set A
# Four converters of two dumps into one folder at once, five times: each
# ends well and the folder holds one dump's set whole.
bad=0
for rep in 1 2 3 4 5; do
	older B
	pids=()
	for d in A B A B; do
		(cd "$w" && exec "$CSIM_BIN" "$d" -o out >/dev/null 2>&1) &
		pids+=($!)
	done
	st=0
	for p in "${pids[@]}"; do wait "$p" || st=1; done
	if [ "$st" -ne 0 ] || { ! is_set A && ! is_set B; } || [ "$(temps)" -ne 0 ]; then
		echo "concurrent rep $rep: exit $st, temps $(temps)"
		bad=$((bad + 1))
	fi
done
check "4 concurrent writers of 2 dumps, 5 times: all exit 0, one whole set" [ "$bad" -eq 0 ]

# --- batch_summary.json and .csv commit as one set too ----------------------
# (The fault hits the k-th call in the batch's own process and in the
# dump's worker alike: the dump may fail too; the summaries must not mix.)
mkdir -p "$w/tree/k1"
cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo/simulator" "$w/tree/k1/"
bmarks() { echo older-json >"$w/bout/batch_summary.json"; echo older-csv >"$w/bout/batch_summary.csv"; }
both_older() { [ "$(cat "$w/bout/batch_summary.json")" = older-json ] && [ "$(cat "$w/bout/batch_summary.csv")" = older-csv ]; }
neither_older() { ! grep -q older "$w/bout/batch_summary.json" && ! grep -q older "$w/bout/batch_summary.csv"; }
run "$w" tree -o bout
check "batch: first run exit 0" [ "$status" -eq 0 ]
bad=0
for f in fsync:1 fsync:2 fsync:3 renameat:1 renameat:2 renameat:3 rename:1 rename:2; do
	bmarks
	st=0
	{ (cd "$w" && exec env CSIM_FAIL_IO=$f "$CSIM_FAILIO" tree -o bout >/dev/null 2>&1); } 2>/dev/null || st=$?
	if [ -e "$w/bout/$CSIM_RECORD" ]; then
		:   # past the commit point: the next run completes it
	elif ! both_older && ! neither_older; then
		echo "batch $f: exit $st: the summaries mix"
		bad=$((bad + 1))
	fi
	run "$w" tree -o bout
	if [ "$status" -ne 0 ] || ! neither_older || [ -e "$w/bout/$CSIM_RECORD" ] ||
		[ -n "$(find "$w/bout" -name '.*' -mindepth 1)" ]; then
		echo "batch $f: the next run: exit $status: $err"
		bad=$((bad + 1))
	fi
done
check "batch summaries: a failed fsync or rename never leaves one new beside one old; the next run mends" [ "$bad" -eq 0 ]


# --- the write-out hint (sync_file_range every 8 MiB written) -------------
# A trace of more than 8 MiB asks the disk to start writing as it goes; a
# file system that refuses the hint is not asked again for that file, and
# the outputs are the same bytes either way (the fsync is the guarantee).
mkdir -p "$w/big/simulator"
"$CSIM_SYNTH" --seed 2 50 "$w/big/simulator/visualize_data.bin"
hint_run() {
	rm -rf "$w/bigout"
	status=0
	(cd "$w" && env CSIM_FAIL_IO_REPORT=1 "$@" "$CSIM_FAILIO" big -o bigout --no-copy-raw \
		>/dev/null 2>"$tmp/.stderr") || status=$?
	hints=$(sed -n 's/^failio: .* sync_file_range \([0-9]*\) .*$/\1/p' "$tmp/.stderr")
}
hint_run
check "write-out hint: exit 0" [ "$status" -eq 0 ]
check "write-out hint: a trace of $(($(stat -c %s "$w/bigout/trace.clean.json") >> 20)) MiB is hinted more than once (${hints:-none})" \
	[ "${hints:-0}" -ge 2 ]
mv "$w/bigout" "$tmp/big_ref"
hint_run CSIM_FAIL_IO='sync_file_range:*'
check "write-out hint refused: exit 0" [ "$status" -eq 0 ]
check "write-out hint refused: the same outputs" diff -r "$w/bigout" "$tmp/big_ref"
check "write-out hint refused: asked once per file, not again (${hints:-none})" \
	[ "${hints:-0}" -ge 1 ] && [ "${hints:-0}" -le 4 ]

finish
