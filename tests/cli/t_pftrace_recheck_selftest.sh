#!/usr/bin/env bash
# Self-test of the pftrace recheck (tests/tools/pftrace_recheck.c): it must
# accept a trace.pftrace that holds what its trace.clean.json holds, and
# reject each planted fault naming it. Without this, a recheck that always
# says "ok" would make every .pftrace test pass.
#
# tests/perfetto/selftest/good.clean.json is a small hand-written trace (two
# cores with sub-lanes, the critical-path lanes, a float-noise overlap cut at
# 0.25 ns and one at 1.19 ns of tol, a true 0.3 ns overlap that touches on
# integer ns yet takes a second track (SPEC §4 depth 2), a zero-length
# instruction on a "(points)" track, every kind of arg, three arrows,
# counters) and
# good.txtpb its .pftrace as docs/perfetto.md lays it out, in protobuf text
# format, one packet a line, tagged. Each case below plants one fault with
# sed (in a tagged packet, or in the JSON), encodes it with protoc against
# tests/perfetto/pftrace.proto, and wants exit 1 and the message that names
# the fault. protoc is required: without it the test fails (never skips).
#
# Env: CSIM_PFTRACE_RECHECK = built pftrace_recheck, CSIM_ROOT = repository
# root, CSIM_PROTOC = protoc (default: protoc on PATH).
set -euo pipefail

: "${CSIM_PFTRACE_RECHECK:?CSIM_PFTRACE_RECHECK must name the built pftrace_recheck}"
: "${CSIM_ROOT:?CSIM_ROOT must name the repository root}"
PROTOC=${CSIM_PROTOC:-protoc}

source "$(dirname "$0")/checks.sh"

DIR="$CSIM_ROOT/tests/perfetto/selftest"
PROTO="$CSIM_ROOT/tests/perfetto/pftrace.proto"

if ! command -v "$PROTOC" >/dev/null 2>&1; then
	flunk "protoc not found (CSIM_PROTOC=$PROTOC): install protobuf-compiler (.ci/run does)"
	finish
fi

# encode TXTPB OUT: OUT is the binary of the text-format trace TXTPB.
encode() {
	"$PROTOC" --proto_path="$(dirname "$PROTO")" --encode=perfetto.protos.Trace \
		"$(basename "$PROTO")" <"$1" >"$2"
}

# recheck NAME ARGS...: runs the recheck; sets $rc and $out (its stdout);
# its stderr is left in $tmp/NAME.err.
recheck() {
	local name=$1
	shift
	rc=0
	"$CSIM_PFTRACE_RECHECK" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	out=$(cat "$tmp/$name.out")
}

# wants NAME WANT_RC TEXT: the last recheck exited WANT_RC and printed a line
# holding TEXT (for exit 1: a problem line "pftrace_recheck: TEXT...").
wants() {
	local name=$1 want_rc=$2 text=$3
	if [[ $rc -ne $want_rc ]]; then
		flunk "$name: exit $rc, want $want_rc; stdout: $(head -3 <<<"$out")"
	elif ! grep -qF -- "$text" <<<"$out"; then
		flunk "$name: no line holding '$text'; stdout: $(head -3 <<<"$out")"
	else
		pass "$name"
	fi
}

encode "$DIR/good.txtpb" "$tmp/good.pftrace"
good_json="$DIR/good.clean.json"

# The good pair passes with one summary line. Every lane has as many tracks
# besides "(points)" tracks as its SPEC §4 depth on the JSON's float times:
# MTE3 has 2 (a 0.3 ns overlap, past tol), though the two touch on integer
# ns (depth 1 there); that difference is only noted on stderr, and fails
# --strict-depth.
recheck good "$tmp/good.pftrace" "$good_json"
check "good: exit 0" [ "$rc" -eq 0 ]
check "good: the summary line" [ "$out" = "ok: 20 slices (1 instants), 29 annotations, 3 flows, 6 counter samples on 4 counter tracks, 3 processes, 10 thread tracks in 7 lanes, 64 packets; 1 lanes where the depth differs" ]
check "good: the depth note on stderr" grep -qF \
	"pftrace_recheck: depth differs: core0.veccore0 / MTE3 (store UB->GM): SPEC §4 depth 2 on the JSON's float times, 1 on the pftrace's integer intervals" \
	"$tmp/good.err"
