/*
 * input_sniff: what a file that is not a visualize_data.bin container is,
 * so the error can name it and say what to pass instead (SPEC §1).
 *
 * Users pass the trace.json that sits beside the dump, or a log or notes
 * file, and "corrupt block at offset 0: reserve byte is 0x6d" tells them
 * nothing. Asked only after the first header failed its checks, so a valid
 * container is never reclassified.
 */
#ifndef CSIM_INPUT_SNIFF_H
#define CSIM_INPUT_SNIFF_H

#include <stddef.h>

enum csim_sniff {
	CSIM_SNIFF_BINARY,   /* neither: the corrupt-container error stands */
	CSIM_SNIFF_JSON,     /* text starting with '{' or '[' */
	CSIM_SNIFF_TEXT      /* other text */
};

/*
 * Classifies the first n bytes of a file. Text: no control byte other than
 * tab, newline, carriage return and form feed (bytes from 0x80 are taken
 * as UTF-8). JSON: text whose first byte after an optional UTF-8 BOM and
 * whitespace is '{' or '['.
 */
enum csim_sniff csim_input_sniff(const unsigned char *p, size_t n);

#endif
