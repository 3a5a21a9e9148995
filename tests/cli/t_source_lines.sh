#!/usr/bin/env bash
# Source lines on slices (SPEC §6, §10) through the binary, on
# fixtures/source_lines: API_INSTR rows with an AscendC Inner Code, one with
# an empty code, one address twice (the first row's line wins), and an
# API_FILE block whose Address Range pairs (both ends included) serve the
# addresses with an empty code. Derived by hand from the fixture:
#   0x1000  Inner Code kernel.cpp:10 (API_FILE's line 3 covers it too: the
#           code wins)
#   0x1008  empty code, in no range                         -> no source
#   0x1010  args already hold "source"                      -> unchanged
#   0x1018  no API_INSTR row, in no range                   -> no source
#   {" "}   no pc_addr                                      -> unchanged
#   0X101C  upper-case prefix, row "0x101c"                 -> kernel.cpp:14
#   4128    pc_addr not a string                            -> unchanged
#   0x1020  rows kernel.cpp:20 then other.cpp:1             -> kernel.cpp:20
#   0x2004  empty code; ranges [0x2000,0x2008] line 7 of /src/kernel_old.cpp
#           and [0x2004,0x200c] line 40 of other.cpp (written other\u002Ecpp):
#           the lower range keeps the shared addresses      -> kernel_old:7
#   0x200c  only in the second range                        -> other.cpp:40
#   0x2010  the one-address range [0x2010,0x2010]           -> kernel_old:7
#   NOP     no args                                         -> no args
# Without the API_FILE block only the Inner Code lines remain: 3, plus
# the "source" VMUL had already.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

fx=$CSIM_ROOT/fixtures/source_lines
mkdir -p "$tmp/sim" "$tmp/old"
"$CSIM_GEN" "$fx/dump.recipe" "$tmp/sim/visualize_data.bin"
"$CSIM_GEN" "$fx/nofiles.recipe" "$tmp/old/visualize_data.bin"

slices() { grep -E '^\{"name":"[^"]*","ph":"X"' "$1" | grep -v '"tid":"critical path"' | sed 's/,$//; s/^{"name":"\([^"]*\)".*"cname":"[^"]*"/\1/'; }

run "$tmp" sim -o out --no-copy-raw
check "exit 0" [ "$status" -eq 0 ]
check "no warning" eval '! contains "$err" "warning:"'
check "each slice's args, source last where its pc_addr has a line" [ "$(slices "$tmp/out/trace.clean.json")" = \
'MOV_OUT_TO_UB,"args":{"code":"","detail":"Src:OUT,Dst:UB","pc_addr":"0x1000","process_bytes":"512","source":"kernel.cpp:10"}}
VADD,"args":{"pc_addr":"0x1008"}}
VMUL,"args":{"detail":"x","pc_addr":"0x1010","source":"mine.cpp:1"}}
VEXP,"args":{"pc_addr":"0x1018"}}
VLN,"args":{ }}
VABS,"args":{"pc_addr":"0X101C","source":"kernel.cpp:14"}}
VMAX,"args":{"pc_addr":4128}}
MOV_UB_TO_OUT,"args":{"pc_addr":"0x1020","source":"kernel.cpp:20"}}
VMIN,"args":{"pc_addr":"0x2004","source":"/src/kernel_old.cpp:7"}}
VSUB,"args":{"pc_addr":"0x200c","source":"other.cpp:40"}}
VDIV,"args":{"pc_addr":"0x2010","source":"/src/kernel_old.cpp:7"}}
NOP}' ]
check "viewer rules hold" "$CSIM_CHECK" --disjoint --expect-slices 12 --expect-arrows 0 \
	"$tmp/out/trace.clean.json"
check "top instructions carry the same lines" [ "$(sed -n '/^"top_instructions":\[/,/^\]/p' "$tmp/out/summary.json" |
	grep -o '"address":"[^"]*","pipe":"[^"]*","mnemonic":"[^"]*","source":[^,]*')" = \
'"address":"0x1020","pipe":"MTE3","mnemonic":"MOV_UB_TO_OUT","source":"kernel.cpp:20"
"address":"0x1000","pipe":"MTE2","mnemonic":"MOV_OUT_TO_UB","source":"kernel.cpp:10"
"address":"0x1008","pipe":"VECTOR","mnemonic":"VADD","source":null
"address":"0x1010","pipe":"VECTOR","mnemonic":"VMUL","source":"kernel.cpp:12"
"address":"0x101c","pipe":"VECTOR","mnemonic":"VABS","source":"kernel.cpp:14"
"address":"0x2004","pipe":"VECTOR","mnemonic":"VMIN","source":"/src/kernel_old.cpp:7"' ]
check "\"instructions\" name the API_FILE line of 0x2004 too" grep -qF \
	'{"address":"0x2004","pipe":"VECTOR","mnemonic":"VMIN","source":"/src/kernel_old.cpp:7",' "$tmp/out/summary.json"
check "the page's top instructions name the API_FILE line too" \
	grep -q '<td class="name">0x2004</td><td class="l">VECTOR</td><td class="l">VMIN</td><td class="name">/src/kernel_old.cpp:7</td>' \
	"$tmp/out/summary.html"
# 185 cycles over 100 ns and 370 over 200 ns: 1850 MHz; VECTOR's 10 slices
# against 4 executions do not count.
check "the clock is derived from cycles and slice lengths" \
	grep -q '^"clock":{"mhz":1850.000,"source":"derived"},$' "$tmp/out/summary.json"
# VADD 50 % and VMUL 100 % over 93 cycles each; VABS and VMIN are -1.
check "VECTOR: 372 cycles, 4 executions, utilization 75.00 %" \
	grep -q '"pipe":"VECTOR",.*"cycles":372,"sync_cycles":0,"executed":4,"vector_utilization":75.00,"bytes":null' \
	"$tmp/out/summary.json"
check "MTE2: 512 bytes over 100 ns busy is 5.120 GB/s" \
	grep -q '"pipe":"MTE2",.*"bytes":512,"bandwidth_gbps":5.120,' "$tmp/out/summary.json"

run "$tmp" old -o old_out --no-copy-raw
check "without API_FILE: exit 0" [ "$status" -eq 0 ]
check "without API_FILE: only the Inner Code lines" [ "$(grep -c '"source":' "$tmp/old_out/trace.clean.json")" -eq 4 ]
check "without API_FILE: 0x2004 has no line" grep -q '"args":{"pc_addr":"0x2004"}}' "$tmp/old_out/trace.clean.json"

# A malformed API_FILE only loses its lines.
sed 's/"0x2010"\]/"zz"]/' "$fx/files.json" >"$tmp/bad_files.json"
cp "$fx/trace.json" "$fx/instr.json" "$tmp/"
printf 'block 3 bad_files.json\ninstr instr.json version=0\ntrace trace.json\n' >"$tmp/bad.recipe"
mkdir -p "$tmp/bad"
"$CSIM_GEN" "$tmp/bad.recipe" "$tmp/bad/visualize_data.bin"
run "$tmp" bad -o bad_out --no-copy-raw
check "malformed API_FILE: exit 0" [ "$status" -eq 0 ]
check "malformed API_FILE: a warning naming the block and what is wrong" \
	contains "$err" "warning: bad/visualize_data.bin: API_FILE block at offset 0: an Address Range end is not a hex address at payload byte"
check "malformed API_FILE: the Inner Code lines stay" [ "$(grep -c '"source":' "$tmp/bad_out/trace.clean.json")" -eq 4 ]
finish
