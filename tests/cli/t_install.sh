#!/usr/bin/env bash
# Install and packages: `cmake --install` into a DESTDIR puts the binary,
# the man page (gzip -9n), the bash completion, the documentation (README
# beside docs/, so their links resolve: every relative link and anchor of
# the installed pages is followed), the Debian copyright and changelog and
# the demo dump in the GNUInstallDirs places, the doc folder named after
# the package (clean-sim-trace); the installed binary converts the
# installed demo with the command the installed README gives, and the
# installed page renders. `cpack` builds a .deb (Depends: libc6, zlib1g,
# and libisal2 in a build with ISA-L: the packages of the libraries the
# binary loads, no more; the same files) and a .tar.gz; lintian's verdict
# on the .deb is t_install_lintian's. The build folder is the one that
# holds CSIM_BIN (ctest runs this after the build). Neither builds: they
# package the binaries ctest tested, and a rebuild of a tree whose sources
# were edited during a parallel ctest run would swap the binaries under the
# other tests (CMAKE_SKIP_INSTALL_ALL_DEPENDENCY in CMakeLists.txt).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

build=$(cd "$(dirname "$CSIM_BIN")" && pwd)
if ! command -v man >/dev/null || ! command -v dpkg-deb >/dev/null; then
	# .ci/run installs man-db; dpkg-deb comes with dpkg on Debian/Ubuntu.
	skip_missing "man (man-db) or dpkg-deb (dpkg) is not installed"
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
doc=/usr/share/doc/clean-sim-trace
want="/usr/bin/clean_sim_trace
/usr/share/bash-completion/completions/clean_sim_trace
$doc/LICENSE
$doc/README.md
$doc/changelog.gz
$doc/copyright
$doc/docs/clean_sim_trace.1
$doc/docs/cli.md
$doc/docs/decisions.md
$doc/docs/format.md
$doc/docs/install.md
$doc/examples/OPPROF_demo/simulator/visualize_data.bin
/usr/share/man/man1/clean_sim_trace.1.gz"
check "the installed files include binary, page, completion, docs, demo" \
	bash -c 'comm -13 "$1" - <<<"$2" | { ! grep .; }' _ "$tmp/installed" "$want"
check "nothing is installed outside bin and share" \
	bash -c '! grep -vE "^/usr/(bin|share)/" "$1"' _ "$tmp/installed"
check "no test tool is installed" bash -c '! grep -E "trace_check|gen_bin|test_" "$1"' _ "$tmp/installed"
check "no page uncompressed under man/" bash -c '! grep "^/usr/share/man/.*[^z]$" "$1"' _ "$tmp/installed"
check "every docs/*.md is installed in $doc/docs/" diff \
	<(cd "$CSIM_ROOT/docs" && ls -- *.md) <(cd "$dest$doc/docs" && ls -- *.md)
check "the installed demo is fixtures/demo/OPPROF_demo" \
	diff -r "$CSIM_ROOT/fixtures/demo/OPPROF_demo" "$dest$doc/examples/OPPROF_demo"
demo_bytes=$(find "$dest$doc/examples" -type f -printf '%s\n' | awk '{ n += $1 } END { print n + 0 }')
check "the demo stays small ($demo_bytes bytes of files <= 64 KiB)" [ "$demo_bytes" -le 65536 ]

# gzip -9n: no file name (FLG 0), no time stamp (MTIME 0), best compression
# (XFL 2): the same bytes from every build.
gz_head() { od -An -tx1 -N9 "$1" | tr -d ' \n'; }
for gz in /usr/share/man/man1/clean_sim_trace.1.gz $doc/changelog.gz; do
	check "$gz: gzip -9n header (no name, no time)" \
		[ "$(gz_head "$dest$gz")" = 1f8b08000000000002 ]
done
check "the installed page is docs/clean_sim_trace.1, gzipped" \
	cmp <(gzip -dc "$dest/usr/share/man/man1/clean_sim_trace.1.gz") "$CSIM_ROOT/docs/clean_sim_trace.1"
check "the installed completion is src/cli/completion.bash" \
	cmp "$dest/usr/share/bash-completion/completions/clean_sim_trace" \
	"$CSIM_ROOT/src/cli/completion.bash"

# The changelog: a Debian changelog whose latest entry is this version, of
# a native package (no Debian revision), signed with a date whose weekday
# is right.
gzip -dc "$dest$doc/changelog.gz" >"$tmp/changelog"
check "changelog: latest entry clean-sim-trace ($version)" \
	grep -qE "^clean-sim-trace \($version\) [a-z-]+; urgency=[a-z]+\$" <(head -n 1 "$tmp/changelog")
check "changelog: a change line" grep -qE '^  \* [A-Z]' "$tmp/changelog"
sig=$(grep -m 1 '^ -- ' "$tmp/changelog" || true)
check "changelog: ' -- NAME <MAIL>  DATE' line" \
	bash -c '[[ $1 =~ ^\ --\ .+\ \<[^\>]+@[^\>]+\>\ \ ([A-Z][a-z]{2}),\ (.+)$ ]] &&
		[ "$(LC_ALL=C date -u -d "${BASH_REMATCH[2]}" +%a)" = "${BASH_REMATCH[1]}" ]' _ "$sig"

