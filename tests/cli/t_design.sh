#!/usr/bin/env bash
# docs/design.md against the tree, so the newcomer's map stays the code's:
#   - every module (a src/<layer>/NAME.c, or a header include/<layer>/NAME.h
#     without one) has a row in "Modules", whose Layer column is its folder;
#   - every name in that column is a module of the tree;
#   - the layer map atop "Layers and dependency rules" lists the same
#     modules under the same folders;
#   - the pass table of "Pass contracts" lists the passes of
#     csim_pass_plan[] (src/model/passes.c) in the plan's order.
set -euo pipefail
root=${CSIM_ROOT:?set CSIM_ROOT to the repository root}
source "$(dirname "$0")/checks.sh"

doc="$root/docs/design.md"

# section TITLE: the lines of "## TITLE" up to the next "## ".
section() {
	awk -v t="## $1" '$0 == t { on = 1; next } /^## / { on = 0 } on' "$doc"
}

# "name layer" per module of the tree.
(cd "$root" && {
	for f in src/*/*.c; do
		l=${f#src/}
		echo "$(basename "$f" .c) ${l%%/*}"
	done
	for f in include/*/*.h; do
		l=${f#include/}
		n=$(basename "$f" .h)
		[ -e "src/${l%.h}.c" ] || echo "$n ${l%%/*}"
	done
}) | sort -u >"$tmp/tree"

# "name layer" per name in the first column of each Modules row (a row may
# name several modules of one layer: "`pass_lanes`, `pass_pack`").
section Modules | awk -F'|' '/^\| `/ {
	layer = $3; gsub(/ /, "", layer)
	n = split($2, parts, "`")
	for (i = 2; i <= n; i += 2) print parts[i], layer
}' | sort -u >"$tmp/doc"

# An empty side would make the comparisons below vacuous.
check "the tree ($(wc -l <"$tmp/tree") modules) and the Modules table ($(wc -l <"$tmp/doc") names) are read" \
	[ -s "$tmp/tree" -a -s "$tmp/doc" ]
missing=$(comm -23 <(cut -d' ' -f1 "$tmp/tree" | sort -u) <(cut -d' ' -f1 "$tmp/doc" | sort -u) | tr '\n' ' ')
check "every module has a row in design.md's Modules:${missing:+ missing $missing}" [ -z "$missing" ]
extra=$(comm -13 <(cut -d' ' -f1 "$tmp/tree" | sort -u) <(cut -d' ' -f1 "$tmp/doc" | sort -u) | tr '\n' ' ')
check "every row of Modules names a module of the tree:${extra:+ not in the tree: $extra}" [ -z "$extra" ]
wrong=$(join <(sort "$tmp/tree") <(sort "$tmp/doc") | awk '$2 != $3 { print $1 " (" $2 ", not " $3 ")" }' | tr '\n' ' ')
check "each row's layer is its module's folder:${wrong:+ $wrong}" [ -z "$wrong" ]

# The map: "  layer/  name name ..." and its continuation lines.
awk '/^src\/, include\/$/ { on = 1; next } on && /^```/ { exit }
	on {
		if ($1 ~ /\/$/) { layer = $1; sub(/\/$/, "", layer); i = 2 } else i = 1
		for (; i <= NF; i++) print $i, layer
	}' "$doc" | sort -u >"$tmp/map"
check "the layer map lists the tree's modules in their folders" diff "$tmp/tree" "$tmp/map"

# The plan as the runner has it, and as the contract table lists it.
sed -n 's/^[[:space:]]*&csim_pass_\([a-z]*\)_def,$/\1/p' "$root/src/model/passes.c" >"$tmp/plan"
section "Pass contracts" | sed -n 's/^| `\([a-z]*\)` | .*/\1/p' >"$tmp/table"
check "the plan has twelve passes" [ "$(wc -l <"$tmp/plan")" -eq 12 ]
check "the pass table lists the plan, in its order" diff "$tmp/plan" "$tmp/table"
finish
