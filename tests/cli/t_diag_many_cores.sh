#!/usr/bin/env bash
# The diagnosis of a many-core dump reads as one verdict (SPEC §10, issue
# 23): at most one line per rule, each naming its cores, counted
# independently over summary.json (grep and awk, not the converter's code).
#
# 1. A hand-made 24-core dump (fixtures/scenarios/diag_events.awk, gen_bin):
#    vector cores k = 0..23, pid core<k/2>.veccore<k%2>, tiles of 100 ns at
#    t = 1000 + 100·i, 10 tiles (13 on k = 21..23). Per tile, with
#    m = 88 + k % 6: MTE2 [t, t+m), VECTOR [t+m, t+m+5), MTE3 [t+98, t+100);
#    VECTOR waits in WAIT_FLAG [t+30, t+m) for MTE2's SET_FLAG ([t+m-1,
#    t+m)); on k % 3 == 0 SCALAR also waits [t+20, t+m+5) for VECTOR's
#    SET_FLAG ([t+m+4, t+m+5)). Span 1000 ns (1300 on k = 21..23), so:
#    - transfer_bound on all 24: MTE2 busy m % (88-93 %), VECTOR 5 %; where
#      VECTOR is the most-blocked pipe (k % 3 != 0: 16 cores, m - 30 =
#      59-63 % of the span) its wait on the transfer-bound MTE2 is a
#      consequence, folded in; the weightiest core is k = 23 (m = 93, 13
#      tiles: 1209 ns, core11.veccore1), busy 1209 / 1300 = 0.9300;
#    - sync_bound on the 8 cores k % 3 == 0: SCALAR is the most-blocked
#      pipe (m - 15 > m - 30), waiting on VECTOR 73 % (m = 88: 730 ns) or
#      76 % (m = 91: 760 ns, 988 ns on k = 21 with 13 tiles); the hoist-or-
#      batch advice; most waiting k = 21 (core10.veccore1), 988 / 1300;
#    - load_imbalance on the 3 cores of 1300 ns against the median 1000 (21
#      of the 24 sorted spans are 1000): 130 %, evidence 300 / 1300 = 0.2308.
#    The lines rank by the time each cause holds on the critical path
#    (docs/critical-path.md; docs/summary.md, "Ranking"). Each SET_FLAG of MTE2
#    begins 1 ns before its tile's load ends, so SPEC §5.3 anchors it on
#    the load of the tile before (the last one complete at the SET; tile
#    0's on its own, still running). Walking back from the last MTE3, per
#    two tiles: MTE3 2, issue back to VECTOR's end 93 - m, VECTOR 5, the
#    flag wait from the load two tiles back 100, that MTE2 m = 200 ns;
#    13 tiles end in tile 0 whole (MTE2 m, VECTOR 5 after a 0 ns wait,
#    issue 93 - m, MTE3 2). So MTE2 holds 5m of 1000 ns (44-47 %) or 7m of
#    1300 (49-50 %): transfer_bound's evidence is k = 23's 651 / 1300 =
#    0.5008 ("MTE2 holds 44-50 % of the critical path"). No SCALAR
#    instruction waits on the VECTOR -> SCALAR flags, so no flag wait into
#    SCALAR lies on the path: sync_bound holds 0 of it, evidence 0 (its
#    core then the first in core order, core0.veccore0), and it ranks
#    after load_imbalance.
#    A line per core per rule would give 49 lines here: 24 transfer_bound, 24
#    sync_bound (VECTOR on 16 cores, SCALAR on 8), 1 load_imbalance.
# 2. A 24-core gen_synth producer dump (docs/performance.md): whatever fires,
#    at most one line per rule.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_SUMCHECK:?set CSIM_SUMCHECK to the summary_recheck executable}"
: "${CSIM_SYNTH:?set CSIM_SYNTH to the gen_synth executable}"

