/*
 * event_fast: the one-pass scanner of compact events must give, for every
 * event it accepts, exactly the general scanner's fields, depth and end,
 * and must decline everything else (whitespace, escaped keys, nested
 * containers, a cut or malformed event) so that the general scanner, with
 * its errors, decides. Its fields include two members of args
 * (process_bytes, pc_addr), read in the same pass. The reference here is the general JSON scanner:
 * the whole value validated, then its members walked.
 */
#include <stdlib.h>

#include "check.h"

#include "read/event_fast.h"
#include "read/json_scan.h"

/* Compact events in the producer's shapes (format-notes §5, realdata-notes). */
static const char *const compact[] = {
	"{\"args\":{\"code\":\"kernels/add_custom/op_kernel/add_custom.cpp:40\","
	"\"detail\":\"XD:X3=0x0,XN:X2=0x1130a000,IMM:0x8,\",\"pc_addr\":\"0x1130a00c\"},"
	"\"cname\":\"startup\",\"dur\":0.001621621660888195,\"name\":\"LD_XD_XN_IMM\","
	"\"ph\":\"X\",\"pid\":\"core0.veccore1\",\"tid\":\"SCALAR\",\"ts\":3.9805405139923096}",
	"{\"args\":{\"code\":\"\",\"detail\":\"Src:OUT,Dst:UB,id:2\",\"pc_addr\":\"0x1130a064\","
	"\"process_bytes\":\"32\"},\"cname\":\"thread_state_iowait\",\"dur\":0.154,"
	"\"name\":\"MOV_OUT_TO_UB\",\"ph\":\"X\",\"pid\":\"core3.veccore0\",\"tid\":\"MTE2\",\"ts\":8.679}",
	"{\"args\":{\"sort_index\":1},\"name\":\"process_sort_index\",\"ph\":\"M\","
	"\"pid\":\"core0.cubecore0\",\"tid\":\"NA\"}",
	"{\"bp\":\"e\",\"cat\":\"flag\",\"id\":\"7\",\"name\":\"SET_FLAG\",\"ph\":\"s\","
	"\"pid\":0,\"tid\":1,\"ts\":1.5e-3}",
	"{\"args\":{\"value\":-12.5E+2,\"on\":true,\"off\":false,\"none\":null},\"name\":\"bw\","
	"\"ph\":\"C\",\"pid\":\"core0\",\"ts\":0}",
	"{\"args\":{\"detail\":\"\\u00b5s \\\"quoted\\\" \\\\ \\ud83d\\ude00\"},\"name\":\"N\\u0041ME\","
	"\"ph\":\"X\",\"ts\":1,\"dur\":2}",
	"{\"ts\":1,\"ts\":2,\"name\":\"dup\",\"name\":\"last\",\"args\":{},\"args\":7}",
	"{}",
	"{\"args\":{}}",
	"{\"unknown_key_long_enough_to_matter\":\"x\",\"p\":1,\"phx\":2,\"pidd\":3,\"Name\":4}",
	/* the keys told by one word compare, near ones that are not them, the
	   last duplicate deciding whether a string has an escape */
	"{\"id\":\"a\\\\b\",\"ph\":\"X\",\"ph\":\"\\u0058\",\"pid\":\"p\",\"tid\":7,\"cname\":\"c\","
	"\"cnamex\":1,\"pidx\":2,\"tsx\":3,\"ts\":1,\"dur\":\"\",\"argsx\":{},\"nam\":0}",
	"{\"name\":\"n\\\"\",\"name\":\"n\",\"tid\":\"T\",\"tid\":null,\"ts\":1}",
	"{\"ts\":1}",
	/* the args members read in the same pass: the last of a repeated key,
	   the last args' only, never another object's */
	"{\"args\":{\"code\":\"a\\\"b\",\"pc_addr\":\"0x10\",\"process_bytes\":\"32\"},\"ph\":\"X\"}",
	"{\"args\":{\"pc_addr\":\"0x10\",\"pc_addr\":\"0x20\",\"process_bytes\":7}}",
	"{\"args\":{\"pc_addr\":\"0x10\"},\"args\":{\"process_bytes\":1}}",
	"{\"args\":{\"pc_addr\":\"0x10\"},\"args\":5}",
	"{\"x\":{\"pc_addr\":\"0x10\",\"process_bytes\":\"1\"},\"args\":{\"pc_addrx\":1}}",
};

