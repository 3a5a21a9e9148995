#!/usr/bin/env bash
# Install and packages: `cmake --install` into a DESTDIR puts the binary,
# the man page, the bash completion and the documentation in the
# GNUInstallDirs places; the installed binary converts the demo and the
# installed page renders. `cpack` builds a .deb (Depends: libc6, zlib1g, and
# libisal2 in a build with ISA-L: the packages of the libraries the binary
# loads, no more; the same files) and a .tar.gz. The build folder is the one that
# holds CSIM_BIN (ctest runs this after the build). Neither builds: they
# package the binaries ctest tested, and a rebuild of a tree whose sources
# were edited during a parallel ctest run would swap the binaries under the
# other tests (CMAKE_SKIP_INSTALL_ALL_DEPENDENCY in CMakeLists.txt).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

build=$(cd "$(dirname "$CSIM_BIN")" && pwd)
if ! command -v man >/dev/null || ! command -v dpkg-deb >/dev/null; then
	# .ci/run installs man-db; dpkg-deb comes with dpkg on Debian/Ubuntu.
	echo "SKIP: man (man-db) or dpkg-deb (dpkg) is not installed"
	exit 77
fi
check "CSIM_BIN lies in a CMake build folder" [ -f "$build/CPackConfig.cmake" ]
version=$("$CSIM_BIN" --version | awk '{ print $2 }')

# --- cmake --install into a DESTDIR ---------------------------------------------
dest="$tmp/dest"
rc=0
DESTDIR="$dest" cmake --install "$build" --prefix /usr >"$tmp/install.log" 2>&1 || rc=$?
check "cmake --install into DESTDIR exits 0" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || cat "$tmp/install.log"
(cd "$dest" && find . -type f -o -type l | sed 's|^\./|/|' | sort) >"$tmp/installed"
want="/usr/bin/clean_sim_trace
/usr/share/bash-completion/completions/clean_sim_trace
/usr/share/doc/clean_sim_trace/LICENSE
/usr/share/doc/clean_sim_trace/README.md
/usr/share/doc/clean_sim_trace/cli.md
/usr/share/doc/clean_sim_trace/decisions.md
/usr/share/doc/clean_sim_trace/format.md
/usr/share/doc/clean_sim_trace/install.md
/usr/share/man/man1/clean_sim_trace.1"
check "the installed files include binary, page, completion, docs" \
	bash -c 'comm -13 "$1" - <<<"$2" | { ! grep .; }' _ "$tmp/installed" "$want"
check "nothing is installed outside bin and share" \
	bash -c '! grep -vE "^/usr/(bin|share)/" "$1"' _ "$tmp/installed"
check "no test tool is installed" bash -c '! grep -E "trace_check|gen_bin|test_" "$1"' _ "$tmp/installed"
check "the installed page is docs/clean_sim_trace.1" \
	cmp "$dest/usr/share/man/man1/clean_sim_trace.1" "$CSIM_ROOT/docs/clean_sim_trace.1"
check "the installed completion is src/cli/completion.bash" \
	cmp "$dest/usr/share/bash-completion/completions/clean_sim_trace" \
	"$CSIM_ROOT/src/cli/completion.bash"

bin="$dest/usr/bin/clean_sim_trace"
check "the installed binary is executable" [ -x "$bin" ]
cp -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo" "$tmp/OPPROF_demo"
rc=0
(cd "$tmp" && "$bin" -q OPPROF_demo -o demo-out) || rc=$?
check "the installed binary converts the demo (exit 0)" [ "$rc" -eq 0 ]
check "... into the golden trace" cmp "$tmp/demo-out/trace.clean.json" \
	"$CSIM_ROOT/fixtures/scenarios/mix_kernel/expected/default/trace.clean.json"
check "the installed --help equals the build's" \
	diff <("$bin" --help) <("$CSIM_BIN" --help)

page="$dest/usr/share/man/man1/clean_sim_trace.1"
warn=$(MANWIDTH=80 man -l "$page" 2>&1 >/dev/null) || true
check "man -l on the installed page: no warning" [ -z "$warn" ]
LC_ALL=C MANWIDTH=80 man -l "$page" >"$tmp/page.txt" 2>/dev/null || true
check "man -l renders the page" grep -q -- "--output-dir DIR" "$tmp/page.txt"
# man finds the page by name under the DESTDIR's man tree.
check "man -M finds clean_sim_trace(1)" \
	bash -c 'LC_ALL=C MANWIDTH=80 man -M "$1" 1 clean_sim_trace 2>/dev/null | grep -q "^NAME"' \
	_ "$dest/usr/share/man"

