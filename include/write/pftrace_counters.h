/*
 * pftrace_counters: the counters of trace.pftrace (SPEC §15): a counter
 * track per (process, counter name, argument key), named "<name> <key>"
 * as Perfetto's JSON importer names the same counter, and a TYPE_COUNTER
 * sample per numeric argument of each counter event, at the exact ns of
 * its decimal ts. A counter's process is a core's, or one that holds
 * counters only ("MTE Throughput"), ranked after every core. Tracks are
 * described just before their first sample.
 */
#ifndef CSIM_PFTRACE_COUNTERS_H
#define CSIM_PFTRACE_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "base/strtab.h"
#include "model/model.h"
#include "write/pftrace_packet.h"

/* One run's counters and where its processes are. */
struct csim_pf_counter_run {
	const struct csim_model *m;
	size_t run;                   /* its index: counter-only processes are per run */
	const uint32_t *proc_of_pid;  /* per pid id: its process index, or CSIM_NONE */
	uint64_t proc0;               /* process p's uuid: proc0 + p */
};

struct csim_pf_counters {
	struct csim_strtab keys;      /* tracks and counter-only processes */
	uint64_t *uuids;              /* per key */
	size_t uuids_cap;
	char *key;
	size_t key_cap;
	uint64_t next_uuid;           /* the next uuid to give */
	size_t rank;                  /* the next counter-only process's rank */
	int64_t shift;                /* added to every time (pftrace_writer.h) */
};

/* Uuids from next_uuid on, processes ranked from rank on. */
void csim_pf_counters_init(struct csim_pf_counters *c, uint64_t next_uuid, size_t rank,
			   int64_t shift);
void csim_pf_counters_release(struct csim_pf_counters *c);

/* A counter's exact ns: 1, or 0 when it has none (unplaced, no ts). */
int csim_pf_counter_time(const struct csim_table *t, const struct csim_counter *counter,
			 int64_t *ns);

/* Every counter of the run that its cut keeps. */
int csim_pf_counters_write(struct csim_pf_counters *c, struct csim_pf *pf,
			   const struct csim_pf_counter_run *run, struct csim_error *err);

#endif
