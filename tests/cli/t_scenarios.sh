#!/usr/bin/env bash
# Golden tests: every fixtures/scenarios/<name>/dump.recipe is built into a
# visualize_data.bin and converted; stdout, stderr, exit status and both
# output files must equal the reviewed files in <name>/expected/<variant>/,
# every trace must pass the viewer-rule checker, and a second run must give
# the same bytes.
#
# A scenario may list variants in <name>/variants, one "NAME ARGS..." per
# line (default: one variant "default" without extra arguments).
#
# stdout and stderr goldens hold the stream without its final newline: the
# stream must be exactly the golden followed by one "\n" (or empty when the
# golden is empty), so a lost or doubled trailing newline fails.
#
#   t_scenarios.sh                     compare (what ctest runs)
#   t_scenarios.sh --update [NAME...]  rewrite the goldens instead, then
#                                      review them by reading (docs/testing.md);
#                                      run through `cmake --build build
#                                      --target update-goldens`
# Only the --update argument writes goldens; nothing in the environment does.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

update=0
if [ "${1:-}" = --update ]; then
	update=1
	shift
fi
only=("$@")
updated=0

variants_of() {
	if [ -f "$1/variants" ]; then
		grep -v '^#' "$1/variants" | grep -v '^$'
	else
		echo default
	fi
}

# golden_of STREAM OUT: the golden form of a captured stream (final newline
# removed); fails if a non-empty stream does not end in a newline.
golden_of() {
	if [ ! -s "$1" ]; then
		: >"$2"
	elif [ "$(tail -c 1 "$1" | od -An -tx1 | tr -d ' ')" = 0a ]; then
		head -c -1 "$1" >"$2"
	else
		cp "$1" "$2"
		return 1
	fi
}

# stream_of GOLDEN OUT: the exact stream a stdout/stderr golden stands for.
stream_of() {
	cp "$1" "$2"
	if [ -s "$1" ]; then printf '\n' >>"$2"; fi
}

# compare GOLDEN ACTUAL DESC: byte equality (both absent also passes).
compare() {
	if [ ! -e "$1" ] && [ ! -e "$2" ]; then
		pass "$3 (absent as expected)"
	elif [ -e "$1" ] && [ -e "$2" ] && cmp -s "$1" "$2"; then
		pass "$3"
	else
		flunk "$3"
		diff -u "$1" "$2" 2>&1 | head -20 || true
	fi
}

# store GOLDEN ACTUAL: update mode's copy (or removal when absent).
store() {
	if [ -e "$2" ]; then cp "$2" "$1"; else rm -f "$1"; fi
	updated=$((updated + 1))
}

run_variant() {
	local dir=$1 name=$2 variant=$3
	shift 3
	local work="$tmp/$name.$variant" golden="$dir/expected/$variant" f

	mkdir -p "$work/sim"
	"$CSIM_GEN" "$dir/dump.recipe" "$work/sim/visualize_data.bin"
	run "$work" sim -o out --no-copy-raw "$@"
	printf '%s\n' "$status" >"$work/exit"
	cp "$tmp/.stdout" "$work/stdout"
	cp "$tmp/.stderr" "$work/stderr"
	if [ "$update" = 1 ]; then
		mkdir -p "$golden"
		store "$golden/exit" "$work/exit"
		for f in stdout stderr; do
			golden_of "$work/$f" "$golden/$f" ||
				flunk "$name/$variant: $f does not end in a newline"
			updated=$((updated + 1))
		done
		for f in trace.clean.json instr_metrics.json; do
			store "$golden/$f" "$work/out/$f"
		done
	else
		compare "$golden/exit" "$work/exit" "$name/$variant: exit"
		for f in stdout stderr; do
			if [ -e "$golden/$f" ]; then
				stream_of "$golden/$f" "$work/$f.want"
			fi
			compare "$work/$f.want" "$work/$f" "$name/$variant: $f"
		done
		for f in trace.clean.json instr_metrics.json; do
			compare "$golden/$f" "$work/out/$f" "$name/$variant: $f"
		done
	fi
	if [ -f "$work/out/trace.clean.json" ]; then
		check "$name/$variant: viewer rules" "$CSIM_CHECK" --disjoint "$work/out/trace.clean.json"
		mv "$work/out" "$work/first"
		run "$work" sim -o out --no-copy-raw "$@"
		check "$name/$variant: deterministic" diff -r "$work/first" "$work/out"
	fi
}

selected() {
	local n
	[ "${#only[@]}" -eq 0 ] && return 0
	for n in "${only[@]}"; do [ "$n" = "$1" ] && return 0; done
	return 1
}

for dir in "$CSIM_ROOT"/fixtures/scenarios/*/; do
	dir=${dir%/}
	[ -f "$dir/dump.recipe" ] || continue
	name=$(basename "$dir")
	selected "$name" || continue
	while read -r variant args; do
		# shellcheck disable=SC2086 # args are option words
		run_variant "$dir" "$name" "$variant" $args
	done < <(variants_of "$dir")
done
if [ "$update" = 1 ]; then
	echo "updated $updated golden file(s); review them by reading: git diff fixtures/scenarios"
fi
finish
