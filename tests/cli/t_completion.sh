#!/usr/bin/env bash
# The bash completion (src/cli/completion.bash, installed as
# <datadir>/bash-completion/completions/clean_sim_trace): sourced into bash,
# called the way bash calls it (COMP_WORDS, COMP_CWORD, COMP_LINE,
# COMP_POINT), it offers exactly the options of --help, folders after -o,
# trace files after --check, folders and .json after --compare, "all" after --run, job counts after -j, and
# folders and dumps for PATH.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

script="$CSIM_ROOT/src/cli/completion.bash"
check "the completion parses" bash -n "$script"
# shellcheck source=../../src/cli/completion.bash
source "$script"
check "it registers for clean_sim_trace" \
	contains "$(complete -p clean_sim_trace)" "-F _clean_sim_trace"

# comp WORD...: completes the last WORD of "clean_sim_trace WORD..." (in
# $tmp/t) and sets $got to the candidates, sorted, one per line.
comp() {
	COMP_WORDS=(clean_sim_trace "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	got=$(cd "$tmp/t" && _clean_sim_trace clean_sim_trace "${COMP_WORDS[COMP_CWORD]}" \
		"${COMP_WORDS[COMP_CWORD - 1]}" && printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort)
}
is() { [ "$got" = "$1" ]; }

mkdir -p "$tmp/t/outdir" "$tmp/t/OPPROF_x/simulator"
touch "$tmp/t/visualize_data.bin" "$tmp/t/old.bin.gz" "$tmp/t/notes.txt" \
	"$tmp/t/trace.clean.json" "$tmp/t/trace.clean.json.gz"

# Options: exactly those --help lists, long and short.
run "$tmp" --help
grep -E '^ {2,6}-' <<<"$out" | sed -E 's/^ +//; s/  .*//' | grep -oE '(^|[ ,])(-[a-z]|--[a-z][-a-z]*)' |
	sed 's/^[ ,]*//' | sort >"$tmp/help.opts"
comp -
check "'-' offers exactly the options of --help" [ "$got" = "$(cat "$tmp/help.opts")" ]
comp --
check "'--' offers exactly the long options of --help" \
	[ "$got" = "$(grep -- '^--' "$tmp/help.opts")" ]
comp --ke
check "'--ke' offers the --keep options" is $'--keep-cache-ccu\n--keep-scalar'
comp OPPROF_x --ch
check "'--ch' after a PATH offers --check" is "--check"

# -o, --output-dir, --output-dir=: folders only.
comp -o ""
check "-o offers folders only" is $'OPPROF_x\noutdir'
comp --output-dir o
check "--output-dir o offers outdir" is "outdir"
comp --output-dir = ""
check "--output-dir= (split at =) offers folders" is $'OPPROF_x\noutdir'
comp --output-dir=ou
check "--output-dir=ou (one word) offers outdir" is "outdir"

# --check: traces (.json, .json.gz) and folders, no other files.
comp --check ""
check "--check offers traces and folders" \
	is $'OPPROF_x\noutdir\ntrace.clean.json\ntrace.clean.json.gz'

# --compare BASE: folders and summaries (.json); --fail-if-slower: nothing.
comp --compare ""
check "--compare offers folders and .json files" \
	is $'OPPROF_x\noutdir\ntrace.clean.json'
comp --fail-if-slower ""
check "--fail-if-slower offers nothing" is ""

# --run: the word "all"; -j: 1 .. the number of processors.
comp --run ""
check "--run offers all" is "all"
comp --run=a
check "--run=a offers all" is "all"
comp -j ""
n=$(getconf _NPROCESSORS_ONLN)
check "-j offers 1..$n" is "$(seq 1 "$n" | sort)"
comp --jobs 1
check "--jobs 1 offers the counts starting with 1" is "$(seq 1 "$n" | grep '^1' | sort)"

# Free-form values: nothing.
comp --core ""
check "--core offers nothing" is ""
comp --window ""
check "--window offers nothing" is ""

# PATH: folders and dumps (.bin, .bin.gz), not other files.
comp ""
check "PATH offers folders and dumps" is $'OPPROF_x\nold.bin.gz\noutdir\nvisualize_data.bin'
comp -q OPPROF
check "PATH after an option completes the OPPROF_ folder" is "OPPROF_x"
comp -o outdir ""
check "PATH after -o DIR offers folders and dumps again" \
	is $'OPPROF_x\nold.bin.gz\noutdir\nvisualize_data.bin'

finish
