#!/usr/bin/env bash
# The critical path's what-if estimates (docs/critical-path.md "What-if")
# on gen_path's kernels (the cases of t_critical_path.sh, and the same
# kernels with only the dependencies whose WAIT ended at their SET:
# gen_path --producer-released). For every pipe of what_if, path_recheck
# --what-if wants the converter's span equal, to the ns, to the documented
# model replayed on the same trace from the simulation's recorded causes
# (tests/tools/gen_path_model.c): each instruction at the latest of its
# binding predecessor with the lag that reproduces its start, every flag
# into it (its producer's end plus the release's delay), its pipe's
# latest end and previous start, cross-core releases and the head held at
# their times; that pipe's durations halved, rounded up. Through every
# instruction's binding edge this also checks the converter's binding
# predecessors off the path.
#
# The estimate is also measured against the kernel re-simulated with that
# pipe twice as fast (issue gaps after their issuer, dispatch delays and
# the other cores held as they were): per shape, how many estimates, how
# many equal the simulation, the median and the largest |estimate -
# simulated| as a share of the span, and how many are off by more than
# 5 %. The model leaves out what the trace does not show, as
# critical-path.md says, so the figures are bounds kept rather than
# targets: every estimate within 15 % of the span, at most 2 % of them off
# by more than 5 %, over 3 in 4 exact. The second table leaves out the
# dependencies whose WAIT was reached after its SET had fired (the model
# takes their release from the WAIT's begin, the end of what it began
# behind, which the simulation's issue point need not be).
#
# And one kernel by hand, the smallest that shows a flag the replay must
# keep though the pipe bound: on core0.veccore0 MTE3 S [1000, 1300) sets a
# flag (SET at 1300, WAIT on MTE2 from 1000 to 1301) for MTE2 B [1400,
# 1600), which waits on MTE2 A [1000, 1400) and starts as A ends (the pipe
# binds: the flag was released at 1301). Path: B, A: MTE2 600 of 600. With
# MTE2 twice as fast: A [1000, 1200), B after A and after the flag, S's end
# 1300 plus the release's delay 1: [1301, 1401); span 401, change -0.3317.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/path_cases.sh"

# by_hand NAME WHAT: the trace events on stdin (one veccore0 run) into a
# dump in $tmp/NAME, converted into $tmp/NAME/out.
by_hand() {
	local d="$tmp/$1"

	mkdir -p "$d"
	{
		echo '{"displayTimeUnit":"ns","profilingType":"op","schemaVersion":2,"traceEvents":['
		cat
		echo ']}'
	} >"$d/trace.json"
	echo "trace trace.json" >"$d/dump.recipe"
	"$CSIM_GEN" "$d/dump.recipe" "$d/visualize_data.bin"
	run "$d" visualize_data.bin -o out --no-copy-raw -q
	check "$2: converted" [ "$status" -eq 0 ]
}
x='"args":{"code":"","detail":"","pc_addr":"0x10"},"cname":"good","ph":"X","pid":"core0.veccore0"'
f='"args":{"code":"","detail":"PIPE:MTE3,TRIGGERPIPE:MTE2,FLAGID:0,","pc_addr":"0x20"},"id":"core0.veccore0_0","pid":"core0.veccore0"'
e='"args":{},"id":"core0.veccore0_0","pid":"core0.veccore0"'

