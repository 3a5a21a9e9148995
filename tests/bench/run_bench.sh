#!/usr/bin/env bash
# Benchmark (SPEC §9; issues #3 and #12): converts synthetic dumps several
# times with the input in the page cache and prints, per input: size, median
# wall time, MB/s, peak RSS, and the same figures for `cp` of the input as
# the machine's floor, measured in the same run. With BENCH_FLOOR (the
# bench_floor program) it also times the least any converter must do: read
# every byte and find each event's '{' (median of its own timer), and
# prints the converter's time against it. What a row compares runs in turn,
# one run of each per round, not all runs of one and then of the next.
#
#   run_bench.sh CLEAN_SIM_TRACE GEN_SYNTH CACHE_DIR [BENCH_FLOOR]
#
# Env:
#   CSIM_BENCH_PROFILES  cases to run, any of (default "synth"):
#     synth     gen_synth's default profile at each of CSIM_BENCH_SIZES
#               (MB, default "70 700");
#     producer  `--profile producer` at CSIM_BENCH_SHAPE_MB (default 700);
#     dense     `--profile dense` at CSIM_BENCH_SHAPE_MB;
#     dense-heavy  `--profile dense-heavy` at CSIM_BENCH_SHAPE_MB (24 cores,
#               outputs about as large as the input), converted as it is
#               and with --raw-metrics (row "dense-heavy_700mb raw");
#     producer-ccu `--profile producer-ccu` at CSIM_BENCH_SHAPE_MB (24
#               cores, mostly cache_time/ccu_time companions, ~11 % kept);
#     gzip      `gzip -1` of the producer dump: its conversion against
#               inflate-then-convert (`zcat >/dev/null`, then the conversion
#               of the inflated dump, both measured here);
#     batch     CSIM_BENCH_BATCH_N (default 20) synth dumps of
#               CSIM_BENCH_BATCH_MB (default 15) in the batch layout,
#               converted with -j 1 and -j 2;
#     perfetto  each of CSIM_BENCH_PERFETTO_SHAPES (default "synth producer
#               dense") at CSIM_BENCH_SHAPE_MB, converted with --format json
#               and with --format perfetto in turn (SPEC §15): wall, RSS,
#               the trace's size and the sizes' ratio; with CSIM_BENCH_TP
#               (a trace_processor_shell) also each trace loaded by
#               Perfetto's engine, wall and RSS.
#   CSIM_BENCH_RUNS      repeats per measurement (default 5).
# Dumps are generated once into CACHE_DIR and reused. MB = 10^6 bytes;
# RSS is in MiB (2^20 bytes), as /usr/bin/time reports it in KiB.
# Needs /usr/bin/time (Debian package "time").
set -euo pipefail

bin=${1:?usage: run_bench.sh CLEAN_SIM_TRACE GEN_SYNTH CACHE_DIR}
synth=${2:?usage: run_bench.sh CLEAN_SIM_TRACE GEN_SYNTH CACHE_DIR}
cache=${3:?usage: run_bench.sh CLEAN_SIM_TRACE GEN_SYNTH CACHE_DIR}
profiles=${CSIM_BENCH_PROFILES:-synth}
sizes=${CSIM_BENCH_SIZES:-70 700}
shape_mb=${CSIM_BENCH_SHAPE_MB:-700}
batch_n=${CSIM_BENCH_BATCH_N:-20}
batch_mb=${CSIM_BENCH_BATCH_MB:-15}
runs=${CSIM_BENCH_RUNS:-5}
floor=${4:-}

if [ ! -x /usr/bin/time ]; then
	echo "run_bench: /usr/bin/time is missing: apt-get install time" >&2
	exit 2