recheck good_strict --strict-depth "$tmp/good.pftrace" "$good_json"
wants "good with --strict-depth" 1 "pftrace_recheck: depth differs: core0.veccore0 / MTE3"

# protoc decodes the file back to the same packets with the same proto.
check "protoc --decode reads the good trace" bash -c \
	'"$1" --proto_path="$2" --decode=perfetto.protos.Trace pftrace.proto <"$3" >"$4"' _ \
	"$PROTOC" "$(dirname "$PROTO")" "$tmp/good.pftrace" "$tmp/good.decoded"
encode "$tmp/good.decoded" "$tmp/good.again"
check "protoc --decode then --encode gives the same bytes" cmp -s "$tmp/good.pftrace" "$tmp/good.again"

# name | sed script on good.txtpb | sed script on good.clean.json | the line wanted
CASES=$(cat <<'EOF'
moved_begin|/# begin.MOV_B$/s/timestamp: 1500/timestamp: 1501/||slice: line 31: no slice "MOV_B" on core0.cubecore0 / MTE2 (load GM->L1/UB) beginning at 1500 ns; nearest unmatched begins at 1501
end_1ns_late|/# end.MOV_B$/s/timestamp: 1750/timestamp: 1751/||end: line 31: "MOV_B" ends at 1751 ns, JSON ts+dur gives 1750
unclipped_noise_overlap|/# end.LOAD_D$/s/timestamp: 2500/timestamp: 2501/||flat: "MTE1 (load L1->L0)": "LOAD_E" [2500, 2501) nests in "LOAD_D" [2000, 2600)
cut_beyond_tol||/"LOAD_E"/s/"ts":2.5004/"ts":2.5001/|end: line 33: "LOAD_D" is cut at 2500 ns (JSON ends it at 2501): an overlap of 0.5000 ns, beyond tol 0.2500
cut_where_nothing_begins|/# end.LOAD_F$/s/5000009/5000008/||end: line 35: "LOAD_F" ends at 5000008 ns, before JSON's 5000010, where no slice of its track begins
missing_slice|/# begin.MOV_B$/d;/# end.MOV_B$/d||slice: line 31: no slice "MOV_B" on core0.cubecore0 / MTE2 (load GM->L1/UB) beginning at 1500 ns
extra_slice||/"MOV_B"/d|slice: "MOV_B" [1500, 1750) on core0.cubecore0 / MTE2 (load GM->L1/UB) is not in the JSON
wrong_name|/# begin.MOV_B$/s/name: "MOV_B"/name: "MOV_X"/||slice: "MOV_X" [1500, 1750) on core0.cubecore0 / MTE2 (load GM->L1/UB) is not in the JSON
zero_length_as_begin_end|/# begin.MMAD_P$/{s/TYPE_INSTANT/TYPE_SLICE_BEGIN/;p;s/.*/packet { timestamp: 3000 trusted_packet_sequence_id: 1 track_event { type: TYPE_SLICE_END track_uuid: 15 } }/}||slice: line 37: "MMAD_P" at 3000 ns has zero length but is no TYPE_INSTANT
nested_slice|/# begin.MOV_C$/s/track_uuid: 12/track_uuid: 11/;/# end.MOV_C$/s/track_uuid: 12/track_uuid: 11/||flat: "MTE2 (load GM->L1/UB)": "MOV_C" [1200, 1500) nests in "MOV_A" [1000, 1800)
instant_at_a_begin|/# begin.MMAD_P$/s/track_uuid: 15/track_uuid: 14/||instant: "CUBE (matmul)": instant "MMAD_P" at 3000 ns lies at the begin of "MMAD_Q" [3000, 3100)
two_instants_at_one_ns|/# begin.MMAD_P$/p||instant: "CUBE (matmul) #1 (points)": instants "MMAD_P" and "MMAD_P" both at 3000 ns
end_closes_nothing|/# end.MOV_B$/s/track_uuid: 11/track_uuid: 12/||slice: "MTE2 (load GM->L1/UB) #1": a SLICE_END at 1800 ns closes no slice
slice_never_ends|/# end.MOV_B$/d||slice: "MTE2 (load GM->L1/UB)": "MOV_B" begun at 1500 ns never ends
lane_out_of_order|/# thread.cube.mte1$/s/sibling_order_rank: 100/sibling_order_rank: 250/||lane order: core0.cubecore0: JSON [critical path, MTE2 (load GM->L1/UB), MTE1 (load L1->L0), CUBE (matmul)], pftrace [critical path, MTE2 (load GM->L1/UB), CUBE (matmul), MTE1 (load L1->L0)]
sub_lane_apart|/# thread.cube.mte2.1$/s/sibling_order_rank: 1/sibling_order_rank: 150/||lane order: core0.cubecore0: JSON [critical path, MTE2 (load GM->L1/UB), MTE1 (load L1->L0), CUBE (matmul)], pftrace [critical path, MTE2 (load GM->L1/UB), MTE1 (load L1->L0), MTE2 (load GM->L1/UB), CUBE (matmul)]
shared_rank|/# thread.cube.mte2.1$/s/sibling_order_rank: 1/sibling_order_rank: 0/||order: "MTE2 (load GM->L1/UB)" and "MTE2 (load GM->L1/UB) #1" share sibling_order_rank 0
process_out_of_order|/# proc.mte$/s/sibling_order_rank: 2/sibling_order_rank: -5/||order: processes: JSON [core0.cubecore0, core0.veccore0, MTE Throughput], pftrace [MTE Throughput, core0.cubecore0, core0.veccore0]
process_renamed|/# proc.vec$/s/"core0.veccore0"/"core0.veccore1"/||order: processes: JSON [core0.cubecore0, core0.veccore0, MTE Throughput], pftrace [core0.cubecore0, core0.veccore1, MTE Throughput]
root_not_explicit|/# root$/s/ thread_ordering: THREAD_ORDERING_EXPLICIT//||root: uuid 0 has process_ordering 1 and thread_ordering -1, want 1 (EXPLICIT) and 1
no_root|/# root$/s/uuid: 0 process_ordering/uuid: 99 process_ordering/||root: no root track (uuid 0)
track_more_than_depth|/# thread.cube.mte2.1$/{p;s/uuid: 12 thread { pid: 1 tid: 12 thread_name: "MTE2 (load GM->L1\/UB) #1" } sibling_order_rank: 1 } }  # thread.cube.mte2.1/uuid: 16 thread { pid: 1 tid: 16 thread_name: "MTE2 (load GM->L1\/UB) #2" } sibling_order_rank: 2 } }  # thread.cube.mte2.2/};/# begin.MOV_B$/s/track_uuid: 11/track_uuid: 16/;/# end.MOV_B$/s/track_uuid: 11/track_uuid: 16/||lane: core0.cubecore0 / MTE2 (load GM->L1/UB): 3 tracks besides points tracks, SPEC §4 depth 2
tracks_fewer_than_depth|/# thread.vec.mte3.1$/d;/# begin.MOV_UB_TO_OUT.2$/s/track_uuid: 23/track_uuid: 22/;/# end.MOV_UB_TO_OUT.2$/s/track_uuid: 23/track_uuid: 22/||lane: core0.veccore0 / MTE3 (store UB->GM): 1 tracks besides points tracks, SPEC §4 depth 2
points_track_without_point|/# thread.vec.vector$/{p;s/uuid: 21 thread { pid: 2 tid: 21 thread_name: "VECTOR (compute)" } sibling_order_rank: 300 } }  # thread.vec.vector/uuid: 24 thread { pid: 2 tid: 24 thread_name: "VECTOR (compute) #1 (points)" } sibling_order_rank: 301 } }  # thread.vec.vector.1/};/# begin.VMUL$/s/track_uuid: 21/track_uuid: 24/;/# end.VMUL$/s/track_uuid: 21/track_uuid: 24/||lane: core0.veccore0 / VECTOR (compute): a (points) track but no point
thread_without_process|/# thread.vec.mte3$/s/pid: 2 tid: 22/pid: 7 tid: 22/||track: thread track "MTE3 (store UB->GM)": pid 7 has no process track
tid_not_unique|/# thread.vec.mte3$/s/tid: 22/tid: 21/||track: thread track "MTE3 (store UB->GM)": tid 21 is not unique
missing_flow|/# begin.MOV_A$/s/ flow_ids: 1//||flow: id 1 is in flow_ids of 0 slices, want 1 ("MOV_A" at 1000 ns on core0.cubecore0 / MTE2 (load GM->L1/UB))
flow_on_wrong_slice|/# begin.LOAD_D$/s/ terminating_flow_ids: 1//;/# begin.LOAD_E$/s/name_iid: 5 /name_iid: 5 terminating_flow_ids: 1 /||flow: id 1 is in terminating_flow_ids of "LOAD_E" at 2500 ns on core0.cubecore0 / MTE1 (load L1->L0), want "LOAD_D" at 2000 ns on core0.cubecore0 / MTE1 (load L1->L0)
flow_consumer_first|/# begin.MOV_C$/s/flow_ids: 2/terminating_flow_ids: 2/;/# begin.VMUL$/s/terminating_flow_ids: 2/flow_ids: 2/|/"id":2,/{s/"ph":"s"/"ph":"F"/;s/"ph":"f","bp":"e"/"ph":"s"/;s/"ph":"F"/"ph":"f","bp":"e"/}|flow: id 2: the consumer "MOV_C" at 1200 ns on core0.cubecore0 / MTE2 (load GM->L1/UB) #1 comes before the producer "VMUL" at 1800 ns on core0.veccore0 / VECTOR (compute) in Perfetto's order (time, then file position), which drops the flow
flow_twice|/# begin.MOV_B$/s/name_iid: 2 /name_iid: 2 flow_ids: 1 /||flow: id 1 is in flow_ids of 2 slices, want 1
flow_unknown|/# begin.MOV_B$/s/name_iid: 2 /name_iid: 2 flow_ids: 9 /||flow: id 9 in flow_ids of "MOV_B" at 1500 ns on core0.cubecore0 / MTE2 (load GM->L1/UB) is no JSON arrow
counter_value_off|/# sample.gm.2$/s/244.140625/244.14/||counter: line 51: "GM_TO_UB throughput(MB/s)" of MTE Throughput at 2000 ns is 244.13999999999999, JSON 244.140625
counter_missing|/# sample.write$/d||counter: line 55: no sample of "BW write" of MTE Throughput at 5000 ns
counter_misnamed|/# counter.read$/s/"BW read"/"BW rd"/||counter: line 55: no sample of "BW read" of MTE Throughput at 5000 ns
counter_wrong_ns|/# sample.read$/s/timestamp: 5000/timestamp: 5001/||counter: line 55: no sample of "BW read" of MTE Throughput at 5000 ns
counter_not_numeric_sampled|/# sample.ub.4$/{p;s/timestamp: 4000/timestamp: 3000/;s/12.5/0/}||counter: a sample of 0 (packet 61) is no JSON counter value
counter_on_thread_track|/# sample.read$/s/track_uuid: 32/track_uuid: 21/||packet: packet 61: a TYPE_COUNTER event on a track that is not a counter track
missing_annotation|/# begin.MOV_A$/s/ debug_annotations { name_iid: 5 string_value_iid: 5 }//||args: line 30: "MOV_A" has no annotation "source"
extra_annotation|/# begin.MOV_B$/s/name_iid: 2 /name_iid: 2 debug_annotations { name_iid: 1 string_value_iid: 1 } /||args: line 31: "MOV_B" has an annotation "code" that its JSON args lack
annotation_int_as_double|/# begin.VADD$/s/name_iid: 6 int_value: 3/name_iid: 6 double_value: 3/||args: line 39: "VADD" annotation "n" is double_value 3, JSON 3
annotation_string_differs|/# begin.VADD$/s/str: "tab\\there \\303\\251"/str: "tab there \\303\\251"/||args: line 39: "VADD" annotation "esc" is string "tab there é", JSON "tab\there \u00e9"
annotation_json_differs|/# begin.VADD$/s/\[1, 2\]/[1, 3]/||args: line 39: "VADD" annotation "o" is legacy_json_value {"a": [1, 3], "s": "x\"y"}, JSON {"a":[1,2],"s":"x\"y"}
annotation_bool_differs|/# begin.VADD$/s/bool_value: false/bool_value: true/||args: line 39: "VADD" annotation "no" is bool_value true, JSON false
annotation_two_values|/# begin.VADD$/s/int_value: -2/int_value: -2 double_value: -2/||args: packet 39: debug annotation "neg" has 2 values, want 1
wrong_first_flags|/# root$/s/sequence_flags: 3/sequence_flags: 1/||packet: packet 0: sequence_flags 1, want 3 (cleared | needs state)
no_needs_state_flag|/# begin.MOV_B$/s/ sequence_flags: 2//||packet: packet 31 uses an interned id without SEQ_NEEDS_INCREMENTAL_STATE
wrong_sequence|/# proc.vec$/s/trusted_packet_sequence_id: 1/trusted_packet_sequence_id: 2/||packet: packet 2: trusted_packet_sequence_id 2, want 1
no_sequence|/# proc.vec$/s/trusted_packet_sequence_id: 1 //||packet: packet 2: no trusted_packet_sequence_id, want 1
undefined_iid|/# path.vec.2$/s/name_iid: 14/name_iid: 99/||intern: packet 53: event name iid 99 is not defined on the sequence
state_cleared_midway|/# path.vec.2$/s/sequence_flags: 2/sequence_flags: 3/||intern: packet 53: event name iid 14 is not defined on the sequence
iid_redefined|/# begin.MOV_B$/s/event_names { iid: 2 name: "MOV_B" }/event_names { iid: 2 name: "MOV_B" } event_names { iid: 1 name: "MOV_Y" }/||intern: packet 31: EventName iid 1 redefined ("MOV_Y", was "MOV_A")
track_described_late|/# thread.vec.mte3$/{h;d};$G||packet: packet 27: track_uuid 22 is not described before it
event_without_track|/# end.VMUL$/s/ track_uuid: 21//||packet: packet 27: a TrackEvent without a track_uuid
event_without_timestamp|/# end.VMUL$/s/timestamp: 1900 //||packet: packet 27: a TrackEvent without a timestamp
counter_track_without_parent|/# counter.read$/s/ parent_uuid: 3//||counter: counter track "BW read": parent_uuid is not a process track
arrow_outside_slices||/"ph":"f","bp":"e","id":1,/s/"ts":2.2503/"ts":2.7/|json: line 57: arrow 1 lies inside 0 slices of its thread, want 1
metadata_value_differs|/# metadata$/s/int_value: 16488/int_value: 16489/||metadata: "dump_bytes": int 16489 in the pftrace, int 16488 in the JSON
metadata_number_as_string|/# metadata$/s/int_value: 16488/string_value: "16488"/||metadata: "dump_bytes": string 16488 in the pftrace, int 16488 in the JSON
metadata_escape_kept|/# metadata$/s/add_custom \\"v2\\"/add_custom \\\\\\"v2\\\\\\"/||metadata: "op": string add_custom \"v2\" in the pftrace, string add_custom "v2" in the JSON
metadata_renamed|/# metadata$/s/name: "options"/name: "option"/||metadata: fact 4: "option" in the pftrace, "options" in the JSON
metadata_missing_in_json||s/^],"metadata":.*}}$/]}/|metadata: trace.clean.json has no top-level metadata object
metadata_missing_in_pftrace|/# metadata$/d||metadata: 0 facts in the pftrace, 5 in the JSON
EOF
)