by_hand hand "by hand" <<JSON
{$x,"dur":0.300,"name":"S","tid":"MTE3","ts":1.000},
{$x,"dur":0.400,"name":"A","tid":"MTE2","ts":1.000},
{$x,"dur":0.200,"name":"B","tid":"MTE2","ts":1.400},
{$f,"name":"SET_FLAG","ph":"B","tid":"MTE3","ts":1.300},
{$e,"name":"SET_FLAG","ph":"E","tid":"MTE3","ts":1.3005},
{$f,"name":"WAIT_FLAG","ph":"B","tid":"MTE2","ts":1.000},
{$e,"name":"WAIT_FLAG","ph":"E","tid":"MTE2","ts":1.301}
JSON
check "by hand: the path is MTE2 600 of 600" grep -q '"critical_path":{"span_ns":600,"segments":2,"busy":\[{"pipe":"MTE2","ns":600,"share":1.0000}\],"wait":\[\],"cross_core_wait_ns":0,"issue_ns":0,' "$tmp/hand/out/summary.json"
check "by hand: MTE2 twice as fast, B waits for the flag: span 401" grep -q '"what_if":\[{"pipe":"MTE2","span_ns":401,"change":-0.3317}\]' "$tmp/hand/out/summary.json"

# And one by hand whose WAIT was reached late (docs/critical-path.md, "The
# binding predecessor"): on core0.veccore0 MTE3 S [1000, 1300) sets a flag
# (SET at 1300) that MTE2 B [1510, 1710) waits for; the WAIT is reached
# only at 1500, as SCALAR Q [1000, 1500) ends, after the SET: it held
# nothing and does not bind. B is released by its issue behind Q. The
# path: B 200, issue [1500, 1510] 10, Q 500: span 710, no flag wait. With
# SCALAR twice as fast Q ends at 1250 and B could issue at 1260, but the
# flag is set only at 1300 (its producer's end still holds B): B [1300,
# 1500), span 500. With MTE2 twice as fast: B [1510, 1610), 610. MTE3 is
# not on the path: no estimate (a lag kept after the producer would have
# said MTE3 2x faster gives 560).
by_hand late "WAIT reached late" <<JSON
{$x,"dur":0.300,"name":"S","tid":"MTE3","ts":1.000},
{$x,"dur":0.500,"name":"Q","tid":"SCALAR","ts":1.000},
{$x,"dur":0.200,"name":"B","tid":"MTE2","ts":1.510},
{$f,"name":"SET_FLAG","ph":"B","tid":"MTE3","ts":1.300},
{$e,"name":"SET_FLAG","ph":"E","tid":"MTE3","ts":1.3005},
{$f,"name":"WAIT_FLAG","ph":"B","tid":"MTE2","ts":1.500},
{$e,"name":"WAIT_FLAG","ph":"E","tid":"MTE2","ts":1.500}
JSON
check "WAIT reached late: the path is SCALAR, issue, MTE2, no flag wait" grep -q '"critical_path":{"span_ns":710,"segments":3,"busy":\[{"pipe":"SCALAR","ns":500,"share":0.7042},{"pipe":"MTE2","ns":200,"share":0.2817}\],"wait":\[\],"cross_core_wait_ns":0,"issue_ns":10,' "$tmp/late/out/summary.json"
check "WAIT reached late: SCALAR twice as fast gives 500 (the flag holds B), MTE2 610" grep -q '"what_if":\[{"pipe":"SCALAR","span_ns":500,"change":-0.2958},{"pipe":"MTE2","span_ns":610,"change":-0.1408}\]' "$tmp/late/out/summary.json"