fi
mkdir -p "$cache"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# measure OUT CMD...: runs CMD $runs times; prints "median_wall max_rss_kb".
# A failing CMD stops the benchmark (a figure of a failed run means nothing).
# Each run converts into a new folder: OUT (a folder or file, or "-") is
# removed and `sync` run, both untimed, so no run pays for writing back or
# replacing the previous run's output (up to ~1 GB on the dense shape; see
# docs/performance.md, "Fresh output folders").
measure() {
	local walls=() rss=0 line out=$1
	shift
	for _ in $(seq "$runs"); do
		[ "$out" = - ] || rm -rf "$out"
		sync
		line=$(/usr/bin/time -f '%e %M %x' "$@" 2>&1 >/dev/null | tail -n 1)
		if [ "${line##* }" != 0 ]; then
			echo "run_bench: '$*' failed (exit ${line##* })" >&2
			exit 1
		fi
		line=${line% *}
		walls+=("${line% *}")
		[ "${line#* }" -gt "$rss" ] && rss=${line#* }
	done
	printf '%s %s\n' "$(printf '%s\n' "${walls[@]}" | median)" "$rss"
}

# dump NAME GEN_ARGS...: generates $cache/NAME.bin once; prints its path.
dump() {
	local name=$1 path="$cache/$1.bin"
	shift
	[ -f "$path" ] || "$synth" "$@" "$path" >&2
	printf '%s\n' "$path"
}

# once VAR OUT CMD...: one run of CMD (as measure), its wall time appended
# to the array VAR and its peak RSS kept in VAR_rss when larger. Rounds of
# once, one per command compared, run the commands in turn: this VM slows
# for a minute or so after a case that wrote gigabytes (the host writing
# them back), and all runs of one command before the next would not share
# that alike (docs/performance.md, "Runs in turn").
once() {
	local -n once_walls=$1 once_rss=${1}_rss
	local w r
	shift
	read -r w r < <(runs=1 measure "$@")
	once_walls+=("$w")
	if [ "$r" -gt "${once_rss:-0}" ]; then once_rss=$r; fi
}

# median_of VAR: the median of the array VAR.
median_of() {
	local -n median_vals=$1
	printf '%s\n' "${median_vals[@]}" | median
}

# floor_wall PATH: median of bench_floor's own timer over $runs runs, or
# "-" without BENCH_FLOOR.
floor_wall() {
	local walls=() line
	if [ -z "$floor" ]; then
		echo -
		return
	fi
	for _ in $(seq "$runs"); do
		line=$("$floor" "$1")
		walls+=("${line%% *}")
	done
	printf '%s\n' "${walls[@]}" | median
}

# row NAME BYTES WALL RSS_KB CP_WALL FLOOR_WALL: one line of the main table.
row() {
	awk -v n="$1" -v b="$2" -v w="$3" -v r="$4" -v c="$5" -v f="$6" 'BEGIN {
		mbs = b / 1e6
		printf "%-22s %9.1f %9.3f %9.1f %10.1f %9.2f %9.3f %9.1f %7.2fx", n, mbs, w,
		       (w > 0 ? mbs / w : 0), r / 1024, (r * 1024) / b, c, (c > 0 ? mbs / c : 0),
		       (c > 0 ? w / c : 0)
		if (f == "-")
			printf "\n"
		else
			printf " %8.3f %7.2fx\n", f, (f > 0 ? w / f : 0)
	}'
}

# convert_case NAME DUMP [OPTION...]: the converter (with the options),
# `cp` and the floor on one dump.
convert_case() {
	local name=$1 path=$2 bytes flwall=-
	local conv=() conv_rss=0 copy=() copy_rss=0 fw=()
	shift 2
	bytes=$(stat -L -c %s "$path")
	cat "$path" >/dev/null   # warm the page cache
	for _ in $(seq "$runs"); do
		once conv "$cache/out_conv" "$bin" -q "$path" -o "$cache/out_conv" --no-copy-raw "$@"
		once copy "$cache/cp.tmp" cp "$path" "$cache/cp.tmp"
		fw+=("$(runs=1 floor_wall "$path")")
	done
	rm -f "$cache/cp.tmp"
	[ -z "$floor" ] || flwall=$(median_of fw)
	row "$name" "$bytes" "$(median_of conv)" "$conv_rss" "$(median_of copy)" "$flwall"
}

