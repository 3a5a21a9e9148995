/*
 * event_args: args.process_bytes as the producer writes it (a decimal
 * string, realdata-notes §3) or as a number, and args.pc_addr ("0x..."),
 * read from validated args text; anything else is not one.
 */
#include <string.h>

#include "check.h"
#include "read/event_args.h"
#include "read/json_scan.h"

/* 1 and *v when the walk finds process_bytes holding a byte count, else 0;
   -1 when the walk fails (it must not: the text is valid). */
static int bytes_of(struct csim_json_stack *st, const char *args, uint64_t *v)
{
	struct csim_span m[2];

	if (csim_event_args_members(st, csim_span_of(args, args ? strlen(args) : 0), m) != 0)
		return -1;
	return csim_event_bytes_value(m[0], v);
}

static void test_process_bytes(struct check_ctx *c)
{
	struct csim_json_stack st = { NULL, 0, 0 };
	uint64_t v = 7;

	CHECK(c, bytes_of(&st, "{\"process_bytes\":\"65536\"}", &v) == 1 && v == 65536);
	CHECK(c, bytes_of(&st, "{\"code\":\"\",\"process_bytes\":512}", &v) == 1 && v == 512);
	CHECK(c, bytes_of(&st, "{\"process_bytes\":\"0\"}", &v) == 1 && v == 0);
	CHECK(c, bytes_of(&st, "{\"process_bytes\":\"18446744073709551615\"}", &v) == 0);
	CHECK(c, bytes_of(&st, "{\"process_bytes\":\"9999999999999999999\"}", &v) == 1 &&
		 v == 9999999999999999999u);
	CHECK(c, bytes_of(&st, "{\"process_bytes\":\"-1\"}", &v) == 0);
	CHECK(c, bytes_of(&st, "{\"process_bytes\":\"12a\"}", &v) == 0);
	CHECK(c, bytes_of(&st, "{\"process_bytes\":\"\"}", &v) == 0);
	CHECK(c, bytes_of(&st, "{\"process_bytes\":1.5}", &v) == 0);
	CHECK(c, bytes_of(&st, "{\"process_bytes\":[1]}", &v) == 0);
	CHECK(c, bytes_of(&st, "{\"process\\u005fbytes\":\"1\"}", &v) == 0);
	CHECK(c, bytes_of(&st, "{\"detail\":{\"process_bytes\":\"1\"}}", &v) == 0);
	CHECK(c, bytes_of(&st, "{}", &v) == 0);
	CHECK(c, bytes_of(&st, NULL, &v) == 0);
	csim_json_stack_release(&st);
}

static int addr_of(struct csim_json_stack *st, const char *args, uint64_t *a, int *has)
{
	return csim_event_pc_addr(st, csim_span_of(args, strlen(args)), a, has);
}

static void test_pc_addr(struct check_ctx *c)
{
	struct csim_json_stack st = { NULL, 0, 0 };
	uint64_t a = 0;
	int has = -1;

	CHECK(c, addr_of(&st, "{\"pc_addr\":\"0x10d0d168\"}", &a, &has) == 1 &&
		 a == 0x10d0d168u && has == 0);
	CHECK(c, addr_of(&st, "{\"pc_addr\":\"0XABCdef\",\"source\":\"k.cpp:1\"}", &a, &has) == 1 &&
		 a == 0xabcdefu && has == 1);
	CHECK(c, addr_of(&st, "{\"pc_addr\":\"0xffffffffffffffff\"}", &a, &has) == 1 &&
		 a == UINT64_MAX);
	CHECK(c, addr_of(&st, "{\"pc_addr\":\"0x1ffffffffffffffff\"}", &a, &has) == 0);
	CHECK(c, addr_of(&st, "{\"pc_addr\":\"0x\"}", &a, &has) == 0);
	CHECK(c, addr_of(&st, "{\"pc_addr\":\"10d0\"}", &a, &has) == 0);
	CHECK(c, addr_of(&st, "{\"pc_addr\":\"0x10g0\"}", &a, &has) == 0);
	CHECK(c, addr_of(&st, "{\"pc_addr\":4128}", &a, &has) == 0);
	CHECK(c, addr_of(&st, "{\"code\":\"a\",\"detail\":\"b\"}", &a, &has) == 0 && has == 0);
	CHECK(c, addr_of(&st, "[1]", &a, &has) == 0);
	csim_json_stack_release(&st);
}

#define SPAN(lit) csim_span_of(lit, sizeof(lit) - 1)

static int span_is(struct csim_span v, const char *s)
{
	return v.p != NULL && v.n == strlen(s) && memcmp(v.p, s, v.n) == 0;
}

/* Both members' value text in one walk, by the fast finder and by the
   general one (whitespace makes the fast one decline), in either order. */
static void test_members(struct check_ctx *c)
{
	struct csim_json_stack st = { NULL, 0, 0 };
	static const char *const both[] = {
		"{\"code\":\"\",\"pc_addr\":\"0x1130a064\",\"process_bytes\":\"32\"}",
		"{ \"process_bytes\" : \"32\" , \"pc_addr\" : \"0x1130a064\" }",
		"{\"pc_addr\":\"0x1\",\"process_bytes\":\"32\",\"pc_addr\":\"0x1130a064\"}",
	};
	struct csim_span m[2];

	for (size_t i = 0; i < sizeof(both) / sizeof(both[0]); i++) {
		CHECK(c, csim_event_args_members(&st, csim_span_of(both[i], strlen(both[i])), m) == 0);
		CHECK(c, span_is(m[0], "\"32\"") && span_is(m[1], "\"0x1130a064\""));
	}
	CHECK(c, csim_event_args_members(&st, SPAN("{ \"pc\\u005faddr\":\"0x1\"}"), m) == 0 &&
		 m[1].p == NULL);
	CHECK(c, csim_event_args_members(&st, SPAN("{\"detail\":\"x\"}"), m) == 0 &&
		 m[0].p == NULL && m[1].p == NULL);
	CHECK(c, csim_event_args_members(&st, SPAN("[1]"), m) == 0 && m[0].p == NULL);
	csim_json_stack_release(&st);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_process_bytes);
	CHECK_RUN(&c, test_pc_addr);
	CHECK_RUN(&c, test_members);
	return check_done(&c);
}