# A WAIT whose SET fired in the ns it began (docs/critical-path.md, "The
# binding predecessor"): MTE3 S [1000, 1300) sets the flag at 1300 (its E
# at 1300.4), the WAIT on MTE2 runs [1300, 1301], MTE2 B [1301, 1500);
# SCALAR Q [1000, 1299). The WAIT lasted its 1 ns for the SET: it binds,
# and the path is B 199, wait MTE3->MTE2 1, S 300 (not issue behind Q).
by_hand same_ns "a SET in the ns its WAIT began" <<JSON
{$x,"dur":0.300,"name":"S","tid":"MTE3","ts":1.000},
{$x,"dur":0.299,"name":"Q","tid":"SCALAR","ts":1.000},
{$x,"dur":0.199,"name":"B","tid":"MTE2","ts":1.301},
{$f,"name":"SET_FLAG","ph":"B","tid":"MTE3","ts":1.300},
{$e,"name":"SET_FLAG","ph":"E","tid":"MTE3","ts":1.3004},
{$f,"name":"WAIT_FLAG","ph":"B","tid":"MTE2","ts":1.300},
{$e,"name":"WAIT_FLAG","ph":"E","tid":"MTE2","ts":1.301}
JSON
check "a SET in the ns its WAIT began: the WAIT binds" grep -q '"critical_path":{"span_ns":500,"segments":3,"busy":\[{"pipe":"MTE3","ns":300,"share":0.6000},{"pipe":"MTE2","ns":199,"share":0.3980}\],"wait":\[{"producer":"MTE3","consumer":"MTE2","ns":1,"share":0.0020}\],"cross_core_wait_ns":0,"issue_ns":0,' "$tmp/same_ns/out/summary.json"

# Two by hand across cores (docs/critical-path.md "What-if": the cores that
# sync are replayed together). On core0.cubecore0 MTE2 A [1000, 1400) and
# B [1400, 1900) (the pipe binds B: path MTE2 900 of 900), SCALAR R [1000,
# 1450) and Q [1450, 1500) (issue behind R); a SET_INTRA_BLOCK naming MTE2
# issued at 1500, after A (the producer its arrow anchors on) had ended, and
# fired at 1501. On core0.veccore0 SCALAR S [1000, 1001), the WAIT [1010,
# 1510] (it blocked), VECTOR V [1520, 1820): span 820, V bound by the sync.
# With MTE2 twice as fast: A [1000, 1200), B [1200, 1450): cube 500 (Q
# still ends at 1500). The SET fired at its issue, behind Q, which does not
# move: V stays, vec 820,
# the kernel 900 -> 820 (-0.0889, set by veccore0). Taken from A's end, V
# would have moved with A to [1320, 1620): vec 620, kernel 620.
c='"args":{"code":"","detail":"","pc_addr":"0x10"},"cname":"good","ph":"X","pid":"core0.cubecore0"'
v='"args":{"code":"","detail":"","pc_addr":"0x10"},"cname":"good","ph":"X","pid":"core0.veccore0"'
cs='"args":{"code":"","detail":"PIPE:MTE2,sync_id:0,","pc_addr":"0x20"},"id":"intra_0","pid":"core0.cubecore0"'
vw='"args":{"code":"","detail":"PIPE:VEC,sync_id:0,","pc_addr":"0x30"},"id":"intra_0","pid":"core0.veccore0"'
ce='"args":{},"id":"intra_0","pid":"core0.cubecore0"'
ve='"args":{},"id":"intra_0","pid":"core0.veccore0"'
by_hand issued "a cross-core SET issued late" <<JSON
{$c,"dur":0.400,"name":"A","tid":"MTE2","ts":1.000},
{$c,"dur":0.500,"name":"B","tid":"MTE2","ts":1.400},
{$c,"dur":0.450,"name":"R","tid":"SCALAR","ts":1.000},
{$c,"dur":0.050,"name":"Q","tid":"SCALAR","ts":1.450},
{$v,"dur":0.001,"name":"S","tid":"SCALAR","ts":1.000},
{$v,"dur":0.300,"name":"V","tid":"VECTOR","ts":1.520},
{$cs,"name":"SET_INTRA_BLOCK","ph":"B","tid":"MTE2","ts":1.500},
{$ce,"name":"SET_INTRA_BLOCK","ph":"E","tid":"MTE2","ts":1.501},
{$vw,"name":"WAIT_INTRA_BLOCK","ph":"B","tid":"VECTOR","ts":1.010},
{$ve,"name":"WAIT_INTRA_BLOCK","ph":"E","tid":"VECTOR","ts":1.510}
JSON
# path_of CORE SUMMARY: the critical_path line of that core.
path_of() {
	awk -v c="\"core\":\"$1\"" 'index($0, c) { on = 1 } on && /^  "critical_path"/ { print; exit }' "$2"
}
sum="$tmp/issued/out/summary.json"
path_of core0.cubecore0 "$sum" >"$tmp/issued/cube"
path_of core0.veccore0 "$sum" >"$tmp/issued/vec"
check "a cross-core SET issued late: the cube core's MTE2 estimate 500" grep -q '"what_if":\[{"pipe":"MTE2","span_ns":500,"change":-0.4444}' "$tmp/issued/cube"
check "a cross-core SET issued late: veccore0 does not move with MTE2" grep -q '"what_if":\[[^]]*{"pipe":"MTE2","span_ns":820,"change":0.0000}' "$tmp/issued/vec"
check "a cross-core SET issued late: the kernel 900 -> 820, set by veccore0" grep -q '"load_balance":{.*"what_if":\[{"pipe":"MTE2","span_ns":820,"change":-0.0889,"core":"core0.veccore0"}' "$sum"

