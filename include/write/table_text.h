/*
 * table_text: names and paths fitted to the columns of the summary table
 * (docs/summary.md, "The table"). One column per UTF-8 character (wide
 * characters are rare in pid, lane and file names); a control byte is
 * shown as '?' so that no name can break a line.
 */
#ifndef CSIM_TABLE_TEXT_H
#define CSIM_TABLE_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Widest line the table prints. */
#define CSIM_TABLE_WIDTH 80

/* Columns of a pipe's name wherever the table prints one. */
#define CSIM_TABLE_W_PIPE 11

/* Room for a fitted text of up to CSIM_TABLE_WIDTH columns (4 bytes each). */
#define CSIM_TEXT_CELL (4 * CSIM_TABLE_WIDTH + 1)

/*
 * name[0..n) cut to `width` (at most CSIM_TABLE_WIDTH) columns into dst
 * (CSIM_TEXT_CELL bytes), a cut name ending in '~'. Returns the columns used.
 */
size_t csim_text_fit(char *dst, const char *name, size_t n, size_t width);

/*
 * A source line ("dir/file.cpp:91") fitted to `width` columns keeping its
 * end (SPEC §10): whole when it fits; else "…" and the longest tail that
 * starts at a path separator ('/' or '\') and fits ("…/file.cpp:91");
 * else its last part alone, after "…" when there is room; else "…" and
 * its last width - 1 columns. The file name and line are never cut while
 * they fit. Returns the columns used.
 */
size_t csim_text_fit_tail(char *dst, const char *path, size_t n, size_t width);

/* The columns name[0..n) takes, uncut. */
size_t csim_text_columns(const char *name, size_t n);

/*
 * The bytes of name[0..n)'s longest start of at most `width` columns,
 * ending between characters: where a text too wide for a line breaks.
 */
size_t csim_text_fit_bytes(const char *name, size_t n, size_t width);

/* Prints name fitted to width (csim_text_fit), padded with spaces when pad. */
void csim_text_put(FILE *f, const char *name, size_t n, size_t width, int pad);

/*
 * A text (a diagnosis line) word-wrapped to the table's width, then a
 * newline: the first line goes on after `used` columns, later ones start
 * 2 columns in; a number keeps its unit ("550 ns," "50 %)") on its line.
 */
void csim_text_put_wrapped(FILE *f, const char *text, size_t n, size_t used);

#endif
