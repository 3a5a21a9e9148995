#!/usr/bin/env bash
# Golden tests: every fixtures/scenarios/<name>/dump.recipe is built into a
# visualize_data.bin and converted; stdout, stderr, exit status and both
# output files must equal the reviewed files in <name>/expected/<variant>/,
# every trace must pass the viewer-rule checker, and a second run must give
# the same bytes.
#
# A scenario may list variants in <name>/variants, one "NAME ARGS..." per
# line (default: one variant "default" without extra arguments).
# CSIM_UPDATE=1 rewrites the expected files; review them by reading before
# committing.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

variants_of() {
	if [ -f "$1/variants" ]; then
		grep -v '^#' "$1/variants" | grep -v '^$'
	else
		echo default
	fi
}

# compare GOLDEN ACTUAL DESC: byte equality, or write the golden in update mode.
compare() {
	if [ "${CSIM_UPDATE:-0}" = 1 ]; then
		if [ -e "$2" ]; then cp "$2" "$1"; else rm -f "$1"; fi
		return 0
	fi
	if [ ! -e "$1" ] && [ ! -e "$2" ]; then
		pass "$3 (absent as expected)"
	elif [ -e "$1" ] && [ -e "$2" ] && cmp -s "$1" "$2"; then
		pass "$3"
	else
		flunk "$3"
		diff -u "$1" "$2" 2>&1 | head -20 || true
	fi
}

run_variant() {
	local dir=$1 name=$2 variant=$3
	shift 3
	local work="$tmp/$name.$variant" golden="$dir/expected/$variant"

	mkdir -p "$work/sim" "$golden"
	"$CSIM_GEN" "$dir/dump.recipe" "$work/sim/visualize_data.bin"
	run "$work" sim -o out --no-copy-raw "$@"
	printf '%s\n' "$status" >"$work/exit"
	printf '%s' "$out" >"$work/stdout"
	printf '%s' "$err" >"$work/stderr"
	for f in exit stdout stderr; do
		compare "$golden/$f" "$work/$f" "$name/$variant: $f"
	done
	for f in trace.clean.json instr_metrics.json; do
		compare "$golden/$f" "$work/out/$f" "$name/$variant: $f"
	done
	if [ -f "$work/out/trace.clean.json" ]; then
		check "$name/$variant: viewer rules" "$CSIM_CHECK" --disjoint "$work/out/trace.clean.json"
		mv "$work/out" "$work/first"
		run "$work" sim -o out --no-copy-raw "$@"
		check "$name/$variant: deterministic" diff -r "$work/first" "$work/out"
	fi
}

for dir in "$CSIM_ROOT"/fixtures/scenarios/*/; do
	dir=${dir%/}
	[ -f "$dir/dump.recipe" ] || continue
	name=$(basename "$dir")
	while read -r variant args; do
		# shellcheck disable=SC2086 # args are option words
		run_variant "$dir" "$name" "$variant" $args
	done < <(variants_of "$dir")
done
finish
