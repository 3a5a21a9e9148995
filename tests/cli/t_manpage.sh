#!/usr/bin/env bash
# The man page clean_sim_trace(1) and --help say the same, and the page
# renders cleanly. The build generates --help from the page
# (src/cli/usage_text.cmake); this test does not trust that generator: it
# renders the page with man(1)/groff and compares the words of its SYNOPSIS,
# OPTIONS and EXIT STATUS with the binary's --help, checks that every option
# the parser knows is in --help and every option --help names is one the
# parser knows.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

page="$CSIM_ROOT/docs/clean_sim_trace.1"
if ! command -v man >/dev/null || ! command -v groff >/dev/null; then
	# .ci/run installs man-db and groff-base; a machine without them cannot
	# check the page, and says so instead of passing.
	skip_missing "man (man-db) or groff (groff-base) is not installed"
fi

# --- the page renders without a warning ------------------------------------
warn=$(MANWIDTH=80 man -l "$page" 2>&1 >/dev/null) || true
check "man -l prints no warning" [ -z "$warn" ]
[ -z "$warn" ] || printf '%s\n' "$warn"
warn=$(groff -man -ww -z "$page" 2>&1) || true
check "groff -ww prints no warning" [ -z "$warn" ]
[ -z "$warn" ] || printf '%s\n' "$warn"
check "the page names every section" bash -c '
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS "OUTPUT FILES" "BATCH MODE" \
		"EXIT STATUS" EXAMPLES "SEE ALSO"; do
		grep -qx "\.SH $s" "$1" || { echo "no section $s"; exit 1; }
	done' _ "$page"

# --- the rendered page against --help ---------------------------------------
run "$tmp" --help
check "--help exits 0" [ "$status" -eq 0 ]
help=$out
# One line per paragraph-free word stream; wide enough that groff neither
# breaks nor hyphenates a line, in ASCII.
LC_ALL=C MANWIDTH=2000 man -l "$page" >"$tmp/man.txt" 2>/dev/null
section() { # NAME: the rendered section's text, one word per line
	awk -v s="$1" '/^[A-Z]/ { on = ($0 == s); next } on' "$tmp/man.txt" |
		tr -s ' \n' '\n\n' | sed '/^$/d'
}
words() { tr -s ' \n' '\n\n' | sed '/^$/d'; }
# --help's paragraphs: 1 usage, 2 NAME, 3 options, 4 exit status.
paragraph() {
	awk -v n="$1" 'BEGIN { RS = "" } NR == n' <<<"$help"
}

paragraph 1 | sed 's/^usage: //' | words >"$tmp/help.synopsis"
section SYNOPSIS >"$tmp/man.synopsis"
check "SYNOPSIS = the usage lines" diff "$tmp/man.synopsis" "$tmp/help.synopsis"

paragraph 2 | words >"$tmp/help.name"
section NAME >"$tmp/man.name"
check "NAME = the line under usage" diff "$tmp/man.name" "$tmp/help.name"

# OPTIONS: the page's entries come first, then prose for the page alone.
paragraph 3 | words >"$tmp/help.options"
section OPTIONS >"$tmp/man.options"
head -n "$(wc -l <"$tmp/help.options")" "$tmp/man.options" >"$tmp/man.entries"
check "OPTIONS entries = the options of --help" diff "$tmp/man.entries" "$tmp/help.options"
check "--help lists options" [ "$(wc -l <"$tmp/help.options")" -gt 100 ]
# No entry of the page after those: every tag line (7 spaces, then an
# option) of the rendered OPTIONS names an option of --help.
awk '/^[A-Z]/ { on = ($0 == "OPTIONS"); next } on && /^       -/ { print $1 }' \
	"$tmp/man.txt" | sed 's/,$//' | sort -u >"$tmp/man.tags"
grep -oE '^ {2,6}-[-a-z]+' <<<"$help" | tr -d ' ' | sort -u >"$tmp/help.tags"
check "every option entry of the page is in --help" diff "$tmp/man.tags" "$tmp/help.tags"

paragraph 4 | sed '1{/^Exit status:$/d}' | words >"$tmp/help.exit"
section "EXIT STATUS" >"$tmp/man.exit"
check "EXIT STATUS = the exit status of --help" diff "$tmp/man.exit" "$tmp/help.exit"
check "--help lists exit statuses 0 1 2 3 128+N" bash -c \
	'for s in 0 1 2 3 128+N; do grep -q "^  $s " <<<"$1" || exit 1; done' _ "$(paragraph 4)"

# --help's pointer to the page works in a clone: the command it gives, run
# at the clone's root, renders the page.
clone=$(sed -n 's/^The manual: man clean_sim_trace (in a clone: \(man -l [^)]*\))$/\1/p' <<<"$help")
check "--help gives the clone's command: man -l docs/clean_sim_trace.1" \
	[ "$clone" = "man -l docs/clean_sim_trace.1" ]
check "... which renders the page at the clone's root" bash -c \
	'cd "$1" && LC_ALL=C MANWIDTH=80 $2 2>/dev/null | grep -qx NAME' _ "$CSIM_ROOT" "$clone"

# --- --help against the parser ------------------------------------------------
# Every option of the parser (src/cli/cli.c: getopt_long's table of long
# names and its string of short letters) is named in --help ...
{
	sed -n 's/^[[:space:]]*{ "\([a-z][-a-z]*\)", [a-z_]*_argument,.*/--\1/p' \
		"$CSIM_ROOT/src/cli/cli.c"
	sed -n 's/^static const char short_options\[\] = "\(.*\)";/\1/p' \
		"$CSIM_ROOT/src/cli/cli.c" | tr -cd 'a-z' | sed 's/./-&\n/g' | sed '/^$/d'
} | sort -u >"$tmp/parser.opts"
grep -oE '(^|[ ,])(-[a-z]|--[a-z][-a-z]*)' <<<"$(grep -E '^ {2,6}-' <<<"$help" | sed -E 's/^ +//; s/  .*//')" |
	sed 's/^[ ,]*//' | sort -u >"$tmp/help.opts"
check "the parser knows 26 options (21 long, 5 short)" [ "$(wc -l <"$tmp/parser.opts")" -eq 26 ]
check "every option of the parser is in --help" \
	bash -c 'comm -23 "$1" "$2" | { ! grep .; }' _ "$tmp/parser.opts" "$tmp/help.opts"
# ... and every option --help names is accepted (no "unknown option").
mkdir -p "$tmp/empty"
unknown=""
while read -r opt; do
	run "$tmp/empty" "$opt" nonexistent-a nonexistent-b
	if contains "$err" "unknown option"; then
		unknown+=" $opt"
	fi
done <"$tmp/help.opts"
check "every option of --help is accepted:$unknown" [ -z "$unknown" ]
# Two missing PATHs make a batch of two failed rows, whose summaries land in
# the common parent (docs/batch.md); nothing else may be written.
check "the probe runs converted nothing" \
	[ -z "$(ls -A "$tmp/empty" | grep -vxE 'batch_summary\.(json|csv)')" ]
# The probe can fail: an option the parser does not know is reported.
run "$tmp/empty" --not-an-option nonexistent-a
check "probe sees an unknown option" contains "$err" "unknown option"

finish
