/*
 * flag_detail: the sync key of a SET/WAIT flag's args.detail (SPEC §5.2),
 * in the 910B and 310P spellings, any field order, extra fields, decimal and
 * hex flag ids, pipe aliases, details that are not flag details, and the
 * PIPE:/sync_id of cross-core records.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model/flag_detail.h"

struct want {
	int ret;
	const char *producer;   /* NULL: absent */
	const char *consumer;
	int has_id;
	uint64_t id;
};

/*
 * Parses exactly strlen(s) bytes from an exact-size heap copy; the names are
 * duplicated because they may point into the detail.
 */
static int parse(const char *s, struct csim_flag_key *key)
{
	size_t n = strlen(s);
	char *copy = malloc(n ? n : 1);
	int ret;

	memset(key, 0, sizeof(*key));
	if (copy == NULL)
		return -1;
	memcpy(copy, s, n);
	ret = csim_flag_detail_parse(copy, n, key);
	if (key->producer != NULL)
		key->producer = strndup(key->producer, key->producer_n);
	if (key->consumer != NULL)
		key->consumer = strndup(key->consumer, key->consumer_n);
	free(copy);
	return ret;
}

static void key_free(struct csim_flag_key *key)
{
	free((char *)(uintptr_t)key->producer);
	free((char *)(uintptr_t)key->consumer);
}

static int check_name(struct check_ctx *c, const char *got, size_t got_n,
		      const char *want)
{
	if (want == NULL)
		return CHECK(c, got == NULL);
	return CHECK(c, got != NULL) && CHECK_MEM(c, got, got_n, want);
}

static void expect(struct check_ctx *c, const char *detail, struct want w)
{
	struct csim_flag_key key;
	int ret;

	ret = parse(detail, &key);
	if (!CHECK_I64(c, ret, w.ret) ||
	    !check_name(c, key.producer, key.producer_n, w.producer) ||
	    !check_name(c, key.consumer, key.consumer_n, w.consumer) ||
	    !CHECK_I64(c, key.has_flag_id, w.has_id) ||
	    (w.has_id && !CHECK_U64(c, key.flag_id, w.id)))
		fprintf(stderr, "    detail \"%s\"\n", detail);
	key_free(&key);
}

static void test_910b_detail(struct check_ctx *c)
{
	expect(c, "PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:0,",
	       (struct want){ 1, "MTE2", "VECTOR", 1, 0 });
	expect(c, "PIPE:VEC,TRIGGERPIPE:MTE3,FLAGID:7",
	       (struct want){ 1, "VECTOR", "MTE3", 1, 7 });
	expect(c, "PIPE:CUBE,TRIGGERPIPE:FIXP,FLAGID:12,",
	       (struct want){ 1, "CUBE", "FIXP", 1, 12 });
}

static void test_field_order_does_not_matter(struct check_ctx *c)
{
	expect(c, "FLAGID:3,TRIGGERPIPE:MTE3,PIPE:VEC,",
	       (struct want){ 1, "VECTOR", "MTE3", 1, 3 });
	expect(c, "TRIGGERPIPE:VEC,FLAGID:0,PIPE:MTE2",
	       (struct want){ 1, "MTE2", "VECTOR", 1, 0 });
}

static void test_extra_fields_are_ignored(struct check_ctx *c)
{
	expect(c, "PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:0,#V:0",
	       (struct want){ 1, "MTE2", "VECTOR", 1, 0 });
	expect(c, "#V:0,PIPE:MTE1,TRIGGERPIPE:CUBE,FLAGID:2,",
	       (struct want){ 1, "MTE1", "CUBE", 1, 2 });
	expect(c, "PIPE:MTE2,XD:X1=0x10,TRIGGERPIPE:VEC,junk,FLAGID:4,,",
	       (struct want){ 1, "MTE2", "VECTOR", 1, 4 });
}

static void test_flag_ids_are_numbers(struct check_ctx *c)
{
	expect(c, "PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:0x1,",
	       (struct want){ 1, "MTE2", "VECTOR", 1, 1 });
	expect(c, "PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:01,",
	       (struct want){ 1, "MTE2", "VECTOR", 1, 1 });
	expect(c, "PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:0X1f,",
	       (struct want){ 1, "MTE2", "VECTOR", 1, 31 });
	expect(c, "PIPE:MTE2,TRIGGERPIPE:VEC,FLAGID:0xffffffff,",
	       (struct want){ 1, "MTE2", "VECTOR", 1, 0xffffffffu });
	expect(c, "FLAGID:0xFFFFFFFFFFFFFFFF",
	       (struct want){ 1, NULL, NULL, 1, UINT64_MAX });
	expect(c, "FLAGID:18446744073709551615",
	       (struct want){ 1, NULL, NULL, 1, UINT64_MAX });
}

