#!/usr/bin/env bash
# Golden tests: every fixtures/scenarios/<name>/dump.recipe is built into a
# visualize_data.bin and converted; stdout, stderr, exit status and the
# output files (trace.clean.json, trace.pftrace, instr_metrics.json, summary.json,
# summary.html) must
# equal the reviewed files in <name>/expected/<variant>/,
# every trace must pass the viewer-rule checker, every summary.json must
# agree with its trace by an independent recount (summary_recheck), every
# summary.json and summary.html must name the dump converted (its path and
# its size on disk, lib.sh names_dump), and a second run must give the same
# bytes.
#
# A scenario may list variants in <name>/variants, one "NAME ARGS..." per
# line (default: one variant "default" without extra arguments).
#
# Each scenario also has a facts file: the key facts of its EXPECT.md
# (derived by hand, never copied from output), under a "[VARIANT]" header per
# variant. "stderr TEXT" must be part of stderr, "nostderr TEXT" must not;
# any other line must be a line printed by trace_facts
# (tests/tools/trace_facts.c) for the trace: counts, process order, slices
# and sub-lanes per lane, arrow endpoints.
# "metrics TEXT" must be part of instr_metrics.json, "nometrics TEXT" must
# not (an absent file holds nothing).
# "summary TEXT" must be part of summary.json, "nosummary TEXT" must not
# (a diagnosis line: summary {"id":"transfer_bound","primary":true,"core":"core0.veccore0").
# A variant with no fact fails. Facts are checked in --update mode too.
#
# A scenario whose folder holds a file "pending" was written (by hand, from
# the SPEC) ahead of the feature it tests: the file names the missing
# feature. It has no goldens yet, so only its facts, the viewer rules and
# determinism are checked; each failing check is printed as "xfail" and does
# not fail the script, but a pending scenario whose checks all pass does
# (delete "pending", then generate and review its goldens). --update skips
# pending scenarios: goldens are not written from a converter that does not
# implement what they test.
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
: "${CSIM_FACTS:?set CSIM_FACTS to the trace_facts executable}"
: "${CSIM_SUMCHECK:?set CSIM_SUMCHECK to the summary_recheck executable}"
: "${CSIM_ARROWCHECK:?set CSIM_ARROWCHECK to the arrow_recheck executable}"
: "${CSIM_PFTRACE_RECHECK:?set CSIM_PFTRACE_RECHECK to the pftrace_recheck executable}"

update=0
xfail_mode=0
xfailed=0
# flunk of checks.sh, except that inside a pending scenario a failure is
# counted as an expected one.
flunk() {
	if [ "$xfail_mode" = 1 ]; then
		xfailed=$((xfailed + 1))
		echo "xfail - $1"
	else
		failed=$((failed + 1))
		echo "FAIL - $1"
	fi
}

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

# facts_of FILE VARIANT: the fact lines of one variant's section.
facts_of() {
	[ -f "$1" ] || return 0
	awk -v want="[$2]" '/^\[/ { on = ($0 == want); next }
		on && !/^#/ && !/^[[:space:]]*$/' "$1"
}

# arrow_check DIR WORK ARGS...: the arrows of WORK/out/trace.clean.json are
# causal and anchored by completion (SPEC §5.3), rechecked by arrow_recheck
# against the simulator trace of the converted run (the recipe's last
# `trace` file, or the K-th with --run K); the fallback arrows the run's
# note counts may break causality. A cut trace lacks slices the rule looks
# at, and --run all holds several runs: causality only.
arrow_check() {
	local dir=$1 work=$2 arg run=last cut=0 running input k=0 f
	shift 2
	for arg in "$@"; do
		case $arg in
		--run=*) run=${arg#--run=} ;;
		--window* | --core*) cut=1 ;;
		esac
	done
	set -- "$@" ""
	while [ "$#" -gt 1 ]; do
		[ "$1" = --run ] && run=$2
		shift
	done
	running=$(sed -n 's/^note: \([0-9]*\) arrow(s) anchored on a still-running producer.*/\1/p' "$work/stderr")
	input=
	if [ "$cut" = 0 ] && [ "$run" != all ]; then
		while read -r f; do
			k=$((k + 1))
			if [ "$run" = last ] || [ "$run" = "$k" ]; then
				input="$dir/$f"
			fi
		done < <(awk '$1 == "trace" { print $2 }' "$dir/dump.recipe")
	fi
	"$CSIM_ARROWCHECK" "$work/out/trace.clean.json" --running "${running:-0}" \
		${input:+--input "$input"}
}

