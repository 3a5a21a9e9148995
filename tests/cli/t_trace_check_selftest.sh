#!/usr/bin/env bash
# Self-test of the viewer-rule checker (the rules of src/check/, through the
# test wrapper tests/tools/trace_check.c; t_check.sh runs the same cases
# through `clean_sim_trace --check`): it must
# accept every good case, reject every bad case naming the rule that breaks,
# handle usage errors with exit 2, cap its output, and stay fast on a
# 100k-event trace. Without this, a checker that always says "ok" would make
# every converter test pass.
#
# Env: CSIM_CHECK = built trace_check, CSIM_ROOT = repository root.
set -euo pipefail

: "${CSIM_CHECK:?CSIM_CHECK must name the built trace_check}"
: "${CSIM_ROOT:?CSIM_ROOT must name the repository root}"

DIR="$CSIM_ROOT/tests/checker"
# The shared temp dir, counters and CPU-time helper (timed, below).
source "$(dirname "$0")/checks.sh"
TMP=$tmp

declare -A covered=()

fail() {
    echo "FAIL: $*" >&2
    failed=$((failed + 1))
}

# check_run NAME WANT_RC RULE EXPECT_STDOUT -- ARGS...
# RULE: keyword that must appear as ": RULE: " in stderr (empty: none needed).
# EXPECT_STDOUT: exact stdout wanted, "ok*" for any "ok: " line, "" for none.
check_run() {
    local name=$1 want_rc=$2 rule=$3 want_out=$4
    shift 5
    local rc=0
    "$CSIM_CHECK" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
    local out
    out=$(cat "$TMP/out")
    if [[ $rc -ne $want_rc ]]; then
        fail "$name: exit $rc, want $want_rc; stderr: $(head -3 "$TMP/err")"
        return
    fi
    if [[ -n $rule ]] && ! grep -qF ": $rule: " "$TMP/err"; then
        fail "$name: stderr does not name rule '$rule': $(head -3 "$TMP/err")"
        return
    fi
    case $want_out in
    "ok*") [[ $out == "ok: "* ]] || { fail "$name: stdout '$out'"; return; } ;;
    *) [[ $out == "$want_out" ]] || { fail "$name: stdout '$out', want '$want_out'"; return; } ;;
    esac
    passed=$((passed + 1))
}

# file | flags | exit | rule keyword (empty for a passing case)
CASES=$(cat <<'EOF'
good_minimal.json|--disjoint|0|
good_minimal.json||0|
good_half_ns_arrow.json|--disjoint|0|
good_nested.json||0|
good_nested.json|--disjoint|1|overlap
good_touching.json|--disjoint|0|
good_bare_array.json|--disjoint|0|
good_float_noise.json|--disjoint|0|
bad_float_overlap_one_cycle.json|--disjoint|1|float-overlap
bad_float_overlap_one_cycle.json||0|
bad_nest_rounded_end.json|--disjoint|1|nest
bad_point_at_neighbour_end.json|--disjoint|1|nest
bad_point_at_neighbour_start.json|--disjoint|1|point-start
bad_point_shares_perfetto_start.json|--disjoint|1|point-start
bad_depth_extra_sublane.json|--disjoint|1|depth
bad_depth_point_near_end.json|--disjoint|1|depth
bad_json_invalid.json|--disjoint|1|json
bad_json_trailing.json|--disjoint|1|json
bad_json_no_trace_events.json|--disjoint|1|json
bad_display_time_unit.json|--disjoint|1|display-time-unit
bad_fields_x_missing_ts.json|--disjoint|1|fields
bad_fields_meta_sort_index.json|--disjoint|1|fields
bad_phase_B.json|--disjoint|1|phase
bad_partial_overlap_rounding.json||1|partial-overlap
bad_partial_overlap_rounding.json|--disjoint|1|overlap
bad_overlap_disjoint.json|--disjoint|1|overlap
bad_overlap_disjoint.json||0|
bad_overlap_zero_inside.json|--disjoint|1|overlap
bad_flow_unpaired.json|--disjoint|1|flow-pair
bad_flow_duplicate_id.json|--disjoint|1|flow-duplicate
bad_flow_string_id.json|--disjoint|1|flow-id
bad_flow_fractional_id.json|--disjoint|1|flow-id
bad_flow_order.json|--disjoint|1|flow-order
bad_flow_order_same_ts.json|--disjoint|1|flow-order
bad_flow_bp.json|--disjoint|1|flow-bp
bad_flow_binding_boundary.json|--disjoint|1|flow-binding
bad_flow_binding_zero_length.json|--disjoint|1|flow-binding
bad_cname_gray.json|--disjoint|1|cname
bad_metadata_missing_thread_sort_index.json|--disjoint|1|metadata
bad_metadata_missing_process_name.json|--disjoint|1|metadata
bad_metadata_duplicate.json|--disjoint|1|metadata-duplicate
bad_expect.json|--disjoint --expect-slices 3|1|expect
bad_flow_two_ends.json|--disjoint|1|flow-pair
bad_fields_not_object.json|--disjoint|1|fields
bad_json_events_not_array.json|--disjoint|1|json
bad_json_top_level_string.json|--disjoint|1|json
good_escaped_strings.json|--disjoint|0|
bad_metadata_pid_form.json|--disjoint|1|metadata
bad_expect.json|--disjoint --expect-arrows 0|1|expect
bad_expect.json|--disjoint --expect-threads 1|1|expect
bad_expect.json|--disjoint --expect-counters 2|1|expect
good_path_lane.json|--disjoint --expect-slices 1|0|
EOF
)

