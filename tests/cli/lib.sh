# Shared helpers for the script tests that run the converter.
# Env (set by ctest): CSIM_BIN, CSIM_CHECK, CSIM_GEN, CSIM_ROOT.
: "${CSIM_BIN:?set CSIM_BIN to the clean_sim_trace executable}"
: "${CSIM_CHECK:?set CSIM_CHECK to the trace_check executable}"
: "${CSIM_GEN:?set CSIM_GEN to the gen_bin executable}"
: "${CSIM_ROOT:?set CSIM_ROOT to the repository root}"

source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

# run DIR ARGS...: runs the converter in DIR; sets $status, and $out and
# $err to the exact bytes of stdout and stderr, trailing newlines included
# (also kept in $tmp/.stdout and $tmp/.stderr until the next run).
run() {
	local dir=$1
	shift
	status=0
	(cd "$dir" && "$CSIM_BIN" "$@" >"$tmp/.stdout" 2>"$tmp/.stderr") || status=$?
	out=$(cat "$tmp/.stdout"; printf x)
	out=${out%x}
	err=$(cat "$tmp/.stderr"; printf x)
	err=${err%x}
}

contains() { [[ "$1" == *"$2"* ]]; }

# signal_when SIG STATUS TRIES POLLS COND CMD...: runs CMD in the background
# (job control on, so a script's job keeps SIGINT caught), polls COND (a
# shell expression; $pid is CMD's) every $signal_poll s (default 0.005) up
# to POLLS times, then sends
# SIG to $pid (to its process group with signal_group=1), and tries again,
# up to TRIES times in all, until COND held and CMD ended with STATUS. Runs
# $signal_reset (a shell expression) before each try. Sets caught (1 then),
# attempt and status.
signal_when() {
	local sig=$1 want=$2 tries=$3 polls=$4 cond=$5 seen
	shift 5
	caught=0
	for attempt in $(seq "$tries"); do
		eval "${signal_reset:-:}"
		set -m
		"$@" &
		pid=$!
		set +m
		seen=0
		for _ in $(seq "$polls"); do
			if eval "$cond"; then
				seen=1
				break
			fi
			kill -0 "$pid" 2>/dev/null || break
			sleep "${signal_poll:-0.005}"
		done
		if [ "${signal_group:-0}" -eq 1 ]; then kill -"$sig" -- "-$pid" 2>/dev/null || true
		else kill -"$sig" "$pid" 2>/dev/null || true; fi
		status=0
		wait "$pid" || status=$?
		if [ "$seen" -eq 1 ] && [ "$status" -eq "$want" ]; then
			caught=1
			break
		fi
	done
}

# lines TEXT WANT: TEXT is exactly the line(s) WANT, each ending in a newline
# (a missing or extra trailing newline fails).
lines() { [ "$1" = "$2"$'\n' ]; }

# failalloc_env: for an allocation-failure sweep (tests/tools/failalloc.c):
# a sanitizer report exits 86.
failalloc_env() {
	export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=1:exitcode=86"
	export UBSAN_OPTIONS="${UBSAN_OPTIONS:-}:halt_on_error=1:exitcode=86"
}

# Which points a sweep tries (an allocation or a fault numbered k; see
# docs/testing.md, "Sweeps"):
#   CSIM_SWEEP unset or "sample": the suite's sample: the first and last two
#     points, and at most CSIM_SWEEP_MAX more spread evenly over the rest
#     (8; 4 under a sanitizer, whose runs are ~5x slower and whose CI
#     stage also tries a slice of every point), over the first point of
#     each code path where the sweep can tell them apart (failalloc's
#     "k chain" lines);
#   CSIM_SWEEP=every: every point (the ctest cases labelled exhaustive);
#   CSIM_SWEEP=every and CSIM_SWEEP_SLICE=I/N: the points k with k % N == I
#     (CI's rotating slice: N runs, I = 0..N-1, try every point; the
#     suite's sample, run beside it, has the first and last), or, where no
#     k qualifies, the one at I % (LAST - FIRST + 1) past FIRST.
case ${CSIM_SWEEP:-sample} in
sample | every) ;;
*) echo "lib.sh: CSIM_SWEEP must be sample or every, not '$CSIM_SWEEP'" >&2; exit 2 ;;
esac
if [ -n "${CSIM_SWEEP_SLICE:-}" ] && ! [[ $CSIM_SWEEP_SLICE =~ ^[0-9]+/[1-9][0-9]*$ ]]; then
	echo "lib.sh: CSIM_SWEEP_SLICE must be I/N, not '$CSIM_SWEEP_SLICE'" >&2
	exit 2
fi

