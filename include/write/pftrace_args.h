/*
 * pftrace_args: a slice's JSON args as the debug annotations of its
 * TrackEvent (SPEC §15, docs/perfetto.md): each member under its name
 * (interned), a string as an interned string value, an integer as
 * int_value, another number as double_value, true/false as bool_value, an
 * object or array as its JSON text; null left out. The args were validated
 * by the first reading.
 */
#ifndef CSIM_PFTRACE_ARGS_H
#define CSIM_PFTRACE_ARGS_H

#include <stddef.h>

#include "base/span.h"
#include "base/strtab.h"
#include "write/pftrace_packet.h"

/*
 * The annotations of args texts seen before, as encoded then (the same
 * text gives the same annotations: their iids stay defined for the whole
 * file). A loop's iterations repeat their args, and a copy of bytes costs
 * a tenth of walking the args and interning each member again. Held up to
 * a budget of bytes; past it, texts not held are encoded each time.
 */
struct csim_pf_args_cache {
	struct csim_strtab texts;
	struct csim_pf_cached { size_t off, len; } *enc;   /* per text id */
	size_t enc_cap;
	char *arena;
	size_t arena_len, arena_cap;
	size_t budget;
};

void csim_pf_args_cache_init(struct csim_pf_args_cache *c, size_t budget);
void csim_pf_args_cache_release(struct csim_pf_args_cache *c);

/*
 * 1 when args' annotations were appended from the cache; else 0, and *slot
 * is where to keep them (csim_pf_args_cache_keep) once the caller wrote
 * them, or CSIM_NONE.
 */
int csim_pf_args_cached(struct csim_pf *pf, struct csim_pf_args_cache *c,
			struct csim_span args, uint32_t *slot);
/* Keeps the annotations just written, pf->pkt's bytes from `from` on. */
void csim_pf_args_cache_keep(struct csim_pf *pf, struct csim_pf_args_cache *c,
			     uint32_t slot, size_t from);

/* Appends the annotations of args (p NULL: none) to the open TrackEvent. */
void csim_pf_args(struct csim_pf *pf, struct csim_span args);

/* One annotation with a string value (the slice's "source"). */
void csim_pf_string_arg(struct csim_pf *pf, const char *key, const char *p, size_t n);

#endif
