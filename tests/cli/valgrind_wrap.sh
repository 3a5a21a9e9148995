#!/usr/bin/env bash
# Runs the converter under valgrind for the script tests (.ci/run sets
# CSIM_BIN to this file and CSIM_REAL_BIN to the binary). Any memory error or
# leak makes the run exit 99, which no test expects.
exec valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
	--error-exitcode=99 "${CSIM_REAL_BIN:?set CSIM_REAL_BIN}" "$@"