gzip_case() {
	local plain gz gzwall gzrss zwall pwall prss
	plain=$(dump "producer_${shape_mb}mb" --profile producer --seed 1 "$shape_mb")
	gz="$plain.gz"
	[ -f "$gz" ] || gzip -1 -c "$plain" >"$gz"
	cat "$gz" "$plain" >/dev/null
	local gzc=() gzc_rss=0 zc=() zc_rss=0 pc=() pc_rss=0
	for _ in $(seq "$runs"); do
		once gzc "$cache/out_gz" "$bin" -q "$gz" -o "$cache/out_gz" --no-copy-raw
		once zc - zcat "$gz"
		once pc "$cache/out_gzplain" "$bin" -q "$plain" -o "$cache/out_gzplain" --no-copy-raw
	done
	gzwall=$(median_of gzc) gzrss=$gzc_rss
	zwall=$(median_of zc)
	pwall=$(median_of pc) prss=$pc_rss
	awk -v g="$gzwall" -v r="$gzrss" -v z="$zwall" -v p="$pwall" -v pr="$prss" \
	    -v gb="$(stat -L -c %s "$gz")" -v pb="$(stat -L -c %s "$plain")" 'BEGIN {
		printf "gzip: %.1f MB gzip -1 of the %.1f MB producer dump\n", gb / 1e6, pb / 1e6
		printf "  convert .gz          %7.3f s  RSS %6.1f MiB\n", g, r / 1024
		printf "  zcat >/dev/null      %7.3f s\n", z
		printf "  convert inflated     %7.3f s  RSS %6.1f MiB\n", p, pr / 1024
		printf "  inflate-then-convert %7.3f s; it / convert .gz = %.2fx\n", z + p,
		       (g > 0 ? (z + p) / g : 0)
	}'
}

batch_case() {
	local root="$cache/batch_${batch_n}x${batch_mb}mb" d j1 j1rss j2 j2rss
	if [ ! -d "$root" ]; then
		for i in $(seq -w 1 "$batch_n"); do
			d="$root.tmp/funcs/k$i/collect/out/OPPROF_$i/simulator"
			mkdir -p "$d"
			"$synth" --seed "$((10#$i))" "$batch_mb" "$d/visualize_data.bin"
		done
		mv "$root.tmp" "$root"
	fi
	find "$root" -name visualize_data.bin -exec cat {} + >/dev/null
	local b1=() b1_rss=0 b2=() b2_rss=0
	for _ in $(seq "$runs"); do
		once b1 "$cache/out_batch1" "$bin" -q -j 1 --no-copy-raw "$root" -o "$cache/out_batch1"
		once b2 "$cache/out_batch2" "$bin" -q -j 2 --no-copy-raw "$root" -o "$cache/out_batch2"
	done
	j1=$(median_of b1) j1rss=$b1_rss
	j2=$(median_of b2) j2rss=$b2_rss
	awk -v a="$j1" -v ar="$j1rss" -v b="$j2" -v br="$j2rss" -v n="$batch_n" -v m="$batch_mb" 'BEGIN {
		printf "batch: %d synth dumps of %d MB\n", n, m
		printf "  -j 1 %7.3f s  RSS %6.1f MiB\n", a, ar / 1024
		printf "  -j 2 %7.3f s  RSS %6.1f MiB; -j 2 / -j 1 = %.2f\n", b, br / 1024, (a > 0 ? b / a : 0)
	}'
}

