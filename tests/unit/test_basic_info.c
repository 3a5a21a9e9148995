/*
 * basic_info: the OP_BASIC_INFO members the summary reports, as raw JSON
 * values of the payload (format-notes §5.5: name, soc, op_type, block_dim,
 * mix_block_dim, duration, device_id, pid, advice, block_detail or
 * mix_block_detail), and clear errors for payloads that are not an object.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "read/basic_info.h"

static char *dup_text(const char *s)
{
	size_t n = strlen(s);
	char *p = malloc(n ? n : 1);

	if (p != NULL)
		memcpy(p, s, n);
	return p;
}

static int load(struct csim_basic_info *bi, const char *text, struct csim_error *err)
{
	char *p = dup_text(text);

	return p == NULL ? -1 : csim_basic_info_load(bi, "v.bin", 472, p, strlen(text), err);
}

#define CHECK_FIELD(c, bi, f, want) \
	CHECK_MEM((c), (bi)->field[f].p, (bi)->field[f].n, (want))

/* The members of a real 910B payload's shape, in the producer's key order. */
static void test_members_as_written(struct check_ctx *c)
{
	static const char text[] =
		"{\"advice\":\"\",\"block_dim\":8,\"device_id\":0,\"duration\":31.5670013,"
		"\"mix_block_detail\":{\"head_name\":[\"Block ID\",\"Core Type\"],"
		"\"row\":[{\"value\":[\"0\",\"cube0\"]}],\"size\":1},"
		"\"mix_block_dim\":16,\"name\":\"MatmulCustom\",\"op_type\":\"mix\","
		"\"pid\":1234,\"soc\":\"Ascend910B4\"}";
	struct csim_basic_info bi;
	struct csim_error err;
	double v = 0;

	csim_basic_info_init(&bi);
	if (!CHECK(c, load(&bi, text, &err) == CSIM_OK))
		goto out;
	CHECK_FIELD(c, &bi, CSIM_BASIC_NAME, "\"MatmulCustom\"");
	CHECK_FIELD(c, &bi, CSIM_BASIC_SOC, "\"Ascend910B4\"");
	CHECK_FIELD(c, &bi, CSIM_BASIC_OP_TYPE, "\"mix\"");
	CHECK_FIELD(c, &bi, CSIM_BASIC_BLOCK_DIM, "8");
	CHECK_FIELD(c, &bi, CSIM_BASIC_MIX_BLOCK_DIM, "16");
	CHECK_FIELD(c, &bi, CSIM_BASIC_DURATION, "31.5670013");
	CHECK_FIELD(c, &bi, CSIM_BASIC_MIX_BLOCK_DETAIL,
		    "{\"head_name\":[\"Block ID\",\"Core Type\"],"
		    "\"row\":[{\"value\":[\"0\",\"cube0\"]}],\"size\":1}");
	CHECK(c, bi.field[CSIM_BASIC_BLOCK_DETAIL].p == NULL);
	CHECK(c, bi.field[CSIM_BASIC_CUR_FREQ].p == NULL);
	CHECK(c, !csim_basic_info_number(&bi, CSIM_BASIC_CUR_FREQ, &v));
	CHECK(c, csim_basic_info_number(&bi, CSIM_BASIC_BLOCK_DIM, &v) && v == 8);
	CHECK(c, !csim_basic_info_number(&bi, CSIM_BASIC_NAME, &v));
	{
		struct csim_span name = csim_basic_info_text(&bi, CSIM_BASIC_NAME);
		struct csim_span dim = csim_basic_info_text(&bi, CSIM_BASIC_BLOCK_DIM);

		CHECK_MEM(c, name.p, name.n, "MatmulCustom");   /* quotes off */
		CHECK_MEM(c, dim.p, dim.n, "8");                /* a number as written */
		CHECK(c, csim_basic_info_text(&bi, CSIM_BASIC_CUR_FREQ).p == NULL);
	}
	CHECK_U64(c, bi.offset, 472);
out:
	csim_basic_info_release(&bi);
}

/* A clock written as a string of a number still reads as one; a repeated
   key keeps its last value, as everywhere else in the input. */
static void test_numbers_and_repeats(struct check_ctx *c)
{
	static const char text[] =
		" {\"cur_freq\":\"1650\",\"rated_freq\":1800.0,\"soc\":\"a\",\"soc\":\"b\"} \n";
	struct csim_basic_info bi;
	struct csim_error err;
	double v = 0;

	csim_basic_info_init(&bi);
	if (!CHECK(c, load(&bi, text, &err) == CSIM_OK))
		goto out;
	CHECK(c, csim_basic_info_number(&bi, CSIM_BASIC_CUR_FREQ, &v) && v == 1650);
	CHECK(c, csim_basic_info_number(&bi, CSIM_BASIC_RATED_FREQ, &v) && v == 1800);
	CHECK_FIELD(c, &bi, CSIM_BASIC_SOC, "\"b\"");
out:
	csim_basic_info_release(&bi);
}

/* Not an object, malformed, or trailing data: an input error that names
   the file, the block and the payload byte, and no facts. */
static void test_bad_payloads(struct check_ctx *c)
{
	static const struct { const char *text, *why; } cases[] = {
		{ "[1,2]", "not a JSON object at payload byte 0" },
		{ "", "not a JSON object at payload byte 0" },
		{ "{\"name\":\"x\",", "payload byte" },
		{ "{\"name\":\"x\"} {}", "unexpected data after the JSON value at payload byte 13" },
		{ "{\"name\":tru}", "payload byte" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct csim_basic_info bi;
		struct csim_error err;

		csim_basic_info_init(&bi);
		CHECK(c, load(&bi, cases[i].text, &err) == CSIM_E_INPUT);
		CHECK_CONTAINS(c, err.message, "v.bin: OP_BASIC_INFO block at offset 472: ");
		CHECK_CONTAINS(c, err.message, cases[i].why);
		CHECK(c, bi.field[CSIM_BASIC_NAME].p == NULL);
		csim_basic_info_release(&bi);
	}
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_members_as_written);
	CHECK_RUN(&c, test_numbers_and_repeats);
	CHECK_RUN(&c, test_bad_payloads);
	return check_done(&c);
}
