#!/usr/bin/env bash
# clean_sim_trace --check FILE (SPEC §12; docs/check.md): the product runs
# the viewer rules of src/check/ and must
#   - reject every hand-broken trace of tests/checker/ naming its rule
#     ("RULE: detail" on stdout, then the count line), and pass every good
#     one, with the flat-lane rules always on (--disjoint of trace_check);
#   - pass every golden trace.clean.json of fixtures/, and a -z output;
#   - read gzip input by content, and fail on a truncated one;
#   - name the file and byte offset of bad JSON (exit 1), cap the lines at
#     100 plus "... and N more", print only the count line with -q, and
#     keep the exit statuses (0 clean, 1 violations or unreadable, 2 usage).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

dir="$CSIM_ROOT/tests/checker"
declare -A covered=()

# count_line FILE N: the last stdout line is FILE's count line with N violations.
count_line() {
	local last
	last=$(printf '%s' "$out" | tail -n 1)
	[[ $last == "$1: $2 violation(s); "*" slices, "*" arrows, "*" processes, "*" threads, "*" counters" ]]
}

# Every case file: exit status and the rule it must name ("error" for a
# file that is not a trace: an error naming the file, no count line).
CASES=$(cat <<'LIST'
good_minimal.json|0|
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
bad_depth_extra_sublane.json|1|depth
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
bad_metadata_missing_thread_sort_index.json|1|metadata
bad_metadata_missing_process_name.json|1|metadata
bad_metadata_duplicate.json|1|metadata-duplicate
bad_metadata_pid_form.json|1|metadata
bad_expect.json|0|
LIST
)

while IFS='|' read -r file want rule; do
	covered[$file]=1
	run "$dir" --check "$file"
	check "$file: exit $want" [ "$status" -eq "$want" ]
	case $rule in
	"")
		check "$file: count line says 0" count_line "$file" 0 ;;
	error)
		check "$file: error names the file" contains "$err" "error: $file: "
		check "$file: no count line" [ -z "$out" ] ;;
	*)
		check "$file: names rule $rule" grep -q "^$rule: " "$tmp/.stdout"
		n=$(grep -c -v "^$file: " "$tmp/.stdout" || true)
		check "$file: count line says $n" count_line "$file" "$n" ;;
	esac
done <<<"$CASES"
for path in "$dir"/*.json; do
	check "$(basename "$path") is run here" [ -n "${covered[$(basename "$path")]+x}" ]
done

# A syntax error names the byte offset; the message matches the file.
run "$dir" --check bad_json_trailing.json
check "trailing data: byte offset" contains "$err" "error: bad_json_trailing.json: byte 19: not valid JSON: trailing data"
run "$dir" --check bad_nest_rounded_end.json
check "violation line: rule, pid/tid, event indices" contains "$out" \
	'nest: pid "core0.veccore0" tid "VECTOR": event #4 '

# Every golden trace of the fixtures passes.
goldens=0
while IFS= read -r g; do
	goldens=$((goldens + 1))
	run "$CSIM_ROOT" --check "$g"
	check "golden $g: exit 0" [ "$status" -eq 0 ]
	check "golden $g: 0 violations" count_line "$g" 0
done < <(cd "$CSIM_ROOT" && find fixtures -name 'trace.clean.json' | sort)
check "goldens found ($goldens)" [ "$goldens" -ge 20 ]

# A -z output (one gzip member) checks like its inflated bytes.
cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo" "$tmp/demo"
run "$tmp" demo -o z -z -q --no-copy-raw
check "-z conversion: exit 0" [ "$status" -eq 0 ]
run "$tmp" --check z/trace.clean.json.gz
check "-z output: exit 0" [ "$status" -eq 0 ]
check "-z output: 13 slices, 4 arrows, 0 violations" contains "$out" \
	"z/trace.clean.json.gz: 0 violation(s); 13 slices, 4 arrows, "
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
check "truncated gzip on a pipe: names it" contains "$err" "error: /dev/stdin: corrupt gzip data"
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

# The cap: 150 violations print 100 lines, "... and 50 more", the count.
{
	printf '{"traceEvents":['
	for i in $(seq 1 150); do
		[ "$i" -gt 1 ] && printf ','
		printf '{"name":"b%d","ph":"B","pid":1,"tid":1,"ts":%d}' "$i" "$i"
	done
	printf ']}\n'
} >"$tmp/many.json"
run "$tmp" --check many.json
check "cap: exit 1" [ "$status" -eq 1 ]
check "cap: 100 violation lines" [ "$(grep -c '^phase: ' "$tmp/.stdout")" -eq 100 ]
check "cap: then the rest counted" contains "$out" $'\n... and 50 more\nmany.json: 150 violation(s); '
check "cap: 102 lines in all" [ "$(wc -l <"$tmp/.stdout")" -eq 102 ]
run "$tmp" -q --check many.json
check "-q: exit 1" [ "$status" -eq 1 ]
check "-q: only the count line" lines "$out" "many.json: 150 violation(s); 0 slices, 0 arrows, 0 processes, 0 threads, 0 counters"
run "$dir" --check good_minimal.json -q
check "-q good: exit 0, the count line" lines "$out" \
	"good_minimal.json: 0 violation(s); 2 slices, 1 arrows, 1 processes, 2 threads, 1 counters"

# Usage errors exit 2; a failed stdout write exits 3.
run "$tmp" --check
check "--check without FILE: exit 2" [ "$status" -eq 2 ]
run "$tmp" --check many.json demo
check "--check with a PATH too: exit 2" [ "$status" -eq 2 ]
if [ -w /dev/full ]; then
	status=0
	"$CSIM_BIN" --check "$dir/good_minimal.json" >/dev/full 2>"$tmp/full.err" || status=$?
	check "stdout unwritable: exit 3" [ "$status" -eq 3 ]
fi
finish