/* Declined, though valid JSON: the general scanner reads them. */
static const char *const general[] = {
	"{ \"ph\":\"X\"}",
	"{\"ph\" :\"X\"}",
	"{\"ph\":\"X\" ,\"ts\":1}",
	"{\"ph\":\"X\",\n\"ts\":1}",
	"{\"p\\u0068\":\"X\"}",
	"{\"args\":{\"a\":{\"b\":1}}}",
	"{\"args\":{\"a\":[1,2]}}",
	"{\"args\":[1,2]}",
	"{\"args\":{ \"a\":1}}",
};

struct fields {
	int ok;
	struct csim_span field[CSIM_F_COUNT];
	size_t depth;
	unsigned escaped;   /* bit f: field f a string with a backslash */
	const char *stop;
};

/* args' process_bytes and pc_addr by a walk of their own: plain keys, the last wins. */
static void args_members(struct csim_json_stack *st, struct csim_span *field)
{
	struct csim_span args = field[CSIM_F_ARGS];
	struct csim_scan_result res;
	struct csim_json_iter it;
	struct csim_json_item m;
	int has = 1;

	if (args.p == NULL || *args.p != '{')
		return;
	csim_json_iter_init(&it, st, args.p, args.p + args.n, 1);
	while (csim_json_iter_next(&it, &m, &has, &res) == CSIM_SCAN_OK && has) {
		if (m.key_escaped)
			continue;
		if (m.key.n == 13 && memcmp(m.key.p, "process_bytes", 13) == 0)
			field[CSIM_F_ARG_BYTES] = m.value;
		else if (m.key.n == 7 && memcmp(m.key.p, "pc_addr", 7) == 0)
			field[CSIM_F_ARG_PC] = m.value;
	}
}

/* The general scanner's reading of the event text [p, end). */
static struct fields reference(const char *p, const char *end)
{
	struct csim_json_stack st = { NULL, 0, 0 };
	struct csim_scan_result res;
	struct csim_json_iter it;
	struct csim_json_item m;
	struct fields f;
	int has = 1, rc;

	memset(&f, 0, sizeof(f));
	if (p == end || *p != '{' || csim_json_scan_value(&st, p, end, 1, &res) != CSIM_SCAN_OK)
		goto out;
	f.stop = res.end;
	csim_json_iter_init(&it, &st, p, end, 1);
	for (;;) {
		char key[128];
		size_t klen;
		int field;

		rc = csim_json_iter_next(&it, &m, &has, &res);
		if (rc != CSIM_SCAN_OK || !has)
			break;
		klen = m.key.n < sizeof(key) ? m.key.n : 0;
		if (m.key_escaped && klen > 0)
			klen = csim_json_unescape(m.key.p, m.key.n, key);
		else if (klen > 0)
			memcpy(key, m.key.p, klen);
		field = csim_event_key_field(key, klen);
		if (field >= 0) {
			f.field[field] = m.value;
			if (*m.value.p == '"' && memchr(m.value.p, '\\', m.value.n) != NULL)
				f.escaped |= 1u << field;
			else
				f.escaped &= ~(1u << field);
		}
		if (m.depth > f.depth)
			f.depth = m.depth;
	}
	f.ok = rc == CSIM_SCAN_OK;
	if (f.ok)
		args_members(&st, f.field);
out:
	csim_json_stack_release(&st);
	return f;
}

static struct fields fast(const char *p, const char *end)
{
	struct fields f;

	memset(&f, 0, sizeof(f));
	f.ok = csim_event_fast_scan(p, end, f.field, &f.depth, &f.escaped, &f.stop);
	return f;
}

static int same(const struct fields *a, const struct fields *b)
{
	if (a->ok != b->ok || a->depth != b->depth || a->stop != b->stop ||
	    a->escaped != b->escaped)
		return 0;
	for (int i = 0; i < CSIM_F_COUNT; i++)
		if (a->field[i].p != b->field[i].p || a->field[i].n != b->field[i].n)
			return 0;
	return 1;
}

/* A heap copy of exactly n bytes, so a read past the end is caught (ASan). */
static char *exact_copy(const char *s, size_t n)
{
	char *p = malloc(n ? n : 1);

	if (p != NULL)
		memcpy(p, s, n);
	return p;
}

