/*
 * input_sniff: naming a file that is not a container (SPEC §1): JSON (with
 * or without BOM and leading whitespace), other text, the packed forms by
 * their magic (gzip, xz, zstd, bzip2, zip, 7z, tar), and binary that keeps
 * the corrupt-container error.
 */
#include <string.h>

#include "check.h"
#include "read/input_sniff.h"

static enum csim_sniff sniff(const char *s, size_t n)
{
	return csim_input_sniff((const unsigned char *)s, n);
}

/* A string literal's bytes, its terminating NUL left out. */
#define SNIFF(lit) sniff(lit, sizeof(lit) - 1)

static void test_json(struct check_ctx *c)
{
	CHECK_I64(c, SNIFF("{\"traceEvents\":[]}"), CSIM_SNIFF_JSON);
	CHECK_I64(c, SNIFF("[{\"ph\":\"X\"}]"), CSIM_SNIFF_JSON);
	CHECK_I64(c, SNIFF(" \r\n\t{"), CSIM_SNIFF_JSON);
	CHECK_I64(c, SNIFF("\xef\xbb\xbf\n{\"a\":\"\xc3\xa9\"}"), CSIM_SNIFF_JSON);
}

static void test_text(struct check_ctx *c)
{
	CHECK_I64(c, SNIFF("mode: ca\nSimulation finished\n"), CSIM_SNIFF_TEXT);
	CHECK_I64(c, SNIFF("done\n"), CSIM_SNIFF_TEXT);
	/* A BOM alone, or JSON-looking text after other text, is just text. */
	CHECK_I64(c, SNIFF("\xef\xbb\xbf"), CSIM_SNIFF_TEXT);
	CHECK_I64(c, SNIFF("x {"), CSIM_SNIFF_TEXT);
	CHECK_I64(c, SNIFF("page 1\f page 2\n"), CSIM_SNIFF_TEXT);
}

static void test_binary(struct check_ctx *c)
{
	/* A block header whose first size byte is '{' is still binary. */
	static const char header[12] = { '{', 1, 0, 0, 0, 0, 0, 0, 2, 0, 0x5a, 0x41 };

	CHECK_I64(c, sniff(header, sizeof(header)), CSIM_SNIFF_BINARY);
	CHECK_I64(c, SNIFF("{\"a\":1}\0"), CSIM_SNIFF_BINARY);
	CHECK_I64(c, SNIFF("text\x7f"), CSIM_SNIFF_BINARY);
	CHECK_I64(c, SNIFF("text\x1b[0m"), CSIM_SNIFF_BINARY);
	CHECK_I64(c, SNIFF(""), CSIM_SNIFF_BINARY);
}

/* The packed forms by their magic, whatever follows; each named, with its tool. */
static void test_packed(struct check_ctx *c)
{
	unsigned char tar[300];

	CHECK_I64(c, SNIFF("\x1f\x8b"), CSIM_SNIFF_GZIP);
	CHECK_I64(c, SNIFF("\xfd" "7zXZ\0\0\x04\xe6\xd6\xb4\x46"), CSIM_SNIFF_XZ);
	CHECK_I64(c, SNIFF("\x28\xb5\x2f\xfd\x24\x06"), CSIM_SNIFF_ZSTD);
	CHECK_I64(c, SNIFF("BZh91AY&SY"), CSIM_SNIFF_BZIP2);
	CHECK_I64(c, SNIFF("BZh"), CSIM_SNIFF_BZIP2);
	CHECK_I64(c, SNIFF("BZhx is text"), CSIM_SNIFF_TEXT);
	CHECK_I64(c, SNIFF("PK\x03\x04\x14\0"), CSIM_SNIFF_ZIP);
	CHECK_I64(c, SNIFF("PK\x05\x06\0\0"), CSIM_SNIFF_ZIP);
	CHECK_I64(c, SNIFF("7z\xbc\xaf\x27\x1c\0\x04"), CSIM_SNIFF_7Z);
	memset(tar, 0, sizeof(tar));
	memcpy(tar, "OPPROF_x/", 9);
	memcpy(tar + 257, "ustar\0" "00", 8);
	CHECK_I64(c, csim_input_sniff(tar, sizeof(tar)), CSIM_SNIFF_TAR);
	CHECK_I64(c, csim_input_sniff(tar, 261), CSIM_SNIFF_BINARY);   /* cut before "ustar" ends */
	/* A magic cut short is not that kind. */
	CHECK(c, SNIFF("\xfd" "7zX") != CSIM_SNIFF_XZ);
	CHECK_I64(c, SNIFF("\x1f"), CSIM_SNIFF_BINARY);
	CHECK(c, csim_input_sniff_packed(CSIM_SNIFF_XZ) != NULL &&
		 strcmp(csim_input_sniff_packed(CSIM_SNIFF_XZ)->unpack, "unxz") == 0);
	CHECK(c, csim_input_sniff_packed(CSIM_SNIFF_TAR) != NULL &&
		 csim_input_sniff_packed(CSIM_SNIFF_TAR)->to_file == NULL);
	CHECK(c, csim_input_sniff_packed(CSIM_SNIFF_GZIP) == NULL);
	CHECK(c, csim_input_sniff_packed(CSIM_SNIFF_JSON) == NULL);
	CHECK(c, csim_input_sniff_packed(CSIM_SNIFF_BINARY) == NULL);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_json);
	CHECK_RUN(&c, test_text);
	CHECK_RUN(&c, test_binary);
	CHECK_RUN(&c, test_packed);
	return check_done(&c);
}