# The copyright file: DEP-5 with one Files stanza whose License body is
# LICENSE's text after its Copyright line.
cr="$dest$doc/copyright"
check "copyright: DEP-5 Format line" [ "$(head -n 1 "$cr")" = \
	"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ]
check "copyright: Files: *" grep -qx 'Files: \*' "$cr"
check "copyright: LICENSE's holder" grep -qxF \
	"Copyright: $(sed -n 's/^Copyright (c) //p' "$CSIM_ROOT/LICENSE")" "$cr"
check "copyright: License: Expat" grep -qx 'License: Expat' "$cr"
check "copyright: the license text is LICENSE's" diff \
	<(sed '1,/^License: /d; s/^ //; s/^\.$//' "$cr") \
	<(sed '1,/^Copyright (c) /d' "$CSIM_ROOT/LICENSE" | sed '/./,$!d')

# Every relative link of the installed README and docs, anchors included,
# resolves among the installed files; the same checker finds a broken one.
links=$(cd "$dest$doc" && awk -f "$CSIM_ROOT/tests/cli/md_links.awk" README.md docs/*.md)
check "installed docs: every relative link resolves" [ "$(grep -vc ' links$' <<<"$links")" -eq 0 ]
grep -v ' links$' <<<"$links" || true
check "installed docs: 80+ relative links followed ($(tail -n 1 <<<"$links"))" \
	[ "$(tail -n 1 <<<"$links" | cut -d' ' -f1)" -ge 80 ]
mkdir -p "$tmp/probe/docs"
printf '[a](docs/gone.md) [b](docs/x.md#nowhere) [c](docs/x.md#here) [d](https://x.invalid/y)\n' >"$tmp/probe/README.md"
printf '# Here\n[e](../README.md) [f](#here)\n' >"$tmp/probe/docs/x.md"
check "the link checker finds a missing file and a missing anchor, only those" \
	diff <(cd "$tmp/probe" && awk -f "$CSIM_ROOT/tests/cli/md_links.awk" README.md docs/x.md) - <<'EOF'
README.md: docs/gone.md: no file docs/gone.md
README.md: docs/x.md#nowhere: no heading #nowhere in docs/x.md
5 links
EOF

bin="$dest/usr/bin/clean_sim_trace"
check "the installed binary is executable" [ -x "$bin" ]
# The installed README and install.md give an installed user the command
# to try the demo; it runs (under the DESTDIR) and writes the golden trace,
# leaving the installed demo as it was.
try="clean_sim_trace $doc/examples/OPPROF_demo -o demo-out"
for page in README.md docs/install.md; do
	check "installed $page gives: $try" grep -qF -- "$try" "$dest$doc/$page"
done
find "$dest$doc/examples" -printf '%P %s %T@\n' | sort >"$tmp/demo.before"
mkdir -p "$tmp/user"
rc=0
(cd "$tmp/user" && "$bin" -q "$dest$doc/examples/OPPROF_demo" -o demo-out) || rc=$?
check "the installed binary converts the installed demo (exit 0)" [ "$rc" -eq 0 ]
check "... into the golden trace" cmp_but_names "$tmp/user/demo-out/trace.clean.json" \
	"$CSIM_ROOT/fixtures/scenarios/mix_kernel/expected/default/trace.clean.json"
check "... leaving the installed demo as it was" \
	diff "$tmp/demo.before" <(find "$dest$doc/examples" -printf '%P %s %T@\n' | sort)
check "the installed --help equals the build's" \
	diff <("$bin" --help) <("$CSIM_BIN" --help)

page="$dest/usr/share/man/man1/clean_sim_trace.1.gz"
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
check "the .deb is clean-sim-trace_${version}_$arch.deb" \
	[ "$(basename "$deb")" = "clean-sim-trace_${version}_$arch.deb" ]
if [ -n "$deb" ]; then
	check "deb Package: clean-sim-trace" [ "$(dpkg-deb -f "$deb" Package)" = clean-sim-trace ]
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
	# Description: the synopsis line, then an extended description (lines
	# indented by one space, " ." between paragraphs) that says where the
	# docs and the demo are.
	dpkg-deb -f "$deb" Description >"$tmp/description"
	check "deb Description: Converts Ascend ..." grep -qx 'Converts Ascend .*' <(head -n 1 "$tmp/description")
	check "... with an extended description of 5+ lines" [ "$(sed 1d "$tmp/description" | grep -c '^ [^ ]')" -ge 5 ]
	check "... every extended line indented by one space, within 80 columns" \
		bash -c '! sed 1d "$1" | grep -vE "^ [^ ].{0,78}$"' _ "$tmp/description"
	check "... naming where the docs and demo are" grep -qF "$doc" "$tmp/description"
	# Every dependency is a package of this system's archive.
	for dep in ${deps//,/}; do
		check "Depends names an installed package: $dep" \
			bash -c 'dpkg -s "$1" >/dev/null 2>&1' _ "$dep"
	done
	dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\./|/|' | sort >"$tmp/deb.files"
	check "the deb holds the files cmake --install installs" diff "$tmp/installed" "$tmp/deb.files"
	check "... its man page gzip -9n too" bash -c \
		'dpkg-deb --fsys-tarfile "$1" | tar -xOf - ./usr/share/man/man1/clean_sim_trace.1.gz |
			cmp - "$2"' _ "$deb" "$dest/usr/share/man/man1/clean_sim_trace.1.gz"
	check "the deb's binary runs" bash -c \
		'dpkg-deb -x "$1" "$2" && "$2/usr/bin/clean_sim_trace" --version' _ "$deb" "$tmp/debx"
fi
if [ -n "$tgz" ]; then
	tar -tzf "$tgz" >"$tmp/tgz.files"
	top="clean-sim-trace-$version-Linux"
	for f in bin/clean_sim_trace share/man/man1/clean_sim_trace.1.gz \
		share/bash-completion/completions/clean_sim_trace \
		share/doc/clean-sim-trace/README.md share/doc/clean-sim-trace/docs/install.md \
		share/doc/clean-sim-trace/examples/OPPROF_demo/simulator/visualize_data.bin; do
		check "tar.gz holds $top/$f" grep -qx -- "$top/$f" "$tmp/tgz.files"
	done
else
	flunk "cpack wrote no .tar.gz"
fi
finish
