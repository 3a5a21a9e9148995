#!/usr/bin/env bash
# Command-line behaviour: help and usage errors, input resolution, the output
# folder (defaults, -o forms, raw copy with links, self-copy guard), quiet
# mode and output errors.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

demo="$CSIM_ROOT/fixtures/demo/OPPROF_demo"
golden="$CSIM_ROOT/fixtures/scenarios/mix_kernel/expected/default"
mkdir -p "$tmp/w"
cp -r "$demo" "$tmp/w/OPPROF_demo"
sim="$tmp/w/OPPROF_demo/simulator"

# --- help, version, usage errors -------------------------------------------
run "$tmp/w" --help
check "--help exits 0" [ "$status" -eq 0 ]
check "--help prints usage on stdout" contains "$out" "usage: clean_sim_trace [OPTIONS] PATH"
# `man clean_sim_trace` finds the page only once installed; in a clone the
# page is read with man -l (t_manpage runs that command).
check "--help's last line: the manual installed and in a clone" [ "$(printf '%s' "$out" | tail -n 1)" = \
	"The manual: man clean_sim_trace (in a clone: man -l docs/clean_sim_trace.1)" ]
check "... the clone's page is at that path" [ -f "$CSIM_ROOT/docs/clean_sim_trace.1" ]
run "$tmp/w" --version
check "--version" lines "$out" "clean_sim_trace 0.1.0"
run "$tmp/w"
check "no PATH: exit 2" [ "$status" -eq 2 ]
check "no PATH: message" lines "$err" "error: no PATH given (see --help)"
run "$tmp/w" --frobnicate OPPROF_demo
check "unknown option: exit 2" [ "$status" -eq 2 ]
check "unknown option: message" lines "$err" "error: unknown option --frobnicate (see --help)"
run "$tmp/w" OPPROF_demo -o
check "-o without a folder: exit 2" [ "$status" -eq 2 ]
# Two PATHs are batch mode (SPEC §11, t_batch.sh): the same dump twice is
# converted once.
run "$tmp/w" OPPROF_demo OPPROF_demo -o twice --no-copy-raw
check "two PATHs: exit 0" [ "$status" -eq 0 ]
check "two PATHs: one dump" [ "$(printf '%s' "$out" | tail -n 1)" = "converted 1/1 dumps" ]
check "two PATHs: mirrored under -o" [ -f "$tmp/w/twice/OPPROF_demo/trace.clean.json" ]
rm -rf "$tmp/w/twice"

# --- input resolution: file, simulator/ and OPPROF_* give the same trace ----
for path in OPPROF_demo OPPROF_demo/simulator OPPROF_demo/simulator/visualize_data.bin; do
	rm -rf "$tmp/w/o"
	run "$tmp/w" "$path" -o o --no-copy-raw
	check "PATH $path: exit 0" [ "$status" -eq 0 ]
	check "PATH $path: same trace" cmp_but_names "$tmp/w/o/trace.clean.json" "$golden/trace.clean.json"
done
# A gzipped dump in a folder: PATH/visualize_data.bin.gz and
# PATH/simulator/visualize_data.bin.gz; the plain one wins when both exist.
mkdir -p "$tmp/w/gz/simulator"
gzip -c "$sim/visualize_data.bin" >"$tmp/w/gz/simulator/visualize_data.bin.gz"
for path in gz gz/simulator; do
	rm -rf "$tmp/w/o"
	run "$tmp/w" "$path" -o o --no-copy-raw
	check "PATH $path holding visualize_data.bin.gz: exit 0" [ "$status" -eq 0 ]
	check "PATH $path holding visualize_data.bin.gz: same trace" cmp_but_names "$tmp/w/o/trace.clean.json" "$golden/trace.clean.json"
