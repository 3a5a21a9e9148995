#!/usr/bin/env bash
# clean_sim_trace --check FILE (SPEC §12; docs/check.md): the product runs
# the viewer rules of src/check/ and must
#   - reject every hand-broken trace of tests/checker/ naming its rule
#     ("RULE: detail" on stdout, then the count line), and pass every good
#     one, with the flat-lane rules always on (--disjoint of trace_check);
#   - report one defect once: two overlapping slices are one violation
#     naming both events, by how much and what each viewer draws; one kind
#     of per-event problem is one line with its count;
#   - only note (exit 0, "note: ..." lines, "; N note(s)" on the count
#     line) what no viewer needs: missing or repeated metadata, an extra
#     sub-lane; cite no document the user lacks (SPEC, "(tol)");
#   - pass every golden trace.clean.json of fixtures/, and a -z output;
#   - read gzip input by content, and fail on a truncated one;
#   - name the file and byte offset of bad JSON (exit 1), cap the lines at
#     100 plus "... and N more", print only the count line with -q, and
#     keep the exit statuses (0 clean, 1 violations or unreadable, 2 usage).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

dir="$CSIM_ROOT/tests/checker"
declare -A covered=()

not_grep() { ! grep -q "$@"; }

# count_line FILE N [M]: the last stdout line is FILE's count line with N
# violations and M notes (none: no notes part); the slices may say how many
# lie on critical-path lanes.
count_line() {
	local last tail=""
	last=$(printf '%s' "$out" | tail -n 1)
	[ -z "${3:-}" ] || tail="; $3 note(s)"
	[[ $last =~ ^"$1: $2 violation(s); "[0-9]+" slices"(" ("[0-9]+" on critical-path lanes)")?", "[0-9]+" arrows, "[0-9]+" processes, "[0-9]+" threads, "[0-9]+" counters$tail"$ ]]
}

# Every case file: exit status and the rule it must name ("error" for a
# file that is not a trace: an error naming the file, no count line;
# "note" for one whose only findings are notes: exit 0, no violation line).
# The bad_metadata_* and bad_depth_extra_sublane cases break the
# converter's own standard (trace_check fails them, t_trace_check_selftest);
# a viewer draws them right, so --check notes them.
CASES=$(cat <<'LIST'
good_minimal.json|0|
good_path_lane.json|0|
good_half_ns_arrow.json|0|
good_nested.json|1|overlap
good_touching.json|0|
good_bare_array.json|0|
good_float_noise.json|0|
good_escaped_strings.json|0|
bad_float_overlap_one_cycle.json|1|float-overlap
bad_nest_rounded_end.json|1|nest
bad_point_at_neighbour_end.json|1|nest
bad_point_at_neighbour_start.json|1|point-start
bad_point_shares_perfetto_start.json|1|point-start
bad_depth_extra_sublane.json|0|note
bad_depth_point_near_end.json|1|depth
bad_json_invalid.json|1|error
bad_json_trailing.json|1|error
bad_json_no_trace_events.json|1|error
bad_json_events_not_array.json|1|error
bad_json_top_level_string.json|1|error
bad_display_time_unit.json|1|display-time-unit
bad_fields_x_missing_ts.json|1|fields
bad_fields_meta_sort_index.json|1|fields
bad_fields_not_object.json|1|fields
bad_phase_B.json|1|phase
bad_partial_overlap_rounding.json|1|overlap
bad_overlap_disjoint.json|1|overlap
bad_overlap_zero_inside.json|1|overlap
bad_flow_unpaired.json|1|flow-pair
bad_flow_two_ends.json|1|flow-pair
bad_flow_duplicate_id.json|1|flow-duplicate
bad_flow_string_id.json|1|flow-id
bad_flow_fractional_id.json|1|flow-id
bad_flow_order.json|1|flow-order
bad_flow_order_same_ts.json|1|flow-order
bad_flow_bp.json|1|flow-bp
bad_flow_binding_boundary.json|1|flow-binding
bad_flow_binding_zero_length.json|1|flow-binding
bad_cname_gray.json|1|cname
bad_metadata_missing_thread_sort_index.json|0|note
bad_metadata_missing_process_name.json|0|note
bad_metadata_duplicate.json|0|note
bad_metadata_pid_form.json|0|note
bad_expect.json|0|
LIST
)

