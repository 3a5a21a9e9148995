#!/usr/bin/env bash
# --summary-only (docs/cli.md): the conversion without one file written (no
# output folder, no lock, no raw copy, no temporary: the tree is the same
# before and after), the table on stdout exactly as a normal run prints it
# after its wrote lines, and with --json the bytes summary.json holds for
# the same options; the notes on stderr, and with -q none but the summary
# still. Usage errors for --json alone and the file-shaping options; stdout
# into a closed pipe or a full disk is exit 3, never a death by SIGPIPE.
# Batch mode: each dump's line heading its table, or one JSON line per
# dump, and no batch summary written. The trace is not written only to be
# dropped: the run makes no write, fsync or rename call of its own.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_SYNTH:?set CSIM_SYNTH to the gen_synth executable}"
: "${CSIM_FAILIO:?set CSIM_FAILIO to the clean_sim_trace_failio executable}"

not() { ! "$@"; }
# listing DIR: every path below DIR with its type, size and mtime.
listing() { (cd "$1" && find . -printf '%p %y %s %T@\n' | LC_ALL=C sort); }
# same_tree DIR BEFORE: DIR lists as BEFORE did.
same_tree() { [ "$(listing "$1")" = "$2" ]; }

mkdir -p "$tmp/w"
cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo" "$tmp/w/"
# The reference: a normal run of the same dump.
run "$tmp" w/OPPROF_demo -o ref
ref_out=$out ref_err=$err
check "reference run: exit 0" [ "$status" -eq 0 ]

# --- one dump --------------------------------------------------------------
before=$(listing "$tmp/w")
run "$tmp" w/OPPROF_demo --summary-only
check "table: exit 0" [ "$status" -eq 0 ]
check "table: nothing written beside the dump (the default folder)" same_tree "$tmp/w" "$before"
# ($(...) drops trailing newlines: an "x" after the text keeps them.)
want=$(printf '%s' "$ref_out" | sed '/^wrote /d'; printf x)
check "table: stdout is the normal run's after its wrote lines" [ "$out" = "${want%x}" ]
check "table: the table's header is there" contains "$out" $'\nsummary: '
check "table: no wrote line" not contains "$out" "wrote "
# The notes of what was read stay; those about files written go.
want=$(printf '%s' "$ref_err" | grep -v 'instr_metrics.json\|note: copied'; printf x)
check "table: stderr is the notes, without those of files" [ "$err" = "${want%x}" ]

run "$tmp" w/OPPROF_demo --summary-only --json
check "--json: exit 0" [ "$status" -eq 0 ]
check "--json: nothing written" same_tree "$tmp/w" "$before"
printf '%s' "$out" >"$tmp/demo.json"
check "--json: the bytes of summary.json" cmp "$tmp/demo.json" "$tmp/ref/summary.json"
check "--json: notes on stderr, not stdout" contains "$err" "note: "

# -q: errors only on stderr, but the summary is what was asked for.
printf 'xxxxx' >>"$tmp/w/OPPROF_demo/simulator/visualize_data.bin"
before=$(listing "$tmp/w")
run "$tmp" w/OPPROF_demo --summary-only
check "a warning without -q" contains "$err" "warning: w/OPPROF_demo/simulator/visualize_data.bin: 5 trailing byte(s)"
table=$out
run "$tmp" w/OPPROF_demo --summary-only -q
check "-q: exit 0" [ "$status" -eq 0 ]
check "-q: nothing on stderr" [ -z "$err" ]
check "-q: the same table on stdout" [ "$out" = "$table" ]
run "$tmp" w/OPPROF_demo --summary-only --json -q
# the same document but for the input's size: 5 bytes more
check "-q --json: the document still" cmp <(printf '%s' "$out") \
	<(sed "s/\"size\":$(stat -c %s "$tmp/ref/raw_simulator/visualize_data.bin"),/\"size\":$(stat -c %s "$tmp/w/OPPROF_demo/simulator/visualize_data.bin"),/" "$tmp/ref/summary.json")
check "-q: nothing written" same_tree "$tmp/w" "$before"