done
run "$tmp/w" gz
check "gzipped dump in a folder: outputs next to it" [ "$status:$(head -c 1 "$tmp/w/gz/simulator/trace.clean.json")" = "0:{" ]
printf 'garbage' >"$tmp/w/gz/simulator/visualize_data.bin.gz"
cp "$sim/visualize_data.bin" "$tmp/w/gz/simulator/"
run "$tmp/w" gz -o o
check "both .bin and .bin.gz: the plain one is read" [ "$status" -eq 0 ]
printf 'garbage' >"$tmp/w/gz/simulator/visualize_data.bin"
run "$tmp/w" gz -o o
check "both .bin and .bin.gz: the error names the plain one" contains "$err" "error: gz/simulator/visualize_data.bin: "

mkdir -p "$tmp/w/empty"
run "$tmp/w" empty
check "no dump: exit 1" [ "$status" -eq 1 ]
check "no dump: says what was looked for" lines "$err" "error: empty: no visualize_data.bin found: looked for empty/visualize_data.bin(.gz) and empty/simulator/visualize_data.bin(.gz)"
# The simulator's trace.json alone (the dump never written): named, with
# what the converter needs and what checks a trace.
mkdir -p "$tmp/w/only_trace"
cp "$sim/trace.json" "$tmp/w/only_trace/"
run "$tmp/w" only_trace
check "only trace.json: exit 1" [ "$status" -eq 1 ]
check "only trace.json: says it is the trace, not the dump, and how to check it" lines "$err" \
	"error: only_trace: no visualize_data.bin found: looked for only_trace/visualize_data.bin(.gz) and only_trace/simulator/visualize_data.bin(.gz); only_trace/trace.json is the simulator's Chrome trace, not its dump: the converter reads the visualize_data.bin the simulator writes beside it (a run that stopped early leaves none); clean_sim_trace --check only_trace/trace.json checks the trace itself against the viewer rules"
# Files that may be a dump under another name, and OPPROF_* folders without
# one: named (the first three in byte order, then a count).
mkdir -p "$tmp/w/renamed/simulator" "$tmp/w/renamed/OPPROF_1" "$tmp/w/renamed/OPPROF_2"
for f in visualize_data.bin.xz copy.bin b.bin.gz z.bin simulator/old.bin; do
	: >"$tmp/w/renamed/$f"
done
: >"$tmp/w/renamed/notes.txt"
run "$tmp/w" renamed
check "dumps under other names: exit 1" [ "$status" -eq 1 ]
check "dumps under other names: named, and the OPPROF_* folders" lines "$err" \
	"error: renamed: no visualize_data.bin found: looked for renamed/visualize_data.bin(.gz) and renamed/simulator/visualize_data.bin(.gz); renamed holds files that may be a dump under another name: b.bin.gz, copy.bin, simulator/old.bin and 2 more (pass one as PATH); its folders OPPROF_1/ and OPPROF_2/ hold no dump either"
# A FIFO or pipe as the dump (docs/cli.md): refused before it is opened. A
# FIFO used to block in open() with no writer; timeout turns a hang into a
# failure here instead of a stuck suite.
run_feed() {   # run_feed STDIN ARGS...: the converter in $tmp/w, STDIN on a pipe
	local feed=$1
	shift
	status=0
	(cd "$tmp/w" && cat "$feed" | timeout 20 "$CSIM_BIN" "$@" >"$tmp/.stdout" 2>"$tmp/.stderr") ||
		status=$?
	err=$(cat "$tmp/.stderr"; printf x)
	err=${err%x}
}
mkfifo "$tmp/w/fifo.bin"
mkdir -p "$tmp/w/fifo_dir/simulator"
mkfifo "$tmp/w/fifo_dir/simulator/visualize_data.bin"
notreg="not a regular file (a pipe or device?): the converter reads a dump twice and copies its folder; save it to a file first"
run_feed /dev/null fifo.bin -o fifo_out
check "FIFO as PATH: exit 1, no hang" [ "$status" -eq 1 ]
check "FIFO as PATH: named" lines "$err" "error: fifo.bin: $notreg"
check "FIFO as PATH: nothing written" [ -z "$(ls -A "$tmp/w/fifo_out" 2>/dev/null)" ]
run_feed /dev/null fifo_dir -o fifo_out
check "FIFO as simulator/visualize_data.bin: exit 1, no hang" [ "$status" -eq 1 ]
check "FIFO as simulator/visualize_data.bin: named" \
	lines "$err" "error: fifo_dir/simulator/visualize_data.bin: $notreg"
