#!/usr/bin/env bash
# -z/--gzip (SPEC §1, §6, §8): trace.clean.json.gz holds exactly the bytes
# the plain run writes as trace.clean.json, as ONE gzip member (chrome://
# tracing decodes only the first member and needs the .gz name; viewer-notes
# §2). Checked on several scenarios and on a synthetic dump large enough for
# many buffer flushes: the first member inflates (gz_member, and gzip -dc as
# an independent decoder) to the plain run's bytes, nothing follows it, the
# viewer-rule checker accepts the inflated trace, the other outputs do not
# change, the "wrote" line names the .gz file, the bytes are deterministic.
# Then the folder rule (docs/decisions.md): a good run removes the older
# trace of the other form; a failed write (file-size limit, as t_faults.sh)
# exits 3 and leaves the folder as it was, with no temporary file.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_GZ:?set CSIM_GZ to the gz_member executable}"
: "${CSIM_SYNTH:?set CSIM_SYNTH to the gen_synth executable}"

not() { ! "$@"; }

# The checker itself must be able to fail: two members (which gzip -t and
# zcat accept) and a cut member are rejected; one member passes.
printf '{"a":1}' | gzip -c >"$tmp/one.gz"
cat "$tmp/one.gz" "$tmp/one.gz" >"$tmp/two.gz"
head -c 12 "$tmp/one.gz" >"$tmp/cut.gz"
check "gz_member: one member accepted" "$CSIM_GZ" "$tmp/one.gz"
check "gz_member: inflates the member" [ "$("$CSIM_GZ" "$tmp/one.gz")" = '{"a":1}' ]
check "gz_member: gzip -t accepts two members" gzip -t "$tmp/two.gz"
check "gz_member: two members rejected" not "$CSIM_GZ" "$tmp/two.gz"
check "gz_member: a cut member rejected" not "$CSIM_GZ" "$tmp/cut.gz"
printf 'x' >>"$tmp/one.gz"
check "gz_member: a trailing byte rejected" not "$CSIM_GZ" "$tmp/one.gz"

# same_as_plain NAME DIR: DIR/sim holds a dump; converts it plain and with
# -z (and --gzip), and compares.
same_as_plain() {
	local name=$1 dir=$2

	run "$dir" sim -o plain --no-copy-raw
	check "$name: plain run exit 0" [ "$status" -eq 0 ]
	run "$dir" sim -o gz -z --no-copy-raw
	check "$name: -z exit 0" [ "$status" -eq 0 ]
	check "$name: wrote names the .gz" contains "$out" "wrote gz/trace.clean.json.gz"$'\n'
	check "$name: no plain trace beside it" [ ! -e "$dir/gz/trace.clean.json" ]
	gz_status=0
	"$CSIM_GZ" "$dir/gz/trace.clean.json.gz" >"$dir/inflated.json" || gz_status=$?
	check "$name: one member, nothing after it" [ "$gz_status" -eq 0 ]
	check "$name: inflated = plain trace" cmp "$dir/inflated.json" "$dir/plain/trace.clean.json"
	check "$name: gzip -dc agrees" cmp <(gzip -dc "$dir/gz/trace.clean.json.gz") "$dir/plain/trace.clean.json"
	check "$name: viewer rules on the inflated trace" "$CSIM_CHECK" --disjoint "$dir/inflated.json"
	check "$name: summary.json unchanged" cmp "$dir/gz/summary.json" "$dir/plain/summary.json"
	check "$name: summary.html unchanged" cmp "$dir/gz/summary.html" "$dir/plain/summary.html"
	if [ -e "$dir/plain/instr_metrics.json" ]; then
		check "$name: instr_metrics.json unchanged" cmp "$dir/gz/instr_metrics.json" "$dir/plain/instr_metrics.json"
	fi
	run "$dir" sim -o gz2 --gzip --no-copy-raw
	check "$name: --gzip gives the same bytes" cmp "$dir/gz/trace.clean.json.gz" "$dir/gz2/trace.clean.json.gz"
}