while IFS='|' read -r file want rule; do
	covered[$file]=1
	run "$dir" --check "$file"
	check "$file: exit $want" [ "$status" -eq "$want" ]
	notes=$(grep -c '^note: ' "$tmp/.stdout" || true)
	[ "$notes" -gt 0 ] || notes=""
	case $rule in
	"")
		check "$file: count line says 0" count_line "$file" 0 ;;
	error)
		check "$file: error names the file" contains "$err" "error: $file: "
		check "$file: no count line" [ -z "$out" ] ;;
	note)
		check "$file: a note" [ -n "$notes" ]
		check "$file: nothing but notes" [ "$(grep -c -v -e "^$file: " -e '^note: ' "$tmp/.stdout")" -eq 0 ]
		check "$file: count line says 0, $notes note(s)" count_line "$file" 0 "$notes" ;;
	*)
		check "$file: names rule $rule" grep -q "^$rule: " "$tmp/.stdout"
		n=$(grep -c -v -e "^$file: " -e '^note: ' "$tmp/.stdout" || true)
		check "$file: count line says $n" count_line "$file" "$n" $notes ;;
	esac
	check "$file: cites no document the user lacks" \
		not_grep -e 'SPEC' -e '§' -e 'issue' -e '(tol)' -e 'section [0-9]' "$tmp/.stdout" "$tmp/.stderr"