run_feed "$sim/visualize_data.bin" /dev/stdin -o pipe_out
check "dump on a pipe: exit 1" [ "$status" -eq 1 ]
check "dump on a pipe: named" lines "$err" "error: /dev/stdin: $notreg"
rm -rf "$tmp/w/fifo.bin" "$tmp/w/fifo_dir" "$tmp/w/fifo_out" "$tmp/w/pipe_out"
mkdir -p "$tmp/w/multi/OpB/0/simulator" "$tmp/w/multi/OpA/1/simulator"
cp "$sim/visualize_data.bin" "$tmp/w/multi/OpB/0/simulator/"
cp "$sim/visualize_data.bin" "$tmp/w/multi/OpA/1/simulator/"
run "$tmp/w" multi
# A folder above dumps is batch mode (SPEC §11): each converted beside its .bin.
check "nested dumps: exit 0" [ "$status" -eq 0 ]
check "nested dumps: both converted" [ "$(printf '%s' "$out" | tail -n 1)" = "converted 2/2 dumps" ]
check "nested dumps: outputs beside each .bin" \
	[ -f "$tmp/w/multi/OpA/1/simulator/trace.clean.json" -a -f "$tmp/w/multi/OpB/0/simulator/trace.clean.json" ]
# A file that is not a container is named as such, with what to pass
# instead (SPEC §1); binary garbage keeps the corrupt-block error.
instead="not a visualize_data.bin container: pass the OPPROF_* folder or the visualize_data.bin next to it"
printf '{"traceEvents":[]}\n' >"$tmp/w/trace.json"
run "$tmp/w" trace.json -o tj
check "trace.json as PATH: exit 1" [ "$status" -eq 1 ]
check "trace.json as PATH: named a JSON file, and how to check a trace" lines "$err" "error: trace.json: a JSON file (such as trace.json), $instead; clean_sim_trace --check trace.json checks a trace against the viewer rules"
check "trace.json as PATH: nothing written" [ ! -e "$tmp/w/tj" ]
gzip -c "$tmp/w/trace.json" >"$tmp/w/trace.json.gz"
run "$tmp/w" trace.json.gz
check "gzipped trace.json as PATH: named a JSON file" lines "$err" "error: trace.json.gz: a JSON file (such as trace.json), $instead; clean_sim_trace --check trace.json.gz checks a trace against the viewer rules"
printf 'notes about the run\n' >"$tmp/w/notes.txt"
run "$tmp/w" notes.txt
check "text file as PATH: exit 1, named a text file" [ "$status:$err" = "1:error: notes.txt: a text file, $instead"$'\n' ]
head -c 64 /dev/zero | tr '\0' '\001' >"$tmp/w/garbage.bin"
run "$tmp/w" garbage.bin
check "binary garbage as PATH: still a corrupt block" lines "$err" "error: garbage.bin: corrupt block at offset 0: reserve byte is 0x01, expected 0x5a"

run "$tmp/w" missing-dir
check "missing PATH: exit 1" [ "$status" -eq 1 ]
check "missing PATH: reason" contains "$err" "error: missing-dir: cannot open: No such file or directory"