# The same document as summary.json for options that change the summary:
# several runs, a cut, the dropped lanes kept, a gzip input, no API_INSTR.
variant() {
	local name=$1 recipe=$2 bin
	shift 2
	bin="$tmp/v/$name/sim/visualize_data.bin"
	mkdir -p "$(dirname "$bin")"
	"$CSIM_GEN" "$CSIM_ROOT/fixtures/scenarios/$recipe/dump.recipe" "$bin"
	run "$tmp" "v/$name/sim" -o "v/$name.out" "$@"
	check "$name: normal run exit 0" [ "$status" -eq 0 ]
	before=$(listing "$tmp/v/$name")
	run "$tmp" "v/$name/sim" --summary-only --json "$@"
	check "$name: exit 0" [ "$status" -eq 0 ]
	check "$name: summary.json's bytes" cmp <(printf '%s' "$out") "$tmp/v/$name.out/summary.json"
	check "$name: nothing written" same_tree "$tmp/v/$name" "$before"
}
variant runs_all appended_runs --run all
variant run1 appended_runs --run 1
variant cut many_cores --core 'core0.*' --window 0.1:
variant keep_scalar mix_kernel --keep-scalar --keep-cache-ccu --no-counters
variant gz gzip_input   # (the recipe gzips the file)
variant no_instr cache_ccu_counters
check "no API_INSTR: said in the summary's terms" \
	contains "$err" "warning: v/no_instr/sim/visualize_data.bin: no API_INSTR block: the summary has no API_INSTR figures"
check "no API_INSTR: no word of instr_metrics.json" not contains "$err" "instr_metrics.json"
# An API_INSTR whose reshape passes its bound: refused as in a normal run
# (the summary loses its API_INSTR figures), said without the file.
mkdir -p "$tmp/v/unbounded/sim"
cp "$CSIM_ROOT/fixtures/invalid/api_instr_reshape_unbounded.bin" "$tmp/v/unbounded/sim/visualize_data.bin"
run "$tmp" v/unbounded/sim -o v/unbounded.out
run "$tmp" v/unbounded/sim --summary-only --json
check "reshape past its bound: exit 0" [ "$status" -eq 0 ]
check "reshape past its bound: summary.json's bytes" \
	cmp <(printf '%s' "$out") "$tmp/v/unbounded.out/summary.json"
check "reshape past its bound: said without the file" contains "$err" \
	": not reshaped (--summary-only), and the summary has no API_INSTR figures"$'\n'

# --- usage -----------------------------------------------------------------
usage() {
	local desc=$1 msg=$2
	shift 2
	run "$tmp" "$@"
	check "$desc: exit 2" [ "$status" -eq 2 ]
	check "$desc: nothing on stdout" [ -z "$out" ]
	check "$desc: says why" lines "$err" "error: $msg"
}
usage "--json alone" \
	"option --json needs --summary-only: it prints summary.json's document on stdout in place of the table" \
	w/OPPROF_demo --json
file_msg() {
	echo "--summary-only writes no file: $1 has nothing to shape (drop it, or drop --summary-only to write the outputs)"
}
usage "with -o" "$(file_msg -o/--output-dir)" w/OPPROF_demo --summary-only -o newdir
check "with -o: the folder is not made" [ ! -e "$tmp/newdir" ]
usage "with --output-dir=" "$(file_msg -o/--output-dir)" w/OPPROF_demo --output-dir=newdir --summary-only
usage "with -z" "$(file_msg -z/--gzip)" w/OPPROF_demo --summary-only -z
usage "with --raw-metrics" "$(file_msg --raw-metrics)" w/OPPROF_demo --summary-only --raw-metrics
usage "with --no-copy-raw" "$(file_msg --no-copy-raw)" w/OPPROF_demo --summary-only --no-copy-raw
usage "with --check" "--summary-only converts, --check does not: give one of them" \
	--summary-only --check "$tmp/ref/trace.clean.json"
usage "a prefix: --summ --js" "$(file_msg -z/--gzip)" w/OPPROF_demo --summ --js -z

