#include "write/pftrace_packet.h"

#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "read/json_scan.h"

/* TracePacket.SequenceFlags */
enum { SEQ_INCREMENTAL_STATE_CLEARED = 1, SEQ_NEEDS_INCREMENTAL_STATE = 2 };

/* The one sequence of the file. */
#define SEQUENCE_ID 1

/* InternedData's lists, and the fields of their entries. */
enum { INTERNED_EVENT_NAMES = 2, INTERNED_ANNOTATION_NAMES = 3, INTERNED_STRING_VALUES = 29 };
enum { ENTRY_IID = 1, ENTRY_NAME = 2 };

void csim_pf_init(struct csim_pf *pf, struct csim_out *out)
{
	memset(pf, 0, sizeof(*pf));
	pf->out = out;
	csim_pb_init(&pf->pkt);
	csim_pb_init(&pf->interned);
	csim_strtab_init(&pf->names, CSIM_STRTAB_GROUPED);
	csim_strtab_init(&pf->keys, CSIM_STRTAB_GROUPED);
	csim_strtab_init(&pf->values, CSIM_STRTAB_SCATTERED);
	pf->first = 1;
}

void csim_pf_release(struct csim_pf *pf)
{
	csim_pb_release(&pf->pkt);
	csim_pb_release(&pf->interned);
	csim_strtab_release(&pf->names);
	csim_strtab_release(&pf->keys);
	csim_strtab_release(&pf->values);
	free(pf->scratch);
}

void csim_pf_begin(struct csim_pf *pf, int64_t ts)
{
	csim_pb_reset(&pf->pkt);
	csim_pb_reset(&pf->interned);
	pf->uses_iids = 0;
	if (ts >= 0)
		csim_pb_uint(&pf->pkt, CSIM_PF_TIMESTAMP, (uint64_t)ts);
	csim_pb_uint(&pf->pkt, CSIM_PF_SEQUENCE_ID, SEQUENCE_ID);
}

int csim_pf_end(struct csim_pf *pf, struct csim_error *err)
{
	struct csim_pb *pkt = &pf->pkt;
	uint8_t head[11];
	size_t n = 1;
	uint64_t len;

	if (pf->interned.len > 0)
		csim_pb_bytes(pkt, CSIM_PF_INTERNED, pf->interned.buf, pf->interned.len);
	if (pf->first)
		csim_pb_uint(pkt, CSIM_PF_SEQUENCE_FLAGS,
			     SEQ_INCREMENTAL_STATE_CLEARED | SEQ_NEEDS_INCREMENTAL_STATE);
	else if (pf->uses_iids)
		csim_pb_uint(pkt, CSIM_PF_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	if (pf->nomem || csim_pb_failed(pkt) || csim_pb_failed(&pf->interned))
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	/* Trace.packet: its tag, its length, its bytes */
	head[0] = CSIM_PF_PACKET << 3 | 2;
	for (len = pkt->len; len >= 0x80; len >>= 7)
		head[n++] = (uint8_t)(len | 0x80);
	head[n++] = (uint8_t)len;
	csim_out_bytes(pf->out, (const char *)head, n);
	csim_out_bytes(pf->out, (const char *)pkt->buf, pkt->len);
	pf->first = 0;
	return CSIM_OK;
}

/* The iid of p[0..n) in tab; a new one goes into the packet's list `field`. */
static uint64_t intern(struct csim_pf *pf, struct csim_strtab *tab, uint32_t field,
		       const char *p, size_t n)
{
	size_t before = tab->count;
	uint32_t id;

	pf->uses_iids = 1;
	if (csim_strtab_intern(tab, p, n, &id) != 0) {
		pf->nomem = 1;
		return 0;
	}
	if (tab->count != before) {
		csim_pb_begin(&pf->interned, field);
		csim_pb_uint(&pf->interned, ENTRY_IID, (uint64_t)id + 1);
		csim_pb_bytes(&pf->interned, ENTRY_NAME, p, n);
		csim_pb_end(&pf->interned);
	}
	return (uint64_t)id + 1;
}

uint64_t csim_pf_name(struct csim_pf *pf, const char *p, size_t n)
{
	return intern(pf, &pf->names, INTERNED_EVENT_NAMES, p, n);
}

uint64_t csim_pf_key(struct csim_pf *pf, const char *p, size_t n)
{
	return intern(pf, &pf->keys, INTERNED_ANNOTATION_NAMES, p, n);
}

uint64_t csim_pf_value(struct csim_pf *pf, const char *p, size_t n)
{
	return intern(pf, &pf->values, INTERNED_STRING_VALUES, p, n);
}

const char *csim_pf_decode(struct csim_pf *pf, const char *p, size_t n, size_t *len)
{
	if (memchr(p, '\\', n) == NULL) {
		*len = n;
		return p;
	}
	if (csim_array_grow((void **)&pf->scratch, &pf->scratch_cap, n, 1) != 0) {
		pf->nomem = 1;
		return NULL;
	}
	*len = csim_json_unescape(p, n, pf->scratch);
	return pf->scratch;
}

void csim_pf_process(struct csim_pf *pf, uint64_t uuid, const char *name, size_t rank)
{
	struct csim_pb *pb = &pf->pkt;

	csim_pf_begin(pf, -1);
	csim_pb_begin(pb, CSIM_PF_TRACK_DESCRIPTOR);
	csim_pb_uint(pb, CSIM_PF_TD_UUID, uuid);
	csim_pb_begin(pb, CSIM_PF_TD_PROCESS);
	csim_pb_uint(pb, CSIM_PF_PROC_PID, uuid);
	csim_pb_bytes(pb, CSIM_PF_PROC_NAME, name, strlen(name));
	csim_pb_end(pb);
	csim_pb_uint(pb, CSIM_PF_TD_RANK, rank);
	csim_pb_end(pb);
}