# --- default output folder: next to the .bin, no raw copy ------------------
cp -r "$demo" "$tmp/w/D"
run "$tmp/w" D
check "default -o: exit 0" [ "$status" -eq 0 ]
check "default -o: writes next to the .bin" [ -f "$tmp/w/D/simulator/trace.clean.json" ]
check "default -o: summary next to the .bin" [ -f "$tmp/w/D/simulator/summary.json" ]
check "default -o: summary page next to the .bin" [ -f "$tmp/w/D/simulator/summary.html" ]
check "default -o: no raw copy" [ ! -e "$tmp/w/D/simulator/raw_simulator" ]
# The "wrote" lines, then (after a blank line) the summary table.
check "default -o: announces the four files" lines "${out%%$'\n\n'*}"$'\n' "wrote D/simulator/trace.clean.json
wrote D/simulator/instr_metrics.json
wrote D/simulator/summary.json
wrote D/simulator/summary.html"
check "default -o: the summary table follows" contains "$out" $'summary.html\n\nsummary: (no OP_BASIC_INFO) (run 1 of 1)\n'

# stdout that cannot be written (the wrote lines and the summary table):
# exit 3, named (docs/decisions.md).
if [ -w /dev/full ]; then
	status=0
	(cd "$tmp/w" && "$CSIM_BIN" -o full_out OPPROF_demo >/dev/full 2>"$tmp/.stderr") || status=$?
	check "stdout on a full device: exit 3" [ "$status" -eq 3 ]
	check "stdout on a full device: message" grep -qx "error: cannot write to standard output" "$tmp/.stderr"
else
	echo "skip - no /dev/full: stdout write failure not tested"
fi

# --- -o forms, quiet, overwrite ---------------------------------------------
run "$tmp/w" -q --output-dir=q1 OPPROF_demo
check "-q: exit 0, silent" [ "$status:$out:$err" = "0::" ]
check "--output-dir=DIR creates DIR" [ -f "$tmp/w/q1/trace.clean.json" ]
echo stale >"$tmp/w/q1/trace.clean.json"
run "$tmp/w" -oq1 OPPROF_demo
check "-oDIR overwrites an older output" cmp_but_names "$tmp/w/q1/trace.clean.json" "$golden/trace.clean.json"
check "no temporary files left" [ -z "$(find "$tmp/w/q1" -name '.*')" ]
run "$tmp/w" OPPROF_demo -o deep/er/out --no-copy-raw
check "-o creates missing parents" [ -f "$tmp/w/deep/er/out/trace.clean.json" ]
# /proc takes no folder: mkdir says ENOENT though /proc is there (as root;
# a user meets EACCES first). The message says which it is.
if [ -d /proc/self ]; then
	run "$tmp/w" OPPROF_demo -o /proc/csim_out
	check "-o /proc/x: exit 3" [ "$status" -eq 3 ]
	check "-o /proc/x: not a bare 'No such file or directory'" \
		eval '! contains "$err" "No such file or directory" || contains "$err" "its parent folder exists but takes no new folder"'
fi

# --- output errors: exit 3 --------------------------------------------------
touch "$tmp/w/afile"
run "$tmp/w" OPPROF_demo -o afile
check "-o an existing file: exit 3" [ "$status" -eq 3 ]
check "-o an existing file: message" contains "$err" "error: cannot"
run "$tmp/w" OPPROF_demo -o /proc/csim-cannot-write-here
check "-o unwritable: exit 3" [ "$status" -eq 3 ]