while IFS='|' read -r name pf_sed json_sed want; do
	[[ -n $name ]] || continue
	if ! sed -e "$pf_sed" "$DIR/good.txtpb" >"$tmp/$name.txtpb" ||
		! sed -e "$json_sed" "$good_json" >"$tmp/$name.json"; then
		flunk "$name: a sed script fails"
		continue
	fi
	if cmp -s "$tmp/$name.txtpb" "$DIR/good.txtpb" && cmp -s "$tmp/$name.json" "$good_json"; then
		flunk "$name: the sed scripts plant nothing"
		continue
	fi
	if ! encode "$tmp/$name.txtpb" "$tmp/$name.pftrace" 2>"$tmp/$name.protoc"; then
		flunk "$name: protoc cannot encode the planted trace: $(head -2 "$tmp/$name.protoc")"
		continue
	fi
	recheck "$name" "$tmp/$name.pftrace" "$tmp/$name.json"
	wants "$name" 1 "pftrace_recheck: $want"
done <<<"$CASES"

# The wire format, bounds-checked: a file cut short, bytes that are no
# protobuf, a field of docs/perfetto.md's table with the wrong wire type, a
# field not in it, a packed flow_ids (Perfetto's is not packed).
size=$(stat -c %s "$tmp/good.pftrace")
sed '$d' "$DIR/good.txtpb" >"$tmp/all_but_last.txtpb"
encode "$tmp/all_but_last.txtpb" "$tmp/all_but_last.pftrace"
last=$(stat -c %s "$tmp/all_but_last.pftrace")
head -c $((size - 5)) "$tmp/good.pftrace" >"$tmp/truncated.pftrace"
recheck truncated "$tmp/truncated.pftrace" "$good_json"
wants "truncated file" 1 "pftrace_recheck: decode: packet 63: Trace at byte $last: truncated or malformed field"
for cut in 1 2 3 7 100 1000 $((size - 1)); do
	head -c "$cut" "$tmp/good.pftrace" >"$tmp/cut.pftrace"
	recheck "cut$cut" "$tmp/cut.pftrace" "$good_json"
	check "cut after $cut bytes: exit 1, no crash" [ "$rc" -eq 1 ]
