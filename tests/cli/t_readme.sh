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

# The README's command lines: indented code lines that start with sudo.
mapfile -t cmds < <(sed -n 's/^    \(sudo .*\)$/\1/p' "$readme")
check "the README has exactly two commands" [ "${#cmds[@]}" -eq 2 ]
intro=$(awk '/^## / { exit } { print }' "$readme")
for c in "${cmds[@]}"; do
	check "command before the first section: ${c:0:40}..." contains "$intro" "    $c"
	check "it installs the packages first" \
		bash -c '[[ $1 == "sudo apt-get install -y "*" && cmake -S . -B build && "* ]]' _ "$c"
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
check "the second builds everything and runs ctest" \
	bash -c '[[ $1 == *" && cmake --build build -j2 && ctest --test-dir build --output-on-failure -j2" ]]' _ "$suite"
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
check ".ci/run can run sudo as root without sudo" grep -q '^	sudo() { "\$@"; }$' "$ci"
finish