# check_facts DIR NAME VARIANT WORK: every fact of the variant holds.
check_facts() {
	local dir=$1 name=$2 variant=$3 work=$4 fact n=0

	if [ -f "$work/out/trace.clean.json" ]; then
		"$CSIM_FACTS" "$work/out/trace.clean.json" >"$work/facts.out" ||
			flunk "$name/$variant: trace_facts failed"
	else
		: >"$work/facts.out"
	fi
	: >"$work/pffacts.out"
	if [ -f "$work/out/trace.pftrace" ]; then
		"$CSIM_PFTRACE_RECHECK" --facts "$work/out/trace.pftrace" >"$work/pffacts.out" ||
			flunk "$name/$variant: pftrace_recheck --facts failed"
	fi
	while IFS= read -r fact; do
		n=$((n + 1))
		case $fact in
		"stderr "*)
			check "$name/$variant: fact: $fact" contains "$(cat "$work/stderr")" "${fact#stderr }" ;;
		"nostderr "*)
			# shellcheck disable=SC2016 # expanded by eval, inside check
			check "$name/$variant: fact: $fact" eval '! contains "$(cat "$work/stderr")" "${fact#nostderr }"' ;;
		"metrics "*)
			check "$name/$variant: fact: $fact" grep -Fqs -- "${fact#metrics }" "$work/out/instr_metrics.json" ;;
		"nometrics "*)
			# shellcheck disable=SC2016 # expanded by eval, inside check
			check "$name/$variant: fact: $fact" eval '! grep -Fqs -- "${fact#nometrics }" "$work/out/instr_metrics.json"' ;;
		"pftrace "*)
			check "$name/$variant: fact: $fact" grep -Fxq -- "${fact#pftrace }" "$work/pffacts.out" ;;
		"summary "*)
			check "$name/$variant: fact: $fact" grep -Fqs -- "${fact#summary }" "$work/out/summary.json" ;;
		"nosummary "*)
			# shellcheck disable=SC2016 # expanded by eval, inside check
			check "$name/$variant: fact: $fact" eval '! grep -Fqs -- "${fact#nosummary }" "$work/out/summary.json"' ;;
		*)
			check "$name/$variant: fact: $fact" grep -Fxq -- "$fact" "$work/facts.out" ;;
		esac
	done < <(facts_of "$dir/facts" "$variant")
	if [ "$n" -eq 0 ]; then
		flunk "$name/$variant: no hand-derived facts in $name/facts"
	fi
}

# pftrace_decodes FILE: protoc decodes it as a Trace against the project's
# description of Perfetto's messages (tests/perfetto/pftrace.proto), with
# no field the description lacks.
pftrace_decodes() {
	"${CSIM_PROTOC:-protoc}" --decode=perfetto.protos.Trace \
		-I "$CSIM_ROOT/tests/perfetto" pftrace.proto <"$1" >"$tmp/.decoded" &&
		! grep -qE '^ *[0-9]+: ' "$tmp/.decoded"
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
	if [ "$xfail_mode" = 1 ]; then
		:   # no goldens before the feature exists
	elif [ "$update" = 1 ]; then
		mkdir -p "$golden"
		store "$golden/exit" "$work/exit"
		for f in stdout stderr; do
			golden_of "$work/$f" "$golden/$f" ||
				flunk "$name/$variant: $f does not end in a newline"
			updated=$((updated + 1))
		done
		for f in trace.clean.json trace.pftrace instr_metrics.json summary.json summary.html; do
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
		for f in trace.clean.json trace.pftrace instr_metrics.json summary.json summary.html; do
			compare "$golden/$f" "$work/out/$f" "$name/$variant: $f"
		done
	fi
	check_facts "$dir" "$name" "$variant" "$work"
	if [ -f "$work/out/summary.json" ]; then
		names_dump "$name/$variant" "$work/out" sim/visualize_data.bin "$work/sim/visualize_data.bin"
	fi
	# The summary table's layout (docs/summary.md "The table"): bytes,
	# stricter than columns for these ASCII names.
	check "$name/$variant: stdout within 80 columns" \
		env LC_ALL=C awk 'length > 80 { exit 1 }' "$work/stdout"
	if [ -f "$work/out/trace.pftrace" ]; then
		check "$name/$variant: trace.pftrace decodes (protoc)" \
			pftrace_decodes "$work/out/trace.pftrace"
	fi
	if [ -f "$work/out/trace.pftrace" ] && [ -f "$work/out/trace.clean.json" ]; then
		check "$name/$variant: trace.pftrace holds the JSON's slices, tracks, flows, counters" \
			"$CSIM_PFTRACE_RECHECK" "$work/out/trace.pftrace" "$work/out/trace.clean.json"
	fi
	if [ -f "$work/out/trace.clean.json" ]; then
		check "$name/$variant: viewer rules" "$CSIM_CHECK" --disjoint "$work/out/trace.clean.json"
		check "$name/$variant: summary agrees with the trace" \
			"$CSIM_SUMCHECK" "$work/out/trace.clean.json" "$work/out/summary.json"
		check "$name/$variant: arrows causal, anchored by completion" \
			arrow_check "$dir" "$work" "$@"
		# Determinism is the Release build's to check: under a sanitizer a
		# second run finds no error the first did not (docs/testing.md).
		if [ -z "${CSIM_SANITIZER:-}" ]; then
			mv "$work/out" "$work/first"
			run "$work" sim -o out --no-copy-raw "$@"
			check "$name/$variant: deterministic" diff -r "$work/first" "$work/out"
		fi
		rm -rf "$work/out"
		run "$work" sim -o out --no-copy-raw -q "$@"
		check "$name/$variant: -q prints nothing on stdout" [ ! -s "$tmp/.stdout" ]
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
	if [ -f "$dir/pending" ]; then
		if [ "$update" = 1 ]; then
			echo "skip - $name: pending ($(head -n 1 "$dir/pending")); no goldens written"
			continue
		fi
		xfail_mode=1
		before=$xfailed
	fi
	while read -r variant args; do
		# shellcheck disable=SC2086 # args are option words
		run_variant "$dir" "$name" "$variant" $args
	done < <(variants_of "$dir")
	if [ "$xfail_mode" = 1 ]; then
		xfail_mode=0
		if [ "$xfailed" -eq "$before" ]; then
			flunk "$name: pending, but every check passes: delete $name/pending, generate and review its goldens"
		else
			pass "$name: pending ($(head -n 1 "$dir/pending")): $((xfailed - before)) expected failure(s)"
		fi
	fi
done
echo "$xfailed expected failure(s) in pending scenarios"
if [ "$update" = 1 ]; then
	echo "updated $updated golden file(s); review them by reading: git diff fixtures/scenarios"
fi
finish