done
printf '\x0a\x05\x08\xff\xff\xff\xff' >"$tmp/garbage.pftrace"
recheck garbage "$tmp/garbage.pftrace" "$good_json"
wants "garbage" 1 "pftrace_recheck: decode: packet 0: TracePacket at byte 2: truncated or malformed field"
printf '\x0b\x01' >"$tmp/group.pftrace"
recheck group "$tmp/group.pftrace" "$good_json"
wants "a group wire type" 1 "pftrace_recheck: decode: packet 0: Trace at byte 0: truncated or malformed field"
{ cat "$tmp/good.pftrace"; printf '\x0a\x03\x42\x01\x00'; } >"$tmp/wiretype.pftrace"
recheck wiretype "$tmp/wiretype.pftrace" "$good_json"
wants "timestamp as a length-delimited field" 1 \
	"pftrace_recheck: decode: packet 64: TracePacket.timestamp (field 8) has wire type 2, want 0"
{ cat "$tmp/good.pftrace"; printf '\x0a\x02\x48\x01'; } >"$tmp/unknown.pftrace"
recheck unknown "$tmp/unknown.pftrace" "$good_json"
wants "a field not in the table" 1 \
	"pftrace_recheck: decode: packet 64: TracePacket field 9 is not in docs/perfetto.md's table"