# --- stdout that cannot be written -------------------------------------------
# A pipe whose reader is gone before the run writes: the reader opens the
# FIFO, the writer's end is opened, the reader closes and is waited for.
closed_pipe() {
	rm -f "$tmp/fifo"
	mkfifo "$tmp/fifo"
	(exec 3<"$tmp/fifo"; exec 3<&-) &
	exec 4>"$tmp/fifo"
	wait $!
}
closed_pipe
st=0
(cd "$tmp" && exec "$CSIM_BIN" w/OPPROF_demo --summary-only --json >&4 2>"$tmp/epipe.err") || st=$?
check "closed pipe, --json: exit 3, not SIGPIPE ($st)" [ "$st" -eq 3 ]
check "closed pipe, --json: said" grep -qx "error: cannot write to standard output" "$tmp/epipe.err"
st=0
(cd "$tmp" && exec "$CSIM_BIN" w/OPPROF_demo -o epipe_out >&4 2>"$tmp/epipe2.err") || st=$?
exec 4>&-
check "closed pipe, a normal run: exit 3 ($st), its outputs in place" \
	[ "$st" -eq 3 -a -f "$tmp/epipe_out/summary.json" ]
check "closed pipe, a normal run: said" grep -qx "error: cannot write to standard output" "$tmp/epipe2.err"
# A reader that takes one byte: whenever it goes, never a signal.
st=0
(cd "$tmp" && "$CSIM_BIN" w/OPPROF_demo --summary-only --json 2>"$tmp/head.err" | head -c1 >/dev/null;
	exit "${PIPESTATUS[0]}") || st=$?
check "into head -c1: exit 0 or 3 ($st)" [ "$st" -eq 0 -o "$st" -eq 3 ]
st=0
(cd "$tmp" && exec "$CSIM_BIN" w/OPPROF_demo --summary-only --json >/dev/full 2>"$tmp/full.err") || st=$?
check "/dev/full: exit 3" [ "$st" -eq 3 ]
check "/dev/full: said" grep -qx "error: cannot write to standard output" "$tmp/full.err"
st=0
(cd "$tmp" && exec "$CSIM_BIN" w/OPPROF_demo --summary-only >/dev/full 2>/dev/null) || st=$?
check "/dev/full, the table: exit 3" [ "$st" -eq 3 ]

# --- batch -------------------------------------------------------------------
mkdir -p "$tmp/tree/a" "$tmp/tree/b" "$tmp/tree/c/simulator"
cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo/simulator" "$tmp/tree/a/"
cp "$tmp/v/run1/sim/visualize_data.bin" "$tmp/tree/b/"
cp "$CSIM_ROOT/fixtures/invalid/bad_reserve_byte.bin" "$tmp/tree/c/simulator/visualize_data.bin"
run "$tmp" tree/a --summary-only
table_a=$out
run "$tmp" tree/b --summary-only
table_b=$out
run "$tmp" tree -o tref
check "batch reference: exit 1 (c is corrupt)" [ "$status" -eq 1 ]
before=$(listing "$tmp/tree")
run "$tmp" tree --summary-only -j 2
check "batch table: exit 1" [ "$status" -eq 1 ]
check "batch table: nothing written, no batch summary" same_tree "$tmp/tree" "$before"
ok_a=$(printf '%s' "$out" | grep '^ok tree/a: ')
ok_b=$(printf '%s' "$out" | grep '^ok tree/b: ')
check "batch table: a's line heads its table, an empty line after" \
	contains "$out" "$ok_a"$'\n'"$table_a"$'\n'
check "batch table: b's line heads its table" contains "$out" "$ok_b"$'\n'"$table_b"$'\n'
check "batch table: the corrupt dump's line" contains "$out" $'\nFAILED tree/c: '
check "batch table: no wrote line" not contains "$out" "wrote "
check "batch table: the count last" [ "$(printf '%s' "$out" | tail -n 1)" = "converted 2/3 dumps" ]
check "batch table: the failure on stderr" contains "$err" "error: 1 of 3 dump(s) failed"
run "$tmp" tree --summary-only -q
check "batch table -q: the tables still" contains "$out" "$table_a"$'\n'
check "batch table -q: no count" not contains "$out" "converted "
check "batch table -q: only errors on stderr" [ "$(printf '%s' "$err" | grep -vc '^error: ' || true)" -eq 0 ]

