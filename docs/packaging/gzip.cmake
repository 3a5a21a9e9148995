# Compresses one file as Debian policy asks of man pages and changelogs,
# reproducibly (gzip -9n: no name, no time stamp in the header, so the same
# input gives the same bytes on every build):
#   cmake -DGZIP=/bin/gzip -DIN=file -DOUT=file.gz -P gzip.cmake
# CMake cannot redirect a custom command's output portably; execute_process
# can. OUT is written under a temporary name and renamed, so an interrupted
# build never leaves a truncated OUT that make would take as up to date.
cmake_minimum_required(VERSION 3.16)

if(NOT GZIP OR NOT IN OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DGZIP=gzip -DIN=file -DOUT=file.gz -P gzip.cmake")
endif()
execute_process(COMMAND "${GZIP}" -9 -n -c INPUT_FILE "${IN}" OUTPUT_FILE "${OUT}.tmp"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE "${OUT}.tmp")
  message(FATAL_ERROR "${GZIP} -9n ${IN} failed: ${rc}")
endif()
file(RENAME "${OUT}.tmp" "${OUT}")
