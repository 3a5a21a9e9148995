#!/usr/bin/env bash
# The dependency rules of docs/design.md ("Layers"), checked on the source
# tree: src/ and include/ are grouped by layer (base, model, read, write,
# check, cli), every project include names its layer ("read/event_scan.h"),
# and a layer includes only itself and the layers below it:
#   base  <- model <- read <- check <- write <- cli
# (base: nothing above; model: no I/O, JSON or options; read may fill the
# model; check, the --check rules, reads through read/ but never uses the
# model, so the converter's oracle shares none of its packing code; write
# may use the read side's second reading and scanner, and the reader of
# its own summaries, and no other read/ header: the rest of what the
# reading found reaches it through the model).
# zlib belongs where bytes meet a file: the read side's inflater (.bin.gz,
# gz_inflate, behind gz_source; ISA-L's igzip there too, where built with
# it) and the write side's out_file (-z output, deflated in its buffer
# flush); cJSON to no product source (the test tools read JSON with it).
# Threads belong to base/handoff, the one hand-off between threads: the
# inflating thread (gz_source), the scanning thread (scan_pipe), the
# metrics thread and the trace's worker (trace_split) all start and pass
# their work through it, and nothing else includes <pthread.h>.
# No two modules depend on each other, even through others: module X
# (src/L/X.c and include/L/X.h) depends on Y when either file includes
# "L2/Y.h", and that graph has no cycle,
# so each module can be read, tested and changed knowing only those below it.
# With --graph, prints the include graph instead (docs/design.md shows it).
set -euo pipefail
root=${CSIM_ROOT:?set CSIM_ROOT to the repository root}
source "$(dirname "$0")/checks.sh"

rank() {
	case $1 in
	base) echo 0 ;; model) echo 1 ;; read) echo 2 ;; check) echo 3 ;; write) echo 4 ;;
	cli) echo 5 ;;
	*) echo -1 ;;
	esac
}

files=$(cd "$root" && find src include -name '*.[ch]' | sort)

if [ "${1:-}" = "--graph" ]; then
	for f in $files; do
		deps=$(sed -n 's/^#include "\([a-z]*\/[a-z_0-9]*\)\.h".*/\1/p' "$root/$f" | sort -u | tr '\n' ' ')
		printf '%-30s %s\n' "${f#*/}" "$deps"
	done
	exit 0
fi

for f in $files; do
	layer=$(echo "$f" | cut -d/ -f2)
	check "$f lies in a layer folder" [ "$(rank "$layer")" -ge 0 ]
	mine=$(rank "$layer")
	bad=""
	while IFS= read -r inc; do
		[ -n "$inc" ] || continue
		case $inc in
		*/*) their=$(rank "${inc%%/*}")
		     if [ "$their" -lt 0 ] || [ "$their" -gt "$mine" ]; then bad+=" $inc"; fi ;;
		*) bad+=" $inc (no layer)" ;;
		esac
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$root/$f")
	check "$f includes only its layer and those below${bad:+:$bad}" [ -z "$bad" ]
	# The writers read the dump a second time (the kept rows' bytes, the
	# API_INSTR rows) through these (json_skip walks the args and counter
	# events the first reading validated: trace.pftrace's annotations); every other fact of the reading
	# reaches them through the model (model/run_info.h: the run choice
	# and OP_BASIC_INFO). result_read reads no dump: it reads back the
	# summary.json a writer made (write/run_compare.h: --run all's compare
	# view is computed from the runs' summary, as --compare's is).
	if [ "$layer" = write ]; then
		reads=$(sed -n 's/^#include "read\/\([a-z_0-9]*\)\.h".*/\1/p' "$root/$f" |
			grep -vxE 'slice_store|event_scan|event_args|json_scan|json_skip|instr_index|instr_digest|result_read' |
			tr '\n' ' ' || true)
		check "$f: a writer includes only the second reading's read/ headers${reads:+: not $reads}" \
			[ -z "$reads" ]
	fi
	if [ "$layer" = check ]; then
		check "$f: check/ includes no model/ header" \
			[ -z "$(grep '^#include "model/' "$root/$f" || true)" ]
	fi
	if grep -q '^#include <zlib.h>' "$root/$f"; then
		case ${f#*/} in
		read/gz_inflate.c | write/out_file.c) zlib_ok=1 ;;
		*) zlib_ok=0 ;;
		esac
		check "$f: zlib only in read/gz_inflate.c and write/out_file.c" [ "$zlib_ok" = 1 ]
	fi
	if grep -q '^#include <isa-l/' "$root/$f"; then
		check "$f: ISA-L only in read/gz_inflate.c" [ "${f#*/}" = read/gz_inflate.c ]
	fi
	if grep -q '^#include <pthread.h>' "$root/$f"; then
		case ${f#*/} in
		base/handoff.c) threads_ok=1 ;;
		*) threads_ok=0 ;;
		esac
		check "$f: threads only in base/handoff.c" [ "$threads_ok" = 1 ]
	fi
	if grep -q '^#include <cjson/cJSON.h>' "$root/$f"; then
		check "$f: cJSON in no product source (the test tools' reader)" false
	fi
done

# The module graph has no cycle. One line per cycle, found depth first
# from the modules in name order (a back edge closes the path it leaves).
for f in $files; do
	m=${f#*/}
	m=${m%.[ch]}
	sed -n 's/^#include "\([a-z]*\/[a-z_0-9]*\)\.h".*/\1/p' "$root/$f" |
		awk -v m="$m" '$0 != m { print m, $0 }'
done | sort -u >"$tmp/edges"
cycles=$(awk '
	function visit(n,    i, j, m, c) {
		state[n] = 1
		path[++depth] = n
		for (i = 1; i <= deg[n]; i++) {
			m = next_of[n, i]
			if (state[m] == 1) {
				for (j = depth; path[j] != m; j--) ;
				c = m
				for (j++; j <= depth; j++) c = c " -> " path[j]
				printf "%s -> %s; ", c, m
			} else if (!state[m])
				visit(m)
		}
		depth--
		state[n] = 2
	}
	{ next_of[$1, ++deg[$1]] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
	END { for (k = 1; k <= n; k++) if (!state[order[k]]) visit(order[k]) }
' "$tmp/edges")
check "the modules include one another without a cycle${cycles:+: $cycles}" [ -z "$cycles" ]

# A source and its header share a layer (one module, one place).
for f in $(cd "$root" && find src -name '*.c' | sort); do
	[ "$(basename "$f")" = main.c ] && continue
	h="include/${f#src/}"
	check "$f has its header ${h%.c}.h" [ -f "$root/${h%.c}.h" ]
done
finish
