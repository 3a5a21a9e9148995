/*
 * run_info: which run of its file a model holds and what the file says of
 * it (SPEC §2.1, §10): the run's place among the file's runs, the blocks
 * the run choice settled on, and the run's OP_BASIC_INFO as the producer
 * wrote it. The read layer fills it (read/run_select.h settles the choice,
 * read/basic_info.h loads the block) and the model owns it, so that the
 * summaries and the closing notes learn the reading's facts from the model
 * alone.
 *
 * OP_BASIC_INFO is descriptive: the summary reports its members as
 * written, so the payload is kept and each known member is a span of it.
 */
#ifndef CSIM_RUN_INFO_H
#define CSIM_RUN_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "base/span.h"

/* The OP_BASIC_INFO members the summary reports, in its order. */
enum csim_basic_field {
	CSIM_BASIC_NAME,
	CSIM_BASIC_SOC,
	CSIM_BASIC_OP_TYPE,
	CSIM_BASIC_BLOCK_DIM,
	CSIM_BASIC_MIX_BLOCK_DIM,
	CSIM_BASIC_DURATION,
	CSIM_BASIC_CUR_FREQ,
	CSIM_BASIC_RATED_FREQ,
	CSIM_BASIC_BLOCK_DETAIL,
	CSIM_BASIC_MIX_BLOCK_DETAIL,
	CSIM_BASIC_COUNT
};

/* The member names, as keys of the payload's top-level object. */
extern const char *const csim_basic_field_names[CSIM_BASIC_COUNT];

/* A run's OP_BASIC_INFO; no payload: the run has none (or a malformed one). */
struct csim_basic_info {
	char *payload;
	size_t size;
	uint64_t offset;                            /* the block's header offset */
	struct csim_span field[CSIM_BASIC_COUNT];   /* values as written; p NULL: absent */
	struct csim_span text[CSIM_BASIC_COUNT];    /* the same, a string without its
						       quotes (escapes as written) */
};

/* The run settled once the whole file is read. */
struct csim_run_choice {
	uint64_t runs;          /* TRACE blocks in the file */
	uint64_t run;           /* 1-based run converted (--run all: the last) */
	uint64_t ninstr, nbasic;   /* API_INSTR, OP_BASIC_INFO blocks in the file */
	uint64_t instr;         /* 1-based API_INSTR block to use, 0: none */
	int instr_mismatch;     /* API_INSTR blocks present but not one per run */
	uint64_t basic;         /* 1-based OP_BASIC_INFO block of the run, 0: none */
	uint64_t basic_offset;  /* its header offset */
	int basic_mismatch;
};

struct csim_run_info {
	uint64_t run;                    /* 1-based run of the file this model holds */
	int side_by_side;                /* --run all of several runs: each summarized apart */
	struct csim_run_choice choice;   /* the file's runs and the blocks they take */
	struct csim_basic_info basic;    /* the run's OP_BASIC_INFO */
};

/* Leaves bi empty (no facts) and safe to release. */
void csim_basic_info_init(struct csim_basic_info *bi);
void csim_basic_info_release(struct csim_basic_info *bi);

/* Whether the run has OP_BASIC_INFO facts. */
static inline int csim_basic_info_has(const struct csim_basic_info *bi)
{
	return bi->payload != NULL;
}

/* A member as text (a string without its quotes); p NULL when absent. */
static inline struct csim_span csim_basic_info_text(const struct csim_basic_info *bi,
						    enum csim_basic_field f)
{
	return bi->text[f];
}

/* A member's value as a number, when it is a number (or a string of one,
   as some producers write them); 0 when absent or not a number. */
int csim_basic_info_number(const struct csim_basic_info *bi, enum csim_basic_field f,
			   double *v);

/*
 * A numeric field (block_dim, mix_block_dim, duration, cur_freq,
 * rated_freq) whose value, a number or a string holding one, is a plain
 * JSON number: 1 and *num its text (the producer writes "8" and "1850" as
 * strings). 0 for any other field or value.
 */
int csim_basic_info_json_number(const struct csim_basic_info *bi, enum csim_basic_field f,
				struct csim_span *num);

void csim_run_info_init(struct csim_run_info *ri);
void csim_run_info_release(struct csim_run_info *ri);

#endif
