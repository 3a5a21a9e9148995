# Generates the --help text from the man page, so the two never disagree:
#   cmake -DMAN=docs/clean_sim_trace.1 -DOUT=usage_text.h -P usage_text.cmake
# OUT defines CSIM_USAGE_LINES, the text's lines as C string literals
# separated by commas (an array's initializers: no literal nears the 4095
# characters ISO C guarantees, however long the text grows):
#   usage: <SYNOPSIS, one line per .br>
#   <NAME, wrapped>
#   <OPTIONS: each .TP entry as "  tag  description", wrapped at 79 columns>
#   Exit status:
#   <EXIT STATUS: the same layout>
# Those four sections may use only text lines, .TP, .PP, .br, comments and
# the escapes \fB \fI \fR \fP \- \e \& \(aq; anything else stops the build
# rather than leaking roff into --help. Prose after a .PP is left to the man
# page. Why the man page is the source: docs/decisions.md.
cmake_minimum_required(VERSION 3.16)

if(NOT MAN OR NOT OUT)
  message(FATAL_ERROR "usage: cmake -DMAN=page.1 -DOUT=header.h -P usage_text.cmake")
endif()

# CMake lists split on ';' and group on '[' ']': stand-ins keep them inert
# (and one character long, so line widths stay right) until the end.
string(ASCII 1 SEMI)
string(ASCII 2 LBRACKET)
string(ASCII 3 RBRACKET)
string(ASCII 4 BACKSLASH)

set(WIDTH 79)

# roff_to_text(VAR LINE): LINE with its font and character escapes resolved.
function(roff_to_text var line)
  string(REGEX REPLACE "\\\\f[BIRP]" "" line "${line}")
  string(REPLACE "\\-" "-" line "${line}")
  string(REPLACE "\\(aq" "'" line "${line}")
  string(REPLACE "\\&" "" line "${line}")
  string(REPLACE "\\e" "${BACKSLASH}" line "${line}")
  if(line MATCHES "\\\\")
    message(FATAL_ERROR "${MAN}: unsupported escape in a --help section: ${line}")
  endif()
  string(REPLACE "${BACKSLASH}" "\\" line "${line}")
  set(${var} "${line}" PARENT_SCOPE)
endfunction()

# wrap(VAR INDENT TEXT): TEXT's words on lines of at most WIDTH columns, each
# starting with INDENT spaces; VAR gets the lines, each ending in a newline.
function(wrap var indent text)
  string(REPEAT " " ${indent} pad)
  string(REGEX MATCHALL "[^ ]+" words "${text}")
  set(out "")
  set(line "")
  foreach(word IN LISTS words)
    if(line STREQUAL "")
      set(candidate "${pad}${word}")
    else()
      set(candidate "${line} ${word}")
    endif()
    string(LENGTH "${candidate}" len)
    if(len GREATER WIDTH AND NOT line STREQUAL "")
      string(APPEND out "${line}\n")
      set(candidate "${pad}${word}")
    endif()
    set(line "${candidate}")
  endforeach()
  if(NOT line STREQUAL "")
    string(APPEND out "${line}\n")
  endif()
  set(${var} "${out}" PARENT_SCOPE)
endfunction()

# entry_text(VAR TAG DESC COLUMN): "  TAG" padded to COLUMN, then DESC
# wrapped at COLUMN; a tag too long for its column stands on its own line.
# Long options without a short form line up under the short options' long
# forms, as in most GNU tools.
function(entry_text var tag desc column)
  if(tag MATCHES "^--")
    set(head "      ${tag}")
  else()
    set(head "  ${tag}")
  endif()
  math(EXPR room "${column} - 1")
  string(LENGTH "${head}" len)
  wrap(body ${column} "${desc}")
  if(len GREATER room)
    set(${var} "${head}\n${body}" PARENT_SCOPE)
    return()
  endif()
  math(EXPR gap "${column} - ${len}")
  string(REPEAT " " ${gap} spaces)
  string(SUBSTRING "${body}" ${column} -1 rest)
  set(${var} "${head}${spaces}${rest}" PARENT_SCOPE)
endfunction()

file(READ "${MAN}" page)
string(REPLACE ";" "${SEMI}" page "${page}")
string(REPLACE "[" "${LBRACKET}" page "${page}")
string(REPLACE "]" "${RBRACKET}" page "${page}")
string(REPLACE "\n" ";" lines "${page}")

