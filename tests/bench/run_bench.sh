#!/usr/bin/env bash
# Benchmark (SPEC §9; issue #3): converts synthetic dumps of ~70 MB and
# ~700 MB several times with the input in the page cache and prints, per
# input: size, median wall time, MB/s, peak RSS, and the same figures for
# `cp` of the input as the machine's floor.
#
#   run_bench.sh CLEAN_SIM_TRACE GEN_SYNTH CACHE_DIR
#
# Env: CSIM_BENCH_SIZES (MB, default "70 700"), CSIM_BENCH_RUNS (default 5).
# Dumps are generated once into CACHE_DIR and reused. MB = 10^6 bytes.
# Needs /usr/bin/time (Debian package "time").
set -euo pipefail

bin=${1:?usage: run_bench.sh CLEAN_SIM_TRACE GEN_SYNTH CACHE_DIR}
synth=${2:?usage: run_bench.sh CLEAN_SIM_TRACE GEN_SYNTH CACHE_DIR}
cache=${3:?usage: run_bench.sh CLEAN_SIM_TRACE GEN_SYNTH CACHE_DIR}
sizes=${CSIM_BENCH_SIZES:-70 700}
runs=${CSIM_BENCH_RUNS:-5}

if [ ! -x /usr/bin/time ]; then
	echo "run_bench: /usr/bin/time is missing: apt-get install time" >&2
	exit 2
fi
mkdir -p "$cache"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# measure OUT_PREFIX CMD...: runs CMD $runs times; prints "median_wall max_rss_kb".
measure() {
	local walls=() rss=0 line
	for _ in $(seq "$runs"); do
		line=$(/usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -n 1)
		walls+=("${line% *}")
		[ "${line#* }" -gt "$rss" ] && rss=${line#* }
	done
	printf '%s %s\n' "$(printf '%s\n' "${walls[@]}" | median)" "$rss"
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -srm)"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); runs per input: $runs (median wall time, max RSS)"
printf '%-14s %9s %9s %9s %10s %9s %9s %9s %8s\n' input "size MB" "wall s" "MB/s" "RSS MB" RSS/input "cp s" "cp MB/s" "vs cp"
for mb in $sizes; do
	dump="$cache/synth_${mb}mb.bin"
	[ -f "$dump" ] || "$synth" --seed 1 "$mb" "$dump"
	bytes=$(stat -c %s "$dump")
	cat "$dump" >/dev/null   # warm the page cache
	out="$cache/out_${mb}"
	read -r wall rss < <(measure "$bin" -q "$dump" -o "$out" --no-copy-raw)
	read -r cpwall _ < <(measure cp "$dump" "$cache/cp.tmp")
	rm -f "$cache/cp.tmp"
	awk -v n="synth_${mb}mb" -v b="$bytes" -v w="$wall" -v r="$rss" -v c="$cpwall" 'BEGIN {
		mbs = b / 1e6
		printf "%-14s %9.1f %9.3f %9.1f %10.1f %9.2f %9.3f %9.1f %7.2fx\n", n, mbs, w,
		       (w > 0 ? mbs / w : 0), r / 1024, (r * 1024) / b, c, (c > 0 ? mbs / c : 0),
		       (c > 0 ? w / c : 0)
	}'
done
