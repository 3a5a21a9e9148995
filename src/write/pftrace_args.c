#include "write/pftrace_args.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_grow.h"
#include "base/number_grid.h"
#include "read/json_skip.h"

void csim_pf_string_arg(struct csim_pf *pf, const char *key, const char *p, size_t n)
{
	csim_pb_begin(&pf->pkt, CSIM_PF_EV_ANNOTATION);
	csim_pb_uint(&pf->pkt, CSIM_PF_ANN_NAME_IID, csim_pf_key(pf, key, strlen(key)));
	csim_pb_uint(&pf->pkt, CSIM_PF_ANN_STRING_IID, csim_pf_value(pf, p, n));
	csim_pb_end(&pf->pkt);
}

/* An integer's text (no point, no exponent) as an int64_t: 1, else 0. */
static int integer_of(struct csim_span v, int64_t *out)
{
	char buf[24];
	char *end;
	long long x;

	if (v.n >= sizeof(buf) || memchr(v.p, '.', v.n) != NULL || memchr(v.p, 'e', v.n) != NULL ||
	    memchr(v.p, 'E', v.n) != NULL)
		return 0;
	memcpy(buf, v.p, v.n);
	buf[v.n] = '\0';
	errno = 0;
	x = strtoll(buf, &end, 10);
	if (errno != 0 || *end != '\0')
		return 0;
	*out = x;
	return 1;
}

/* The value of one member; 0 when it has none to show (null). */
static int put_value(struct csim_pf *pf, struct csim_span v)
{
	struct csim_pb *pkt = &pf->pkt;
	int64_t i;
	double d;
	size_t n;
	const char *s;

	switch (*v.p) {
	case '"':
		s = csim_pf_decode(pf, v.p + 1, v.n - 2, &n);
		if (s != NULL)
			csim_pb_uint(pkt, CSIM_PF_ANN_STRING_IID, csim_pf_value(pf, s, n));
		return 1;
	case 't':
	case 'f':
		csim_pb_uint(pkt, CSIM_PF_ANN_BOOL, *v.p == 't');
		return 1;
	case 'n':
		return 0;
	case '{':
	case '[':
		csim_pb_bytes(pkt, CSIM_PF_ANN_JSON, v.p, v.n);
		return 1;
	default:
		if (integer_of(v, &i))
			csim_pb_int(pkt, CSIM_PF_ANN_INT, i);
		else if (csim_number_parse(v.p, v.n, &d))
			csim_pb_double(pkt, CSIM_PF_ANN_DOUBLE, d);
		else
			csim_pb_bytes(pkt, CSIM_PF_ANN_JSON, v.p, v.n);
		return 1;
	}
}

void csim_pf_args(struct csim_pf *pf, struct csim_span args)
{
	struct csim_json_skip_iter it;
	struct csim_scan_result res;
	struct csim_span key, value;
	int has = 1;

	if (args.p == NULL || args.n == 0 || *args.p != '{')
		return;
	csim_json_skip_iter_init(&it, args.p, args.p + args.n, 1);
	while (csim_json_skip_next(&it, &key, &value, &has, &res) == CSIM_SCAN_OK && has) {
		const char *k;
		size_t kn;

		if (*value.p == 'n')
			continue;
		k = csim_pf_decode(pf, key.p, key.n, &kn);
		if (k == NULL)
			return;
		csim_pb_begin(&pf->pkt, CSIM_PF_EV_ANNOTATION);
		csim_pb_uint(&pf->pkt, CSIM_PF_ANN_NAME_IID, csim_pf_key(pf, k, kn));
		(void)put_value(pf, value);
		csim_pb_end(&pf->pkt);
	}
}

/* An entry whose encoding is not (yet) in the arena. */
#define NOT_KEPT SIZE_MAX

void csim_pf_args_cache_init(struct csim_pf_args_cache *c, size_t budget)
{
	memset(c, 0, sizeof(*c));
	csim_strtab_init(&c->texts, CSIM_STRTAB_SCATTERED);
	c->budget = budget;
}

void csim_pf_args_cache_release(struct csim_pf_args_cache *c)
{
	csim_strtab_release(&c->texts);
	free(c->enc);
	free(c->arena);
}

int csim_pf_args_cached(struct csim_pf *pf, struct csim_pf_args_cache *c,
			struct csim_span args, uint32_t *slot)
{
	size_t before = c->texts.count;
	uint32_t id;

	*slot = CSIM_NONE;
	if (csim_strtab_find(&c->texts, args.p, args.n, &id)) {
		const struct csim_pf_cached *e = &c->enc[id];

		if (e->off == NOT_KEPT)    /* its encoding could not be kept */
			return 0;
		if (e->len > 0) {
			csim_pb_raw(&pf->pkt, c->arena + e->off, e->len);
			pf->uses_iids = 1;
		}
		return 1;
	}
	/* A text and its encoding (about a third of it) count against the budget. */
	if (args.n + args.n / 2 > c->budget)
		return 0;
	/* Out of memory here only means no caching. */
	if (csim_strtab_intern(&c->texts, args.p, args.n, &id) != 0 || c->texts.count == before ||
	    csim_array_grow((void **)&c->enc, &c->enc_cap, (size_t)id + 1, sizeof(*c->enc)) != 0)
		return 0;
	c->enc[id] = (struct csim_pf_cached){ NOT_KEPT, 0 };
	c->budget -= args.n + args.n / 2;
	*slot = id;
	return 0;
}

void csim_pf_args_cache_keep(struct csim_pf *pf, struct csim_pf_args_cache *c,
			     uint32_t slot, size_t from)
{
	const size_t n = pf->pkt.len - from;

	if (slot == CSIM_NONE || csim_pb_failed(&pf->pkt) ||
	    csim_array_grow((void **)&c->arena, &c->arena_cap, c->arena_len + n, 1) != 0)
		return;
	if (n > 0)   /* args without a member to show: nothing to copy */
		memcpy(c->arena + c->arena_len, pf->pkt.buf + from, n);
	c->enc[slot] = (struct csim_pf_cached){ c->arena_len, n };
	c->arena_len += n;
}