# The same cores, a WAIT released by the later SET of its sync flag (the
# producer pairs ids by count: docs/critical-path.md "What-if"). On the
# cube MTE2 A [1000, 1100) then C [1100, 1700); SET intra_0 fires at A's
# end (1101), SET intra_1 at C's end (1701), both sync_id 0. veccore0: S
# [1000, 1001); the WAIT paired with intra_0 begins at 1300, after that SET,
# and lasts to 1710: intra_1 released it. VECTOR V [1720, 2020) after it;
# the WAIT of intra_1 [2030, 2031] (reached late) and VECTOR W [2040, 2041),
# issued 20 ns after V's end, close the core: span 1041. With MTE2 twice
# as fast: A [1000, 1050), C [1050, 1350): V after C's end plus the trace's
# 20 ns: [1370, 1670), W [1690, 1691): vec span 691. Paired with intra_0,
# V would have followed A's end: [1670, 1970), span 991.
by_hand count "a WAIT released by the later SET" <<JSON
{$c,"dur":0.100,"name":"A","tid":"MTE2","ts":1.000},
{$c,"dur":0.600,"name":"C","tid":"MTE2","ts":1.100},
{$v,"dur":0.001,"name":"S","tid":"SCALAR","ts":1.000},
{$v,"dur":0.300,"name":"V","tid":"VECTOR","ts":1.720},
{$v,"dur":0.001,"name":"W","tid":"VECTOR","ts":2.040},
{$cs,"name":"SET_INTRA_BLOCK","ph":"B","tid":"MTE2","ts":1.100},
{$ce,"name":"SET_INTRA_BLOCK","ph":"E","tid":"MTE2","ts":1.101},
{$vw,"name":"WAIT_INTRA_BLOCK","ph":"B","tid":"VECTOR","ts":1.300},
{$ve,"name":"WAIT_INTRA_BLOCK","ph":"E","tid":"VECTOR","ts":1.710},
{${cs/intra_0/intra_1},"name":"SET_INTRA_BLOCK","ph":"B","tid":"MTE2","ts":1.700},
{${ce/intra_0/intra_1},"name":"SET_INTRA_BLOCK","ph":"E","tid":"MTE2","ts":1.701},
{${vw/intra_0/intra_1},"name":"WAIT_INTRA_BLOCK","ph":"B","tid":"VECTOR","ts":2.030},
{${ve/intra_0/intra_1},"name":"WAIT_INTRA_BLOCK","ph":"E","tid":"VECTOR","ts":2.031}
JSON
path_of core0.veccore0 "$tmp/count/out/summary.json" >"$tmp/count/vec"
check "a WAIT released by the later SET: veccore0 moves with C, 1041 -> 691" grep -q '"what_if":\[{"pipe":"MTE2","span_ns":691,"change":-0.3362}' "$tmp/count/vec"

