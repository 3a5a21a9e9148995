#include "read/input_sniff.h"

#include <string.h>

/* The bytes a kind starts with, at offset `at`. */
struct magic {
	enum csim_sniff kind;
	size_t at, n;
	const char *bytes;
};

static const struct magic magics[] = {
	{ CSIM_SNIFF_GZIP, 0, 2, "\x1f\x8b" },
	{ CSIM_SNIFF_XZ, 0, 6, "\xfd\x37\x7a\x58\x5a\x00" },
	{ CSIM_SNIFF_ZSTD, 0, 4, "\x28\xb5\x2f\xfd" },
	{ CSIM_SNIFF_ZIP, 0, 4, "PK\x03\x04" },
	{ CSIM_SNIFF_ZIP, 0, 4, "PK\x05\x06" },
	{ CSIM_SNIFF_7Z, 0, 6, "7z\xbc\xaf\x27\x1c" },
	{ CSIM_SNIFF_TAR, 257, 5, "ustar" },
};

static const struct csim_sniff_packed packed[] = {
	[CSIM_SNIFF_XZ] = { "xz-compressed", ".xz", "unxz", "xz -dc", NULL, NULL },
	[CSIM_SNIFF_ZSTD] = { "zstd-compressed", ".zst", "unzstd", "zstd -dc", NULL, NULL },
	[CSIM_SNIFF_BZIP2] = { "bzip2-compressed", ".bz2", "bunzip2", "bzip2 -dc", NULL, NULL },
	[CSIM_SNIFF_ZIP] = { "a zip archive", NULL, "unzip", NULL, NULL, NULL },
	[CSIM_SNIFF_7Z] = { "a 7z archive", NULL, "7z x", NULL, NULL, NULL },
	[CSIM_SNIFF_TAR] = { "a tar archive", NULL, "tar xf", NULL, "a gzip-compressed tar archive",
			     "tar xzf" },
};

static int is_text_byte(unsigned char b)
{
	return b >= 0x20 ? b != 0x7f : b == '\t' || b == '\n' || b == '\r' || b == '\f';
}

/* bzip2: "BZh" and the block size '1'-'9' (a file cut after "BZh" too). */
static int is_bzip2(const unsigned char *p, size_t n)
{
	return n >= 3 && memcmp(p, "BZh", 3) == 0 && (n == 3 || (p[3] >= '1' && p[3] <= '9'));
}

static enum csim_sniff sniff_magic(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
		const struct magic *m = &magics[i];

		if (n >= m->at + m->n && memcmp(p + m->at, m->bytes, m->n) == 0)
			return m->kind;
	}
	return is_bzip2(p, n) ? CSIM_SNIFF_BZIP2 : CSIM_SNIFF_BINARY;
}

enum csim_sniff csim_input_sniff(const unsigned char *p, size_t n)
{
	const enum csim_sniff magic = sniff_magic(p, n);
	size_t i = 0;

	if (magic != CSIM_SNIFF_BINARY || n == 0)
		return magic;
	for (size_t k = 0; k < n; k++) {
		if (!is_text_byte(p[k]))
			return CSIM_SNIFF_BINARY;
	}
	if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		i = 3;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
		i++;
	return i < n && (p[i] == '{' || p[i] == '[') ? CSIM_SNIFF_JSON : CSIM_SNIFF_TEXT;
}

const struct csim_sniff_packed *csim_input_sniff_packed(enum csim_sniff kind)
{
	if ((size_t)kind >= sizeof(packed) / sizeof(packed[0]) || packed[kind].what == NULL)
		return NULL;
	return &packed[kind];
}