# Packet 63: timestamp 1, sequence 1, track_event { track_uuid 21, type
# END, flow_ids [1] packed in one length-delimited field }.
{ cat "$tmp/good.pftrace"; printf '\x0a\x15\x40\x01\x50\x01\x5a\x0f\x58\x15\x48\x02\xfa\x02\x08\x01\x00\x00\x00\x00\x00\x00\x00'; } >"$tmp/packed.pftrace"
recheck packed "$tmp/packed.pftrace" "$good_json"
wants "packed flow_ids" 1 \
	"pftrace_recheck: decode: packet 64: TrackEvent.flow_ids (field 47) has wire type 2, want 1"

# Every 41st byte overwritten with 0xff and with 0x00: the recheck reports
# what it finds (exit 0 or 1: a changed byte may still decode), never
# crashes or hangs.
crashed=0
tries=0
for ((i = 0; i < size; i += 41)); do
	for byte in '\xff' '\x00'; do
		cp "$tmp/good.pftrace" "$tmp/flip.pftrace"
		printf '%b' "$byte" | dd of="$tmp/flip.pftrace" bs=1 seek="$i" conv=notrunc status=none
		recheck flip "$tmp/flip.pftrace" "$good_json"
		tries=$((tries + 1))
		if [[ $rc -gt 1 ]]; then
			crashed=$((crashed + 1))
			echo "byte $i set to $byte: exit $rc: $(head -2 "$tmp/flip.err")"
		fi
	done
