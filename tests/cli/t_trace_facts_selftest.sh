#!/usr/bin/env bash
# Self-test of the fact printer (tests/tools/trace_facts.c): on a small
# hand-written trace it must print exactly the facts below, worked out by
# reading the trace. The scenarios' facts files are checked with grep -Fx
# against its output, so a printer that drops or garbles a line would let a
# wrong golden pass; a printer that prints nothing is caught here too.
#
# Env: CSIM_FACTS = built trace_facts.
set -euo pipefail
: "${CSIM_FACTS:?set CSIM_FACTS to the trace_facts executable}"
source "$(dirname "$0")/checks.sh"

# Threads are listed out of viewer order on purpose: B#1 (sort 301) after C
# (sort 300, named later than B) and a tie on sort_index 500 broken by name.
cat >"$tmp/t.json" <<'JSON'
{"traceEvents":[
{"name":"process_sort_index","ph":"M","pid":"p1","args":{"sort_index":1}},
{"name":"process_sort_index","ph":"M","pid":"p0","args":{"sort_index":0}},
{"name":"thread_name","ph":"M","pid":"p0","tid":"C","args":{"name":"C label"}},
{"name":"thread_sort_index","ph":"M","pid":"p0","tid":"C","args":{"sort_index":300}},
{"name":"thread_name","ph":"M","pid":"p0","tid":"B#1","args":{"name":"B label #1"}},
{"name":"thread_sort_index","ph":"M","pid":"p0","tid":"B#1","args":{"sort_index":301}},
{"name":"thread_name","ph":"M","pid":"p0","tid":"Z","args":{"name":"Z"}},
{"name":"thread_sort_index","ph":"M","pid":"p0","tid":"Z","args":{"sort_index":500}},
{"name":"thread_name","ph":"M","pid":"p0","tid":"Y cache","args":{"name":"Y cache"}},
{"name":"thread_sort_index","ph":"M","pid":"p0","tid":"Y cache","args":{"sort_index":500}},
{"name":"thread_name","ph":"M","pid":"p1","tid":"C","args":{"name":"C label"}},
{"name":"x","ph":"X","pid":"p0","tid":"C","ts":1,"dur":1,"cname":"good"},
{"name":"x","ph":"X","pid":"p0","tid":"B#1","ts":1,"dur":1,"cname":"bad"},
{"name":"x","ph":"X","pid":"p0","tid":"C","ts":3,"dur":1,"cname":"good"},
{"name":"x","ph":"X","pid":"p1","tid":"C","ts":3.0000000014,"dur":1},
{"ph":"s","id":1,"cat":"CToB","name":"C->B flag3","pid":"p0","tid":"C","ts":1.5},
{"ph":"f","bp":"e","id":1,"cat":"CToB","name":"C->B flag3","pid":"p0","tid":"B#1","ts":1.5}
]}
JSON
cat >"$tmp/want" <<'TXT'
slice p0 C x 1
slice p0 B#1 x 1
slice p0 C x 3
slice p1 C x 3.000000001
slices 4
arrows 1
counters 0
processes 2
lanes 3
process p0 0
process p1 1
lane p0 C 2 1
lane p0 B 1 1
lane p1 C 1 1
arrow 1 C->B flag3 p0 C 1.5 p0 B#1 1.5
arrowcat 1 CToB
thread p0 0 C C label
tsort p0 C 300
thread p0 1 B#1 B label #1
tsort p0 B#1 301
thread p0 2 Y cache Y cache
tsort p0 Y cache 500
thread p0 3 Z Z
tsort p0 Z 500
thread p1 0 C C label
cname p0 C good
cname p0 B#1 bad
TXT
# shellcheck disable=SC2016 # expanded by eval, inside check
check "facts of the hand-written trace" eval '"$CSIM_FACTS" "$tmp/t.json" >"$tmp/got"'
check "exactly the hand-derived lines" diff -u "$tmp/want" "$tmp/got"
printf '{"traceEvents":[{"ph":"s","id":"x","name":"n","ts":1}]}' >"$tmp/bad.json"
# shellcheck disable=SC2016
check "an arrow with a string id is refused (exit 1)" eval '! "$CSIM_FACTS" "$tmp/bad.json" >/dev/null 2>&1'
# shellcheck disable=SC2016
check "usage error exits 2" eval '"$CSIM_FACTS" >/dev/null 2>&1; [ $? -eq 2 ]'
finish