# Twins of unequal length (docs/critical-path.md, "The binding
# predecessor"): MTE2's MOV_SPR_XN [1500, 1502) starts with the transfer T
# [1500, 1800) it configures, and the flag MTE3 S [1000, 1490) sets (WAIT
# [1000, 1491]) binds the shorter one, the first of the two. T follows its
# twin: the path is T 300, wait MTE3->MTE2 10, S 490 (no issue time).
by_hand twins "twins of unequal length" <<JSON
{$x,"dur":0.490,"name":"S","tid":"MTE3","ts":1.000},
{$x,"dur":0.002,"name":"MOV_SPR_XN","tid":"MTE2","ts":1.500},
{$x,"dur":0.300,"name":"T","tid":"MTE2","ts":1.500},
{$f,"name":"SET_FLAG","ph":"B","tid":"MTE3","ts":1.490},
{$e,"name":"SET_FLAG","ph":"E","tid":"MTE3","ts":1.4905},
{$f,"name":"WAIT_FLAG","ph":"B","tid":"MTE2","ts":1.000},
{$e,"name":"WAIT_FLAG","ph":"E","tid":"MTE2","ts":1.491}
JSON
check "twins of unequal length: T follows the flag its twin waited for" grep -q '"critical_path":{"span_ns":800,"segments":3,"busy":\[{"pipe":"MTE3","ns":490,"share":0.6125},{"pipe":"MTE2","ns":300,"share":0.3750}\],"wait":\[{"producer":"MTE3","consumer":"MTE2","ns":10,"share":0.0125}\],"cross_core_wait_ns":0,"issue_ns":0,' "$tmp/twins/out/summary.json"

# The issue rate on the ns grid (docs/critical-path.md, rule 1): a rate of
# 46 cycles is 24.9 ns, so starts at the rate lie 24 or 25 ns apart. MTE2 A
# [1000, 1300) and B [1024, 1200) give the rate, 24; SCALAR Q [1300, 1500);
# MTE2 D [1500, 1800), and E [1525, 1900) at the rate behind it. The path:
# E 375, D 25 (E started inside D), Q 200, A 300; no issue time.
by_hand rate "the issue rate on the grid" <<JSON
{$x,"dur":0.300,"name":"A","tid":"MTE2","ts":1.000},
{$x,"dur":0.176,"name":"B","tid":"MTE2","ts":1.024},
{$x,"dur":0.200,"name":"Q","tid":"SCALAR","ts":1.300},
{$x,"dur":0.300,"name":"D","tid":"MTE2","ts":1.500},
{$x,"dur":0.375,"name":"E","tid":"MTE2","ts":1.525}
JSON
check "the issue rate on the grid: E 25 ns behind D at a rate of 24" grep -q '"critical_path":{"span_ns":900,"segments":4,"busy":\[{"pipe":"MTE2","ns":700,"share":0.7778},{"pipe":"SCALAR","ns":200,"share":0.2222}\],"wait":\[\],"cross_core_wait_ns":0,"issue_ns":0,' "$tmp/rate/out/summary.json"