static void test_unparsable_flag_ids_are_absent(struct check_ctx *c)
{
	static const char *const bad[] = {
		"FLAGID:", "FLAGID:abc", "FLAGID:-1", "FLAGID:0x", "FLAGID:1.5",
		"FLAGID:0x10000000000000000", "FLAGID:18446744073709551616",
		"FLAGID:12ab"
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect(c, bad[i], (struct want){ 1, NULL, NULL, 0, 0 });
}

static void test_310p_detail(struct check_ctx *c)
{
	expect(c, "pipe_type:MTE2,tigger_pipe:VECTOR,event_id:3",
	       (struct want){ 1, "MTE2", "VECTOR", 1, 3 });
	expect(c, "event_id:0x2,pipe_type:VEC,tigger_pipe:MTE3,",
	       (struct want){ 1, "VECTOR", "MTE3", 1, 2 });
}

static void test_pipe_aliases(struct check_ctx *c)
{
	expect(c, "PIPE:FIXPIPE,TRIGGERPIPE:MTE2,FLAGID:1,",
	       (struct want){ 1, "FIXP", "MTE2", 1, 1 });
	expect(c, "PIPE:VEC,TRIGGERPIPE:FIXPIPE,FLAGID:1,",
	       (struct want){ 1, "VECTOR", "FIXP", 1, 1 });
	/* Other names pass through as they are. */
	expect(c, "PIPE:SCALAR,TRIGGERPIPE:VECTOR,FLAGID:5,",
	       (struct want){ 1, "SCALAR", "VECTOR", 1, 5 });
}

static void test_spaces_around_fields_are_trimmed(struct check_ctx *c)
{
	expect(c, " PIPE : MTE2 ,\tTRIGGERPIPE:VEC\t, FLAGID: 9 ,",
	       (struct want){ 1, "MTE2", "VECTOR", 1, 9 });
}

static void test_missing_fields(struct check_ctx *c)
{
	expect(c, "PIPE:MTE2,", (struct want){ 1, "MTE2", NULL, 0, 0 });
	expect(c, "TRIGGERPIPE:VEC,FLAGID:0,", (struct want){ 1, NULL, "VECTOR", 1, 0 });
	expect(c, "FLAGID:7", (struct want){ 1, NULL, NULL, 1, 7 });
}

static void test_garbage_names_no_field(struct check_ctx *c)
{
	static const char *const junk[] = {
		"", ",", ":", "no colon here", "XD:X29=0x107f80,IMM:0x10,UIMM:0x1,",
		"PIPEX:MTE2,FLAG:1", "PIP:MTE2", "\xff\xfe:\x01"
	};

	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
		expect(c, junk[i], (struct want){ 0, NULL, NULL, 0, 0 });
}

/* Cross-core records (SPEC §5.6): PIPE: is the pipe, sync_id a number of its own. */
static void test_intra_block_detail(struct check_ctx *c)
{
	static const struct {
		const char *detail;
		const char *pipe;
		int has_sync_id;
		uint64_t sync_id;
	} cases[] = {
		{ "PIPE:FIXP,sync_id:3,", "FIXP", 1, 3 },
		{ "sync_id:0x13,PIPE:VEC,XT:X16=0x1,", "VECTOR", 1, 19 },
		{ "SYNC_ID:16", NULL, 1, 16 },
		{ "PIPE:MTE2,sync_id:x,", "MTE2", 0, 0 },
		{ "PIPE:FIXP,XT:X16=0x1,", "FIXP", 0, 0 },   /* older producers' */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct csim_flag_key key;

		if (!CHECK_I64(c, parse(cases[i].detail, &key), 1))
			continue;
		check_name(c, key.producer, key.producer_n, cases[i].pipe);
		CHECK(c, key.consumer == NULL);
		CHECK(c, !key.has_flag_id);   /* a sync id is not a flag id */
		if (CHECK_I64(c, key.has_sync_id, cases[i].has_sync_id) && key.has_sync_id)
			CHECK_U64(c, key.sync_id, cases[i].sync_id);
		key_free(&key);
	}
}

static void test_only_n_bytes_are_read(struct check_ctx *c)
{
	const char *s = "PIPE:MTE2,FLAGID:12,TRIGGERPIPE:VEC";
	struct csim_flag_key key;

	/* Cut after "FLAGID:1": the id is 1 and the trigger pipe is unseen. */
	CHECK_I64(c, csim_flag_detail_parse(s, 18, &key), 1);
	CHECK_I64(c, key.has_flag_id, 1);
	CHECK_U64(c, key.flag_id, 1);
	CHECK(c, key.consumer == NULL);
	CHECK_I64(c, csim_flag_detail_parse(s, 0, &key), 0);
	CHECK(c, key.producer == NULL);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_910b_detail);
	CHECK_RUN(&c, test_field_order_does_not_matter);
	CHECK_RUN(&c, test_extra_fields_are_ignored);
	CHECK_RUN(&c, test_flag_ids_are_numbers);
	CHECK_RUN(&c, test_unparsable_flag_ids_are_absent);
	CHECK_RUN(&c, test_310p_detail);
	CHECK_RUN(&c, test_pipe_aliases);
	CHECK_RUN(&c, test_spaces_around_fields_are_trimmed);
	CHECK_RUN(&c, test_missing_fields);
	CHECK_RUN(&c, test_garbage_names_no_field);
	CHECK_RUN(&c, test_intra_block_detail);
	CHECK_RUN(&c, test_only_n_bytes_are_read);
	return check_done(&c);
}
