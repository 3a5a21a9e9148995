# Writes the Debian copyright file (machine-readable format 1.0, DEP-5)
# from LICENSE, so the two cannot disagree:
#   cmake -DLICENSE=LICENSE -DOUT=copyright -P copyright.cmake
# LICENSE is the MIT text: a title line, "Copyright (c) YEAR HOLDER", then
# the permission notice, which becomes the License field's body ("Expat" is
# the format's name for the MIT license; blank lines become " .").
cmake_minimum_required(VERSION 3.16)

if(NOT LICENSE OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DLICENSE=LICENSE -DOUT=copyright -P copyright.cmake")
endif()
file(STRINGS "${LICENSE}" lines)
set(holder "")
set(body "")
foreach(line IN LISTS lines)
  if(holder STREQUAL "")
    if(line MATCHES "^Copyright \\([cC]\\) (.+)$")
      set(holder "${CMAKE_MATCH_1}")
    elseif(NOT line MATCHES "^(MIT License)?$")
      message(FATAL_ERROR "${LICENSE}: expected the MIT title or the Copyright line, got: ${line}")
    endif()
    continue()
  endif()
  if(line STREQUAL "")
    if(NOT body STREQUAL "")
      string(APPEND body " .\n")
    endif()
  else()
    string(APPEND body " ${line}\n")
  endif()
endforeach()
if(holder STREQUAL "" OR NOT body MATCHES "Permission is hereby granted")
  message(FATAL_ERROR "${LICENSE}: not the MIT license text this script knows")
endif()
file(WRITE "${OUT}.tmp" "\
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: clean_sim_trace

Files: *
Copyright: ${holder}
License: Expat
${body}")
file(RENAME "${OUT}.tmp" "${OUT}")