events() {
	for k in $(seq 0 23); do
		pid="core$((k / 2)).veccore$((k % 2))"
		m=$((88 + k % 6))
		tiles=10
		[ "$k" -ge 21 ] && tiles=13
		for i in $(seq 0 $((tiles - 1))); do
			t=$((1000 + 100 * i))
			echo "X $pid MTE2 MOV_OUT_TO_UB $t $m"
			echo "X $pid VECTOR VADD $((t + m)) 5"
			echo "X $pid MTE3 MOV_UB_TO_OUT $((t + 98)) 2"
			echo "F SET_FLAG $pid MTE2 ${pid}_v$i $((t + m - 1)) $((t + m)) PIPE:MTE2,TRIGGERPIPE:VECTOR,FLAGID:0,"
			echo "F WAIT_FLAG $pid VECTOR ${pid}_v$i $((t + 30)) $((t + m)) PIPE:MTE2,TRIGGERPIPE:VECTOR,FLAGID:0,"
			if [ $((k % 3)) -eq 0 ]; then
				echo "F SET_FLAG $pid VECTOR ${pid}_s$i $((t + m + 4)) $((t + m + 5)) PIPE:VECTOR,TRIGGERPIPE:SCALAR,FLAGID:1,"
				echo "F WAIT_FLAG $pid SCALAR ${pid}_s$i $((t + 20)) $((t + m + 5)) PIPE:VECTOR,TRIGGERPIPE:SCALAR,FLAGID:1,"
			fi
		done
	done
}
mkdir -p "$tmp/d"
events | awk -f "$CSIM_ROOT/fixtures/scenarios/diag_events.awk" >"$tmp/d/trace.json"
printf 'trace trace.json\n' >"$tmp/d/dump.recipe"
"$CSIM_GEN" "$tmp/d/dump.recipe" "$tmp/d/visualize_data.bin"
run "$tmp/d" visualize_data.bin -o out --no-copy-raw
check "24 cores: exit 0" [ "$status" -eq 0 ]
sum="$tmp/d/out/summary.json"
check "24 cores: 24 cores in the summary" [ "$(grep -c '^  {"core":"core' "$sum")" -eq 24 ]

# diag_lines FILE: the diagnosis entries of a summary.json, one per line.
diag_lines() { sed -n '/^"diagnosis":\[/,$p' "$1" | grep '^  {"id":' || true; }
# ids FILE: their ids in order.
ids() { diag_lines "$1" | sed 's/^  {"id":"\([a-z_]*\)".*/\1/'; }
# cores FILE ID: how many cores the line of ID names.
cores() { diag_lines "$1" | grep "^  {\"id\":\"$2\"" | sed 's/.*"cores":\[\([^]]*\)\].*/\1/' | tr ',' '\n' | grep -c . || true; }

check "24 cores: at most one line per rule" [ -z "$(ids "$sum" | sort | uniq -d)" ]
check "24 cores: the three lines, ranked" [ "$(ids "$sum" | tr '\n' ' ')" = "transfer_bound load_imbalance sync_bound " ]
check "24 cores: transfer_bound on 24 cores" [ "$(cores "$sum" transfer_bound)" -eq 24 ]
check "24 cores: sync_bound on 8 cores" [ "$(cores "$sum" sync_bound)" -eq 8 ]
check "24 cores: load_imbalance on 3 cores" [ "$(cores "$sum" load_imbalance)" -eq 3 ]
check "24 cores: one primary, the first" \
	[ "$(diag_lines "$sum" | grep -c '"primary":true')" -eq 1 -a -n "$(diag_lines "$sum" | head -n 1 | grep '"primary":true')" ]
check "24 cores: transfer_bound speaks through core11.veccore1, 0.5008" \
	grep -qF '{"id":"transfer_bound","primary":true,"core":"core11.veccore1",' "$sum"
check "24 cores: transfer_bound's evidence" grep -qF '"evidence_share":0.5008,"text":"likely transfer-bound on 24 of 24 vector cores: MTE2 holds 44-50 % of the critical path, busy 88-93 % of the span, VECTOR 5 %, VECTOR waiting on it 59-63 % of the span on 16 of them; try double buffering"' "$sum"
check "24 cores: sync_bound, SCALAR advice" grep -qF '{"id":"sync_bound","primary":false,"core":"core0.veccore0","cores":["core0.veccore0","core1.veccore1","core3.veccore0","core4.veccore1","core6.veccore0","core7.veccore1","core9.veccore0","core10.veccore1"],"evidence_share":0.0000,"text":"likely sync-bound on 8 of 24 vector cores: SCALAR blocked in WAIT_FLAG 730-988 ns, 73-76 % of the 1000-1300 ns span, most on VECTOR (73-76 %), its flag waits 0 % of the critical path: likely a scalar read of its result inside the loop (GetValue, a read-back); hoist the read out of the loop or batch it (no pipe runs ahead while the scalar unit waits, so double buffering does not help)"' "$sum"
check "24 cores: load_imbalance" grep -qF '{"id":"load_imbalance","primary":false,"core":"core10.veccore1","cores":["core10.veccore1","core11.veccore0","core11.veccore1"],"evidence_share":0.2308,"text":"likely load imbalance on 3 of 24 vector cores: spans 1300 ns, 130 % of the median 1000 ns over 24 cores; check how the tiling splits the work across blocks"' "$sum"
check "24 cores: summary_recheck agrees" "$CSIM_SUMCHECK" "$tmp/d/out/trace.clean.json" "$sum"
# The table prints the same three items, the first marked.
table=$(printf '%s' "$out" | sed -n '/^diagnosis (/,$p')
check "24 cores: the table's three items" [ "$(printf '%s\n' "$table" | grep -c '^- ')" -eq 3 ]
check "24 cores: the table marks the primary" contains "$table" $'\n- primary: likely transfer-bound on 24 of 24 vector cores:'

# 2. gen_synth's producer profile at 3 MB: 24 cores (8 cube, 16 vector).
mkdir -p "$tmp/s"
"$CSIM_SYNTH" --profile producer 3 "$tmp/s/visualize_data.bin"
run "$tmp/s" visualize_data.bin -o out --no-copy-raw -q
check "gen_synth: exit 0" [ "$status" -eq 0 ]
check "gen_synth: 24 cores" [ "$(grep -c '^  {"core":"core' "$tmp/s/out/summary.json")" -eq 24 ]
check "gen_synth: at most one line per rule" [ -z "$(ids "$tmp/s/out/summary.json" | sort | uniq -d)" ]
check "gen_synth: summary_recheck agrees" "$CSIM_SUMCHECK" "$tmp/s/out/trace.clean.json" "$tmp/s/out/summary.json"
finish
