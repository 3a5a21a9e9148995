#!/usr/bin/env bash
# The benchmark's dump shapes (tests/tools/gen_synth_shapes.c and
# gen_synth_heavy.c): a small dump of each profile converts with exit 0,
# the output passes --check, the generator is deterministic, and each
# profile has the shape its header promises (the share of events kept,
# bytes per event, the dropped CACHEMISS records inside each core's work;
# on the 24-core shapes also the cores, arrows per kept slice, the
# companions' share, every core's metrics rows), so the benchmark measures
# what docs/performance.md says it measures; on every shape the arrows are
# rechecked (arrow_recheck).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
: "${CSIM_SYNTH:?set CSIM_SYNTH to the gen_synth executable}"
: "${CSIM_ARROWCHECK:?set CSIM_ARROWCHECK to the arrow_recheck executable}"

# arrows_ok DIR: DIR/out's arrows are causal and anchored by completion
# (SPEC §5.3), rechecked against the dump's own TRACE block; the run's note
# counts the fallback arrows that may break causality.
arrows_ok() {
	local n
	n=$(sed -n 's/^note: \([0-9]*\) arrow(s) anchored on a still-running producer.*/\1/p' <<<"$err")
	"$CSIM_ARROWCHECK" "$1/out/trace.clean.json" --input "$1/visualize_data.bin" --running "${n:-0}"
}

# count FILE TEXT: occurrences of TEXT in FILE.
count() { grep -ao "$2" "$1" | wc -l; }

# late_misses DUMP: "N M C": N cores whose last CACHEMISS record starts
# after their last other record, M CACHEMISS records, C cores. The trace
# drops that lane, but a miss past the work would still stretch the core's
# span and its critical path; the generator spreads them over the work.
late_misses() {
	grep -ao '"pid":"[^"]*","tid":"[^"]*","ts":[0-9.]*' "$1" | awk -F'"' '
		{ ts = substr($11, 2) + 0
		  if ($8 == "CACHEMISS") { if (ts > m[$4]) m[$4] = ts; c++ }
		  else if (ts > w[$4]) w[$4] = ts }
		END { n = 0; for (p in m) if (m[p] > w[p]) n++; print n, c + 0, length(w) }'
}

# within VALUE LOW HIGH: LOW <= VALUE <= HIGH (decimals allowed).
within() { awk -v v="$1" -v l="$2" -v h="$3" 'BEGIN { exit !(v >= l && v <= h) }'; }

# The synth profile (the digest test's) too: its X times rounded to ns, as the
# first msopprof wrote them, and software-pipelined MTE1 loads.
mkdir -p "$tmp/synth"
"$CSIM_SYNTH" --seed 2 2 "$tmp/synth/visualize_data.bin"
run "$tmp/synth" visualize_data.bin -o out --no-copy-raw
check "synth: converts with exit 0" [ "$status" -eq 0 ]
check "synth: arrows causal, anchored by completion" arrows_ok "$tmp/synth"

for shape in "producer 0.18 0.22 230 290" "dense 0.33 0.37 120 170" \
	"dense-heavy 0.31 0.37 125 165" "producer-ccu 0.09 0.13 190 250"; do
	read -r p klo khi blo bhi <<<"$shape"
	mkdir -p "$tmp/$p"
	"$CSIM_SYNTH" --profile "$p" --seed 2 2 "$tmp/$p/visualize_data.bin"
	"$CSIM_SYNTH" --profile "$p" --seed 2 2 "$tmp/$p/again.bin"
	check "$p: the same seed writes the same bytes" cmp "$tmp/$p/visualize_data.bin" "$tmp/$p/again.bin"
	run "$tmp/$p" visualize_data.bin -o out --no-copy-raw
	check "$p: converts with exit 0" [ "$status" -eq 0 ]
	check "$p: no warning" eval '! contains "$err" warning'
	check "$p: arrows causal, anchored by completion" arrows_ok "$tmp/$p"
	run "$tmp/$p" --check out/trace.clean.json
	check "$p: --check passes" [ "$status" -eq 0 ]
	check "$p: instr_metrics.json written" [ -s "$tmp/$p/out/instr_metrics.json" ]
	read -r late misses ncores <<<"$(late_misses "$tmp/$p/visualize_data.bin")"
	check "$p: $misses CACHEMISS records, none past its core's work ($late of $ncores cores)" \
		[ "$misses" -gt 0 -a "$late" -eq 0 ]
	events=$(count "$tmp/$p/visualize_data.bin" '"ph":"')
	# the critical-path lane's segments are no input events
	kept=$(( $(count "$tmp/$p/out/trace.clean.json" '"ph":"X"') -
		 $(count "$tmp/$p/out/trace.clean.json" '"tid":"critical path","ts"') +
		 $(count "$tmp/$p/out/trace.clean.json" '"ph":"C"') ))
	share=$(awk -v k="$kept" -v e="$events" 'BEGIN { print k / e }')
	check "$p: kept share $share in [$klo, $khi]" within "$share" "$klo" "$khi"
	per=$(awk -v b="$(stat -c %s "$tmp/$p/visualize_data.bin")" -v e="$events" 'BEGIN { print b / e }')
	check "$p: $per bytes per event in [$blo, $bhi]" within "$per" "$blo" "$bhi"
	case $p in
	dense-heavy | producer-ccu)
		cores=$(grep -ao '"pid":"core[0-9]*\.[a-z]*core[0-9]*"' "$tmp/$p/visualize_data.bin" | sort -u | wc -l)
		check "$p: 24 cores ($cores)" [ "$cores" -eq 24 ]
		arrows=$(awk -v a="$(count "$tmp/$p/out/trace.clean.json" '"ph":"s"')" -v k="$kept" \
			 'BEGIN { print a / k }')
		companions=$(awk -v c="$(count "$tmp/$p/visualize_data.bin" '"name":"c[ac][cu][he_]*time"')" \
			     -v e="$events" 'BEGIN { print c / e }') ;;
	esac
	case $p in
	dense-heavy)
		check "dense-heavy: $arrows arrows per kept slice in [0.33, 0.43]" within "$arrows" 0.33 0.43
		api=$(stat -c %s "$tmp/$p/out/instr_metrics.json")
		check "dense-heavy: instr_metrics.json ($api bytes) has every core's rows" \
			[ "$(count "$tmp/$p/out/instr_metrics.json" '"address"')" -eq \
			  "$((24 * $(grep -ao '"Address":"' "$tmp/$p/visualize_data.bin" | wc -l)))" ] ;;
	producer-ccu)
		check "producer-ccu: companions $companions of the events in [0.42, 0.48]" \
			within "$companions" 0.42 0.48
		check "producer-ccu: $arrows arrows per kept slice in [0.35, 0.5]" within "$arrows" 0.35 0.5 ;;
	esac
done
"$CSIM_SYNTH" --profile nosuch 2 "$tmp/x.bin" 2>/dev/null && st=0 || st=$?
check "an unknown profile is a usage error" [ "$st" -eq 2 ]
finish
