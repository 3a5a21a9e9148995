/*
 * pftrace_recheck: the protobuf wire format, decoded by hand (varint,
 * 64-bit, length-delimited, 32-bit), every read bounds-checked: a truncated
 * or malformed file is a "decode" problem, never a crash. Only the fields
 * of docs/perfetto.md's table are read (tests/perfetto/pftrace.proto holds
 * the same numbers); any other field is a problem. Per packet: the trusted
 * sequence (1), the sequence flags, and the interned names (the state is
 * cleared by SEQ_INCREMENTAL_STATE_CLEARED; a packet's interned data
 * applies to the packet itself).
 */
#include "pftrace_recheck.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_I32 = 5 };
#define SEQ_CLEARED 1u
#define SEQ_NEEDS 2u

struct rd {
	const unsigned char *p, *end;
};

struct field {
	uint32_t num;
	int wt;
	uint64_t v; /* a varint, or the bits of a 64/32-bit value */
	const unsigned char *data;
	size_t len;
};

/* Interning state of sequence 1. */
struct seq {
	struct umap names, keys, strings;
	size_t packet;
	int uses_iid;
};

static const unsigned char *file_start;
static size_t cur_packet; /* for the messages */
static int quiet;         /* a counting pre-pass reports nothing */

static size_t offset(const unsigned char *p)
{
	return (size_t)(p - file_start);
}

static int get_varint(struct rd *r, uint64_t *v)
{
	uint64_t x = 0;
	unsigned shift;

	for (shift = 0; shift < 70; shift += 7) {
		unsigned char b;

		if (r->p >= r->end)
			return 0;
		b = *r->p++;
		if (shift < 64)
			x |= (uint64_t)(b & 0x7f) << shift;
		if ((b & 0x80) == 0) {
			*v = x;
			return 1;
		}
	}
	return 0;
}

static uint64_t get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The next field of a message: 1, 0 at its end, -1 (reported) if
 * malformed. */
static int next_field(struct rd *r, struct field *f, const char *msg)
{
	const unsigned char *at = r->p;
	uint64_t key, len;

	memset(f, 0, sizeof(*f));
	if (r->p >= r->end)
		return 0;
	if (!get_varint(r, &key) || key >> 3 == 0 || key >> 3 > 0x1fffffff)
		goto bad;
	f->num = (uint32_t)(key >> 3);
	f->wt = (int)(key & 7);
	switch (f->wt) {
	case WT_VARINT:
		if (!get_varint(r, &f->v))
			goto bad;
		return 1;
	case WT_I64:
	case WT_I32:
		len = f->wt == WT_I64 ? 8 : 4;
		if ((uint64_t)(r->end - r->p) < len)
			goto bad;
		f->v = get_le(r->p, (int)len);
		r->p += len;
		return 1;
	case WT_LEN:
		if (!get_varint(r, &len) || len > (uint64_t)(r->end - r->p))
			goto bad;
		f->data = r->p;
		f->len = (size_t)len;
		r->p += len;
		return 1;
	default:
		goto bad;
	}
bad:
	if (!quiet)
		problem("decode", "packet %zu: %s at byte %zu: truncated or malformed field",
			cur_packet, msg, offset(at));
	r->p = r->end;
	return -1;
}

static int want(const struct field *f, int wt, const char *msg, const char *name)
{
	if (f->wt == wt)
		return 1;
	problem("decode", "packet %zu: %s.%s (field %u) has wire type %d, want %d", cur_packet,
		msg, name, (unsigned)f->num, f->wt, wt);
	return 0;
}

static void unknown(const struct field *f, const char *msg, size_t packet)
{
	problem("decode", "packet %zu: %s field %u is not in docs/perfetto.md's table", packet, msg,
		(unsigned)f->num);
}

static const char *text(const struct field *f)
{
	return xstrndup((const char *)f->data, f->len);
}

static struct rd sub(const struct field *f)
{
	struct rd r = { f->data, f->data + f->len };

	return r;
}