# A bad -o is reported before the input is read (SPEC §1): with a corrupt
# input the error is the -o one (exit 3), not the input's (exit 1).
mkdir -p "$tmp/w/bad/simulator"
cp "$CSIM_ROOT/fixtures/invalid/bad_reserve_byte.bin" "$tmp/w/bad/simulator/visualize_data.bin"
run "$tmp/w" bad -o afile
check "-o an existing file, corrupt input: exit 3 before reading" [ "$status" -eq 3 ]
check "-o an existing file, corrupt input: only the -o error" lines "$err" "error: cannot write to afile: not a folder"
run "$tmp/w" bad -o afile/sub
check "-o below a file, corrupt input: exit 3 before reading" [ "$status" -eq 3 ]
check "-o below a file: message" lines "$err" "error: cannot create output folder afile/sub: Not a directory"
# /proc grants root access yet refuses folders: found when the folder is
# made, after reading, with nothing left behind.
run "$tmp/w" OPPROF_demo -o /proc/csim-cannot-write-here/out
check "-o not creatable: exit 3" [ "$status" -eq 3 ]
check "-o not creatable: names the folder" contains "$err" "error: cannot create output folder /proc/csim-cannot-write-here: "
check "-o not creatable: nothing left" [ ! -e /proc/csim-cannot-write-here ]
# The probe of a missing -o creates nothing in its existing parent, the
# one outside -o: a corrupt input leaves that parent as it was.
mkdir -p "$tmp/w/parent"
run "$tmp/w" bad -o parent/new/deeper
check "-o missing, corrupt input: exit 1" [ "$status" -eq 1 ]
check "-o missing, corrupt input: nothing made in its existing parent" [ -z "$(ls -A "$tmp/w/parent")" ]
# The probe creates nothing: an input error still leaves no -o folder.
run "$tmp/w" bad -o fresh/sub
check "-o fine, corrupt input: exit 1" [ "$status" -eq 1 ]
check "-o fine, corrupt input: no folder created" [ ! -e "$tmp/w/fresh" ]
check "-o fine, corrupt input: no probe file left" [ -z "$(find "$tmp/w" -maxdepth 1 -name '.csim-probe*')" ]

# A read-only folder as -o, or above a missing -o. Root writes anywhere,
# so as root (CI) the converter runs as user nobody, as below.
ro="$tmp/ro"
mkdir -p "$ro/in/simulator" "$ro/locked"
cp "$CSIM_ROOT/fixtures/invalid/bad_reserve_byte.bin" "$ro/in/simulator/visualize_data.bin"
ro_user=()
if [ "$(id -u)" -eq 0 ]; then
	ro_user=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
	chmod a+rx "$tmp"
	chmod -R a+rwX "$ro"
