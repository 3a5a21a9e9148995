#!/usr/bin/env bash
# --summary-only out of memory (docs/cli.md; the failalloc build,
# tests/tools/failalloc.c): the allocations of a --summary-only run fail in
# turn (lib.sh's sweep_points), for the table and for --json: exit 1 or 3
# with "error: out of memory" alone and nothing on stdout, or (a
# best-effort allocation) the reference output; never a file written.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_FAILALLOC:?set CSIM_FAILALLOC to the clean_sim_trace_failalloc executable}"

# listing DIR: every path below DIR with its type, size and mtime.
listing() { (cd "$1" && find . -printf '%p %y %s %T@\n' | LC_ALL=C sort); }
# same_tree DIR BEFORE: DIR lists as BEFORE did.
same_tree() { [ "$(listing "$1")" = "$2" ]; }

mkdir -p "$tmp/w"
cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo" "$tmp/w/"
# Five bytes past the last block, as in t_summary_only: the warning's
# allocations too (-q keeps it off stderr).
printf 'xxxxx' >>"$tmp/w/OPPROF_demo/simulator/visualize_data.bin"

failalloc_env
fa_sweep() {
	local name=$1 total k bad=0 tried=0 st
	shift
	before=$(listing "$tmp/w")
	st=0
	(cd "$tmp" && CSIM_FAIL_ALLOC=0 CSIM_FAIL_ALLOC_REPORT=1 "$CSIM_FAILALLOC" "$@" \
		>"$tmp/fa.ref" 2>"$tmp/fa.err") || st=$?
	total=$(sed -n 's/^failalloc: \([0-9]*\) allocation(s)$/\1/p' "$tmp/fa.err")
	check "$name: counting run succeeds" [ "$st" -eq 0 -a "${total:-0}" -gt 0 ]
	for k in $(sweep_points 1 "${total:-0}"); do
		tried=$((tried + 1))
		st=0
		(cd "$tmp" && CSIM_FAIL_ALLOC=$k timeout 60 "$CSIM_FAILALLOC" "$@" \
			>"$tmp/fa.out" 2>"$tmp/fa.err") || st=$?
		if [ "$st" -eq 0 ] && cmp -s "$tmp/fa.out" "$tmp/fa.ref"; then
			continue
		fi
		if { [ "$st" -ne 1 ] && [ "$st" -ne 3 ]; } || [ -s "$tmp/fa.out" ] ||
			[ "$(cat "$tmp/fa.err")" != "error: out of memory" ]; then
			echo "# $name k=$k: exit $st, stderr: $(head -c 300 "$tmp/fa.err")"
			bad=$((bad + 1))
		fi
	done
	check "$name: $tried failed allocations each end cleanly" [ "$bad" -eq 0 -a "$tried" -gt 0 ]
	check "$name: nothing written" same_tree "$tmp/w" "$before"
}
fa_sweep "out of memory, table" w/OPPROF_demo --summary-only -q
fa_sweep "out of memory, --json" w/OPPROF_demo --summary-only --json -q
finish
