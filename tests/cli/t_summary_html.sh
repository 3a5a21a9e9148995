#!/usr/bin/env bash
# summary.html structure (docs/summary.md, "summary.html"), checked without a
# browser by tests/tools/html_facts.c:
#   - the checker itself rejects each planted fault of tests/html/bad_*.html
#     and accepts good_minimal.html (a checker that cannot fail proves nothing);
#   - every scenario's page is well formed and self-contained, and its
#     tables match its summary.json: one overview row per core, one pipe row
#     per pipe of each detailed core, one heat-map row per pipe that waited,
#     one timeline row per pipe of the slowest core, one row per entry of
#     its critical_path.top_instructions;
#   - hand-derived facts (from the fixtures' EXPECT.md) for the demo,
#     a5_mix_kernel and many_cores: rows, heat-map cells, timeline lanes and
#     their depth shades, the viewBox;
#   - the title and heading name the dump (and the op): lib.sh names_dump;
#   - pipe and core names from the input are escaped.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_HTML:?set CSIM_HTML to the html_facts executable}"

# 1. The checker's own faults.
for f in "$CSIM_ROOT"/tests/html/bad_*.html; do
	check "html_facts rejects $(basename "$f")" eval '! "$CSIM_HTML" "$f" >/dev/null 2>&1'
done
check "html_facts accepts good_minimal.html" eval '"$CSIM_HTML" "$CSIM_ROOT/tests/html/good_minimal.html" >/dev/null'

# convert NAME BIN: converts into $tmp/NAME/out; the page's facts in $tmp/NAME/facts.
convert() {
	mkdir -p "$tmp/$1/sim"
	cp "$2" "$tmp/$1/sim/visualize_data.bin"
	run "$tmp/$1" sim -o out --no-copy-raw
	check "$1: converts" [ "$status" -eq 0 ]
	check "$1: summary.html written and announced" contains "$out" "wrote out/summary.html"
	page=$tmp/$1/out/summary.html
	facts=$tmp/$1/facts
	check "$1: page well formed and self-contained" eval '"$CSIM_HTML" "$page" >"$facts"'
	names_dump "$1" "$tmp/$1/out" sim/visualize_data.bin "$tmp/$1/sim/visualize_data.bin"
}

has_fact() { grep -Fxq -- "$2" "$tmp/$1/facts"; }