# sweep_points FIRST LAST [SITES [SEEN]]: the points of FIRST..LAST to try,
# one a line, in order. SITES, if given, is a counting run's "k chain" file:
# the sample then takes one point per call chain, spread over the chains.
# SEEN, if given, lists the chains earlier sweeps of the script reached:
# chains it does not hold come first, so an allocation only one dump
# reaches (a diagnosis rule's, a cut's) is tried on that dump; this
# sweep's chains are added to it.
sweep_points() {
	awk -v first="$1" -v last="$2" -v sites="${3:-}" -v seenf="${4:-}" \
	    -v mode="${CSIM_SWEEP:-sample}" -v slice="${CSIM_SWEEP_SLICE:-}" \
	    -v max="${CSIM_SWEEP_MAX:-${CSIM_SANITIZER:+4}}" '
	BEGIN {
		first += 0; last += 0
		if (max == "") max = 8
		if (mode != "every" || slice == "") {
			for (k = first; k <= last && k < first + 2; k++) pick[k] = 1
			for (k = last; k >= first && k > last - 2; k--) pick[k] = 1
		}
		if (mode == "every" && slice == "") {
			for (k = first; k <= last; k++) pick[k] = 1
		} else if (mode == "every") {
			split(slice, p, "/")
			n = 0
			for (k = first; k <= last; k++) if (k % p[2] == p[1] % p[2]) { pick[k] = 1; n++ }
			# A sweep shorter than N still tries one point, rotating too.
			if (n == 0 && last >= first) pick[first + p[1] % (last - first + 1)] = 1
		} else {
			nnew = 0; nold = 0
			if (seenf != "")
				while ((getline line < seenf) > 0) old[line] = 1
			if (seenf != "") close(seenf)
			if (sites != "") {
				while ((getline line < sites) > 0) {
					split(line, f, " ")
					if (f[1] + 0 < first || f[1] + 0 > last || (f[2] in seen)) continue
					seen[f[2]] = 1
					chain[f[1] + 0] = f[2]
					if (f[2] in old) cold[nold++] = f[1] + 0
					else cnew[nnew++] = f[1] + 0
				}
			} else {
				for (k = first; k <= last; k++) cnew[nnew++] = k
			}
			if (nnew >= max) {
				for (j = 0; j < max; j++) pick[cnew[int((j + 0.5) * nnew / max)]] = 1
			} else {
				for (j = 0; j < nnew; j++) pick[cnew[j]] = 1
				rest = max - nnew
				if (nold <= rest) for (j = 0; j < nold; j++) pick[cold[j]] = 1
				else for (j = 0; j < rest; j++) pick[cold[int((j + 0.5) * nold / rest)]] = 1
			}
		}
		for (k = first; k <= last; k++) if (k in pick) print k
		if (seenf != "") for (k in chain) if (!(chain[k] in old)) print chain[k] >> seenf
	}'
}

# names_dump DESC OUT PATH FILE: OUT/summary.json's "input" names the dump
# converted, PATH as the converter was given it (or found it, in a batch),
# with FILE's size on disk (stat) and whether FILE is gzip (its first two
# bytes); OUT/summary.html's title and heading name it too, after the op
# name when summary.json's (first) run has one (docs/summary.md).
names_dump() {
	local desc=$1 out=$2 path=$3 file=$4 size gz=false esc name title h1
	: "${CSIM_HTML:?set CSIM_HTML to the html_facts executable}"
	size=$(stat -c %s "$file")
	[ "$(head -c 2 "$file" | od -An -tx1 | tr -d ' \n')" = 1f8b ] && gz=true
	esc=$(printf '%s' "$path" | sed 's/[\\"]/\\&/g')
	check "$desc: summary.json names the dump ($size bytes, gzip $gz)" grep -qxF \
		"\"input\":{\"path\":\"$esc\",\"size\":$size,\"gzip\":$gz}," "$out/summary.json"
	name=$(grep -m 1 -o '"run":{[^}]*}' "$out/summary.json" |
		sed -n 's/.*"name":"\([^"]*\)".*/\1/p')
	title=$("$CSIM_HTML" "$out/summary.html" | sed -n 's/^title //p')
	h1=$("$CSIM_HTML" "$out/summary.html" | sed -n 's/^h1 //p')
	if [ -n "$name" ]; then
		check "$desc: page title names the op and the dump" \
			[ "$title" = "$name — $path — clean_sim_trace summary" ]
		check "$desc: page heading is the op name" [ "$h1" = "$name" ]
	else
		check "$desc: page title names the dump" [ "$title" = "$path — clean_sim_trace summary" ]
		check "$desc: page heading is the dump" [ "$h1" = "$path" ]
	fi
}

# cmp_but_names A B: files A and B (two summary.json, summary.html or
# trace.clean.json) are the same bytes but the lines that name the dump
# (summary.json's "input", the page's title and header, the trace's
# metadata after its last event), as one dump read from two files (a plain
# and a gzip copy) or one run taken from files of one and of two runs give.
cmp_but_names() {
	local names='^"input":\|^<title>\|^<header>\|^],"metadata":'

	cmp -s <(grep -v "$names" "$1") <(grep -v "$names" "$2")
}