done
check "$tries files with one byte changed: exit 0 or 1 each" [ "$crashed" -eq 0 ]

# Output is capped: 20 problem lines, then the total.
sed 's/trusted_packet_sequence_id: 1/trusted_packet_sequence_id: 2/' "$DIR/good.txtpb" >"$tmp/cap.txtpb"
encode "$tmp/cap.txtpb" "$tmp/cap.pftrace"
recheck cap "$tmp/cap.pftrace" "$good_json"
check "cap: exit 1" [ "$rc" -eq 1 ]
check "cap: 20 problem lines" [ "$(grep -c '^pftrace_recheck: packet: ' "$tmp/cap.out")" -eq 20 ]
check "cap: then the total" [ "$(tail -n 1 "$tmp/cap.out")" = "pftrace_recheck: 64 problems in total (the first 20 shown)" ]

# A counter whose JSON value is a string holding a number may be left out
# (docs/perfetto.md says nothing of such values; Perfetto's JSON importer
# reads them): the trace passes without that sample.
sed '/# sample.ub.4$/d' "$DIR/good.txtpb" >"$tmp/numstr.txtpb"
encode "$tmp/numstr.txtpb" "$tmp/numstr.pftrace"
recheck numstr "$tmp/numstr.pftrace" "$good_json"
wants "a numeric-string counter without its sample" 0 "ok: "

