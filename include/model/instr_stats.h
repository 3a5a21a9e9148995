/*
 * instr_stats: what the summary and the trace's source lines need from the
 * run's API_INSTR block (SPEC §7, §10), boiled down while the block is
 * indexed: per (API core, pipe) sums, the ten rows with the most cycles,
 * and the source line of every address that has one. Plain data: the
 * reading module (read/instr_digest.h) fills it, the passes and writers
 * read it; nothing here points into the payload.
 */
#ifndef CSIM_INSTR_STATS_H
#define CSIM_INSTR_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "base/strtab.h"

/* How many rows top[] keeps (SPEC §10: the top 10 instructions by cycles). */
#define CSIM_INSTR_TOP 10

/* Sums over the rows of one pipe, in one core's column. */
struct csim_instr_group {
	uint64_t cycles;        /* Cycles of the rows that are not SET/WAIT flags */
	uint64_t sync_cycles;   /* Cycles of the SET_FLAG/WAIT_FLAG rows */
	uint64_t executed;      /* Instructions Executed of the non-flag rows */
	double util_weighted;   /* Vector Utilization % x Cycles, rows not -1 */
	uint64_t util_cycles;   /* Cycles of those rows */
	int present;            /* some row had a value in this column */
};

/* One row among the most expensive: totals over every core's column. */
struct csim_instr_top {
	uint32_t address;       /* id in text: the Address as written */
	uint32_t pipe;          /* id in text: canonical Pipe */
	uint32_t mnemonic;      /* id in text: first word of Source */
	uint32_t source;        /* id in text of "file:line" (Inner Code, else the
				   API_FILE range of the address), or CSIM_NONE */
	uint64_t cycles, executed;
	uint32_t cores;         /* columns with cycles > 0 */
	size_t row;             /* row index: ties go to the earlier row */
};

/* An address range with a source line: one address (API_INSTR) or an
   API_FILE `Address Range`, both ends included. */
struct csim_instr_line {
	uint64_t lo, hi;
	uint32_t source;        /* id in text */
};

/*
 * One API_INSTR row with cycles or executions, its totals over every
 * core: what the top source lines (SPEC §10) sum per line, once the
 * API_FILE ranges are known too (a row without Inner Code takes the range
 * of its address).
 */
struct csim_instr_row_sum {
	uint64_t addr;          /* its Address as a number, when has_addr */
	uint64_t cycles, executed;
	uint32_t source;        /* id in text of its Inner Code, or CSIM_NONE */
	uint32_t has_addr;
	uint32_t address;       /* id in text: the Address as written ("" without) */
	uint32_t mnemonic;      /* id in text: first word of Source */
	uint32_t pipe;          /* id in text: canonical Pipe */
	uint32_t flag;          /* a SET/WAIT flag row */
};

struct csim_instr_stats {
	int loaded;             /* the run had an API_INSTR block */
	struct csim_strtab text;    /* core and pipe names, mnemonics, sources */
	uint32_t *cores;        /* id in text of each API core name, in Cores order */
	size_t ncores;
	uint32_t *pipes;        /* id in text of each distinct canonical Pipe */
	size_t npipes, pipes_cap;
	struct csim_instr_group *groups;   /* [pipe * ncores + core] */
	struct csim_instr_top top[CSIM_INSTR_TOP];   /* most cycles first */
	size_t ntop;
	uint64_t total_cycles;  /* over every row and core */
	uint64_t flag_cycles;   /* of them, the SET/WAIT flag rows': waiting, not
				   work, so never among the top ten */
	uint64_t flag_rows;     /* those rows (with cycles) */
	/* Source lines: AscendC Inner Code per address first, then API_FILE
	   address ranges (older files); each sorted by lo, disjoint */
	struct csim_instr_line *lines;
	size_t nlines, lines_cap;
	struct csim_instr_line *ranges;
	size_t nranges, ranges_cap;
	/* Rows with cycles or executions and a way to a source line, in row
	   order */
	struct csim_instr_row_sum *rows;
	size_t nrows, rows_cap;
};

void csim_instr_stats_init(struct csim_instr_stats *s);
void csim_instr_stats_release(struct csim_instr_stats *s);

/* The group of (core, pipe) as ids in text, or NULL when API_INSTR has none. */
const struct csim_instr_group *csim_instr_stats_group(const struct csim_instr_stats *s,
						      const char *core, size_t core_n,
						      const char *pipe, size_t pipe_n);

/* The API_FILE range holding an address, or NULL. */
const struct csim_instr_line *csim_instr_stats_range(const struct csim_instr_stats *s,
						     uint64_t addr);

/* The source line ("file:line") of an address, or NULL; *n its length:
   its AscendC Inner Code, else the API_FILE range holding it. */
const char *csim_instr_stats_source(const struct csim_instr_stats *s, uint64_t addr,
				    size_t *n);

#endif
