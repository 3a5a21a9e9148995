#!/usr/bin/env bash
# lintian on the .deb that `cpack -G DEB` builds from the ctest build: no
# error and no warning; the info, experimental and pedantic tags it shows
# are only the ones docs/install.md lists with the reason each stays.
# t_install checks the package's contents; this test is lintian's verdict
# alone, so a machine without lintian skips it and still runs t_install.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

build=$(cd "$(dirname "$CSIM_BIN")" && pwd)
if ! command -v lintian >/dev/null || ! command -v dpkg-deb >/dev/null; then
	# .ci/run installs lintian; dpkg-deb comes with dpkg on Debian/Ubuntu.
	skip_missing "lintian or dpkg-deb (dpkg) is not installed"
fi
check "CSIM_BIN lies in a CMake build folder" [ -f "$build/CPackConfig.cmake" ]
# lintian judges a release package: a Debug or sanitizer build has no
# _FORTIFY_SOURCE (CMakeLists.txt), which lintian rightly reports.
type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
if [ -n "${CSIM_SANITIZER:-}" ] || ! [[ "$type" =~ ^(Release|RelWithDebInfo|MinSizeRel)$ ]]; then
	echo "SKIP: a ${CSIM_SANITIZER:+$CSIM_SANITIZER }${type:-untyped} build is not a release package"
	exit 77
fi

rc=0
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1 || rc=$?
check "cpack -G DEB exits 0" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || cat "$tmp/cpack.log"
deb=$(find "$tmp/pkg" -maxdepth 1 -name '*.deb' | head -n 1)
check "cpack wrote a .deb" [ -n "$deb" ]
[ -n "$deb" ] || { finish; exit 1; }

# The command docs/install.md gives: info, experimental and pedantic tags shown.
lintian --version
rc=0
lintian --display-info --display-experimental --pedantic --tag-display-limit 0 --fail-on error,warning "$deb" \
	>"$tmp/lintian.out" 2>"$tmp/lintian.err" || rc=$?
cat "$tmp/lintian.out"
# lintian warns on stderr when run as root (CI containers); anything else
# there is a failure to run.
grep -v 'running with root privileges is not recommended' "$tmp/lintian.err" || true
check "lintian exits 0 (no error, no warning)" [ "$rc" -eq 0 ]
check "lintian: no E: tag" bash -c '! grep -q "^E: " "$1"' _ "$tmp/lintian.out"
check "lintian: no W: tag" bash -c '! grep -q "^W: " "$1"' _ "$tmp/lintian.out"
check "lintian ran on clean-sim-trace (its output names no other package)" \
	bash -c '! grep -E "^[A-Z]: " "$1" | grep -vq "^[A-Z]: clean-sim-trace: "' _ "$tmp/lintian.out"

# Each I:, X: or P: tag shown is one docs/install.md's table names.
left=$(awk '/^### lintian tags left/ { on = 1; next } /^#/ { on = 0 } on' \
	"$CSIM_ROOT/docs/install.md" | sed -n 's/^| `\([a-z0-9-]*\)` |.*/\1/p')
check "docs/install.md lists the tags left" [ -n "$left" ]
while read -r tag; do
	[ -n "$tag" ] || continue
	check "lintian's $tag is listed in docs/install.md" grep -qx -- "$tag" <<<"$left"
done < <(sed -n 's/^[IXP]: clean-sim-trace: \([a-z0-9-]*\).*/\1/p' "$tmp/lintian.out" | sort -u)
finish
