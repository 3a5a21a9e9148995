/*
 * input_sniff: naming a file that is not a container (SPEC §1): JSON (with
 * or without BOM and leading whitespace), other text, and binary that
 * keeps the corrupt-container error.
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

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_json);
	CHECK_RUN(&c, test_text);
	CHECK_RUN(&c, test_binary);
	return check_done(&c);
}
