#!/usr/bin/env bash
# The raw copy (SPEC §8, docs/cli.md "Output folder"): a simulator folder
# copied into DIR/raw_simulator/ never takes an output folder of this tool
# found inside it, nor the outputs of a run made there without -o, so
# repeated -o runs in the folder do not nest copies or grow; a file is a
# reflink where the file system allows one, a copy where it does not, and
# never a hard link: the copy stays the bytes converted when the simulator
# appends its next run to the dump in place.
#
# By hand: the demo's simulator folder holds visualize_data.bin (16488
# bytes), trace.json (11963) and core0.cubecore0/{trace.json (640),
# core0.cubecore0_instr_exe.csv (64)}: 4 files, 1 folder, 29155 bytes.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_FAILIO:?set CSIM_FAILIO to the clean_sim_trace_failio executable}"

sim="$tmp/OPPROF_demo/simulator"
cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo" "$tmp/"
want_files="core0.cubecore0/core0.cubecore0_instr_exe.csv
core0.cubecore0/trace.json
trace.json
visualize_data.bin"

# files DIR: the regular files below DIR, relative, sorted.
files() { (cd "$1" && find . -type f | sed 's|^\./||' | LC_ALL=C sort); }
# bytes DIR: the sum of the sizes of the regular files below DIR.
bytes() { find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }

check "by hand: the simulator folder holds the 4 files" [ "$(files "$sim")" = "$want_files" ]
check "by hand: 29155 bytes" [ "$(bytes "$sim")" -eq 29155 ]

# --- three -o runs inside the simulator folder ------------------------------
run "$sim" . -o clean
check "clean: exit 0" [ "$status" -eq 0 ]
run "$sim" . -o clean_z -z
check "clean_z: exit 0" [ "$status" -eq 0 ]
check "clean_z: the note counts the simulator's 29155 bytes" \
	contains "$err" "29155 bytes into clean_z/raw_simulator"
check "clean_z: one output folder left out" contains "$err" ", 1 output(s) of clean_sim_trace left out"
run "$sim" . -o clean_pf --format perfetto
check "clean_pf: exit 0" [ "$status" -eq 0 ]
check "clean_pf: two output folders left out" contains "$err" ", 2 output(s) of clean_sim_trace left out"
for d in clean clean_z clean_pf; do
	check "$d: raw_simulator holds the simulator's 4 files, no earlier output" \
		[ "$(files "$sim/$d/raw_simulator")" = "$want_files" ]
	check "$d: raw_simulator is 29155 bytes" [ "$(bytes "$sim/$d/raw_simulator")" -eq 29155 ]
	check "$d: the dump is the same bytes" cmp "$sim/visualize_data.bin" "$sim/$d/raw_simulator/visualize_data.bin"
done
# The simulator opens the dump in append mode: a re-run into the folder
# adds its blocks to the same file. The copy is a snapshot of the bytes
# converted, not the file (a hard link would grow with it).
inode=$(stat -c %i "$sim/visualize_data.bin")
printf 'appended by a re-run' >>"$sim/visualize_data.bin"
check "an append to the dump: the same file (inode $inode)" [ "$(stat -c %i "$sim/visualize_data.bin")" = "$inode" ]
for d in clean clean_z clean_pf; do
	check "an append to the dump: $d's copy is still 16488 bytes" \
		[ "$(stat -c %s "$sim/$d/raw_simulator/visualize_data.bin")" -eq 16488 ]
done

# --- a folder converted in place, then with -o -----------------------------
# Its own outputs beside the .bin describe a run of the converter, not the
# dump: left out of the copy, which holds the 4 files again.
cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo" "$tmp/inplace"
run "$tmp/inplace/simulator" . --format json,perfetto
check "in place: exit 0" [ "$status" -eq 0 ]
check "in place: summary.json beside the .bin" [ -f "$tmp/inplace/simulator/summary.json" ]
run "$tmp/inplace/simulator" . -o out
check "in place, then -o: exit 0" [ "$status" -eq 0 ]
check "in place, then -o: only the simulator's files copied" \
	[ "$(files "$tmp/inplace/simulator/out/raw_simulator")" = "$want_files" ]
check "in place, then -o: the 5 outputs named as left out" \
	contains "$err" ", 5 output(s) of clean_sim_trace left out"

# --- an output folder deeper in the tree, and a look-alike -----------------
# tries/a holds a summary.json: an output folder, wherever it lies. notes/
# holds only a plain file named like no output: copied.
cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo" "$tmp/deep"
mkdir -p "$tmp/deep/simulator/tries/a" "$tmp/deep/simulator/notes"
echo '{}' >"$tmp/deep/simulator/tries/a/summary.json"
echo 'x' >"$tmp/deep/simulator/notes/summary.txt"
run "$tmp/deep/simulator" . -o "$tmp/deep_out"
check "deep: exit 0" [ "$status" -eq 0 ]
check "deep: tries/a left out, tries/ and notes/summary.txt copied" \
	[ "$(files "$tmp/deep_out/raw_simulator" | grep -v '^core0\|^trace.json$\|^visualize')" = "notes/summary.txt" ]
check "deep: tries/ is there" [ -d "$tmp/deep_out/raw_simulator/tries" ]
check "deep: tries/a is not" [ ! -e "$tmp/deep_out/raw_simulator/tries/a" ]

# --- reflinks: shared where the file system makes them, else copied -------
# failio refuses the reflink (EOPNOTSUPP, as ext4 and tmpfs do): the bytes
# are copied, and the first refusal stops the tries.
cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo" "$tmp/norefl"
status=0
(cd "$tmp/norefl/simulator" && env 'CSIM_FAIL_IO=ioctl:*' CSIM_FAIL_IO_REPORT=1 \
	"$CSIM_FAILIO" . -o "$tmp/norefl_out" >"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
err=$(cat "$tmp/.stderr")
check "no reflink: exit 0" [ "$status" -eq 0 ]
check "no reflink: the 4 files copied" [ "$(files "$tmp/norefl_out/raw_simulator")" = "$want_files" ]
check "no reflink: 29155 bytes copied, none shared" \
	contains "$err" "note: copied 4 file(s), 0 link(s), 1 folder(s), 29155 bytes into $tmp/norefl_out/raw_simulator"$'\n'
check "no reflink: the same bytes" cmp "$tmp/norefl/simulator/visualize_data.bin" "$tmp/norefl_out/raw_simulator/visualize_data.bin"
check "no reflink: one reflink tried, then none" grep -q ' ioctl 1$' "$tmp/.stderr"
# Without the injection, the file system decides; the note says what it did.
run "$tmp/norefl/simulator" . -o "$tmp/fs_out"
check "this file system: exit 0" [ "$status" -eq 0 ]
check "this file system: the same bytes" cmp "$tmp/norefl/simulator/visualize_data.bin" "$tmp/fs_out/raw_simulator/visualize_data.bin"
check "this file system: the dump is a file of its own" \
	[ "$(stat -c %h "$tmp/fs_out/raw_simulator/visualize_data.bin")" -eq 1 ]
if contains "$err" "reflinked"; then
	check "this file system reflinks: all 4 files" contains "$err" ", 4 file(s) reflinked: 29155 bytes not copied"
fi
finish