while IFS='|' read -r file flags rc rule; do
    [[ -n $file ]] || continue
    covered[$file]=1
    read -ra args <<<"$flags"
    want_out=""
    [[ $rc -eq 0 ]] && want_out="ok*"
    check_run "$file $flags" "$rc" "$rule" "$want_out" -- \
        ${args[@]+"${args[@]}"} "$DIR/$file"
done <<<"$CASES"

# Every case file is exercised above and described in the README.
for path in "$DIR"/*.json; do
    base=$(basename "$path")
    if [[ -z ${covered[$base]+x} ]]; then
        fail "$base is not run by this script"
    elif ! grep -qF "$base" "$DIR/README.md"; then
        fail "$base is not described in tests/checker/README.md"
    else
        passed=$((passed + 1))
    fi
done

# The summary line and the expectation flags agree on a known trace.
check_run "good_minimal counts" 0 "" \
    "ok: 2 slices, 1 arrows, 1 processes, 2 threads, 1 counters" -- \
    --disjoint --expect-slices 2 --expect-arrows 1 --expect-threads 2 \
    --expect-counters 1 "$DIR/good_minimal.json"

check_run "good_path_lane counts" 0 "" \
    "ok: 1 slices (and 3 critical-path segments), 0 arrows, 1 processes, 2 threads, 0 counters" -- \
    --disjoint --expect-slices 1 --expect-threads 2 "$DIR/good_path_lane.json"

# Why the lane writes that 1 ns segment's dur as 0.0010000001: as 0.001
# its (ts + dur) * 1000 - ts * 1000 is under 1 ns in doubles, a point with
# no room beside its neighbours.
sed 's/"dur":0.0010000001/"dur":0.001/' "$DIR/good_path_lane.json" >"$TMP/path_point.json"
check_run "path lane with a 1 ns segment as 0.001" 1 depth "" -- --disjoint "$TMP/path_point.json"

# The converter's standard: a golden without its sort indices fails here
# (clean_sim_trace --check only notes it), and the golden itself passes.
golden="$CSIM_ROOT/fixtures/scenarios/mix_kernel/expected/default/trace.clean.json"
grep -v '_sort_index' "$golden" >"$TMP/unsorted.json"
check_run "golden without sort indices" 1 "metadata" "" -- --disjoint "$TMP/unsorted.json"
check_run "the golden itself" 0 "" "ok*" -- --disjoint "$golden"

# Usage errors exit 2; --help exits 0.
check_run "no arguments" 2 "" "" --
check_run "unknown option" 2 "" "" -- --bogus "$DIR/good_minimal.json"
check_run "bad count" 2 "" "" -- --expect-slices x "$DIR/good_minimal.json"
check_run "missing count" 2 "" "" -- "$DIR/good_minimal.json" --expect-slices
check_run "two files" 2 "" "" -- "$DIR/good_minimal.json" "$DIR/good_nested.json"
check_run "missing file" 2 "" "" -- "$TMP/does_not_exist.json"
rc=0
"$CSIM_CHECK" --help >/dev/null 2>&1 || rc=$?
if [[ $rc -eq 0 ]]; then passed=$((passed + 1)); else fail "--help exit $rc"; fi

# Output is capped at 50 violation lines plus a total (60 arrows without
# an f, inside a slice, on a thread with its metadata).
{
    printf '{"traceEvents":['
    printf '{"name":"process_name","ph":"M","pid":1,"args":{"name":"p"}},'
    printf '{"name":"process_sort_index","ph":"M","pid":1,"args":{"sort_index":0}},'
    printf '{"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"t"}},'
    printf '{"name":"thread_sort_index","ph":"M","pid":1,"tid":1,"args":{"sort_index":0}},'
    printf '{"name":"x","ph":"X","pid":1,"tid":1,"ts":0,"dur":10}'
    for i in $(seq 1 60); do
        printf ',{"ph":"s","id":%d,"cat":"c","name":"a","pid":1,"tid":1,"ts":5}' "$i"
    done
    printf ']}\n'
} >"$TMP/many.json"
check_run "cap" 1 "flow-pair" "" -- "$TMP/many.json"
lines=$(grep -c ': flow-pair: ' "$TMP/err" || true)
if [[ $lines -eq 50 ]] && grep -q '60 violations in total' "$TMP/err"; then
    passed=$((passed + 1))
else
    fail "cap: $lines flow-pair lines; tail: $(tail -1 "$TMP/err")"
fi

# Scale: 100k back-to-back slices on 4 threads plus 1000 arrows at midpoints
# (a quadratic check would take minutes here).
awk 'BEGIN {
    p = "\"pid\":\"core0.veccore0\""
    printf "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
    printf "{\"name\":\"process_name\",\"ph\":\"M\",%s,\"args\":{\"name\":\"core0.veccore0\"}}", p
    printf ",\n{\"name\":\"process_sort_index\",\"ph\":\"M\",%s,\"args\":{\"sort_index\":0}}", p
    for (t = 0; t < 4; t++) {
        printf ",\n{\"name\":\"thread_name\",\"ph\":\"M\",%s,\"tid\":\"L%d\",\"args\":{\"name\":\"L%d\"}}", p, t, t
        printf ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",%s,\"tid\":\"L%d\",\"args\":{\"sort_index\":%d}}", p, t, t
    }
    for (i = 0; i < 25000; i++)
        for (t = 0; t < 4; t++)
            printf ",\n{\"name\":\"op\",\"ph\":\"X\",%s,\"tid\":\"L%d\",\"ts\":%.3f,\"dur\":0.010,\"cname\":\"good\"}", p, t, i * 0.01
    for (k = 1; k <= 1000; k++) {
        printf ",\n{\"ph\":\"s\",\"id\":%d,\"cat\":\"sync\",\"name\":\"a\",%s,\"tid\":\"L0\",\"ts\":%.4f}", k, p, k * 20 * 0.01 + 0.005
        printf ",\n{\"ph\":\"f\",\"id\":%d,\"cat\":\"sync\",\"name\":\"a\",%s,\"tid\":\"L1\",\"ts\":%.4f,\"bp\":\"e\"}", k, p, (k * 20 + 5) * 0.01 + 0.005
    }
    printf "\n]}\n"
}' >"$TMP/big.json"
# A hang guard on CPU time, which a busy machine does not inflate.
timed check_run "100k events" 0 "" \
    "ok: 100000 slices, 1000 arrows, 1 processes, 4 threads, 0 counters" -- \
    --disjoint "$TMP/big.json"
if below 10.05; then
    passed=$((passed + 1))
else
    fail "100k events took ${cpu} CPU s"
fi

finish