done <<<"$CASES"
for path in "$dir"/*.json; do
	check "$(basename "$path") is run here" [ -n "${covered[$(basename "$path")]+x}" ]
done

# A syntax error names the byte offset; the message matches the file.
run "$dir" --check bad_json_trailing.json
check "trailing data: byte offset" contains "$err" "error: bad_json_trailing.json: byte 19: not valid JSON: trailing data"

# One overlap, one violation: the pair, by how much, what each viewer draws
# (the rules it breaks, grid, float, nesting, depth, said in one line).
run "$dir" --check bad_partial_overlap_rounding.json
check "partial overlap on the grid: one violation" lines "$out" \
'overlap: pid "core0.veccore0" tid "VECTOR": event #7 "a_ends_at_4030ns" (ts 4.000500202178955 us, dur 0.0285 us) and event #8 "b_starts_at_4029ns" (ts 4.029000202178955 us, dur 0.01 us): #8 starts where #7 ends; Perfetto'"'"'s 1 ns grid, where ts and dur are rounded separately, has #7 [4001, 4030) and #8 [4029, 4039) ns, a 1 ns overlap: Perfetto moves #8 to an overflow row (v57+) or drops it (v51-56); chrome://tracing draws them right
bad_partial_overlap_rounding.json: 1 violation(s); 4 slices, 1 arrows, 1 processes, 2 threads, 1 counters'
run "$dir" --check bad_overlap_disjoint.json
check "slice inside another: one violation" lines "$out" \
'overlap: pid "core0.veccore0" tid "VECTOR": event #7 "vadd" (ts 3 us, dur 1 us) and event #8 "nested_inside_vadd" (ts 3.2 us, dur 0.5 us): #8 lies inside #7; both viewers draw #8 as a child of #7, a row down (Perfetto'"'"'s 1 ns grid: #7 [3000, 4000) and #8 [3200, 3700) ns; chrome://tracing, rounded to ns with both ends included: #7 [3000, 4000] and #8 [3200, 3700] ns)
bad_overlap_disjoint.json: 1 violation(s); 3 slices, 1 arrows, 1 processes, 2 threads, 1 counters'
run "$dir" --check bad_float_overlap_one_cycle.json
check "one-cycle float overlap: one violation, the tolerance in ns" lines "$out" \
'float-overlap: pid "core0.veccore0" tid "VECTOR": event #4 "a" (ts 1.0004 us, dur 0.01 us) and event #5 "b_one_cycle_early" (ts 1.00986 us, dur 0.01 us): #5 starts 0.54 ns before #4 ends, more than the 0.25 ns of float32 noise allowed there; Perfetto (1 ns grid: #4 [1000, 1010) and #5 [1010, 1020) ns) draws them right; chrome://tracing, which keeps the float times, draws them over each other
bad_float_overlap_one_cycle.json: 1 violation(s); 2 slices, 0 arrows, 1 processes, 1 threads, 0 counters'
run "$dir" --check bad_nest_rounded_end.json
check "catapult nesting: one violation, the rounded bounds" lines "$out" \
'nest: pid "core0.veccore0" tid "VECTOR": event #4 "a" (ts 1.0004 us, dur 0.01015 us) and event #5 "b" (ts 1.01045 us, dur 0.00101 us): #5 starts 0.1 ns before #4 ends, within the 0.25 ns of float32 noise allowed there; Perfetto (1 ns grid: #4 [1000, 1010) and #5 [1010, 1011) ns) draws them right; chrome://tracing, which rounds both ends to whole ns and counts a shared end as inside (#4 [1000, 1011] and #5 [1010, 1011] ns), draws #5 as a child of #4
bad_nest_rounded_end.json: 1 violation(s); 2 slices, 0 arrows, 1 processes, 1 threads, 0 counters'
run "$dir" --check bad_point_at_neighbour_start.json
check "point at a neighbour's start: one violation" contains "$out" \
	$'#4, zero-length, starts where #5 starts; both viewers draw #4 as a child of #5, a row down'
check "point at a neighbour's start: counted once" count_line bad_point_at_neighbour_start.json 1
run "$dir" --check bad_depth_point_near_end.json
check "a point in a neighbour's margin: the lanes it needs" lines "$out" \
'depth: pid "core0.veccore0" tid "VECTOR": 1 lane where 2 are needed: a zero-length (or under 1 ns) slice comes within about 1 ns of another one on the same lane; chrome://tracing shifts every time by the trace'"'"'s first timestamp before it rounds to whole ns, so depending on that timestamp it may draw one inside the other
bad_depth_point_near_end.json: 1 violation(s); 2 slices, 0 arrows, 1 processes, 1 threads, 0 counters'

# Metadata no viewer needs is a note, not a violation.
run "$dir" --check bad_metadata_missing_thread_sort_index.json
check "no thread_sort_index: exit 0" [ "$status" -eq 0 ]
check "no thread_sort_index: a note, what the viewers do" lines "$out" \
'note: pid "core0.veccore0" tid "VECTOR" has no thread_sort_index: Perfetto then orders threads by tid or first appearance, chrome://tracing by name
bad_metadata_missing_thread_sort_index.json: 0 violation(s); 2 slices, 1 arrows, 1 processes, 2 threads, 1 counters; 1 note(s)'
run "$dir" --check bad_metadata_duplicate.json
check "a repeated thread_sort_index: a note" contains "$out" \
	'note: pid "core0.veccore0" tid "VECTOR" has more than one thread_sort_index (events #5 and #6): both viewers use the last'
run "$dir" --check bad_depth_extra_sublane.json
check "an extra sub-lane: a note" contains "$out" \
	'note: pid "core0.veccore0" tid "VECTOR" and its "#k" lanes: 2 lanes where 1 would do'
run "$dir" -q --check bad_metadata_missing_process_name.json
check "-q: notes counted, not printed" lines "$out" \
	"bad_metadata_missing_process_name.json: 0 violation(s); 2 slices, 1 arrows, 2 processes, 2 threads, 2 counters; 2 note(s)"
# A trace that lacks only its sort indices (a golden without them): exit 0.
grep -v '_sort_index' "$CSIM_ROOT/fixtures/scenarios/mix_kernel/expected/default/trace.clean.json" \
	>"$tmp/unsorted.json"
run "$tmp" --check unsorted.json
check "no sort index anywhere: exit 0" [ "$status" -eq 0 ]
check "no sort index anywhere: one note per kind" [ "$(grep -c '^note: ' "$tmp/.stdout")" -eq 2 ]
check "no sort index anywhere: threads counted in the note" \
	grep -q '^note: [0-9]* threads have no thread_sort_index (the first: pid "' "$tmp/.stdout"
check "no sort index anywhere: 0 violations, 2 notes" count_line unsorted.json 0 2

# The simulator's own trace.json: its metadata gaps are notes, the B/E and
# t events and the string flow id one line per kind, each overlap once.
run "$CSIM_ROOT/fixtures/scenarios/mix_kernel" --check trace.json
check "simulator trace.json: exit 1" [ "$status" -eq 1 ]
check "simulator trace.json: 7 violations, 4 notes" count_line trace.json 7 4
check "simulator trace.json: no metadata violation" not_grep '^metadata' "$tmp/.stdout"
check "simulator trace.json: the B events in one line" grep -qx \
	'phase: 11 B events (first #9, last #38): --check verifies only X, M, C, s and f events and cannot say how the viewers draw this phase' "$tmp/.stdout"
check "simulator trace.json: 3 overlaps, each once" [ "$(grep -c '^overlap: ' "$tmp/.stdout")" -eq 3 ]
check "simulator trace.json: thread_sort_index noted once" grep -qx \
	'note: 13 threads have no thread_sort_index (the first: pid "core0.cubecore0" tid "SCALAR"): Perfetto then orders threads by tid or first appearance, chrome://tracing by name' "$tmp/.stdout"
for sample in "$CSIM_ROOT"/fixtures/scenarios/*/trace.json; do
	run "$CSIM_ROOT" --check "$sample"
	check "$(basename "$(dirname "$sample")")/$(basename "$sample"): no metadata violation, no document cited" \
		not_grep -e '^metadata' -e 'SPEC' -e '(tol)' "$tmp/.stdout"
