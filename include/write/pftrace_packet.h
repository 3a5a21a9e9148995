/*
 * pftrace_packet: trace.pftrace's packets (SPEC §15, docs/perfetto.md),
 * each built whole in a buffer (base/pb_write.h) and then written to the
 * output as one `Trace.packet` field, length first; and the interning of
 * names, annotation names and string values. A string used for the first
 * time gets the next iid and goes into the InternedData of the packet
 * that uses it, so the file defines every iid before its first use.
 *
 * Every packet is on the one trusted sequence; the first clears its
 * incremental state (csim_pf_end).
 */
#ifndef CSIM_PFTRACE_PACKET_H
#define CSIM_PFTRACE_PACKET_H

#include <stddef.h>
#include <stdint.h>

#include "base/csim_error.h"
#include "base/pb_write.h"
#include "base/strtab.h"
#include "write/out_file.h"

/* Perfetto's field numbers (protos/perfetto/trace/, docs/perfetto.md). */
enum {
	CSIM_PF_PACKET = 1,
	CSIM_PF_CHROME_EVENTS = 5,
	CSIM_PF_TIMESTAMP = 8,
	CSIM_PF_SEQUENCE_ID = 10,
	CSIM_PF_TRACK_EVENT = 11,
	CSIM_PF_INTERNED = 12,
	CSIM_PF_SEQUENCE_FLAGS = 13,
	CSIM_PF_TRACK_DESCRIPTOR = 60,

	CSIM_PF_EV_ANNOTATION = 4,
	CSIM_PF_EV_TYPE = 9,
	CSIM_PF_EV_NAME_IID = 10,
	CSIM_PF_EV_TRACK_UUID = 11,
	CSIM_PF_EV_DOUBLE_COUNTER = 44,
	CSIM_PF_EV_FLOW_IDS = 47,
	CSIM_PF_EV_TERMINATING_FLOW_IDS = 48,

	CSIM_PF_ANN_NAME_IID = 1,
	CSIM_PF_ANN_BOOL = 2,
	CSIM_PF_ANN_INT = 4,
	CSIM_PF_ANN_DOUBLE = 5,
	CSIM_PF_ANN_JSON = 9,
	CSIM_PF_ANN_STRING_IID = 17,

	CSIM_PF_TD_UUID = 1,
	CSIM_PF_TD_NAME = 2,
	CSIM_PF_TD_PROCESS = 3,
	CSIM_PF_TD_THREAD = 4,
	CSIM_PF_TD_PARENT = 5,
	CSIM_PF_TD_COUNTER = 8,
	CSIM_PF_TD_RANK = 12,
	CSIM_PF_TD_PROCESS_ORDERING = 19,
	CSIM_PF_TD_THREAD_ORDERING = 20,

	CSIM_PF_PROC_PID = 1,
	CSIM_PF_PROC_NAME = 6,
	CSIM_PF_THREAD_PID = 1,
	CSIM_PF_THREAD_TID = 2,
	CSIM_PF_THREAD_NAME = 5,

	CSIM_PF_BUNDLE_METADATA = 2,
	CSIM_PF_META_NAME = 1,
	CSIM_PF_META_STRING = 2,
	CSIM_PF_META_INT = 4
};

/* TrackEvent.Type */
enum { CSIM_PF_BEGIN = 1, CSIM_PF_END = 2, CSIM_PF_INSTANT = 3, CSIM_PF_COUNTER = 4 };

struct csim_pf {
	struct csim_out *out;
	struct csim_pb pkt;        /* the packet being built */
	struct csim_pb interned;   /* its InternedData: strings it uses first */
	struct csim_strtab names, keys, values;
	char *scratch;             /* a JSON string decoded (csim_pf_decode) */
	size_t scratch_cap;
	int uses_iids;             /* the packet refers to an interned string */
	int first;                 /* no packet written yet */
	int nomem;
};

void csim_pf_init(struct csim_pf *pf, struct csim_out *out);
void csim_pf_release(struct csim_pf *pf);

/* A new packet, at ts ns (a descriptor: ts < 0, none). */
void csim_pf_begin(struct csim_pf *pf, int64_t ts);
/* Writes the packet out; out of memory (at any point of it): CSIM_E_OUTPUT. */
int csim_pf_end(struct csim_pf *pf, struct csim_error *err);

/* The iid of an event name, a debug annotation's name, a string value. */
uint64_t csim_pf_name(struct csim_pf *pf, const char *p, size_t n);
uint64_t csim_pf_key(struct csim_pf *pf, const char *p, size_t n);
uint64_t csim_pf_value(struct csim_pf *pf, const char *p, size_t n);

/*
 * A process track (a packet begun and built: csim_pf_end writes it): its
 * uuid is its pid too, named name, ranked rank (the root orders processes
 * by rank).
 */
void csim_pf_process(struct csim_pf *pf, uint64_t uuid, const char *name, size_t rank);

/*
 * The text between a JSON string's quotes, decoded: p itself when it has no
 * escape, else the pf's scratch (valid until the next call); NULL out of
 * memory (then the packet fails at csim_pf_end).
 */
const char *csim_pf_decode(struct csim_pf *pf, const char *p, size_t n, size_t *len);

#endif