fi
chmod a-w "$ro/locked"
for o in locked locked/sub; do
	status=0
	(cd "$ro" && "${ro_user[@]}" "$CSIM_BIN" in -o "$o" >"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
	check "-o $o (read-only), corrupt input: exit 3 before reading" [ "$status" -eq 3 ]
	check "-o $o (read-only): permission named" grep -q "^error: cannot .* $o: Permission denied$" "$tmp/.stderr"
done
check "-o read-only: nothing left in it" [ -z "$(ls -A "$ro/locked")" ]
# No -o, and the dump's own folder is read-only: before reading, the hint -o.
mkdir -p "$ro/rodump/simulator"
cp "$sim/visualize_data.bin" "$ro/rodump/simulator/"
chmod a+rX "$ro/rodump" "$ro/rodump/simulator" "$ro/rodump/simulator/visualize_data.bin"
chmod a-w "$ro/rodump/simulator"
status=0
(cd "$ro" && "${ro_user[@]}" "$CSIM_BIN" rodump >"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
check "read-only dump folder, no -o: exit 3" [ "$status" -eq 3 ]
check "read-only dump folder, no -o: says to pass -o" [ "$(cat "$tmp/.stderr")" = \
	"error: cannot write to rodump/simulator: Permission denied; it is the dump's folder, where the outputs go without -o: pass -o DIR to write them elsewhere" ]
check "read-only dump folder, no -o: nothing written" [ "$(ls -A "$ro/rodump/simulator")" = visualize_data.bin ]

# --- raw copy: links as links, never into itself ----------------------------
ln -s /etc/hostname "$sim/outside_link"
ln -s no-such-target "$sim/dangling_link"
ln -s . "$sim/loop_link"
run "$tmp/w" OPPROF_demo -o r1
check "raw copy: exit 0" [ "$status" -eq 0 ]
check "raw copy: outside link stays a link" [ "$(readlink "$tmp/w/r1/raw_simulator/outside_link")" = /etc/hostname ]
check "raw copy: dangling link copied" [ "$(readlink "$tmp/w/r1/raw_simulator/dangling_link")" = no-such-target ]
check "raw copy: loop link copied, not followed" [ "$(readlink "$tmp/w/r1/raw_simulator/loop_link")" = . ]
check "raw copy: same files" diff -r --no-dereference "$sim" "$tmp/w/r1/raw_simulator"
run "$tmp/w" OPPROF_demo -o r1
check "raw copy: a second run replaces the copy" [ "$status" -eq 0 ]
check "raw copy: no leftovers" [ -z "$(find "$tmp/w/r1" -maxdepth 1 -name '.*')" ]
run "$tmp/w" OPPROF_demo -o r2 --no-copy-raw
check "--no-copy-raw" [ ! -e "$tmp/w/r2/raw_simulator" ]
run "$tmp/w" OPPROF_demo -o OPPROF_demo/simulator
check "-o the simulator folder: no raw copy" [ ! -e "$sim/raw_simulator" ]
check "-o the simulator folder: outputs written" [ -f "$sim/trace.clean.json" ]
rm -f "$sim/trace.clean.json" "$sim/instr_metrics.json"
run "$tmp/w" OPPROF_demo -o OPPROF_demo/simulator/inner
check "-o inside the simulator folder: exit 0" [ "$status" -eq 0 ]
check "-o inside: copy does not contain itself" [ ! -e "$sim/inner/raw_simulator/inner" ]
check "-o inside: copy has the dump" [ -f "$sim/inner/raw_simulator/visualize_data.bin" ]

# --- raw copy of a bare .bin: the .bin alone unless a simulator folder ------
# (SPEC §8) A download folder: unrelated files and folders beside the .bin.
dl="$tmp/w/Downloads"
mkdir -p "$dl/photos" "$dl/coreutils-9.4"   # core and no digit: no core folder
cp "$sim/visualize_data.bin" "$dl/"
echo private >"$dl/notes.txt"
echo x >"$dl/photos/a.jpg"
echo x >"$dl/core_dump.txt"   # a file, not a core* folder
run "$tmp/w" Downloads/visualize_data.bin -o dl_out
check "bare .bin: exit 0" [ "$status" -eq 0 ]
check "bare .bin: raw_simulator holds the .bin alone" [ "$(ls -A "$tmp/w/dl_out/raw_simulator")" = visualize_data.bin ]
check "bare .bin: the copy is the .bin" cmp "$dl/visualize_data.bin" "$tmp/w/dl_out/raw_simulator/visualize_data.bin"
check "bare .bin: the note says why" contains "$err" \
	"note: copied visualize_data.bin alone into dl_out/raw_simulator ("
check "bare .bin: the note names the folder" contains "$err" ": Downloads is no simulator folder"
run "$tmp/w/Downloads" visualize_data.bin -o ../dl_here
check "bare .bin given from its folder: the .bin alone" [ "$(ls -A "$tmp/w/dl_here/raw_simulator")" = visualize_data.bin ]
gzip -c "$sim/visualize_data.bin" >"$dl/visualize_data.bin.gz"
rm "$dl/visualize_data.bin"
run "$tmp/w" Downloads -o dl_gz
check "bare .bin.gz: the .bin.gz alone" [ "$(ls -A "$tmp/w/dl_gz/raw_simulator")" = visualize_data.bin.gz ]
# Simulator folders are copied whole: named simulator, with trace.json, with core*/.
for kind in named trace core; do
	f="$tmp/w/kind_$kind"
	case $kind in
	named) f="$f/simulator"; mkdir -p "$f"; echo x >"$f/other.txt" ;;
	trace) mkdir -p "$f"; echo '{}' >"$f/trace.json" ;;
	core) mkdir -p "$f/core0.veccore0"; echo x >"$f/core0.veccore0/t.json" ;;
	esac
	cp "$sim/visualize_data.bin" "$f/"
	mkdir -p "$f/sub"
	echo x >"$f/sub/x.txt"
	run "$f" visualize_data.bin -o "$tmp/w/out_$kind"
	check "simulator folder ($kind): exit 0" [ "$status" -eq 0 ]
	check "simulator folder ($kind): copied whole" diff -r --no-dereference "$f" "$tmp/w/out_$kind/raw_simulator"
	check "simulator folder ($kind): the usual note" contains "$err" "note: copied 3 file(s), 0 link(s), "