for s in mix_kernel multi_block many_cores gzip_input appended_runs; do
	mkdir -p "$tmp/$s/sim"
	"$CSIM_GEN" "$CSIM_ROOT/fixtures/scenarios/$s/dump.recipe" "$tmp/$s/sim/visualize_data.bin"
	same_as_plain "$s" "$tmp/$s"
done
mkdir -p "$tmp/demo"
cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo/simulator" "$tmp/demo/sim"
same_as_plain demo "$tmp/demo"
# About 2.5 MB of trace: several 1 MB buffer flushes through one stream.
mkdir -p "$tmp/synth/sim"
"$CSIM_SYNTH" --seed 5 6 "$tmp/synth/sim/visualize_data.bin"
same_as_plain synth "$tmp/synth"
check "synth: trace over 2 MB (several flushes)" \
	[ "$(stat -c %s "$tmp/synth/plain/trace.clean.json")" -gt 2000000 ]

# --- one trace per folder --------------------------------------------------
d=$tmp/demo
echo '{"old":"plain"}' >"$d/plain/trace.clean.json"
run "$d" sim -o plain -z --no-copy-raw
check "-z over a plain trace: exit 0" [ "$status" -eq 0 ]
check "-z over a plain trace: the older plain trace is removed" [ ! -e "$d/plain/trace.clean.json" ]
check "-z over a plain trace: the .gz is there" cmp "$d/plain/trace.clean.json.gz" "$d/gz/trace.clean.json.gz"
run "$d" sim -o plain --no-copy-raw
check "plain over a .gz: exit 0" [ "$status" -eq 0 ]
check "plain over a .gz: the older .gz is removed" [ ! -e "$d/plain/trace.clean.json.gz" ]
check "plain over a .gz: the plain trace is there" cmp "$d/plain/trace.clean.json" "$d/inflated.json"

# An older "trace" that cannot be removed (a folder): a warning, the run stands.
mkdir -p "$d/w/trace.clean.json"
run "$d" sim -o w -z --no-copy-raw
check "unremovable older trace: exit 0" [ "$status" -eq 0 ]
check "unremovable older trace: warning" contains "$err" "warning: cannot remove the older w/trace.clean.json: "
check "unremovable older trace: the .gz is there" cmp "$d/w/trace.clean.json.gz" "$d/gz/trace.clean.json.gz"

# --- a failed write changes nothing ---------------------------------------
# limited KB ARGS...: the converter with files capped at KB kilobytes.
limited() {
	local kb=$1
	shift
	status=0
	(cd "$d" && ulimit -f "$kb" && trap '' XFSZ &&
		"$CSIM_BIN" "$@" >"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
	out=$(cat "$tmp/.stdout")
	err=$(cat "$tmp/.stderr")
}
leftovers() { find "$d/$1" -name '.*' | wc -l; }

# The folder holds an older .gz and an older plain trace (as left by hand).
mkdir -p "$d/f"
echo '{"old":"plain"}' >"$d/f/trace.clean.json"
echo 'old gz' >"$d/f/trace.clean.json.gz"
echo '{"old":"summary"}' >"$d/f/summary.json"
# The synthetic trace deflates to far more than 8 KB: the .gz cannot be written.
rm -rf "$d/sim" && cp -r "$tmp/synth/sim" "$d/sim"
limited 8 sim -o f -z --no-copy-raw
check "-z write fails: exit 3" [ "$status" -eq 3 ]
check "-z write fails: message names the .gz" contains "$err" "error: cannot write f/trace.clean.json.gz: File too large"
check "-z write fails: older .gz untouched" [ "$(cat "$d/f/trace.clean.json.gz")" = 'old gz' ]
check "-z write fails: older plain trace kept" [ "$(cat "$d/f/trace.clean.json")" = '{"old":"plain"}' ]
check "-z write fails: older summary untouched" [ "$(cat "$d/f/summary.json")" = '{"old":"summary"}' ]
check "-z write fails: no temporary file" [ "$(leftovers f)" -eq 0 ]
check "-z write fails: nothing announced" [ -z "$out" ]
finish