# A cross-core wait measured from a late WAIT the pipe's queue took while
# its instruction ran (docs/critical-path.md, "Cross-core waits"). On the
# cube FIXP F1 [1000, 1300); CUBE C [1000, 1005) sets a flag at 1005 that
# the WAIT on FIXP [1010, 1011] finds set; the FIXP queue took that WAIT
# at 1010, while F1 ran, then the cross-core WAIT [1012, 1700] the vector
# core's SET (V [1000, 1698)) releases at 1699; FIXP F2 [1700, 1900). F2
# was held locally only until 1011: the path is F2 200, cross-core 689, F1
# 11 (not F1's 300 and a cross-core wait from F1's end).
cf='"args":{"code":"","detail":"PIPE:CUBE,TRIGGERPIPE:FIXP,FLAGID:0,","pc_addr":"0x20"},"id":"core0.cubecore0_0","pid":"core0.cubecore0"'
cfe='"args":{},"id":"core0.cubecore0_0","pid":"core0.cubecore0"'
vs='"args":{"code":"","detail":"PIPE:VEC,sync_id:0,","pc_addr":"0x20"},"id":"intra_0","pid":"core0.veccore0"'
cw='"args":{"code":"","detail":"PIPE:FIXP,sync_id:0,","pc_addr":"0x30"},"id":"intra_0","pid":"core0.cubecore0"'
by_hand queued "a late WAIT in the queue of a running pipe" <<JSON
{$c,"dur":0.300,"name":"F1","tid":"FIXP","ts":1.000},
{$c,"dur":0.005,"name":"C","tid":"CUBE","ts":1.000},
{$c,"dur":0.200,"name":"F2","tid":"FIXP","ts":1.700},
{$v,"dur":0.698,"name":"V","tid":"VECTOR","ts":1.000},
{$cf,"name":"SET_FLAG","ph":"B","tid":"CUBE","ts":1.005},
{$cfe,"name":"SET_FLAG","ph":"E","tid":"CUBE","ts":1.0055},
{$cf,"name":"WAIT_FLAG","ph":"B","tid":"FIXP","ts":1.010},
{$cfe,"name":"WAIT_FLAG","ph":"E","tid":"FIXP","ts":1.011},
{$vs,"name":"SET_INTRA_BLOCK","ph":"B","tid":"VECTOR","ts":1.698},
{$ve,"name":"SET_INTRA_BLOCK","ph":"E","tid":"VECTOR","ts":1.699},
{$cw,"name":"WAIT_INTRA_BLOCK","ph":"B","tid":"FIXP","ts":1.002},
{${ce},"name":"WAIT_INTRA_BLOCK","ph":"E","tid":"FIXP","ts":1.700}
JSON
path_of core0.cubecore0 "$tmp/queued/out/summary.json" >"$tmp/queued/cube"
check "a late WAIT in the queue of a running pipe: cross-core 689 after F1's 11" grep -q '"critical_path":{"span_ns":900,"segments":3,"busy":\[{"pipe":"FIXP","ns":211,"share":0.2344}\],"wait":\[\],"cross_core_wait_ns":689,"issue_ns":0,' "$tmp/queued/cube"

# The same with FIXP G [1050, 1400) started 50 ns after F1 (the rate FIXP
# reads from that one overlap) and the late WAIT taken at 1060, while G
# ran: the queue had moved past G, so the WAIT's end 1061 is F2's local
# release, not G's start plus the rate (1100). The path: F2 200,
# cross-core 639, G 11, F1 50 (G at the rate behind it).
by_hand queued_rate "a late WAIT in the queue of a pipe with a rate" <<JSON
{$c,"dur":0.300,"name":"F1","tid":"FIXP","ts":1.000},
{$c,"dur":0.350,"name":"G","tid":"FIXP","ts":1.050},
{$c,"dur":0.005,"name":"C","tid":"CUBE","ts":1.000},
{$c,"dur":0.200,"name":"F2","tid":"FIXP","ts":1.700},
{$v,"dur":0.698,"name":"V","tid":"VECTOR","ts":1.000},
{$cf,"name":"SET_FLAG","ph":"B","tid":"CUBE","ts":1.005},
{$cfe,"name":"SET_FLAG","ph":"E","tid":"CUBE","ts":1.0055},
{$cf,"name":"WAIT_FLAG","ph":"B","tid":"FIXP","ts":1.060},
{$cfe,"name":"WAIT_FLAG","ph":"E","tid":"FIXP","ts":1.061},
{$vs,"name":"SET_INTRA_BLOCK","ph":"B","tid":"VECTOR","ts":1.698},
{$ve,"name":"SET_INTRA_BLOCK","ph":"E","tid":"VECTOR","ts":1.699},
{$cw,"name":"WAIT_INTRA_BLOCK","ph":"B","tid":"FIXP","ts":1.002},
{${ce},"name":"WAIT_INTRA_BLOCK","ph":"E","tid":"FIXP","ts":1.700}
JSON
path_of core0.cubecore0 "$tmp/queued_rate/out/summary.json" >"$tmp/queued_rate/cube"
check "a late WAIT in the queue of a pipe with a rate: cross-core 639 after G's 11" grep -q '"critical_path":{"span_ns":900,"segments":4,"busy":\[{"pipe":"FIXP","ns":261,"share":0.2900}\],"wait":\[\],"cross_core_wait_ns":639,"issue_ns":0,' "$tmp/queued_rate/cube"