# A "(points)" track may hold ordinary slices as well as instants (first
# fit puts them there): MMAD_Q on the points track and the point MMAD_P on
# the depth's one track passes, the lane keeping one point and depth 1.
sed -e '/# begin.MMAD_Q$/s/track_uuid: 14/track_uuid: 15/;/# end.MMAD_Q$/s/track_uuid: 14/track_uuid: 15/;/# begin.MMAD_P$/s/track_uuid: 15/track_uuid: 14/' \
	"$DIR/good.txtpb" >"$tmp/slice_on_points.txtpb"
encode "$tmp/slice_on_points.txtpb" "$tmp/slice_on_points.pftrace"
recheck slice_on_points "$tmp/slice_on_points.pftrace" "$good_json"
wants "an ordinary slice on a (points) track" 0 "ok: "

# Usage and I/O errors exit 2.
recheck noargs
check "no arguments: exit 2" [ "$rc" -eq 2 ]
recheck oneargs "$tmp/good.pftrace"
check "one argument: exit 2" [ "$rc" -eq 2 ]
recheck badopt --bogus "$tmp/good.pftrace" "$good_json"
check "unknown option: exit 2" [ "$rc" -eq 2 ]
recheck nofile "$tmp/none.pftrace" "$good_json"
check "missing pftrace: exit 2" [ "$rc" -eq 2 ]
recheck nojson "$tmp/good.pftrace" "$tmp/none.json"
check "missing JSON: exit 2" [ "$rc" -eq 2 ]

finish
