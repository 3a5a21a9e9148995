#include "model/flag_detail.h"

#include <string.h>

#include "model/pipe_table.h"
#include "base/span.h"

static void trim(const char **p, size_t *n)
{
	while (*n > 0 && (**p == ' ' || **p == '\t')) {
		(*p)++;
		(*n)--;
	}
	while (*n > 0 && ((*p)[*n - 1] == ' ' || (*p)[*n - 1] == '\t'))
		(*n)--;
}


/* Parses a flag id; 0 for anything but a plain decimal or 0x-hex number. */
static int parse_flag_id(const char *v, size_t n, uint64_t *out)
{
	unsigned base = 10;
	uint64_t x = 0;

	if (n > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		base = 16;
		v += 2;
		n -= 2;
	}
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = v[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return 0;
		if (x > (UINT64_MAX - d) / base)
			return 0;
		x = x * base + d;
	}
	*out = x;
	return 1;
}

static void take_field(struct csim_flag_key *key, struct csim_span k,
		       const char *v, size_t vn, int *seen)
{
	if (csim_span_eq_nocase(k, "PIPE") || csim_span_eq_nocase(k, "pipe_type")) {
		key->producer = csim_pipe_canonical(v, vn, &key->producer_n);
		*seen = 1;
	} else if (csim_span_eq_nocase(k, "TRIGGERPIPE") ||
		   csim_span_eq_nocase(k, "tigger_pipe") ||
		   csim_span_eq_nocase(k, "trigger_pipe")) {
		key->consumer = csim_pipe_canonical(v, vn, &key->consumer_n);
		*seen = 1;
	} else if (csim_span_eq_nocase(k, "FLAGID") || csim_span_eq_nocase(k, "event_id")) {
		key->has_flag_id = parse_flag_id(v, vn, &key->flag_id);
		*seen = 1;
	} else if (csim_span_eq_nocase(k, "sync_id")) {
		key->has_sync_id = parse_flag_id(v, vn, &key->sync_id);
		*seen = 1;
	}
}

int csim_flag_detail_parse(const char *s, size_t n, struct csim_flag_key *key)
{
	const char *end = s + n;
	int seen = 0;

	memset(key, 0, sizeof(*key));
	while (s < end) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		const char *item_end = comma != NULL ? comma : end;
		const char *colon = memchr(s, ':', (size_t)(item_end - s));

		if (colon != NULL) {
			const char *k = s, *v = colon + 1;
			size_t kn = (size_t)(colon - s), vn = (size_t)(item_end - v);

			trim(&k, &kn);
			trim(&v, &vn);
			take_field(key, csim_span_of(k, kn), v, vn, &seen);
		}
		s = comma != NULL ? comma + 1 : end;
	}
	return seen;
}