static void test_keys(struct check_ctx *c)
{
	static const struct { const char *key; int field; } keys[] = {
		{ "ph", CSIM_F_PH }, { "ts", CSIM_F_TS }, { "id", CSIM_F_ID },
		{ "pid", CSIM_F_PID }, { "tid", CSIM_F_TID }, { "dur", CSIM_F_DUR },
		{ "name", CSIM_F_NAME }, { "args", CSIM_F_ARGS }, { "p", -1 },
		{ "pi", -1 }, { "pix", -1 }, { "tis", -1 }, { "dux", -1 }, { "nam", -1 },
		{ "arg", -1 }, { "argsx", -1 }, { "Ph", -1 }, { "", -1 }, { "cat", -1 },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		CHECK_I64(c, csim_event_key_field(keys[i].key, strlen(keys[i].key)),
			  keys[i].field);
}

/* Accepted, and read as the general scanner reads them. */
static void test_compact(struct check_ctx *c)
{
	for (size_t i = 0; i < sizeof(compact) / sizeof(compact[0]); i++) {
		size_t n = strlen(compact[i]);
		char *p = exact_copy(compact[i], n);
		struct fields want, got;

		if (!CHECK(c, p != NULL))
			return;
		want = reference(p, p + n);
		got = fast(p, p + n);
		CHECK(c, want.ok && want.stop == p + n);
		if (!CHECK(c, got.ok && same(&got, &want)))
			check_print_bytes("event", p, n);
		free(p);
	}
}

static void test_general(struct check_ctx *c)
{
	for (size_t i = 0; i < sizeof(general) / sizeof(general[0]); i++) {
		size_t n = strlen(general[i]);
		char *p = exact_copy(general[i], n);

		if (!CHECK(c, p != NULL))
			return;
		CHECK(c, reference(p, p + n).ok);
		if (!CHECK(c, !fast(p, p + n).ok))
			check_print_bytes("event", p, n);
		free(p);
	}
}

/* Every cut of every event declines: the window may end anywhere. */
static void test_prefixes(struct check_ctx *c)
{
	unsigned declined = 0, cuts = 0;

	for (size_t i = 0; i < sizeof(compact) / sizeof(compact[0]); i++) {
		size_t n = strlen(compact[i]);

		for (size_t k = 1; k < n; k++) {
			char *p = exact_copy(compact[i], k);

			if (!CHECK(c, p != NULL))
				return;
			cuts++;
			declined += fast(p, p + k).ok ? 0u : 1u;
			free(p);
		}
	}
	CHECK_U64(c, declined, cuts);
}

/*
 * One byte changed anywhere, to any byte that matters to JSON: whenever the
 * fast scanner accepts, the general one accepts with the same reading.
 */
static void test_mutations(struct check_ctx *c)
{
	static const char bytes[] = "\"\\,:{}[] \n0a-.eE+tnf\x01\x7f\xff";
	unsigned accepted = 0, agreed = 0, tried = 0;

	for (size_t i = 0; i < sizeof(compact) / sizeof(compact[0]); i++) {
		size_t n = strlen(compact[i]);

		/* from 1: the caller calls it at a '{' */
		for (size_t at = 1; at < n; at++)
			for (size_t b = 0; b < sizeof(bytes) - 1; b++) {
				char *p = exact_copy(compact[i], n);
				struct fields got;

				if (!CHECK(c, p != NULL))
					return;
				p[at] = bytes[b];
				tried++;
				got = fast(p, p + n);
				if (got.ok) {
					struct fields want = reference(p, p + n);

					accepted++;
					agreed += same(&got, &want) ? 1u : 0u;
					if (!same(&got, &want))
						check_print_bytes("mutated event", p, n);
				}
				free(p);
			}
	}
	CHECK_U64(c, agreed, accepted);
	/* Both kinds happen: mutations the fast path takes and ones it declines. */
	CHECK(c, accepted > 0 && accepted < tried);
}

static const char *const find_keys[] = { "detail", "pc_addr", "process_bytes", "source" };
#define NFIND (sizeof(find_keys) / sizeof(find_keys[0]))

struct found {
	int ok;
	struct csim_span v[NFIND];
};

/* The general walk: the object valid and whole, each key's plain spelling once. */
static struct found find_reference(struct csim_span obj)
{
	struct csim_json_stack st = { NULL, 0, 0 };
	struct csim_scan_result res;
	struct csim_json_iter it;
	struct csim_json_item m;
	struct found f;
	int has = 1, rc, twice = 0;

	memset(&f, 0, sizeof(f));
	if (obj.n == 0 || *obj.p != '{' ||
	    csim_json_scan_value(&st, obj.p, obj.p + obj.n, 1, &res) != CSIM_SCAN_OK ||
	    res.end != obj.p + obj.n)
		goto out;
	csim_json_iter_init(&it, &st, obj.p, obj.p + obj.n, 1);
	while ((rc = csim_json_iter_next(&it, &m, &has, &res)) == CSIM_SCAN_OK && has)
		for (size_t i = 0; i < NFIND; i++)
			if (!m.key_escaped && csim_span_eq(m.key, find_keys[i])) {
				twice |= f.v[i].p != NULL;
				f.v[i] = m.value;
			}
	f.ok = rc == CSIM_SCAN_OK && !twice;
out:
	csim_json_stack_release(&st);
	return f;
}

static int same_found(const struct found *a, const struct found *b)
{
	if (a->ok != b->ok)
		return 0;
	for (size_t i = 0; i < NFIND && a->ok; i++)
		if (a->v[i].p != b->v[i].p || a->v[i].n != b->v[i].n)
			return 0;
	return 1;
}

static struct found find_fast(struct csim_span obj)
{
	struct found f;

	memset(&f, 0, sizeof(f));
	f.ok = csim_event_fast_find(obj, find_keys, NFIND, f.v);
	return f;
}

/* args objects: the events' own, and the cases the walk must decline. */
static void test_find(struct check_ctx *c)
{
	static const char *const objects[] = {
		"{}", "{\"detail\":5}", "{\"source\":\"a.cpp:1\",\"pc_addr\":\"0x10\"}",
		"{\"code\":\"\\u0041\",\"detail\":\"x\\\"y\",\"process_bytes\":\"4096\"}",
	};
	static const char *const declined[] = {
		"{\"detail\":\"a\",\"detail\":\"b\"}", "{\"d\\u0065tail\":\"a\"}",
		"{ \"detail\":\"a\"}", "{\"detail\":{\"a\":1}}", "{\"detail\":[1]}",
		"{\"detail\":\"a\"} ", "{\"detail\":\"a\",}",
	};
	unsigned accepted = 0, agreed = 0;

	for (size_t i = 0; i < sizeof(objects) / sizeof(objects[0]); i++) {
		struct csim_span o = csim_span_of(objects[i], strlen(objects[i]));
		struct found want = find_reference(o), got = find_fast(o);

		if (!CHECK(c, want.ok && same_found(&got, &want)))
			check_print_bytes("object", o.p, o.n);
	}
	for (size_t i = 0; i < sizeof(declined) / sizeof(declined[0]); i++)
		if (!CHECK(c, !find_fast(csim_span_of(declined[i], strlen(declined[i]))).ok))
			check_print_bytes("object", declined[i], strlen(declined[i]));
	/* The events' args, whole and with one byte changed. */
	for (size_t i = 0; i < sizeof(compact) / sizeof(compact[0]); i++) {
		struct fields ev = fast(compact[i], compact[i] + strlen(compact[i]));
		struct csim_span a = ev.field[CSIM_F_ARGS];

		if (a.p == NULL || *a.p != '{')
			continue;
		for (size_t at = 0; at <= a.n; at++) {
			char *p = exact_copy(a.p, a.n);
			struct found got;

			if (!CHECK(c, p != NULL))
				return;
			if (at < a.n)
				p[at] = "\",:{} 0"[at % 7];
			got = find_fast(csim_span_of(p, a.n));
			if (got.ok) {
				struct found want = find_reference(csim_span_of(p, a.n));

				accepted++;
				agreed += same_found(&got, &want) ? 1u : 0u;
				if (!same_found(&got, &want))
					check_print_bytes("args", p, a.n);
			}
			free(p);
		}
	}
	CHECK_U64(c, agreed, accepted);
	CHECK(c, accepted > 0);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_keys);
	CHECK_RUN(&c, test_compact);
	CHECK_RUN(&c, test_general);
	CHECK_RUN(&c, test_prefixes);
	CHECK_RUN(&c, test_mutations);
	CHECK_RUN(&c, test_find);
	return check_done(&c);
}
