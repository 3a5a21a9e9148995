#!/usr/bin/env bash
# summary.html rendered by a real browser (SPEC §10; docs/summary.md,
# "summary.html"): headless Chromium screenshots the demo's page and a
# many-core page; each PNG must exist, have the window's size, and be far
# larger than the screenshot of an empty page (a blank or error page
# compresses to a few KB). Each page is also laid out in a 1400 px window
# with a probe script appended to a copy: every table must end inside the
# page (a pipe table once ran 56 px past it, its overlap column out of
# view). Without Chromium the test prints why and exits
# 77, which ctest reports as SKIPPED (never as passed). CSIM_RENDER_KEEP=DIR
# keeps the screenshots there, to look at them.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

browser=""
for b in chromium chromium-browser google-chrome; do
	if command -v "$b" >/dev/null 2>&1; then
		browser=$b
		break
	fi
done
if [ -z "$browser" ]; then
	skip_missing "no chromium on PATH: summary.html not rendered (structure is checked by t_summary_html)"
fi

W=1200
H=1600
# shot HTML PNG: a headless screenshot (own profile, no network needed).
shot() {
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$tmp/profile" --window-size=$W,$H \
		--screenshot="$2" "file://$1" >"$tmp/browser.log" 2>&1 || true
}

# png_size PNG: "WIDTH HEIGHT" from the IHDR chunk.
png_size() {
	od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%d %d\n", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'
}

printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>empty</title></head><body></body></html>\n' >"$tmp/empty.html"
shot "$tmp/empty.html" "$tmp/empty.png"
check "an empty page renders" [ -s "$tmp/empty.png" ]
empty=$(stat -c %s "$tmp/empty.png" 2>/dev/null || echo 0)

# fits HTML: Chromium lays out a copy of HTML at 1400 px and the probe
# writes the right edge of the widest table, the page's width and the
# body's first font into the DOM it dumps ("widest R CLASS of W font F"):
# every table inside, and the page's own styles in force (system-ui).
fits() {
	local probe
	cp "$1" "$tmp/probe.html"
	cat >>"$tmp/probe.html" <<'EOS'
<script>
var W = document.documentElement.clientWidth, worst = 0, which = '';
document.querySelectorAll('table').forEach(function (t) {
	var r = t.getBoundingClientRect().right;
	if (r > worst) { worst = r; which = t.className; }
});
document.body.setAttribute('data-layout', 'widest ' + Math.ceil(worst) + ' ' + which + ' of ' + W +
	' font ' + getComputedStyle(document.body).fontFamily.split(',')[0]);
</script>
EOS
	probe=$(timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/profile" \
		--window-size=1400,1000 --dump-dom "file://$tmp/probe.html" 2>"$tmp/browser.log" |
		grep -o 'data-layout="[^"]*"' || true)
	echo "# $2: $probe"
	[[ $probe =~ widest\ ([0-9]+)\ [a-z\ ]*\ ?of\ ([0-9]+)\ font\ system-ui ]] &&
		[ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ]
}

render() {
	local name=$1 bin=$2 size

	mkdir -p "$tmp/$name/sim"
	cp "$bin" "$tmp/$name/sim/visualize_data.bin"
	run "$tmp/$name" sim -o out --no-copy-raw -q
	check "$name: converts" [ "$status" -eq 0 ]
	names_dump "$name" "$tmp/$name/out" sim/visualize_data.bin "$tmp/$name/sim/visualize_data.bin"
	shot "$tmp/$name/out/summary.html" "$tmp/$name.png"
	check "$name: screenshot written" [ -s "$tmp/$name.png" ]
	if [ ! -s "$tmp/$name.png" ]; then
		tail -5 "$tmp/browser.log"
		return
	fi
	check "$name: screenshot is ${W}x$H" [ "$(png_size "$tmp/$name.png")" = "$W $H" ]
	size=$(stat -c %s "$tmp/$name.png")
	echo "# $name: $size bytes, empty page $empty bytes"
	check "$name: screenshot far from blank (> 5x the empty page's bytes)" [ "$size" -gt $((5 * empty)) ]
	check "$name: every table inside a 1400 px page" fits "$tmp/$name/out/summary.html" "$name"
	if [ -n "${CSIM_RENDER_KEEP:-}" ]; then
		mkdir -p "$CSIM_RENDER_KEEP"
		cp "$tmp/$name.png" "$CSIM_RENDER_KEEP/"
	fi
}

render demo "$CSIM_ROOT/fixtures/demo/OPPROF_demo/simulator/visualize_data.bin"
"$CSIM_GEN" "$CSIM_ROOT/fixtures/scenarios/many_cores/dump.recipe" "$tmp/many_cores.bin"
render many_cores "$tmp/many_cores.bin"
# 30 cores of the producer's shape: the widest pipe tables (bytes, GB/s,
# utilization and overlap all filled).
"$CSIM_SYNTH" --profile producer 2 "$tmp/producer.bin"
render producer "$tmp/producer.bin"
# compare.html shares the page's styles: the producer's against itself.
run "$tmp" --compare producer/out producer/out -o cmp -q
check "compare: written" [ -s "$tmp/cmp/compare.html" ]
check "compare: one <style> element" [ "$(grep -c '<style>' "$tmp/cmp/compare.html")" -eq 1 ]
check "compare: every table inside a 1400 px page, in the page's font" fits "$tmp/cmp/compare.html" compare
finish
