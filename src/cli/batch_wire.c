#include "cli/batch_wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WIRE_END 0x5a5a454e44ull   /* "END" and the container's 0x5a */
#define WIRE_MAX_TEXT ((uint64_t)1 << 24)

/* Bytes waiting to be written: small writes batched without allocating. */
struct sender {
	int fd;
	int failed;
	size_t len;
	unsigned char buf[4096];
};

static void send_flush(struct sender *s)
{
	size_t off = 0;

	while (!s->failed && off < s->len) {
		ssize_t k = write(s->fd, s->buf + off, s->len - off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			s->failed = 1;
			break;
		}
		off += (size_t)k;
	}
	s->len = 0;
}

static void send_bytes(struct sender *s, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n > 0) {
		size_t k = sizeof(s->buf) - s->len;

		if (k > n)
			k = n;
		memcpy(s->buf + s->len, b, k);
		s->len += k;
		b += k;
		n -= k;
		if (s->len == sizeof(s->buf))
			send_flush(s);
	}
}

static void send_u64(struct sender *s, uint64_t v)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	send_bytes(s, b, 8);
}

static void send_text(struct sender *s, const char *t, size_t max)
{
	size_t n = t != NULL ? strlen(t) : 0;

	if (n > max)
		n = max;
	send_u64(s, n);
	send_bytes(s, t, n);
}

int csim_wire_result_send(int fd, const struct csim_wire_result *r)
{
	struct sender s;
	const struct csim_dump_figures *f = &r->fig;

	s.fd = fd;
	s.failed = 0;
	s.len = 0;
	send_u64(&s, (uint64_t)r->status);
	send_u64(&s, (uint64_t)r->micros);
	send_text(&s, r->message, WIRE_MAX_TEXT);
	send_text(&s, r->warnings, CSIM_WIRE_MAX_WARNINGS);
	send_text(&s, r->summary, CSIM_WIRE_MAX_SUMMARY);
	send_u64(&s, f->op_name != NULL);
	send_text(&s, f->op_name, WIRE_MAX_TEXT);
	send_u64(&s, (uint64_t)f->has_span);
	send_u64(&s, (uint64_t)f->slowest_span_ns);
	send_u64(&s, (uint64_t)f->has_cycles);
	send_u64(&s, (uint64_t)f->slowest_span_cycles);
	send_u64(&s, f->slices);
	send_u64(&s, f->arrows);
	send_u64(&s, f->skipped_events);
	send_u64(&s, f->skipped_flags);
	send_u64(&s, f->nshares);
	for (size_t i = 0; i < f->nshares; i++) {
		send_text(&s, f->shares[i].pipe, WIRE_MAX_TEXT);
		send_u64(&s, (uint64_t)f->shares[i].busy_ns);
		send_u64(&s, (uint64_t)f->shares[i].span_ns);
	}
	send_text(&s, f->diag_ids, WIRE_MAX_TEXT);
	send_text(&s, f->diag_text, WIRE_MAX_TEXT);
	send_text(&s, f->diag_primary, WIRE_MAX_TEXT);
	send_u64(&s, f->nprimary_cores);
	for (size_t i = 0; i < f->nprimary_cores; i++)
		send_text(&s, f->primary_cores[i], WIRE_MAX_TEXT);
	send_text(&s, f->path_top, WIRE_MAX_TEXT);
	send_u64(&s, (uint64_t)f->path_share_e4);
	send_u64(&s, WIRE_END);
	send_flush(&s);
	return s.failed ? -1 : 0;
}

struct reader {
	const unsigned char *p;
	size_t left;
	int bad;       /* 1: truncated or malformed; -1: out of memory */
};

static uint64_t read_u64(struct reader *rd)
{
	uint64_t v = 0;

	if (rd->bad || rd->left < 8) {
		rd->bad = rd->bad ? rd->bad : 1;
		return 0;
	}
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)rd->p[i] << (8 * i);
	rd->p += 8;
	rd->left -= 8;
	return v;
}