# A pipe two deep (docs/critical-path.md, "What-if"): MTE2 A [1000, 1400)
# and B [1010, 1450) ran together, so MTE2 takes two at once; VECTOR V
# [1000, 1499) sets the flag (WAIT [1000, 1500]) that MTE2 X [1500, 1800)
# waits for. With VECTOR twice as fast the flag comes at 1250 and X takes
# the slot A frees at 1400, not B's end: [1400, 1700), span 700.
by_hand deep "a pipe two deep" <<JSON
{$x,"dur":0.400,"name":"A","tid":"MTE2","ts":1.000},
{$x,"dur":0.440,"name":"B","tid":"MTE2","ts":1.010},
{$x,"dur":0.499,"name":"V","tid":"VECTOR","ts":1.000},
{$x,"dur":0.300,"name":"X","tid":"MTE2","ts":1.500},
{${f/MTE3/VEC},"name":"SET_FLAG","ph":"B","tid":"VECTOR","ts":1.499},
{$e,"name":"SET_FLAG","ph":"E","tid":"VECTOR","ts":1.4995},
{${f/MTE3/VEC},"name":"WAIT_FLAG","ph":"B","tid":"MTE2","ts":1.000},
{$e,"name":"WAIT_FLAG","ph":"E","tid":"MTE2","ts":1.500}
JSON
check "a pipe two deep: VECTOR twice as fast, X in A's slot: span 700" grep -q '"what_if":\[[^]]*{"pipe":"VECTOR","span_ns":700,"change":-0.1250}' "$tmp/deep/out/summary.json"

# A late WAIT queued behind a cross-core WAIT still needed its flag
# (docs/critical-path.md, "Cross-core waits"). On veccore0 MTE2 M [1000,
# 1300) sets a flag for VECTOR at 1300; the cross-core WAIT on VECTOR
# [1010, 1601] waits for the cube's SET (FIXP F [1000, 1600)), and the
# flag's WAIT, queued behind it, runs [1601, 1602] (late); VECTOR V [1602,
# 1800). Without the sync V would still have waited for M: its local
# release is 1300, and the path is V 198, cross-core 302, M 300 (not a
# cross-core wait from the sync WAIT's begin at 1010).
vf='"args":{"code":"","detail":"PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:0,","pc_addr":"0x40"},"id":"core0.veccore0_0","pid":"core0.veccore0"'
vfe='"args":{},"id":"core0.veccore0_0","pid":"core0.veccore0"'
cfs='"args":{"code":"","detail":"PIPE:FIXP,sync_id:0,","pc_addr":"0x20"},"id":"intra_0","pid":"core0.cubecore0"'
by_hand behind "a late WAIT queued behind a cross-core WAIT" <<JSON
{$c,"dur":0.600,"name":"F","tid":"FIXP","ts":1.000},
{$v,"dur":0.300,"name":"M","tid":"MTE2","ts":1.000},
{$v,"dur":0.198,"name":"V","tid":"VECTOR","ts":1.602},
{$cfs,"name":"SET_INTRA_BLOCK","ph":"B","tid":"FIXP","ts":1.600},
{$ce,"name":"SET_INTRA_BLOCK","ph":"E","tid":"FIXP","ts":1.601},
{$vw,"name":"WAIT_INTRA_BLOCK","ph":"B","tid":"VECTOR","ts":1.010},
{$ve,"name":"WAIT_INTRA_BLOCK","ph":"E","tid":"VECTOR","ts":1.601},
{$vf,"name":"SET_FLAG","ph":"B","tid":"MTE2","ts":1.300},
{$vfe,"name":"SET_FLAG","ph":"E","tid":"MTE2","ts":1.3005},
{$vf,"name":"WAIT_FLAG","ph":"B","tid":"VECTOR","ts":1.601},
{$vfe,"name":"WAIT_FLAG","ph":"E","tid":"VECTOR","ts":1.602}
JSON
path_of core0.veccore0 "$tmp/behind/out/summary.json" >"$tmp/behind/vec"
check "a late WAIT queued behind a cross-core WAIT: cross-core 302 after M" grep -q '"critical_path":{"span_ns":800,"segments":3,"busy":\[{"pipe":"MTE2","ns":300,"share":0.3750},{"pipe":"VECTOR","ns":198,"share":0.2475}\],"wait":\[\],"cross_core_wait_ns":302,"issue_ns":0,' "$tmp/behind/vec"