# perfetto_case SHAPE: one dump converted to JSON and to .pftrace in turn.
perfetto_case() {
	local shape=$1 path name j=() j_rss=0 p=() p_rss=0 tj=() tj_rss=0 tp=() tp_rss=0
	name="${shape}_${shape_mb}mb"
	if [ "$shape" = synth ]; then
		path=$(dump "$name" --seed 1 "$shape_mb")
	else
		path=$(dump "$name" --profile "$shape" --seed 1 "$shape_mb")
	fi
	cat "$path" >/dev/null
	for _ in $(seq "$runs"); do
		once j "$cache/out_json" "$bin" -q "$path" -o "$cache/out_json" --no-copy-raw --format json
		once p "$cache/out_pf" "$bin" -q "$path" -o "$cache/out_pf" --no-copy-raw --format perfetto
	done
	# the last runs' outputs, kept for their sizes and the loads
	"$bin" -q "$path" -o "$cache/out_json" --no-copy-raw --format json
	"$bin" -q "$path" -o "$cache/out_pf" --no-copy-raw --format perfetto
	if [ -n "${CSIM_BENCH_TP:-}" ]; then
		for _ in $(seq "$runs"); do
			once tj - "$CSIM_BENCH_TP" -Q "select count(*) from slice" "$cache/out_json/trace.clean.json"
			once tp - "$CSIM_BENCH_TP" -Q "select count(*) from slice" "$cache/out_pf/trace.pftrace"
		done
	fi
	awk -v n="$name" -v b="$(stat -L -c %s "$path")" -v jw="$(median_of j)" -v jr="$j_rss" \
	    -v pw="$(median_of p)" -v pr="$p_rss" -v js="$(stat -c %s "$cache/out_json/trace.clean.json")" \
	    -v ps="$(stat -c %s "$cache/out_pf/trace.pftrace")" \
	    -v tjw="$( [ -n "${CSIM_BENCH_TP:-}" ] && median_of tj || echo -)" -v tjr="$tj_rss" \
	    -v tpw="$( [ -n "${CSIM_BENCH_TP:-}" ] && median_of tp || echo -)" -v tpr="$tp_rss" 'BEGIN {
		printf "perfetto: %s (%.1f MB)\n", n, b / 1e6
		printf "  --format json      %7.3f s  RSS %7.1f MiB  trace.clean.json %8.1f MB\n", jw, jr / 1024, js / 1e6
		printf "  --format perfetto  %7.3f s  RSS %7.1f MiB  trace.pftrace    %8.1f MB (%.3fx)\n", pw, pr / 1024, ps / 1e6, ps / js
		if (tjw != "-") {
			printf "  trace_processor: JSON %7.3f s %7.1f MiB; .pftrace %7.3f s %7.1f MiB (%.2fx time, %.2fx memory)\n",
			       tjw, tjr / 1024, tpw, tpr / 1024, (tjw > 0 ? tpw / tjw : 0), (tjr > 0 ? tpr / tjr : 0)
		}
	}'
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -srm)"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); runs per measurement: $runs (median wall time, max RSS)"
printf '%-22s %9s %9s %9s %10s %9s %9s %9s %8s %8s %8s\n' input "size MB" "wall s" "MB/s" "RSS MiB" RSS/input \
	"cp s" "cp MB/s" "vs cp" "floor s" "vs floor"
for p in $profiles; do
	case $p in
	synth)
		for mb in $sizes; do
			convert_case "synth_${mb}mb" "$(dump "synth_${mb}mb" --seed 1 "$mb")"
		done ;;
	producer | dense | producer-ccu)
		convert_case "${p}_${shape_mb}mb" \
			"$(dump "${p}_${shape_mb}mb" --profile "$p" --seed 1 "$shape_mb")" ;;
	dense-heavy)
		heavy=$(dump "${p}_${shape_mb}mb" --profile "$p" --seed 1 "$shape_mb")
		convert_case "${p}_${shape_mb}mb" "$heavy"
		convert_case "${p}_${shape_mb}mb raw" "$heavy" --raw-metrics ;;
	gzip) gzip_case ;;
	batch) batch_case ;;
	perfetto)
		for shape in ${CSIM_BENCH_PERFETTO_SHAPES:-synth producer dense}; do
			perfetto_case "$shape"
		done ;;
	*) echo "run_bench: unknown profile '$p' (synth producer dense dense-heavy producer-ccu gzip batch perfetto)" >&2; exit 2 ;;
	esac
done
