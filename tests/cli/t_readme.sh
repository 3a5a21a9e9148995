#!/usr/bin/env bash
# The README's quick start: exactly two commands, before the first section,
# each complete on a fresh Debian/Ubuntu machine (the package install
# chained in front). The first builds only the converter and runs the demo;
# the second builds everything and runs ctest. .ci/run runs those two lines
# verbatim (readme_step), so they are the lines CI proves. The demo table
# the README prints is the demo's real output.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

readme="$CSIM_ROOT/README.md"
ci="$CSIM_ROOT/.ci/run"

# The README's command lines: indented code lines that start with the
# install, through sudo where there is one (a root container has none).
mapfile -t cmds < <(sed -n 's/^    \(\$(command -v sudo) apt-get .*\)$/\1/p' "$readme")
check "the README has exactly two commands" [ "${#cmds[@]}" -eq 2 ]
intro=$(awk '/^## / { exit } { print }' "$readme")
for c in "${cmds[@]}"; do
	check "command before the first section: ${c:0:40}..." contains "$intro" "    $c"
	check "it installs the packages first" \
		bash -c '[[ $1 == "\$(command -v sudo) apt-get install -y "*" && cmake -S . -B build && "* ]]' _ "$c"
	for pkg in cmake gcc make libcjson-dev zlib1g-dev libisal-dev; do
		check "it installs $pkg" contains " ${c%% && *} " " $pkg "
	done
done
demo=${cmds[0]:-}
suite=${cmds[1]:-}
check "the first builds only the converter" contains "$demo" \
	"&& cmake --build build --target clean_sim_trace -j2 &&"
check "the first ends with the demo" \
	bash -c '[[ $1 == *" && ./build/clean_sim_trace fixtures/demo/OPPROF_demo -o demo-out" ]]' _ "$demo"
check "the first runs no test" eval '! contains "$demo" ctest'
check "the second builds everything and runs ctest but the exhaustive set" \
	bash -c '[[ $1 == *" && cmake --build build -j2 && ctest --test-dir build --output-on-failure -j2 -LE exhaustive" ]]' _ "$suite"
check "the second installs man-db (t_manpage, t_install)" contains "${suite%% && *} " " man-db "

# "Reading the trace" prints the demo's table whole: it must be the demo's
# output (the demo converts the mix_kernel dump, whose golden stdout holds
# the table after the wrote lines).
golden="$CSIM_ROOT/fixtures/scenarios/mix_kernel/expected/default/stdout"
table=$(awk '/^summary: \(no OP_BASIC_INFO\)/ { on = 1 } on && /^```$/ { exit } on { print }' "$readme")
want=$(sed -n '/^summary: (no OP_BASIC_INFO)/,$p' "$golden")
check "the README's demo table is the demo's output" \
	bash -c '[ -n "$1" ] && [ "$1" = "$2" ]' _ "$table" "$want"

# .ci/run runs exactly these two lines, in this order.
mapfile -t steps < <(sed -n "s/^readme_step '\(.*\)'$/\1/p" "$ci")
check ".ci/run has two readme_step lines" [ "${#steps[@]}" -eq 2 ]
check ".ci/run's first step is the README's first command" [ "${steps[0]:-}" = "$demo" ]
check ".ci/run's second step is the README's second command" [ "${steps[1]:-}" = "$suite" ]

# Each install line runs apt-get itself where there is no sudo (a root
# container), and through sudo where there is: run with stand-ins for both.
mkdir -p "$tmp/nosudo" "$tmp/sudo"
printf '#!/bin/sh\necho "apt-get $*" >>"%s"\n' "$tmp/calls" >"$tmp/nosudo/apt-get"
printf '#!/bin/sh\necho sudo >>"%s"\nexec "$@"\n' "$tmp/calls" >"$tmp/sudo/sudo"
chmod +x "$tmp/nosudo/apt-get" "$tmp/sudo/sudo"
for c in "${cmds[@]}"; do
	install=${c%% && *}
	rm -f "$tmp/calls"
	PATH="$tmp/nosudo" /bin/bash -c "$install"
	check "without sudo, the install runs apt-get: ${install:0:50}..." \
		[ "$(cat "$tmp/calls" 2>/dev/null)" = "apt-get ${install#*apt-get }" ]
	rm -f "$tmp/calls"
	PATH="$tmp/sudo:$tmp/nosudo" /bin/bash -c "$install"
	check "with sudo, it runs apt-get through sudo" \
		[ "$(cat "$tmp/calls" 2>/dev/null)" = "sudo"$'\n'"apt-get ${install#*apt-get }" ]
done
finish
