#!/usr/bin/env bash
# Cross-core sync (SPEC §3, §5.6) through the binary, on
# fixtures/cross_core/trace.json: newer producers'
# SET/WAIT_INTRA_BLOCK(I) B/E records with ids intra_<n>, a detail naming
# the pipe and the sync_id, and cross-pid flows. Three cores: the cube
# core's FIXP hands over to veccore0's MTE2 (intra_0), veccore1's vector
# work (PIPE:VEC, on RVECEX and PUSHQ lanes) to the cube's CUBE (intra_1,
# its WAIT's E written before its B, its WAIT without PIPE:), a SET
# without a WAIT (intra_2), and a SET on SCALAR (intra_3), which only
# --keep-scalar draws. The older producers' form of the same wait, a long
# WAIT_INTRA_BLOCK X slice on FLOWCTRL, stays on veccore0's INTRA_BLOCK
# lane [1300,2900) and is no anchor. One in-core flag pair on veccore0 (SET at 3.2 µs)
# takes id 1: cross-core arrows come after the in-core ones, though their
# SETs begin earlier. Expected lines derived by hand (ns grid):
#   FIXP_MOV [1000,1500) mid 1250; MOV (MTE2) [3000,3200) mid 3100;
#   VADD (VECTOR) [3500,3700) mid 3600; VADD (RVECEX) [500,800) mid 650;
#   VF (PUSHQ) [400,450); MMAD (CUBE) [2000,3000) mid 2500; SMOV (SCALAR)
#   [100,200) mid 150.
#   Each SET sits at the end of the work it waits for, as the producer
#   writes it; its producer is the slice whose completion released it
#   (SPEC §5.3): of the pipe's slices that started and completed by the
#   SET, the one ending last.
#   flag1: SET 3200 -> MOV ends then; WAIT ends 3400 -> first
#     VECTOR >= 3400 (VADD).
#   intra_1: SET 900 -> the vector-family slice of veccore1 that completed
#     last is VADD on RVECEX (VF on PUSHQ ends earlier); WAIT ends 1900 -> first
#     CUBE of the cube core >= 1900 (MMAD). Named by the SET's PIPE:VEC,
#     i.e. VECTOR, and the WAIT's tid CUBE; sync16 from the details.
#   intra_0: SET 1500 -> FIXP_MOV; WAIT ends 2900 -> MOV.
#   intra_3 (--keep-scalar): SET 200 -> SMOV; WAIT ends 900 -> FIXP_MOV.
#   No producer is still running at its SET: no fallback note.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_ARROWCHECK:?set CSIM_ARROWCHECK to the arrow_recheck executable}"

mkdir -p "$tmp/sim"
"$CSIM_GEN" "$CSIM_ROOT/fixtures/cross_core/dump.recipe" "$tmp/sim/visualize_data.bin"

flag1='"cat":"MTE2ToVECTOR","name":"MTE2->VECTOR flag1"'
i1='"cat":"intra_block","name":"core0.veccore1:VECTOR -> core0.cubecore0:CUBE sync16"'
i0='"cat":"intra_block","name":"core0.cubecore0:FIXP -> core0.veccore0:MTE2 sync3"'
i3='"cat":"intra_block","name":"core0.veccore0:SCALAR -> core0.cubecore0:FIXP sync5"'

# The arrow events of a trace, one a line, without the separating comma.
arrows() { grep -E '^\{"ph":"[sf]"' "$1" | sed 's/,$//' || true; }

run "$tmp" sim -o out --no-copy-raw
check "default: exit 0" [ "$status" -eq 0 ]
check "default: 3 arrows in the note" contains "$err" ", 3 arrow(s),"
check "default: skips counted with the flags' reasons" \
	contains "$err" "note: 2 sync flag(s) could not be re-anchored: 1 no matching WAIT, 1 producer lane dropped"
