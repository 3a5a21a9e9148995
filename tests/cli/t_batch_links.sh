#!/usr/bin/env bash
# Batch mode reads nothing outside the trees it is given (SPEC §11,
# docs/batch.md): a dump that is a link to a file outside the walked PATH
# is skipped with a warning naming it, and the file is never opened
# (strace's record of the run's openat calls); a link to a file inside the
# tree is read (here: the same file as another dump, converted once).
# Needs strace (installed by .ci/run): without it the test is skipped.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip_missing "no strace on PATH: the file-access check cannot run"

demo="$CSIM_ROOT/fixtures/demo/OPPROF_demo/simulator/visualize_data.bin"
mkdir -p "$tmp/tree/a/simulator" "$tmp/tree/out_link/simulator" "$tmp/tree/in_link/simulator" \
	"$tmp/outside"
cp "$demo" "$tmp/tree/a/simulator/visualize_data.bin"
cp "$demo" "$tmp/outside/secret.bin"
ln -s ../../../outside/secret.bin "$tmp/tree/out_link/simulator/visualize_data.bin"
ln -s ../../a/simulator/visualize_data.bin "$tmp/tree/in_link/simulator/visualize_data.bin"

# LeakSanitizer cannot run under ptrace (an ASan build's exit would be 1):
# its leak check is left to the other batch tests; ASan's other checks stay.
status=0
(cd "$tmp" && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -qq -e trace=open,openat -o "$tmp/strace.log" \
	"$CSIM_BIN" tree -o out >"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
err=$(cat "$tmp/.stderr")
out=$(cat "$tmp/.stdout")
check "exit 0" [ "$status" -eq 0 ]
check "the link to outside named in a warning" contains "$err" \
	"warning: not converting tree/out_link/simulator/visualize_data.bin: it is a link to a file outside tree, and a batch reads nothing outside the trees it is given (pass the link's target)"
check "the file outside never opened" eval '! grep -q "secret.bin" "$tmp/strace.log"'
check "strace saw the run open the dump inside" grep -q "tree/a/simulator/visualize_data.bin" "$tmp/strace.log"
check "the link inside the tree is the same dump again" contains "$err" \
	"warning: tree/in_link/simulator/visualize_data.bin is tree/a/simulator/visualize_data.bin again: converted once"
check "one dump converted" contains "$out" "converted 1/1 dumps"
check "no folder for the link to outside" [ ! -e "$tmp/out/out_link" ]
finish