static double as_double(uint64_t bits)
{
	double d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

/* ---- interning ---- */

static const char *resolve(struct seq *s, struct umap *m, uint64_t iid, const char *what)
{
	const char *v = umap_get(m, iid);

	s->uses_iid = 1;
	if (v == NULL)
		problem("intern", "packet %zu: %s iid %llu is not defined on the sequence", s->packet,
			what, (unsigned long long)iid);
	return v;
}

static void define(struct seq *s, struct umap *m, uint64_t iid, const char *str, const char *what)
{
	const char *old = umap_get(m, iid);

	if (old != NULL && strcmp(old, str) != 0)
		problem("intern", "packet %zu: %s iid %llu redefined (\"%s\", was \"%s\")", s->packet,
			what, (unsigned long long)iid, str, old);
	umap_put(m, iid, str);
}

/* EventName, DebugAnnotationName, InternedString: iid 1, name/str 2. */
static void interned_entry(struct seq *s, const struct field *e, struct umap *m, const char *msg)
{
	struct rd r = sub(e);
	struct field f;
	uint64_t iid = 0;
	const char *str = NULL;
	int rc;

	while ((rc = next_field(&r, &f, msg)) > 0) {
		if (f.num == 1 && want(&f, WT_VARINT, msg, "iid"))
			iid = f.v;
		else if (f.num == 2 && want(&f, WT_LEN, msg, m == &s->strings ? "str" : "name"))
			str = text(&f);
		else if (f.num != 1 && f.num != 2)
			unknown(&f, msg, s->packet);
	}
	if (rc < 0)
		return;
	if (iid == 0 || str == NULL)
		problem("intern", "packet %zu: %s without an iid or a string", s->packet, msg);
	else
		define(s, m, iid, str, msg);
}

static void interned_data(struct seq *s, const struct field *d)
{
	struct rd r = sub(d);
	struct field f;

	while (next_field(&r, &f, "InternedData") > 0) {
		if (f.num == 2 && want(&f, WT_LEN, "InternedData", "event_names"))
			interned_entry(s, &f, &s->names, "EventName");
		else if (f.num == 3 && want(&f, WT_LEN, "InternedData", "debug_annotation_names"))
			interned_entry(s, &f, &s->keys, "DebugAnnotationName");
		else if (f.num == 29 &&
			 want(&f, WT_LEN, "InternedData", "debug_annotation_string_values"))
			interned_entry(s, &f, &s->strings, "InternedString");
		else if (f.num != 2 && f.num != 3 && f.num != 29)
			unknown(&f, "InternedData", s->packet);
	}
}

/* ---- track descriptors ---- */

static void process_desc(struct seq *s, const struct field *d, struct ptrack *t)
{
	struct rd r = sub(d);
	struct field f;

	while (next_field(&r, &f, "ProcessDescriptor") > 0) {
		if (f.num == 1 && want(&f, WT_VARINT, "ProcessDescriptor", "pid")) {
			t->pid = (int32_t)(uint32_t)f.v;
			t->has_pid = 1;
		} else if (f.num == 6 && want(&f, WT_LEN, "ProcessDescriptor", "process_name")) {
			t->pname = text(&f);
		} else if (f.num != 1 && f.num != 6) {
			unknown(&f, "ProcessDescriptor", s->packet);
		}
	}
}

static void thread_desc(struct seq *s, const struct field *d, struct ptrack *t)
{
	struct rd r = sub(d);
	struct field f;

	while (next_field(&r, &f, "ThreadDescriptor") > 0) {
		if (f.num == 1 && want(&f, WT_VARINT, "ThreadDescriptor", "pid")) {
			t->pid = (int32_t)(uint32_t)f.v;
			t->has_pid = 1;
		} else if (f.num == 2 && want(&f, WT_VARINT, "ThreadDescriptor", "tid")) {
			t->tid = (int64_t)f.v;
			t->has_tid = 1;
		} else if (f.num == 5 && want(&f, WT_LEN, "ThreadDescriptor", "thread_name")) {
			t->tname = text(&f);
		} else if (f.num != 1 && f.num != 2 && f.num != 5) {
			unknown(&f, "ThreadDescriptor", s->packet);
		}
	}
}

static void counter_desc(struct seq *s, const struct field *d)
{
	struct rd r = sub(d);
	struct field f;

	while (next_field(&r, &f, "CounterDescriptor") > 0)
		unknown(&f, "CounterDescriptor", s->packet);
}

/* A descriptor field of a TrackDescriptor: process, thread, counter. */
static void track_kind(struct seq *s, const struct field *f, struct ptrack *t, int *kinds)
{
	if (f->num == 3 && want(f, WT_LEN, "TrackDescriptor", "process")) {
		process_desc(s, f, t);
		t->kind = TK_PROCESS;
		(*kinds)++;
	} else if (f->num == 4 && want(f, WT_LEN, "TrackDescriptor", "thread")) {
		thread_desc(s, f, t);
		t->kind = TK_THREAD;
		(*kinds)++;
	} else if (f->num == 8 && want(f, WT_LEN, "TrackDescriptor", "counter")) {
		counter_desc(s, f);
		t->kind = TK_COUNTER;
		(*kinds)++;
	}
}

/* One field of a TrackDescriptor; 0 if it is not in the table. */
static int track_field(struct seq *s, const struct field *f, struct ptrack *t, int *kinds)
{
	const char *m = "TrackDescriptor";

	switch (f->num) {
	case 1:
		if (want(f, WT_VARINT, m, "uuid"))
			t->uuid = f->v;
		return 1;
	case 2:
		if (want(f, WT_LEN, m, "name"))
			t->name = text(f);
		return 1;
	case 3:
	case 4:
	case 8:
		track_kind(s, f, t, kinds);
		return 1;
	case 5:
		if (want(f, WT_VARINT, m, "parent_uuid")) {
			t->parent = f->v;
			t->has_parent = 1;
		}
		return 1;
	case 12:
		if (want(f, WT_VARINT, m, "sibling_order_rank")) {
			t->rank = (int32_t)(uint32_t)f->v;
			t->has_rank = 1;
		}
		return 1;
	case 19:
		if (want(f, WT_VARINT, m, "process_ordering"))
			t->porder = (long)(f->v & 0xffff);
		return 1;
	case 20:
		if (want(f, WT_VARINT, m, "thread_ordering"))
			t->torder = (long)(f->v & 0xffff);
		return 1;
	default:
		return 0;
	}
}

static void track_descriptor(struct ctx *c, struct seq *s, const struct field *d)
{
	struct rd r = sub(d);
	struct field f;
	struct ptrack *t;
	int kinds = 0;

	grow((void **)&c->tracks, &c->tcap, c->ntracks + 1, sizeof(*c->tracks));
	t = &c->tracks[c->ntracks++];
	t->porder = t->torder = -1;
	t->packet = s->packet;
	t->proc = t->lane = NONE;
	while (next_field(&r, &f, "TrackDescriptor") > 0)
		if (!track_field(s, &f, t, &kinds))
			unknown(&f, "TrackDescriptor", s->packet);
	if (kinds > 1)
		problem("track", "uuid %llu is more than one of a process, a thread and a counter",
			(unsigned long long)t->uuid);
	if (kinds == 0 && t->uuid == 0)
		t->kind = TK_ROOT;
}

/* ---- track events ---- */

static void annotation(struct seq *s, const struct field *d, struct pannot *a)
{
	struct rd r = sub(d);
	struct field f;
	int values = 0;

	while (next_field(&r, &f, "DebugAnnotation") > 0) {
		const char *m = "DebugAnnotation";

		if (f.num == 1 && want(&f, WT_VARINT, m, "name_iid")) {
			a->name = resolve(s, &s->keys, f.v, "debug annotation name");
			continue;
		}
		if (f.num == 2 && want(&f, WT_VARINT, m, "bool_value")) {
			a->kind = AN_BOOL;
			a->i = f.v != 0;
		} else if (f.num == 4 && want(&f, WT_VARINT, m, "int_value")) {
			a->kind = AN_INT;
			a->i = (int64_t)f.v;
		} else if (f.num == 5 && want(&f, WT_I64, m, "double_value")) {
			a->kind = AN_DOUBLE;
			a->d = as_double(f.v);
		} else if (f.num == 9 && want(&f, WT_LEN, m, "legacy_json_value")) {
			a->kind = AN_JSON;
			a->s = text(&f);
		} else if (f.num == 17 && want(&f, WT_VARINT, m, "string_value_iid")) {
			a->kind = AN_STRING;
			a->s = resolve(s, &s->strings, f.v, "debug annotation string");
		} else if (f.num != 1 && f.num != 2 && f.num != 4 && f.num != 5 && f.num != 9 &&
			   f.num != 17) {
			unknown(&f, m, s->packet);
			continue;
		} else {
			continue; /* a wrong wire type, reported */
		}
		values++;
	}
	if (a->name == NULL)
		problem("args", "packet %zu: a debug annotation without a name", s->packet);
	if (values != 1)
		problem("args", "packet %zu: debug annotation \"%s\" has %d values, want 1", s->packet,
			a->name ? a->name : "?", values);
}

/* Counts the repeated fields of a TrackEvent, to size its arrays. */
static void event_counts(const struct field *d, struct pevent *e)
{
	struct rd r = sub(d);
	struct field f;

	quiet = 1;
	while (next_field(&r, &f, "TrackEvent") > 0) {
		if (f.num == 4 && f.wt == WT_LEN)
			e->nann++;
		else if (f.num == 47 && f.wt == WT_I64)
			e->nflows++;
		else if (f.num == 48 && f.wt == WT_I64)
			e->nterms++;
	}
	quiet = 0;
	e->ann = xalloc((e->nann + 1) * sizeof(*e->ann));
	e->flows = xalloc((e->nflows + 1) * sizeof(*e->flows));
	e->terms = xalloc((e->nterms + 1) * sizeof(*e->terms));
	e->nann = e->nflows = e->nterms = 0;
}

static void event_field(struct seq *s, const struct field *f, struct pevent *e)
{
	const char *m = "TrackEvent";

	if (f->num == 4 && want(f, WT_LEN, m, "debug_annotations")) {
		annotation(s, f, &e->ann[e->nann++]);
	} else if (f->num == 9 && want(f, WT_VARINT, m, "type")) {
		e->type = f->v <= 5 ? (int)f->v : -1;
	} else if (f->num == 10 && want(f, WT_VARINT, m, "name_iid")) {
		e->name = resolve(s, &s->names, f->v, "event name");
	} else if (f->num == 11 && want(f, WT_VARINT, m, "track_uuid")) {
		e->track_uuid = f->v;
		e->has_track = 1;
	} else if (f->num == 44 && want(f, WT_I64, m, "double_counter_value")) {
		e->value = as_double(f->v);
		e->has_value = 1;
	} else if (f->num == 47 && want(f, WT_I64, m, "flow_ids")) {
		e->flows[e->nflows++] = f->v;
	} else if (f->num == 48 && want(f, WT_I64, m, "terminating_flow_ids")) {
		e->terms[e->nterms++] = f->v;
	} else if (f->num != 4 && f->num != 9 && f->num != 10 && f->num != 11 && f->num != 44 &&
		   f->num != 47 && f->num != 48) {
		unknown(f, m, s->packet);
	}
}

static void track_event(struct ctx *c, struct seq *s, const struct field *d, int has_ts, uint64_t ts)
{
	struct rd r = sub(d);
	struct field f;
	struct pevent *e;

	grow((void **)&c->events, &c->ecap, c->nevents + 1, sizeof(*c->events));
	e = &c->events[c->nevents++];
	e->packet = s->packet;
	e->track = NONE;
	e->has_ts = has_ts;
	e->ts = (int64_t)ts;
	event_counts(d, e);
	while (next_field(&r, &f, "TrackEvent") > 0)
		event_field(s, &f, e);
	if (!has_ts)
		problem("packet", "packet %zu: a TrackEvent without a timestamp", s->packet);
	if (!e->has_track)
		problem("packet", "packet %zu: a TrackEvent without a track_uuid", s->packet);
}

/* ---- packets ---- */

struct packet {
	int has_ts, has_seq, nevent, ndesc, ninterned, nchrome;
	uint64_t ts, seq, flags;
	struct field event, desc, interned, chrome;
};

/* One ChromeMetadata: its name and a string_value or int_value. */
static void chrome_metadata(struct ctx *c, const struct field *d)
{
	struct rd r = sub(d);
	struct field f;
	const char *m = "ChromeMetadata", *name = NULL, *value = NULL;
	int is_int = 0, values = 0;
	char num[32];

	while (next_field(&r, &f, m) > 0) {
		if (f.num == 1 && want(&f, WT_LEN, m, "name")) {
			name = text(&f);
		} else if (f.num == 2 && want(&f, WT_LEN, m, "string_value")) {
			value = text(&f);
			values++;
		} else if (f.num == 4 && want(&f, WT_VARINT, m, "int_value")) {
			snprintf(num, sizeof(num), "%" PRId64, (int64_t)f.v);
			value = xstrndup(num, strlen(num));
			is_int = 1;
			values++;
		} else if (f.num != 1 && f.num != 2 && f.num != 4) {
			problem("metadata", "ChromeMetadata field %u: not one trace.pftrace writes",
				(unsigned)f.num);
		}
	}
	if (name == NULL || values != 1)
		problem("metadata", "a ChromeMetadata without a name or with %d values", values);
	else
		meta_add_pftrace(c, name, value, is_int);
}

/* The ChromeEventBundle: the trace's metadata, and nothing else. */
static void chrome_events(struct ctx *c, const struct field *d)
{
	struct rd r = sub(d);
	struct field f;
	const char *m = "ChromeEventBundle";

	if (c->pmeta.n > 0)
		problem("metadata", "more than one ChromeEventBundle");
	while (next_field(&r, &f, m) > 0) {
		if (f.num == 2 && want(&f, WT_LEN, m, "metadata"))
			chrome_metadata(c, &f);
		else if (f.num != 2)
			problem("metadata", "ChromeEventBundle field %u: not one trace.pftrace writes",
				(unsigned)f.num);
	}
}

static void packet_fields(struct seq *s, const struct field *pk, struct packet *p)
{
	struct rd r = sub(pk);
	struct field f;
	const char *m = "TracePacket";

	while (next_field(&r, &f, m) > 0) {
		if (f.num == 8 && want(&f, WT_VARINT, m, "timestamp")) {
			p->ts = f.v;
			p->has_ts = 1;
		} else if (f.num == 10 && want(&f, WT_VARINT, m, "trusted_packet_sequence_id")) {
			p->seq = f.v;
			p->has_seq = 1;
		} else if (f.num == 13 && want(&f, WT_VARINT, m, "sequence_flags")) {
			p->flags = f.v;
		} else if (f.num == 11 && want(&f, WT_LEN, m, "track_event")) {
			p->event = f;
			p->nevent++;
		} else if (f.num == 12 && want(&f, WT_LEN, m, "interned_data")) {
			p->interned = f;
			p->ninterned++;
		} else if (f.num == 60 && want(&f, WT_LEN, m, "track_descriptor")) {
			p->desc = f;
			p->ndesc++;
		} else if (f.num == 5 && want(&f, WT_LEN, m, "chrome_events")) {
			p->chrome = f;
			p->nchrome++;
		} else if (f.num != 5 && f.num != 8 && f.num != 10 && f.num != 11 && f.num != 12 &&
			   f.num != 13 && f.num != 60) {
			unknown(&f, m, s->packet);
		}
	}
}

static void packet(struct ctx *c, struct seq *s, const struct field *pk)
{
	struct packet p;

	memset(&p, 0, sizeof(p));
	cur_packet = s->packet;
	packet_fields(s, pk, &p);
	if (!p.has_seq)
		problem("packet", "packet %zu: no trusted_packet_sequence_id, want 1", s->packet);
	else if (p.seq != 1)
		problem("packet", "packet %zu: trusted_packet_sequence_id %llu, want 1", s->packet,
			(unsigned long long)p.seq);
	if (s->packet == 0 && p.flags != (SEQ_CLEARED | SEQ_NEEDS))
		problem("packet", "packet 0: sequence_flags %llu, want 3 (cleared | needs state)",
			(unsigned long long)p.flags);
	if (p.nevent + p.ndesc + p.nchrome > 1 || p.ninterned > 1)
		problem("packet", "packet %zu: more than one track_event, track_descriptor, chrome_events or interned_data",
			s->packet);
	if (p.flags & SEQ_CLEARED) {
		umap_clear(&s->names);
		umap_clear(&s->keys);
		umap_clear(&s->strings);
	}
	s->uses_iid = 0;
	if (p.ninterned)
		interned_data(s, &p.interned);
	if (p.ndesc)
		track_descriptor(c, s, &p.desc);
	if (p.nevent)
		track_event(c, s, &p.event, p.has_ts, p.ts);
	if (p.nchrome)
		chrome_events(c, &p.chrome);
	if (s->uses_iid && !(p.flags & SEQ_NEEDS))
		problem("packet", "packet %zu uses an interned id without SEQ_NEEDS_INCREMENTAL_STATE",
			s->packet);
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0;

	if (f == NULL)
		return NULL;
	for (;;) {
		size_t got;

		if (n == cap)
			grow((void **)&buf, &cap, n + 65536, 1);
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

int wire_read(const char *path, struct ctx *c)
{
	size_t len = 0;
	unsigned char *buf = slurp(path, &len);
	struct rd r;
	struct field f;
	struct seq s;

	if (buf == NULL)
		return 0;
	memset(&s, 0, sizeof(s));
	file_start = buf;
	r.p = buf;
	r.end = buf + len;
	while (cur_packet = s.packet, next_field(&r, &f, "Trace") > 0) {
		if (f.num != 1) {
			unknown(&f, "Trace", s.packet);
			continue;
		}
		if (want(&f, WT_LEN, "Trace", "packet"))
			packet(c, &s, &f);
		s.packet++;
	}
	c->npackets = s.packet;
	return 1;
}