static char *read_text_max(struct reader *rd, uint64_t max)
{
	uint64_t n = read_u64(rd);
	char *t;

	if (rd->bad || n > max || n > rd->left) {
		rd->bad = rd->bad ? rd->bad : 1;
		return NULL;
	}
	t = malloc((size_t)n + 1);
	if (t == NULL) {
		rd->bad = -1;
		return NULL;
	}
	memcpy(t, rd->p, (size_t)n);
	t[n] = '\0';
	rd->p += n;
	rd->left -= (size_t)n;
	return t;
}

static char *read_text(struct reader *rd)
{
	return read_text_max(rd, WIRE_MAX_TEXT);
}

/* The primary line's cores: a count, then each pid. */
static void read_cores(struct reader *rd, struct csim_dump_figures *f)
{
	uint64_t n = read_u64(rd);

	/* Each pid takes at least 8 bytes: a count beyond that is garbage. */
	if (rd->bad || n > rd->left / 8) {
		rd->bad = rd->bad ? rd->bad : 1;
		return;
	}
	if (n == 0)
		return;
	f->primary_cores = calloc((size_t)n, sizeof(*f->primary_cores));
	if (f->primary_cores == NULL) {
		rd->bad = -1;
		return;
	}
	for (uint64_t i = 0; !rd->bad && i < n; i++) {
		f->primary_cores[i] = read_text(rd);
		f->nprimary_cores += !rd->bad;
	}
}

int csim_wire_result_parse(struct csim_wire_result *r, const char *buf, size_t n)
{
	struct reader rd = { (const unsigned char *)buf, n, 0 };
	struct csim_dump_figures *f = &r->fig;
	uint64_t nshares;
	int has_name;

	memset(r, 0, sizeof(*r));
	r->status = (int)read_u64(&rd);
	r->micros = (int64_t)read_u64(&rd);
	r->message = read_text(&rd);
	r->warnings = read_text(&rd);
	r->summary = read_text_max(&rd, CSIM_WIRE_MAX_SUMMARY);
	has_name = read_u64(&rd) != 0;
	f->op_name = read_text(&rd);
	if (!has_name) {
		free(f->op_name);
		f->op_name = NULL;
	}
	f->has_span = read_u64(&rd) != 0;
	f->slowest_span_ns = (int64_t)read_u64(&rd);
	f->has_cycles = read_u64(&rd) != 0;
	f->slowest_span_cycles = (int64_t)read_u64(&rd);
	f->slices = read_u64(&rd);
	f->arrows = read_u64(&rd);
	f->skipped_events = read_u64(&rd);
	f->skipped_flags = read_u64(&rd);
	nshares = read_u64(&rd);
	/* Each share takes at least 24 bytes: a count beyond that is garbage. */
	if (!rd.bad && nshares <= rd.left / 24) {
		f->shares = calloc((size_t)nshares + 1, sizeof(*f->shares));
		if (f->shares == NULL)
			rd.bad = -1;
	} else if (!rd.bad) {
		rd.bad = 1;
	}
	for (uint64_t i = 0; !rd.bad && i < nshares; i++) {
		f->shares[i].pipe = read_text(&rd);
		f->shares[i].busy_ns = (int64_t)read_u64(&rd);
		f->shares[i].span_ns = (int64_t)read_u64(&rd);
		if (!rd.bad)
			f->nshares++;
		else
			free(f->shares[i].pipe);
	}
	f->diag_ids = read_text(&rd);
	f->diag_text = read_text(&rd);
	f->diag_primary = read_text(&rd);
	read_cores(&rd, f);
	f->path_top = read_text(&rd);
	f->path_share_e4 = (int64_t)read_u64(&rd);
	if (read_u64(&rd) != WIRE_END || rd.left != 0)
		rd.bad = rd.bad ? rd.bad : 1;
	if (rd.bad) {
		csim_wire_result_release(r);
		return rd.bad < 0 ? -1 : 1;
	}
	return 0;
}

void csim_wire_result_release(struct csim_wire_result *r)
{
	free(r->message);
	free(r->warnings);
	free(r->summary);
	csim_dump_figures_release(&r->fig);
	memset(r, 0, sizeof(*r));
}