set(section "")
set(name "")
set(synopsis "")
set(usage_line "")
set(state "")        # in an entry list: "", "tag" (after .TP) or "desc"
set(options_n 0)
set(exits_n 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^\\.SH +\"?([^\"]*)\"?$")
    if(NOT usage_line STREQUAL "")
      list(APPEND synopsis "${usage_line}")
      set(usage_line "")
    endif()
    set(section "${CMAKE_MATCH_1}")
    set(state "")
    continue()
  endif()
  if(line MATCHES "^\\.\\\\\"" OR line MATCHES "^\\.TH ")
    continue()
  endif()
  if(NOT section MATCHES "^(NAME|SYNOPSIS|OPTIONS|EXIT STATUS)$")
    continue()
  endif()

  if(section STREQUAL "NAME" OR section STREQUAL "SYNOPSIS")
    if(line STREQUAL ".br" AND section STREQUAL "SYNOPSIS")
      list(APPEND synopsis "${usage_line}")
      set(usage_line "")
      continue()
    endif()
    if(line MATCHES "^[.']")
      message(FATAL_ERROR "${MAN}: unsupported request in ${section}: ${line}")
    endif()
    roff_to_text(text "${line}")
    if(section STREQUAL "NAME")
      string(APPEND name " ${text}")
    elseif(usage_line STREQUAL "")
      set(usage_line "${text}")
    else()
      string(APPEND usage_line " ${text}")
    endif()
    continue()
  endif()

  # OPTIONS or EXIT STATUS: .TP, a tag line, description lines; .PP ends
  # the list (what follows is prose for the man page only).
  if(section STREQUAL "OPTIONS")
    set(list_var options)
  else()
    set(list_var exits)
  endif()
  if(line STREQUAL ".TP")
    set(state "tag")
    math(EXPR ${list_var}_n "${${list_var}_n} + 1")
    continue()
  endif()
  if(line STREQUAL ".PP")
    set(state "prose")
    continue()
  endif()
  if(state STREQUAL "prose" OR line STREQUAL "")
    continue()
  endif()
  if(line MATCHES "^[.']")
    message(FATAL_ERROR "${MAN}: unsupported request in ${section}: ${line}")
  endif()
  if(state STREQUAL "")
    message(FATAL_ERROR "${MAN}: text before the first .TP in ${section}: ${line}")
  endif()
  roff_to_text(text "${line}")
  set(n ${${list_var}_n})
  if(state STREQUAL "tag")
    set(${list_var}_tag_${n} "${text}")
    set(${list_var}_desc_${n} "")
    set(state "desc")
  else()
    string(APPEND ${list_var}_desc_${n} " ${text}")
  endif()
endforeach()

if(NOT usage_line STREQUAL "")
  list(APPEND synopsis "${usage_line}")
endif()
if(name STREQUAL "" OR NOT synopsis OR options_n EQUAL 0 OR exits_n EQUAL 0)
  message(FATAL_ERROR "${MAN}: NAME, SYNOPSIS, OPTIONS and EXIT STATUS must all have content")
endif()

# The help text.
set(help "")
set(prefix "usage: ")
foreach(usage IN LISTS synopsis)
  string(APPEND help "${prefix}${usage}\n")
  set(prefix "       ")
endforeach()
string(STRIP "${name}" name)
wrap(name_text 0 "${name}")
string(APPEND help "\n${name_text}\n")
foreach(i RANGE 1 ${options_n})
  entry_text(text "${options_tag_${i}}" "${options_desc_${i}}" 23)
  string(APPEND help "${text}")
endforeach()
string(APPEND help "\nExit status:\n")
foreach(i RANGE 1 ${exits_n})
  entry_text(text "${exits_tag_${i}}" "${exits_desc_${i}}" 9)
  string(APPEND help "${text}")
endforeach()
string(APPEND help "\nThe manual: man clean_sim_trace (in a clone: man -l docs/clean_sim_trace.1)\n")

# As C string literals, one per output line.
string(REPLACE "\\" "\\\\" help "${help}")
string(REPLACE "\"" "\\\"" help "${help}")
string(REPLACE "${SEMI}" ";" help "${help}")
string(REPLACE "${LBRACKET}" "[" help "${help}")
string(REPLACE "${RBRACKET}" "]" help "${help}")
string(REGEX REPLACE "\n$" "" help "${help}")
string(REPLACE "\n" "\\n\", \\\n\t\"" help "${help}")
set(header "/* Generated from docs/clean_sim_trace.1 by src/cli/usage_text.cmake:\n * edit the man page, not this file. */\n#ifndef CSIM_USAGE_LINES\n#define CSIM_USAGE_LINES \\\n\t\"${help}\\n\"\n#endif\n")

# Always written, so make sees the header newer than the page (a header
# left as it was would rerun this script on every build).
file(WRITE "${OUT}" "${header}")