run "$tmp" tree --summary-only --json -j 2
check "batch JSON: exit 1" [ "$status" -eq 1 ]
check "batch JSON: nothing written" same_tree "$tmp/tree" "$before"
printf '%s' "$out" >"$tmp/lines.json"
check "batch JSON: one line per dump" [ "$(wc -l <"$tmp/lines.json")" -eq 3 ]
check "batch JSON: every line a JSON document" \
	[ "$(jq -c . "$tmp/lines.json" 2>/dev/null | wc -l)" -eq 3 ]
check "batch JSON: nothing but them on stdout" [ "$(grep -vc '^{"index":' "$tmp/lines.json" || true)" -eq 0 ]
line_of() { jq -c --arg d "$1" 'select(.dump == $d)' "$tmp/lines.json"; }
check "batch JSON: a's summary is its summary.json" \
	[ "$(line_of a | jq -c .summary)" = "$(jq -c . "$tmp/tref/a/summary.json")" ]
check "batch JSON: b's summary is its summary.json" \
	[ "$(line_of b | jq -c .summary)" = "$(jq -c . "$tmp/tref/b/summary.json")" ]
check "batch JSON: a's row" [ "$(line_of a | jq -c '[.index, .input, .status, .message]')" = \
	'[0,"tree/a/simulator/visualize_data.bin","ok",null]' ]
check "batch JSON: c failed, with its message and no summary" \
	[ "$(line_of c | jq -c '[.index, .status, .summary]')" = '[2,"failed",null]' -a \
	  -n "$(line_of c | jq -r '.message | select(contains("reserve byte"))')" ]
check "batch JSON: the error on stderr" contains "$err" "error: 1 of 3 dump(s) failed"
# stdout is the output: once it cannot be written, no other dump starts
# (-j 1: a, then b and the corrupt c, in sorted order).
closed_pipe
st=0
(cd "$tmp" && exec "$CSIM_BIN" tree --summary-only --json -j 1 >&4 2>"$tmp/bpipe.err") || st=$?
exec 4>&-
check "batch into a closed pipe: exit 3" [ "$st" -eq 3 ]
check "batch into a closed pipe: said" grep -qx "error: cannot write to standard output" "$tmp/bpipe.err"
check "batch into a closed pipe: stopped after the first dump (c never read)" \
	not grep -q "reserve byte" "$tmp/bpipe.err"
check "batch into a closed pipe: nothing written" same_tree "$tmp/tree" "$before"

# --- the work is skipped, not discarded ----------------------------------------
# The build with counted I/O calls (tests/tools/failio.c): a full run of a
# large dump writes, fsyncs and renames, and splits the trace's rows over
# a second thread; --summary-only makes none of those calls (stdout is
# written by the C library, not counted) and starts no trace thread.
mb=120
[ -n "${CSIM_SANITIZER:-}" ] && mb=8
mkdir -p "$tmp/big"
"$CSIM_SYNTH" --seed 2 "$mb" "$tmp/big/visualize_data.bin"
# calls OP ARGS...: how many OP calls a run made.
calls() {
	local op=$1
	shift
	CSIM_FAIL_IO_REPORT=1 "$CSIM_FAILIO" "$tmp/big" "$@" 2>&1 >/dev/null |
		sed -n "s/^failio: .*\b$op \([0-9]*\).*/\1/p"
}
check "a full run writes" [ "$(calls write -o "$tmp/bigout" --no-copy-raw)" -gt 0 ]
for op in write fsync renameat unlinkat sync_file_range; do
	check "--summary-only: no $op call" [ "$(calls "$op" --summary-only --json)" = 0 ]
done
check "--summary-only: one thread fewer than a full run (no trace split)" \
	[ "$(calls pthread_create --summary-only)" -lt "$(calls pthread_create -o "$tmp/bigout" --no-copy-raw)" ]
finish
