/*
 * pftrace_recheck_meta: the trace's metadata (SPEC §6, docs/perfetto.md).
 * The pftrace's ChromeMetadata entries must name the same facts, in the
 * same order, as trace.clean.json's top-level "metadata" object: a string
 * as a string_value of the same text, an integer as an int_value of the
 * same value, any other number as a string_value of its JSON text.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pftrace_recheck.h"

static void add(struct meta_list *l, const char *name, const char *text, int is_int)
{
	grow((void **)&l->items, &l->cap, l->n + 1, sizeof(*l->items));
	l->items[l->n++] = (struct meta_item){ name, text, is_int };
}

void meta_add_pftrace(struct ctx *c, const char *name, const char *text, int is_int)
{
	add(&c->pmeta, name, text, is_int);
}

void meta_read_json(struct ctx *c, const char *s, size_t n)
{
	struct jiter it;
	struct jmem m;

	c->jmeta_present = 1;
	if (!jiter_start(&it, s, n)) {
		problem("metadata", "trace.clean.json's metadata is no object");
		return;
	}
	while (jiter_next(&it, &m)) {
		const char *name = xstrndup(m.key, m.keylen);

		if (m.vallen > 0 && m.val[0] == '"') {
			const char *text = json_unescape(m.val, m.vallen);

			if (text == NULL)
				problem("metadata", "\"%s\": a string it cannot decode", name);
			else
				add(&c->jmeta, name, text, 0);
		} else if (m.vallen > 0 && (m.val[0] == '-' || (m.val[0] >= '0' && m.val[0] <= '9'))) {
			add(&c->jmeta, name, xstrndup(m.val, m.vallen),
			    json_is_integer(m.val, m.vallen));
		} else {
			problem("metadata", "\"%s\" is neither a string nor a number", name);
		}
	}
}

void match_metadata(struct ctx *c)
{
	const struct meta_list *p = &c->pmeta, *j = &c->jmeta;

	if (!c->jmeta_present)
		problem("metadata", "trace.clean.json has no top-level metadata object");
	if (p->n != j->n)
		problem("metadata", "%zu facts in the pftrace, %zu in the JSON", p->n, j->n);
	for (size_t i = 0; i < p->n && i < j->n; i++) {
		const struct meta_item *a = &p->items[i], *b = &j->items[i];

		if (strcmp(a->name, b->name) != 0)
			problem("metadata", "fact %zu: \"%s\" in the pftrace, \"%s\" in the JSON", i,
				a->name, b->name);
		else if (a->is_int != b->is_int || strcmp(a->text, b->text) != 0)
			problem("metadata", "\"%s\": %s %s in the pftrace, %s %s in the JSON", a->name,
				a->is_int ? "int" : "string", a->text, b->is_int ? "int" : "string",
				b->text);
	}
	c->metadata = p->n;
}