# cases TAG: every shape and seed, checked; the distances into $tmp/whatif.TAG.
cases() {
	: >"$tmp/whatif.$1"
	for shape in $path_shapes; do
		for seed in $path_seeds; do
			local d="$tmp/$shape-$seed$path_tag" rc=0
			if ! path_case "$shape" "$seed"; then
				flunk "$shape seed $seed$path_tag: generated, built and converted"
				continue
			fi
			"$CSIM_PATHCHECK" --what-if "$d/truth.json" "$d/out/summary.json" >"$d/what_if" || rc=$?
			grep '^FAIL' "$d/what_if" || true
			check "$shape seed $seed$path_tag: every what-if span is the documented model's" [ "$rc" -eq 0 ]
			sed -n "s/^whatif .* \([-0-9.]*\)\$/$shape \1/p" "$d/what_if" >>"$tmp/whatif.$1"
		done
	done
}

# table TAG TITLE: the distances of cases TAG per shape.
table() {
	echo "$2"
	echo "  shape  estimates exact median max over-5%"
	for shape in $path_shapes; do
		awk -v s="$shape" '$1 == s { print ($2 < 0 ? -$2 : $2) }' "$tmp/whatif.$1" | sort -g |
			awk -v s="$shape" '{ a[NR] = $1; z += ($1 == 0); o += ($1 > 0.05) }
				END { m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
				      printf "  %-6s %9d %5d %.4f %.4f %8d\n", s, NR, z, m, a[NR], o }'
	done
}

cases all
path_gen=(--producer-released)
path_tag=" (producer-released)"
cases released
table all "|estimate - simulated| / span, the kernels as built:"
table released "the same, the dependencies released by their producer only:"

# The model's measured accuracy on these kernels, kept: a model that lets a
# faster producer pull forward a consumer whose WAIT was reached late (the
# model before the WAIT's begin was read) is off by up to 45 % of the span
# on them, for a fifth of its estimates.
dist() { awk '{ print ($2 < 0 ? -$2 : $2) }' "$tmp/whatif.$1"; }
check "as built: every estimate within 15 % of the span" \
	[ "$(dist all | awk '$1 > 0.15' | wc -l)" -eq 0 ]
check "as built: at most 2 % of the estimates off by more than 5 %" \
	[ "$(dist all | awk '$1 > 0.05 { o++ } END { print ((o + 0) * 50 <= NR) }')" -eq 1 ]
check "as built: over 3 in 4 estimates exact" \
	[ "$(dist all | awk '$1 == 0 { z++ } END { print ((z + 0) * 4 > 3 * NR) }')" -eq 1 ]

finish