done

# --- links in the output folder are replaced, never written through --------
mkdir -p "$tmp/w/precious/raw_simulator" "$tmp/w/l1"
echo keep >"$tmp/w/precious/raw_simulator/keep.txt"
echo keep >"$tmp/w/precious/trace.clean.json"
ln -s ../precious/raw_simulator "$tmp/w/l1/raw_simulator"
ln -s ../precious/trace.clean.json "$tmp/w/l1/trace.clean.json"
run "$tmp/w" OPPROF_demo -o l1
check "links in -o: exit 0" [ "$status" -eq 0 ]
check "links in -o: the trace is a new file" [ ! -L "$tmp/w/l1/trace.clean.json" ]
check "links in -o: the raw copy is a new folder" [ ! -L "$tmp/w/l1/raw_simulator" ]
check "links in -o: the raw copy is complete" cmp "$sim/visualize_data.bin" "$tmp/w/l1/raw_simulator/visualize_data.bin"
check "links in -o: their targets untouched" [ "$(cat "$tmp/w/precious/trace.clean.json" "$tmp/w/precious/raw_simulator/keep.txt")" = "keep
keep" ]
check "links in -o: nothing added to the targets" [ "$(ls "$tmp/w/precious/raw_simulator")" = keep.txt ]
mkdir -p "$tmp/w/f1"
echo plain >"$tmp/w/f1/raw_simulator"
run "$tmp/w" OPPROF_demo -o f1
check "a file named raw_simulator in -o: replaced by the copy" [ "$status:$(test -d "$tmp/w/f1/raw_simulator" && echo dir)" = "0:dir" ]
check "a file named raw_simulator in -o: no leftovers" [ -z "$(find "$tmp/w/f1" -maxdepth 1 -name '.*')" ]
check "links in -o: no leftovers" [ -z "$(find "$tmp/w/l1" -maxdepth 1 -name '.*')" ]

# --- an unreadable file in the source folder: a warning, the run goes on ---
# Root reads any file, so as root (CI) the converter runs as user nobody.
u="$tmp/u"
cp -r "$demo" "$u"
as_user=()
if [ "$(id -u)" -eq 0 ]; then
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
	chmod a+rx "$tmp"
	chmod -R a+rwX "$u"
fi
echo secret >"$u/simulator/unreadable.txt"
chmod 000 "$u/simulator/unreadable.txt"
status=0
(cd "$u" && "${as_user[@]}" "$CSIM_BIN" . -o out >"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
err=$(cat "$tmp/.stderr")
check "unreadable source file: exit 0" [ "$status" -eq 0 ]
check "unreadable source file: warning names it" contains "$err" \
	"warning: cannot copy ./simulator/unreadable.txt: Permission denied"
check "unreadable source file: outputs written" "$CSIM_CHECK" --disjoint "$u/out/trace.clean.json"
check "unreadable source file: the rest copied" cmp "$u/simulator/visualize_data.bin" "$u/out/raw_simulator/visualize_data.bin"
check "unreadable source file: not half copied" [ ! -e "$u/out/raw_simulator/unreadable.txt" ]
finish
