/*
 * input_sniff: what a file is by its first bytes, the one place that
 * knows: gzip (read transparently, SPEC §2), the packed forms the
 * converter does not read (xz, zstd, bzip2; zip, 7z and tar archives), and
 * for a file that is not a visualize_data.bin container, JSON or text, so
 * the error can name it and say what to pass instead (SPEC §1).
 *
 * Users pass the trace.json that sits beside the dump, a log, or the dump
 * as they keep it (visualize_data.bin.xz, the OPPROF_* folder in a
 * .tar.gz), and "corrupt block at offset 0: reserve byte is 0x46" tells
 * them nothing. Apart from gzip's magic (input_stream), asked only after
 * the first header failed its checks, so a valid container is never
 * reclassified.
 */
#ifndef CSIM_INPUT_SNIFF_H
#define CSIM_INPUT_SNIFF_H

#include <stddef.h>

enum csim_sniff {
	CSIM_SNIFF_BINARY,   /* none of these: the corrupt-container error stands */
	CSIM_SNIFF_JSON,     /* text starting with '{' or '[' */
	CSIM_SNIFF_TEXT,     /* other text */
	CSIM_SNIFF_GZIP,     /* 1f 8b */
	CSIM_SNIFF_XZ,       /* fd 37 7a 58 5a 00 */
	CSIM_SNIFF_ZSTD,     /* 28 b5 2f fd */
	CSIM_SNIFF_BZIP2,    /* "BZh" and a block size digit */
	CSIM_SNIFF_ZIP,      /* "PK\3\4", or "PK\5\6" (empty) */
	CSIM_SNIFF_7Z,       /* "7z" bc af 27 1c */
	CSIM_SNIFF_TAR       /* "ustar" at byte 257 */
};

/*
 * Classifies the first n bytes of a file: a magic number first (gzip's
 * needs 2 bytes, tar's 262), else text or JSON. Text: no control byte
 * other than tab, newline, carriage return and form feed (bytes from 0x80
 * are taken as UTF-8). JSON: text whose first byte after an optional UTF-8
 * BOM and whitespace is '{' or '['.
 */
enum csim_sniff csim_input_sniff(const unsigned char *p, size_t n);

/* A packed form the converter does not read, and how to unpack it. */
struct csim_sniff_packed {
	const char *what;     /* "xz-compressed", "a zip archive" */
	const char *suffix;   /* the name its tool unpacks in place (".xz"), or NULL */
	const char *unpack;   /* that tool: "unxz" (an archive: "unzip") */
	const char *to_file;  /* one that writes to stdout: "xz -dc" (NULL: an archive) */
	const char *gz_what;  /* found inside a gzip file: "a gzip-compressed tar archive" */
	const char *gz_unpack;   /* and its tool then: "tar xzf" (NULL: as unpack) */
};

/* What kind is as a packed form; NULL for gzip, JSON, text and binary. */
const struct csim_sniff_packed *csim_input_sniff_packed(enum csim_sniff kind);

#endif
