/*
 * pftrace_recheck: memory (one arena, freed at exit), string and id maps,
 * and two small rules shared by the modules (lane labels, SPEC §4's tol).
 */
#include "pftrace_recheck.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE ((size_t)1 << 20)
#define ALIGN (sizeof(max_align_t))

struct block {
	struct block *next;
	size_t used, size;
	max_align_t data[];
};

static struct block *arena;

static void out_of_memory(void)
{
	fprintf(stderr, "pftrace_recheck: out of memory\n");
	arena_free();
	exit(2);
}

void *xalloc(size_t size)
{
	size_t need = (size + ALIGN - 1) / ALIGN * ALIGN;
	void *p;

	if (need < size)
		out_of_memory();
	if (arena == NULL || arena->size - arena->used < need) {
		size_t bytes = need > BLOCK_SIZE ? need : BLOCK_SIZE;
		struct block *b;

		if (bytes > SIZE_MAX - sizeof(struct block))
			out_of_memory();
		b = malloc(sizeof(struct block) + bytes);
		if (b == NULL)
			out_of_memory();
		b->size = bytes;
		b->used = 0;
		/* A big block goes second: the current one keeps its room. */
		if (arena != NULL && need > BLOCK_SIZE) {
			b->next = arena->next;
			arena->next = b;
		} else {
			b->next = arena;
			arena = b;
		}
		b->used = need;
		p = (char *)b->data;
		memset(p, 0, need);
		return p;
	}
	p = (char *)arena->data + arena->used;
	arena->used += need;
	memset(p, 0, need);
	return p;
}

void grow(void **items, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			out_of_memory();
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / size)
		out_of_memory();
	p = xalloc(ncap * size);
	if (*items != NULL)
		memcpy(p, *items, *cap * size);
	*items = p;
	*cap = ncap;
}

void arena_free(void)
{
	while (arena != NULL) {
		struct block *next = arena->next;

		free(arena);
		arena = next;
	}
}

char *xstrndup(const char *s, size_t n)
{
	char *p;

	if (n == SIZE_MAX)
		out_of_memory();
	p = xalloc(n + 1);
	if (n > 0)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xcat(const char *first, ...)
{
	va_list ap;
	size_t len = 0, at = 0;
	const char *s;
	char *out;

	va_start(ap, first);
	for (s = first; s != NULL; s = va_arg(ap, const char *))
		len += strlen(s);
	va_end(ap);
	out = xalloc(len + 1);
	va_start(ap, first);
	for (s = first; s != NULL; s = va_arg(ap, const char *)) {
		size_t n = strlen(s);

		memcpy(out + at, s, n);
		at += n;
	}
	va_end(ap);
	out[at] = '\0';
	return out;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 14695981039346656037u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

static uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdu;
	x ^= x >> 33;
	return x;
}

static size_t smap_slot(const struct smap *m, const char *key)
{
	size_t i = (size_t)hash_str(key) & (m->cap - 1);

	while (m->keys[i] != NULL && strcmp(m->keys[i], key) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

size_t smap_get(const struct smap *m, const char *key)
{
	size_t i;

	if (m->cap == 0)
		return NONE;
	i = smap_slot(m, key);
	return m->keys[i] != NULL ? m->vals[i] : NONE;
}

static void smap_resize(struct smap *m)
{
	struct smap big = { NULL, NULL, m->cap ? m->cap * 2 : 64, 0 };
	size_t i;

	big.keys = xalloc(big.cap * sizeof(*big.keys));
	big.vals = xalloc(big.cap * sizeof(*big.vals));
	for (i = 0; i < m->cap; i++) {
		if (m->keys[i] != NULL) {
			size_t j = smap_slot(&big, m->keys[i]);

			big.keys[j] = m->keys[i];
			big.vals[j] = m->vals[i];
		}
	}
	big.n = m->n;
	*m = big;
}

size_t smap_put(struct smap *m, const char *key, size_t val)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap)
		smap_resize(m);
	i = smap_slot(m, key);
	if (m->keys[i] != NULL)
		return m->vals[i];
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
	return val;
}

void smap_set(struct smap *m, const char *key, size_t val)
{
	size_t i;

	if (smap_put(m, key, val) == val)
		return;
	i = smap_slot(m, key);
	m->vals[i] = val;
}

/* Slot of key in an id map; keys are stored + 1 so that 0 marks empty. */
static size_t umap_slot(const struct umap *m, uint64_t key)
{
	size_t i = (size_t)hash_u64(key) & (m->cap - 1);

	while (m->keys[i] != 0 && m->keys[i] != key + 1)
		i = (i + 1) & (m->cap - 1);
	return i;
}

const char *umap_get(const struct umap *m, uint64_t key)
{
	size_t i;

	if (m->cap == 0 || key == UINT64_MAX)
		return NULL;
	i = umap_slot(m, key);
	return m->keys[i] != 0 ? m->vals[i] : NULL;
}

void umap_put(struct umap *m, uint64_t key, const char *val)
{
	size_t i;

	if (key == UINT64_MAX)
		return;
	if ((m->n + 1) * 2 > m->cap) {
		struct umap big = { NULL, NULL, m->cap ? m->cap * 2 : 64, 0 };

		big.keys = xalloc(big.cap * sizeof(*big.keys));
		big.vals = xalloc(big.cap * sizeof(*big.vals));
		for (i = 0; i < m->cap; i++) {
			if (m->keys[i] != 0) {
				size_t j = umap_slot(&big, m->keys[i] - 1);

				big.keys[j] = m->keys[i];
				big.vals[j] = m->vals[i];
			}
		}
		big.n = m->n;
		*m = big;
	}
	i = umap_slot(m, key);
	if (m->keys[i] == 0)
		m->n++;
	m->keys[i] = key + 1;
	m->vals[i] = val;
}

void umap_clear(struct umap *m)
{
	if (m->cap > 0) {
		memset(m->keys, 0, m->cap * sizeof(*m->keys));
		m->n = 0;
	}
}

const char *lane_label(const char *name)
{
	const char *cut = NULL, *p;

	for (p = strstr(name, " #"); p != NULL; p = strstr(p + 1, " #"))
		if (p[2] >= '0' && p[2] <= '9')
			cut = p;
	return cut == NULL ? name : xstrndup(name, (size_t)(cut - name));
}

double noise_tol(double a_ns)
{
	double t = fabs(a_ns) * ldexp(1.0, -22);

	return t > 0.25 ? t : 0.25;
}