done

# Every golden trace of the fixtures passes.
goldens=0
while IFS= read -r g; do
	goldens=$((goldens + 1))
	run "$CSIM_ROOT" --check "$g"
	check "golden $g: exit 0" [ "$status" -eq 0 ]
	check "golden $g: 0 violations, no note (full metadata, no extra lane)" count_line "$g" 0
done < <(cd "$CSIM_ROOT" && find fixtures -name 'trace.clean.json' | sort)
check "goldens found ($goldens)" [ "$goldens" -ge 20 ]

# A -z output (one gzip member) checks like its inflated bytes.
cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo" "$tmp/demo"
run "$tmp" demo -o z -z -q --no-copy-raw
check "-z conversion: exit 0" [ "$status" -eq 0 ]
run "$tmp" --check z/trace.clean.json.gz
check "-z output: exit 0" [ "$status" -eq 0 ]
# 13 instructions, and the critical paths' 10 + 5 + 5 segments
# (docs/critical-path.md's worked example, and the two vector cores').
check "-z output: 13 slices and 20 path segments, 4 arrows, 0 violations" contains "$out" \
	"z/trace.clean.json.gz: 0 violation(s); 33 slices (20 on critical-path lanes), 4 arrows, "
gzip -dc "$tmp/z/trace.clean.json.gz" >"$tmp/z/inflated.json"
zline=${out#*: }
run "$tmp" --check z/inflated.json
check "-z output: same counts as its inflated trace" [ "${out#*: }" = "$zline" ]

# gzip input is found by content, whatever the name.
gzip -c "$dir/good_minimal.json" >"$tmp/good.json"
run "$tmp" --check good.json
check "gzip good (named .json): exit 0" [ "$status" -eq 0 ]
check "gzip good: counts" contains "$out" "0 violation(s); 2 slices, 1 arrows, 1 processes, 2 threads, 1 counters"
gzip -c "$dir/bad_nest_rounded_end.json" >"$tmp/bad.json.gz"
run "$tmp" --check bad.json.gz
check "gzip bad: exit 1, nest" [ "$status" -eq 1 ]
check "gzip bad: names nest" grep -q '^nest: ' "$tmp/.stdout"
gzip -c "$CSIM_ROOT/fixtures/scenarios/mix_kernel/expected/default/trace.clean.json" >"$tmp/full.gz"
size=$(stat -c %s "$tmp/full.gz")
head -c $((size / 2)) "$tmp/full.gz" >"$tmp/cut.json.gz"
run "$tmp" --check cut.json.gz
check "truncated gzip: exit 1" [ "$status" -eq 1 ]
check "truncated gzip: error names the file" contains "$err" "error: cut.json.gz: "
check "truncated gzip: no count line" [ -z "$out" ]

# From a pipe (docs/check.md): the magic bytes are read for good and handed
# on, so plain and gzip input check as from the file.
piped() {   # piped FILE ARGS...: ARGS with FILE's bytes on stdin through a pipe
	local f=$1
	shift
	status=0
	(cd "$tmp" && cat "$f" | "$CSIM_BIN" "$@" >"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
	out=$(cat "$tmp/.stdout"; printf x)
	out=${out%x}
	err=$(cat "$tmp/.stderr"; printf x)
	err=${err%x}
}
piped z/inflated.json --check /dev/stdin
check "plain on a pipe: exit 0" [ "$status" -eq 0 ]
check "plain on a pipe: the file's counts" [ "${out#/dev/stdin: }" = "$zline" ]
piped z/trace.clean.json.gz --check /dev/stdin
check "gzip on a pipe: exit 0" [ "$status" -eq 0 ]
check "gzip on a pipe: the file's counts" [ "${out#/dev/stdin: }" = "$zline" ]
piped bad.json.gz --check /dev/stdin
check "bad gzip on a pipe: exit 1, nest" [ "$status" -eq 1 ]
check "bad gzip on a pipe: names nest" grep -q '^nest: ' "$tmp/.stdout"
piped cut.json.gz --check /dev/stdin
check "truncated gzip on a pipe: exit 1" [ "$status" -eq 1 ]
check "truncated gzip on a pipe: names it" contains "$err" "error: /dev/stdin: truncated gzip stream: the file ends at compressed byte "
printf '\037' >"$tmp/half_magic"
piped half_magic --check /dev/stdin
check "half a gzip magic on a pipe: exit 1" [ "$status" -eq 1 ]
check "half a gzip magic on a pipe: read as JSON" contains "$err" "error: /dev/stdin: byte 0: "
: >"$tmp/nothing"
piped nothing --check /dev/stdin
check "empty pipe: exit 1" [ "$status" -eq 1 ]
check "empty pipe: named" contains "$err" "error: /dev/stdin: "

# Unreadable input: exit 1 with an error naming it.
run "$tmp" --check missing.json
check "missing file: exit 1" [ "$status" -eq 1 ]
check "missing file: named" contains "$err" "error: missing.json: "
: >"$tmp/empty.json"
run "$tmp" --check empty.json
check "empty file: exit 1 at byte 0" contains "$err" "error: empty.json: byte 0: not valid JSON"
run "$tmp" --check .
check "a directory: exit 1" [ "$status" -eq 1 ]

# The cap: 150 violations (150 arrows without an f, inside a slice) print
# 100 lines, "... and 50 more", the notes (no metadata), the count.
{
	printf '{"traceEvents":[{"name":"x","ph":"X","pid":1,"tid":1,"ts":0,"dur":10}'
	for i in $(seq 1 150); do
		printf ',{"ph":"s","id":%d,"cat":"c","name":"a","pid":1,"tid":1,"ts":5}' "$i"
	done
	printf ']}\n'
} >"$tmp/many.json"
run "$tmp" --check many.json
check "cap: exit 1" [ "$status" -eq 1 ]
check "cap: 100 violation lines" [ "$(grep -c '^flow-pair: ' "$tmp/.stdout")" -eq 100 ]
check "cap: then the rest counted, the notes" contains "$out" $'\n... and 50 more\nnote: '
check "cap: the count line" count_line many.json 150 4
check "cap: 106 lines in all" [ "$(wc -l <"$tmp/.stdout")" -eq 106 ]
run "$tmp" -q --check many.json
check "-q: exit 1" [ "$status" -eq 1 ]
check "-q: only the count line" lines "$out" "many.json: 150 violation(s); 1 slices, 150 arrows, 1 processes, 1 threads, 0 counters; 4 note(s)"
# 150 B events are one kind of problem: one line that counts them.
{
	printf '{"traceEvents":['
	for i in $(seq 1 150); do
		[ "$i" -gt 1 ] && printf ','
		printf '{"name":"b%d","ph":"B","pid":1,"tid":1,"ts":%d}' "$i" "$i"
	done
	printf ']}\n'
} >"$tmp/phases.json"
run "$tmp" --check phases.json
check "150 B events: one violation" lines "$out" \
'phase: 150 B events (first #0, last #149): --check verifies only X, M, C, s and f events and cannot say how the viewers draw this phase
phases.json: 1 violation(s); 0 slices, 0 arrows, 0 processes, 0 threads, 0 counters'
check "150 B events: exit 1" [ "$status" -eq 1 ]
run "$dir" --check good_minimal.json -q
check "-q good: exit 0, the count line" lines "$out" \
	"good_minimal.json: 0 violation(s); 2 slices, 1 arrows, 1 processes, 2 threads, 1 counters"
# An option between --check and its FILE is an option, not the file.
run "$tmp" --check -q many.json
check "--check -q FILE: exit 1, the count line" lines "$out" \
	"many.json: 150 violation(s); 1 slices, 150 arrows, 1 processes, 1 threads, 0 counters; 4 note(s)"
run "$tmp" --check=many.json -q
check "--check=FILE: the same" lines "$out" \
	"many.json: 150 violation(s); 1 slices, 150 arrows, 1 processes, 1 threads, 0 counters; 4 note(s)"

# A trace's names reach the terminal escaped (docs/check.md): ESC, BEL and
# the C1 CSI (U+009B) in a slice's name, quoted by a violation (an overlap),
# print as \xHH, never as the raw bytes that would retitle or clear it.
printf '{"traceEvents":[{"name":"a\\u001b]0;owned\\u0007b\\u009b2J","ph":"X","pid":1,"tid":1,"ts":1,"dur":5},{"name":"c","ph":"X","pid":1,"tid":1,"ts":2,"dur":5}]}\n' >"$tmp/ctl.json"
run "$tmp" --check ctl.json
check "control characters: exit 1" [ "$status" -eq 1 ]
check "control characters: shown escaped" contains "$out" 'a\x1b]0;owned\x07b\xc2\x9b2J'
check "control characters: no raw ESC, BEL or CSI on stdout" \
	eval '! LC_ALL=C grep -q "$(printf "[\033\007]")" "$tmp/.stdout" && ! grep -q "$(printf "\302\233")" "$tmp/.stdout"'
# Usage errors exit 2; a failed stdout write exits 3.
run "$tmp" --check
check "--check without FILE: exit 2" [ "$status" -eq 2 ]
check "--check without FILE: says so" lines "$err" "error: option --check needs a trace file"
run "$tmp" --check many.json demo
check "--check with a PATH too: exit 2" [ "$status" -eq 2 ]
check "--check with a PATH too: names it" lines "$err" "error: --check takes one trace file, not a PATH too: demo"
run "$tmp" --check=many.json --check many.json
check "--check twice: exit 2" [ "$status" -eq 2 ]
if [ -w /dev/full ]; then
	status=0
	"$CSIM_BIN" --check "$dir/good_minimal.json" >/dev/full 2>"$tmp/full.err" || status=$?
	check "stdout unwritable: exit 3" [ "$status" -eq 3 ]
fi
finish