# --- cpack: .deb and .tar.gz ----------------------------------------------------
# cpack runs the generator's preinstall target before it installs; with
# Makefiles that target must not depend on `all`. `make -n` lists, without
# running them, the build steps a target would take: its "Built target"
# echoes appear whatever the state of the tree.
if [ -f "$build/Makefile" ]; then
	check "cpack's preinstall step builds no target" bash -c \
		'! make -n -C "$1" preinstall 2>&1 | grep -q "Built target"' _ "$build"
	check "... while make all would (the probe works)" bash -c \
		'make -n -C "$1" all 2>&1 | grep -q "Built target clean_sim_trace"' _ "$build"
fi
bin_stamp=$(stat -c %Y.%s "$CSIM_BIN")
pkg="$tmp/pkg"
rc=0
cpack --config "$build/CPackConfig.cmake" -G "DEB;TGZ" -B "$pkg" >"$tmp/cpack.log" 2>&1 || rc=$?
check "cpack -G DEB;TGZ exits 0" [ "$rc" -eq 0 ]
check "cpack left the built binary as it was" [ "$(stat -c %Y.%s "$CSIM_BIN")" = "$bin_stamp" ]
[ "$rc" -eq 0 ] || cat "$tmp/cpack.log"
deb=$(find "$pkg" -maxdepth 1 -name '*.deb' | head -n 1)
tgz=$(find "$pkg" -maxdepth 1 -name '*.tar.gz' | head -n 1)
arch=$(dpkg --print-architecture)
check "the .deb is clean_sim_trace_${version}_$arch.deb" \
	[ "$(basename "$deb")" = "clean_sim_trace_${version}_$arch.deb" ]
if [ -n "$deb" ]; then
	check "deb Package" [ "$(dpkg-deb -f "$deb" Package)" = clean_sim_trace ]
	check "deb Version" [ "$(dpkg-deb -f "$deb" Version)" = "$version" ]
	# ISA-L's inflater is in the binary where the build found it (CSIM_ISAL).
	deps="libc6, zlib1g"
	if readelf -d "$CSIM_BIN" | grep -q 'NEEDED.*\[libisal\.so'; then
		deps="$deps, libisal2"
	fi
	check "deb Depends: $deps" [ "$(dpkg-deb -f "$deb" Depends)" = "$deps" ]
	# Each library the binary loads comes from a package it depends on, and
	# each package it depends on gives it a library it loads.
	owners=""
	# (A sanitizer build's runtimes are not the product's: left out.)
	for lib in $(readelf -d "$CSIM_BIN" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' |
		grep -Ev '^lib(a|ub|t|l)san\.so'); do
		path=$(ldd "$CSIM_BIN" | awk -v l="$lib" '$1 == l { print $3 }')
		owner=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null || true)
		owner=${owner%%:*}
		owners+=" $owner "
		check "$lib ($path) comes from a package the .deb depends on ($owner)" \
			contains ", $deps," ", $owner,"
	done
	for dep in ${deps//,/}; do
		check "the binary loads a library of $dep" contains "$owners" " $dep "
	done
	check "deb Section: devel" [ "$(dpkg-deb -f "$deb" Section)" = devel ]
	check "deb has a Maintainer" [ -n "$(dpkg-deb -f "$deb" Maintainer)" ]
	check "deb has a Description" contains "$(dpkg-deb -I "$deb")" "Description: Converts Ascend"
	# Every dependency is a package of this system's archive.
	for dep in ${deps//,/}; do
		check "Depends names an installed package: $dep" \
			bash -c 'dpkg -s "$1" >/dev/null 2>&1' _ "$dep"
	done
	dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' >"$tmp/deb.files"
	for f in /usr/bin/clean_sim_trace /usr/share/man/man1/clean_sim_trace.1 \
		/usr/share/bash-completion/completions/clean_sim_trace \
		/usr/share/doc/clean_sim_trace/README.md /usr/share/doc/clean_sim_trace/LICENSE; do
		check "deb holds $f" grep -qx -- "$f" "$tmp/deb.files"
	done
	check "the deb's binary runs" bash -c \
		'dpkg-deb -x "$1" "$2" && "$2/usr/bin/clean_sim_trace" --version' _ "$deb" "$tmp/debx"
fi
if [ -n "$tgz" ]; then
	tar -tzf "$tgz" >"$tmp/tgz.files"
	top="clean_sim_trace-$version-Linux"
	for f in bin/clean_sim_trace share/man/man1/clean_sim_trace.1 \
		share/bash-completion/completions/clean_sim_trace \
		share/doc/clean_sim_trace/README.md; do
		check "tar.gz holds $top/$f" grep -qx -- "$top/$f" "$tmp/tgz.files"
	done
else
	flunk "cpack wrote no .tar.gz"
fi
finish