check "default: no B/E record dropped as non-flag" eval '! contains "$err" "non-flag B/E"'
check "default: the in-core arrow first, then the cross-core ones in SET-begin order" [ "$(arrows "$tmp/out/trace.clean.json")" = \
"{\"ph\":\"s\",\"id\":1,$flag1,\"pid\":\"core0.veccore0\",\"tid\":\"MTE2\",\"ts\":3.100}
{\"ph\":\"f\",\"bp\":\"e\",\"id\":1,$flag1,\"pid\":\"core0.veccore0\",\"tid\":\"VECTOR\",\"ts\":3.600}
{\"ph\":\"s\",\"id\":2,$i1,\"pid\":\"core0.veccore1\",\"tid\":\"RVECEX\",\"ts\":0.650}
{\"ph\":\"f\",\"bp\":\"e\",\"id\":2,$i1,\"pid\":\"core0.cubecore0\",\"tid\":\"CUBE\",\"ts\":2.500}
{\"ph\":\"s\",\"id\":3,$i0,\"pid\":\"core0.cubecore0\",\"tid\":\"FIXP\",\"ts\":1.250}
{\"ph\":\"f\",\"bp\":\"e\",\"id\":3,$i0,\"pid\":\"core0.veccore0\",\"tid\":\"MTE2\",\"ts\":3.100}" ]
check "default: viewer rules hold" "$CSIM_CHECK" --expect-slices 7 --expect-arrows 3 \
	"$tmp/out/trace.clean.json"
check "default: no arrow on a still-running producer" eval '! contains "$err" "still-running"'
check "default: arrows anchored by completion (arrow_recheck)" "$CSIM_ARROWCHECK" \
	"$tmp/out/trace.clean.json" --input "$CSIM_ROOT/fixtures/cross_core/trace.json"
check "default: the older form keeps its INTRA_BLOCK lane" \
	grep -q '^{"name":"WAIT_INTRA_BLOCK","ph":"X","pid":"core0.veccore0","tid":"INTRA_BLOCK","ts":1.3,"dur":1.6,' \
	"$tmp/out/trace.clean.json"
run "$tmp" sim -o out2 --no-copy-raw
check "default: the same bytes twice" cmp -s "$tmp/out/trace.clean.json" "$tmp/out2/trace.clean.json"

run "$tmp" sim -o keep --no-copy-raw --keep-scalar
check "--keep-scalar: exit 0" [ "$status" -eq 0 ]
check "--keep-scalar: only the SET without a WAIT is skipped" \
	contains "$err" "note: 1 sync flag(s) could not be re-anchored: 1 no matching WAIT"
check "--keep-scalar: the SCALAR hand-over is drawn first of the cross-core arrows" [ "$(arrows "$tmp/keep/trace.clean.json")" = \
"{\"ph\":\"s\",\"id\":1,$flag1,\"pid\":\"core0.veccore0\",\"tid\":\"MTE2\",\"ts\":3.100}
{\"ph\":\"f\",\"bp\":\"e\",\"id\":1,$flag1,\"pid\":\"core0.veccore0\",\"tid\":\"VECTOR\",\"ts\":3.600}
{\"ph\":\"s\",\"id\":2,$i3,\"pid\":\"core0.veccore0\",\"tid\":\"SCALAR\",\"ts\":0.150}
{\"ph\":\"f\",\"bp\":\"e\",\"id\":2,$i3,\"pid\":\"core0.cubecore0\",\"tid\":\"FIXP\",\"ts\":1.250}
{\"ph\":\"s\",\"id\":3,$i1,\"pid\":\"core0.veccore1\",\"tid\":\"RVECEX\",\"ts\":0.650}
{\"ph\":\"f\",\"bp\":\"e\",\"id\":3,$i1,\"pid\":\"core0.cubecore0\",\"tid\":\"CUBE\",\"ts\":2.500}
{\"ph\":\"s\",\"id\":4,$i0,\"pid\":\"core0.cubecore0\",\"tid\":\"FIXP\",\"ts\":1.250}
{\"ph\":\"f\",\"bp\":\"e\",\"id\":4,$i0,\"pid\":\"core0.veccore0\",\"tid\":\"MTE2\",\"ts\":3.100}" ]
check "--keep-scalar: viewer rules hold" "$CSIM_CHECK" --expect-slices 8 --expect-arrows 4 \
	"$tmp/keep/trace.clean.json"
check "--keep-scalar: arrows anchored by completion (arrow_recheck)" "$CSIM_ARROWCHECK" \
	"$tmp/keep/trace.clean.json" --input "$CSIM_ROOT/fixtures/cross_core/trace.json"
finish
