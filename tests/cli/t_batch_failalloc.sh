#!/usr/bin/env bash
# Allocation-failure injection over a small batch (docs/robustness.md, the
# mechanism of t_failalloc.sh): a good dump and a corrupt one, -j 1.
#
# Batch workers are forked: each inherits the parent's allocation count, so
# CSIM_FAIL_ALLOC=k fails the k-th allocation of the parent and, in every
# worker forked before the parent reached k, its own k-th allocation counted
# from the same start. Every process reports its count at exit; the sweep
# covers 1..(the largest)+1. For each k the run must
#   - exit 1 or 3 (the corrupt dump always fails), never crash or hang,
#   - have no worker die without a result ("killed by signal", "without a
#     result"), and no sanitizer report,
#   - print only the corrupt dump's error, "out of memory" and the total,
#   - leave no temporary file, the older batch summaries or complete new
#     ones, and the good dump's outputs absent or equal to the reference.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_FAILALLOC:?set CSIM_FAILALLOC to the clean_sim_trace_failalloc executable}"

failalloc_env

w="$tmp/w"
mkdir -p "$w/t/good/simulator" "$w/t/bad/simulator"
cp "$CSIM_ROOT/fixtures/demo/OPPROF_demo/simulator/visualize_data.bin" "$w/t/good/simulator/"
cp "$CSIM_ROOT/fixtures/invalid/bad_reserve_byte.bin" "$w/t/bad/simulator/visualize_data.bin"
corrupt="error: t/bad/simulator/visualize_data.bin: corrupt block at offset 0: reserve byte is 0x41, expected 0x5a"

old_outputs() {
	rm -rf "$w/out"
	mkdir -p "$w/out"
	echo old >"$w/out/batch_summary.csv"
	echo old >"$w/out/batch_summary.json"
}

# The counting run is the reference.
old_outputs
status=0
(cd "$w" && CSIM_FAIL_ALLOC=0 CSIM_FAIL_ALLOC_REPORT=1 "$CSIM_FAILALLOC" t -o out --no-copy-raw \
	>"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
total=$(sed -n 's/.*failalloc: \([0-9]*\) allocation(s).*/\1/p' "$tmp/.stderr" | sort -n | tail -n 1)
check "counting run: exit 1 (the corrupt dump)" [ "$status" -eq 1 ]
check "counting run: every process reported" [ "$(grep -o 'failalloc: [0-9]* allocation' "$tmp/.stderr" | wc -l)" -eq 3 ]
mkdir -p "$tmp/ref"
cp "$w/out/good/"* "$tmp/ref/"
ref_good_row=$(grep '^1,good,ok,' "$w/out/batch_summary.csv" | sed 's/,[0-9.]*$//')

# Checks use shell builtins where they can: a few hundred k, two cores.
shopt -s nullglob
slurp() { text=""; IFS= read -r -d '' text <"$1" || true; }
tried=0 bad=0
for k in $(sweep_points 1 $((${total:-0} + 1))); do
	tried=$((tried + 1))
	old_outputs
	status=0
	(cd "$w" && CSIM_FAIL_ALLOC=$k timeout 60 "$CSIM_FAILALLOC" t -o out --no-copy-raw \
		>"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
	slurp "$tmp/.stderr"
	err=$text
	slurp "$tmp/.stdout"
	out=$text
	slurp "$w/out/batch_summary.csv"
	csv=$text
	leftovers=("$w"/out/.[!.]* "$w"/out/*/.[!.]*)
	why=""
	unexpected=""
	while IFS= read -r line; do
		case "$line" in
		"error: "*) [ "$line" = "$corrupt" ] || [ "$line" = "error: out of memory" ] ||
			[ "$line" = "error: 1 of 2 dump(s) failed" ] ||
			[ "$line" = "error: 2 of 2 dump(s) failed" ] || unexpected="$unexpected|$line" ;;
		esac
	done <<<"$err"
	good_row=""
	while IFS= read -r line; do
		case "$line" in "1,good,ok,"*) good_row=${line%,*} ;; esac
	done <<<"$csv"
	if [[ "$err" == *Sanitizer* ]]; then
		why="sanitizer: $(grep -m1 Sanitizer "$tmp/.stderr")"
	elif [ "$status" -ne 1 ] && [ "$status" -ne 3 ]; then
		why="exit $status"
	elif [[ "$out$err" == *"killed by signal"* || "$out$err" == *"without a result"* ]]; then
		why="a worker died"
	elif [ -n "$unexpected" ]; then
		why="unexpected error line: $unexpected"
	elif [ "${#leftovers[@]}" -gt 0 ]; then
		why="temporary file left: ${leftovers[*]}"
	elif [ "$csv" != $'old\n' ] && [[ "$csv" != index,*$'\n'0,bad,*$'\n'1,good,*$'\n' ]]; then
		why="incomplete batch_summary.csv"
	elif [ -n "$good_row" ] && [ "$good_row" != "$ref_good_row" ]; then
		why="the good dump's ok row differs from the reference"
	else
		for f in "$tmp/ref/"*; do
			g="$w/out/good/${f##*/}"
			if [ -e "$g" ] && ! cmp -s "$f" "$g"; then
				why="$g differs from the reference"
			fi
		done
	fi
	if [ -n "$why" ]; then
		echo "k=$k: $why"
		bad=$((bad + 1))
	fi
done
check "$tried of $((${total:-0} + 1)) failing allocations end cleanly" [ "$tried" -gt 0 -a "$bad" -eq 0 ]
echo "# batch: largest count $total, $tried k tried"
finish
