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

# One awk pass over every file gives each check's verdict ("1|DESC" or
# "0|DESC"), as one shell loop with a fork per include took ~40 s.
# The writers read the dump a second time (the kept rows' bytes, the
# API_INSTR rows) through the read/ headers allowed below (json_skip walks
# the args and counter events the first reading validated: trace.pftrace's
# annotations); every other fact of the reading reaches them through the
# model (model/run_info.h: the run choice and OP_BASIC_INFO). result_read
# reads no dump: it reads back the summary.json a writer made
# (write/run_compare.h: --run all's compare view is computed from the
# runs' summary, as --compare's is).
(cd "$root" && awk '
	BEGIN {
		split("base model read check write cli", names, " ")
		for (i = 1; i <= 6; i++) rank[names[i]] = i - 1
		split("slice_store event_scan event_args json_scan json_skip instr_index instr_digest result_read", ok, " ")
		for (i in ok) second_reading[ok[i]] = 1
	}
	function verdict(good, desc) { print (good ? 1 : 0) "|" desc }
	function done_file(    mine) {
		if (f == "") return
		mine = (layer in rank) ? rank[layer] : -1
		verdict(mine >= 0, f " lies in a layer folder")
		verdict(bad == "", f " includes only its layer and those below" (bad == "" ? "" : ":" bad))
		if (layer == "write")
			verdict(reads == "", f ": a writer includes only the second reading'"'"'s read/ headers" (reads == "" ? "" : ": not " reads))
		if (layer == "check") verdict(!model, f ": check/ includes no model/ header")
		if (zlib) verdict(rel == "read/gz_inflate.c" || rel == "write/out_file.c", f ": zlib only in read/gz_inflate.c and write/out_file.c")
		if (isal) verdict(rel == "read/gz_inflate.c", f ": ISA-L only in read/gz_inflate.c")
		if (threads) verdict(rel == "base/handoff.c", f ": threads only in base/handoff.c")
		if (cjson) verdict(0, f ": cJSON in no product source (the test tools'"'"' reader)")
	}
	FNR == 1 {
		done_file()
		f = FILENAME; rel = f; sub(/^[^\/]*\//, "", rel)
		layer = rel; sub(/\/.*/, "", layer)
		bad = reads = ""; model = zlib = isal = threads = cjson = 0
	}
	/^#include "[^"]*"/ {
		inc = $0; sub(/^#include "/, "", inc); sub(/".*/, "", inc)
		if (inc ~ /\//) {
			l = inc; sub(/\/.*/, "", l)
			mine = (layer in rank) ? rank[layer] : -1
			if (!(l in rank) || rank[l] > mine) bad = bad " " inc
		} else
			bad = bad " " inc " (no layer)"
		if (inc ~ /^read\/[a-z_0-9]*\.h$/) {
			h = inc; sub(/^read\//, "", h); sub(/\.h$/, "", h)
			if (!(h in second_reading)) reads = reads h " "
		}
		if (inc ~ /^model\//) model = 1
	}
	/^#include <zlib\.h>/ { zlib = 1 }
	/^#include <isa-l\// { isal = 1 }
	/^#include <pthread\.h>/ { threads = 1 }
	/^#include <cjson\/cJSON\.h>/ { cjson = 1 }
	END { done_file() }
' $files) >"$tmp/verdicts"
while IFS='|' read -r good desc; do
	if [ "$good" = 1 ]; then pass "$desc"; else flunk "$desc"; fi
done <"$tmp/verdicts"

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
