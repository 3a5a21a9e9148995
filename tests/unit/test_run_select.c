/*
 * run_select: SPEC §2.1 block by block — which TRACE blocks are parsed,
 * kept or discarded, which API_INSTR and OP_BASIC_INFO belong to the run
 * (the k-th when there is one per run, else the last), and --run K beyond
 * the count of runs.
 */
#include <string.h>

#include "check.h"
#include "read/run_select.h"

/*
 * Feeds a file's block sequence: 'T' TRACE, 'I' API_INSTR, 'B' OP_BASIC_INFO
 * (its offset is its position in the string). Records the action per TRACE
 * block and the slot per API_INSTR ('k' held as the K-th, 'l' as the last).
 */
static void feed(struct csim_runs *rs, const char *blocks, char *actions,
		 char *slots)
{
	static const char act[] = { 's', 'a', 'r' };   /* SKIP, ADD, REPLACE */

	for (size_t i = 0; blocks[i] != '\0'; i++) {
		if (blocks[i] == 'T')
			*actions++ = act[csim_runs_trace(rs)];
		else if (blocks[i] == 'I')
			*slots++ = csim_runs_instr(rs) == CSIM_RUN_SLOT_KTH ? 'k' : 'l';
		else
			csim_runs_basic_info(rs, 1000 + i);
	}
	*actions = *slots = '\0';
}

struct want {
	const char *blocks;
	uint32_t run_opt;
	int all;
	const char *actions;    /* per TRACE block */
	const char *slots;      /* per API_INSTR block */
	uint64_t run, instr, basic, basic_offset;
	int instr_mismatch, basic_mismatch;
};

static void expect(struct check_ctx *c, const struct want *w)
{
	struct csim_runs rs;
	struct csim_run_choice ch;
	struct csim_error err;
	char actions[32], slots[32];
	int ok = 1;

	csim_runs_init(&rs, w->run_opt, w->all);
	feed(&rs, w->blocks, actions, slots);
	ok &= CHECK_STR(c, actions, w->actions);
	ok &= CHECK_STR(c, slots, w->slots);
	ok &= CHECK_I64(c, csim_runs_settle(&rs, "f.bin", &ch, &err), CSIM_OK);
	ok &= CHECK_U64(c, ch.run, w->run);
	ok &= CHECK_U64(c, ch.instr, w->instr);
	ok &= CHECK_U64(c, ch.basic, w->basic);
	ok &= CHECK_U64(c, ch.basic_offset, w->basic_offset);
	ok &= CHECK_I64(c, ch.instr_mismatch, w->instr_mismatch);
	ok &= CHECK_I64(c, ch.basic_mismatch, w->basic_mismatch);
	if (!ok)
		fprintf(stderr, "    blocks %s, --run %u%s\n", w->blocks,
			(unsigned)w->run_opt, w->all ? " (all)" : "");
}

/* One TRACE block: the run rule changes nothing. */
static void test_one_run(struct check_ctx *c)
{
	const struct want w[] = {
		{ "TIB", 0, 0, "a", "l", 1, 1, 1, 1002, 0, 0 },
		{ "IBT", 1, 0, "a", "k", 1, 1, 1, 1001, 0, 0 },
		{ "T", 0, 1, "a", "", 1, 0, 0, 0, 0, 0 },
		/* a stale second API_INSTR: not one per run, so the last (SPEC
		   §2.1 replaces "the first" of the older rule) */
		{ "TII", 0, 0, "a", "ll", 1, 2, 0, 0, 1, 0 },
	};

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		expect(c, &w[i]);
}

/* Default: every run replaces the one before; the last run's blocks. */
static void test_default_is_the_last_run(struct check_ctx *c)
{
	const struct want w[] = {
		{ "TIBTIB", 0, 0, "ar", "ll", 2, 2, 2, 1005, 0, 0 },
		{ "BITBIT", 0, 0, "ar", "ll", 2, 2, 2, 1003, 0, 0 },
		{ "TITITI", 0, 0, "arr", "lll", 3, 3, 0, 0, 0, 0 },
		/* unequal counts: the last API_INSTR, with a warning */
		{ "TITT", 0, 0, "arr", "l", 3, 1, 0, 0, 1, 0 },
		{ "TBTBB", 0, 0, "ar", "", 2, 0, 3, 1004, 0, 1 },
	};

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		expect(c, &w[i]);
}

/* --run K: only run K's TRACE block is parsed; its own API_INSTR when
   there is one per run. */
static void test_run_k(struct check_ctx *c)
{
	const struct want w[] = {
		{ "TIBTIB", 1, 0, "as", "kl", 1, 1, 1, 1002, 0, 0 },
		{ "TIBTIB", 2, 0, "sa", "lk", 2, 2, 2, 1005, 0, 0 },
		{ "TIBTIBTIB", 2, 0, "sas", "lkl", 2, 2, 2, 1005, 0, 0 },
		/* unequal: run 1 takes the last API_INSTR / OP_BASIC_INFO */
		{ "TTIII", 1, 0, "as", "kll", 1, 3, 0, 0, 1, 0 },
		{ "TTI", 1, 0, "as", "k", 1, 1, 0, 0, 1, 0 },
		{ "TBTBB", 1, 0, "as", "", 1, 0, 3, 1004, 0, 1 },
	};

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		expect(c, &w[i]);
}

/* --run all: every TRACE block joins; metrics of the last run. */
static void test_run_all(struct check_ctx *c)
{
	const struct want w[] = {
		{ "TIBTIB", 0, 1, "aa", "ll", 2, 2, 2, 1005, 0, 0 },
		{ "TTTI", 0, 1, "aaa", "l", 3, 1, 0, 0, 1, 0 },
	};

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		expect(c, &w[i]);
	/* "all" wins over a run number given with it (the CLI refuses both) */
	expect(c, &(struct want){ "TITI", 1, 1, "aa", "ll", 2, 2, 0, 0, 0, 0 });
}

/* --run K beyond the count: an input error naming the count. */
static void test_run_beyond_the_count(struct check_ctx *c)
{
	struct csim_runs rs;
	struct csim_run_choice ch;
	struct csim_error err;
	char actions[8], slots[8];

	csim_runs_init(&rs, 3, 0);
	feed(&rs, "TITI", actions, slots);
	CHECK_STR(c, actions, "ss");
	csim_error_clear(&err);
	CHECK_I64(c, csim_runs_settle(&rs, "d/v.bin", &ch, &err), CSIM_E_INPUT);
	CHECK_I64(c, err.code, CSIM_E_INPUT);
	CHECK_STR(c, err.message, "d/v.bin: --run 3, but the file holds 2 run(s)");
}

/* The block of a type each run takes: its own with one per run, else the last. */
static void test_block_of_run(struct check_ctx *c)
{
	CHECK_U64(c, csim_runs_block_of(3, 3, 1), 1);
	CHECK_U64(c, csim_runs_block_of(3, 3, 3), 3);
	CHECK_U64(c, csim_runs_block_of(1, 3, 1), 1);   /* fewer: the last */
	CHECK_U64(c, csim_runs_block_of(4, 3, 2), 4);   /* more: the last */
	CHECK_U64(c, csim_runs_block_of(0, 3, 2), 0);   /* none */
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_one_run);
	CHECK_RUN(&c, test_default_is_the_last_run);
	CHECK_RUN(&c, test_run_k);
	CHECK_RUN(&c, test_run_all);
	CHECK_RUN(&c, test_run_beyond_the_count);
	CHECK_RUN(&c, test_block_of_run);
	return check_done(&c);
}