# per_core_from_json NAME: "K PIPES WAITING PATHTOP" per core of
# summary.json (PATHTOP: its critical_path's top_instructions), and
# "slowest K" (its layout: one line per core header, per pipe and for the
# critical path).
per_core_from_json() {
	awk '
	/^(  )?\{"core":/ {
		k++; name = $0; sub(/^ *\{"core":"/, "", name); sub(/".*/, "", name); names[k] = name
	}
	/^    \{"pipe":/ {
		pipes[k]++
		if (match($0, /"wait_flag_ns":[0-9]+/)) {
			v = substr($0, RSTART + 15, RLENGTH - 15); if (v + 0 > 0) waiting[k]++
		}
	}
	/^  "critical_path":/ { line = $0; ptop[k] = gsub(/\{"pc_addr":/, "", line) }
	/"slowest_core":/ {
		s = $0; sub(/.*"slowest_core":"/, "", s); sub(/".*/, "", s); slowest = s
	}
	END {
		for (i = 1; i <= k; i++) {
			printf "%d %d %d %d\n", i - 1, pipes[i] + 0, waiting[i] + 0, ptop[i] + 0
			if (names[i] == slowest && !done) { printf "slowest %d\n", i - 1; done = 1 }
		}
	}' "$tmp/$1/out/summary.json"
}

# agrees NAME: the page's tables against summary.json.
agrees() {
	local name=$1 k np nw nt ncores slow lanes ptop sec=0

	per_core_from_json "$name" >"$tmp/$name/json"
	ncores=$(grep -vc '^slowest' "$tmp/$name/json" || true)
	check "$name: one overview row per core ($ncores)" has_fact "$name" "cores $ncores"
	while read -r k np nw nt; do
		[ "$k" = slowest ] && continue
		# only the cores the page details (all up to 8, else three) have a section
		grep -q "^section $k pipes" "$tmp/$name/facts" || continue
		sec=$((sec + 1))
		check "$name: core $k: $np pipe rows" has_fact "$name" "section $k pipes $np"
		check "$name: core $k: $nw heat-map rows" grep -Eq "^section $k heat $nw x " "$tmp/$name/facts"
	done <"$tmp/$name/json"
	if [ "$ncores" -le 8 ]; then
		check "$name: every core detailed" [ "${sec:-0}" -eq "$ncores" ]
	else
		check "$name: three cores detailed at most" [ "${sec:-0}" -le 3 ]
	fi
	slow=$(sed -n 's/^slowest //p' "$tmp/$name/json")
	lanes=$(awk -v s="$slow" '$1 == s { print $2 }' "$tmp/$name/json")
	lanes=${lanes:-0}   # no core: no timeline
	check "$name: one timeline row per pipe of the slowest core ($lanes)" has_fact "$name" "lanes $lanes"
	ptop=$(awk -v s="$slow" '$1 == s { print $4 }' "$tmp/$name/json")
	ptop=${ptop:-0}
	check "$name: one row per instruction on the slowest core's path ($ptop)" \
		has_fact "$name" "pathtop $ptop"
	# one row per entry of top_source_lines (summary.json prints one a line)
	np=$(grep -c '^  {"source":' "$tmp/$name/out/summary.json" || true)
	check "$name: one source-line row per top_source_lines entry ($np)" has_fact "$name" "lines $np"
	# one row per entry of load_balance.what_if (the kernel's estimates)
	np=$(sed -n 's/^"load_balance":.*"what_if":\[\(.*\)\]},$/\1/p' "$tmp/$name/out/summary.json" |
		{ grep -o '{"pipe":' || true; } | wc -l)
	check "$name: one what-if row per kernel estimate ($np)" has_fact "$name" "whatif $np"
}

# 2. Every scenario: well formed, and agreeing with its summary.json.
for dir in "$CSIM_ROOT"/fixtures/scenarios/*/; do
	[ -f "$dir/dump.recipe" ] || continue
	[ -f "$dir/pending" ] && continue
	name=$(basename "$dir")
	mkdir -p "$tmp/$name"
	"$CSIM_GEN" "$dir/dump.recipe" "$tmp/$name/dump.bin"
	convert "$name" "$tmp/$name/dump.bin"
	agrees "$name"
done

# 3. Hand-derived facts.
# The demo (= mix_kernel, fixtures/scenarios/mix_kernel/EXPECT.md): three
# cores, one diagnosis line (near_empty: 13 pipeline instructions, which
# silences the rules that read the figures). core0.cubecore0 (slowest, span 3990..5176 ns
# = 1186 ns: SCALAR MOVK at 3.990 to FIXP end 5.176) has MTE2, MTE1, CUBE,
# FIXP, SCALAR (ev#0) and FLOWCTRL (ev#5); MTE1 waited on MTE2, FIXP on
# CUBE: a 2 x 2 map with 2 cells. Bins: 2 ns wide (1186 / 800 rounded up),
# 593 of them, x from 120 to 920. FIXP's two slices [4875, 5176) overlap
# whole: depth 2 (d3) but for the bin [4874, 4876) they half fill (d2); MTE1's
# two slices overlap on [4640, 4653) (d3); SCALAR's 1 ns and FLOWCTRL's
# zero-length JUMP fill half a bin (d1). viewBox 952 = 120 + 800 + 32 wide,
# 6 + (1 + 6) rows x 20 + 40 = 186 high (the critical path's row first).
# The path (docs/critical-path.md's worked example) in those 2 ns bins:
# SCALAR's bin is half busy, half issue (a tie: busy), then issue to MTE2,
# MTE2 busy, the MTE2 -> MTE1 flag wait [4566, 4628] (cpw), both MTE1 loads
# busy (the second at MTE1's issue rate behind the first), issue [4665,
# 4670], then CUBE and FIXP busy, the 2 ns CUBE -> FIXP wait between them
# split over two bins that are each half busy (ties: busy): cpb cpi cpb cpw
# cpb cpi cpb. The path is busy on MTE2, MTE1, CUBE and FIXP: their rows
# get the strip.
# Its API_INSTR (fixtures/demo/src/instr.json) has 4 rows with cycles, one
# of them a SET_FLAG (a wait, ranked apart): top 3; each with an Inner Code
# line of its own: lines 4. The path's busy segments
# are six instructions of six addresses (SCALAR's MOVK, MTE2, the two MTE1
# loads, CUBE, FIXP): pathtop 6.
convert demo "$CSIM_ROOT/fixtures/demo/OPPROF_demo/simulator/visualize_data.bin"
for fact in "cores 3" "diag 1" "totals 0" "top 3" "pathtop 6" "lines 4" "lanes 6" "section 0 pipes 6" \
	"section 0 heat 2 x 2 2" "lane 0 MTE2 d1d2" "lane 1 MTE1 d1d2d3" \
	"lane 2 CUBE d1d2" "lane 3 FIXP d2d3" "lane 4 SCALAR d1" "lane 5 FLOWCTRL d1" \
	"viewbox 952 186" "path cpb cpi cpb cpw cpb cpi cpb" "lane 0 on path" "lane 1 on path" \
	"lane 2 on path" "lane 3 on path"; do
	check "demo: $fact" has_fact demo "$fact"
done

# a5_mix_kernel (docs/summary.md's table, EXPECT.md's flag table):
# cubecore0 4 pipes, MTE1 <- MTE2 and FIXP <- CUBE; veccore0 7 pipes,
# VECTOR <- MTE2, VECTOR <- MTE3 (flag 2: PIPE:MTE3 waited on by VEC) and
# MTE3 <- VECTOR: rows VECTOR, MTE3, columns MTE2, VECTOR, MTE3 (lane order),
# 3 cells filled; veccore1 6 pipes, SCALAR <- VECTOR (1 x 1).
for fact in "cores 3" "lanes 4" "section 0 pipes 4" "section 0 heat 2 x 2 2" \
	"section 1 pipes 7" "section 1 heat 2 x 3 3" "section 2 pipes 6" "section 2 heat 1 x 1 1"; do
	check "a5_mix_kernel: $fact" has_fact a5_mix_kernel "$fact"
done

# many_cores (EXPECT.md): 14 cores, condensed: slowest core0.veccore0 (rank
# 0: VECTOR and the dropped SCALAR), median core1.cubecore0 (rank 1: MTE2),
# fastest core3.cubecore0 (rank 3: MTE1); no waits; totals for MTE2, MTE1,
# CUBE, VECTOR, FIXP, MTE3, SCALAR; no API_INSTR, no top instructions.
# Slowest span 750 ns: 1 ns bins; VECTOR [1000, 1250) and SCALAR's 1 ns each
# fill their bins (d2). The path row adds 20 to the height: 86 + 20. Its
# path is busy in the VECTOR instruction and SCALAR's MOVK: pathtop 2 (the
# instructions on the path need no API_INSTR).
for fact in "cores 14" "totals 7" "top 0" "pathtop 2" "lines 0" "section 0 pipes 2" "section 1 pipes 1" \
	"section 3 pipes 1" "section 0 heat 0 x 0 0" "lanes 2" "lane 0 VECTOR d2" \
	"lane 1 SCALAR d2" "viewbox 952 106"; do
	check "many_cores: $fact" has_fact many_cores "$fact"
done
check "many_cores: exactly three sections" [ "$(grep -c '^section .* pipes' "$tmp/many_cores/facts")" -eq 3 ]

# 4. Names from the input are escaped: a pid with markup in it.
mkdir -p "$tmp/hostile/sim"
cat >"$tmp/hostile/trace.json" <<'JSON'
{"traceEvents":[
{"name":"MOV","ph":"X","pid":"core<b>&amp;\"x'","tid":"MTE2","ts":1.0,"dur":0.5,"args":{}},
{"name":"MOV","ph":"X","pid":"core<b>&amp;\"x'","tid":"VEC<i>","ts":1.2,"dur":0.5,"args":{}}
]}
JSON
printf 'trace %s\n' "$tmp/hostile/trace.json" >"$tmp/hostile/recipe"
if "$CSIM_GEN" "$tmp/hostile/recipe" "$tmp/hostile/dump.bin" 2>/dev/null; then
	convert hostile "$tmp/hostile/dump.bin"
	check "hostile: the pid is escaped" grep -Fq 'core&lt;b&gt;&amp;amp;&quot;x&#39;' "$tmp/hostile/out/summary.html"
	check "hostile: no raw markup from the input" eval '! grep -Fq "core<b>" "$tmp/hostile/out/summary.html"'
else
	flunk "hostile: gen_bin could not build the dump"
fi
finish
