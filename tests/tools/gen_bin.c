/*
 * gen_bin - build a visualize_data.bin test fixture from a recipe.
 *
 *   gen_bin RECIPE OUT
 *
 * Committed binary fixtures are hard to review; recipes are not.  This tool
 * turns a short text recipe into the exact bytes the Ascend simulator (or a
 * deliberately broken imitation of it) would write, so every committed .bin
 * can be regenerated and checked against its recipe.
 *
 * Recipe language: one directive per line, tokens separated by spaces or
 * tabs, a line whose first token starts with '#' is a comment, blank lines
 * are ignored.  FILE paths are relative to the recipe's directory.  Numbers
 * are decimal or 0x-prefixed hex.  Directives run in order on the bytes
 * built so far.
 *
 *   trace FILE [compact] [split=N] [bare]
 *       TRACE block(s) (type 2) from a Chrome-trace JSON object that has a
 *       traceEvents array.  split=N writes N blocks, each the same object
 *       with a contiguous, evenly sized run of the events; bare writes only
 *       the traceEvents array.
 *   instr FILE [compact] [version=N]       API_INSTR block (type 4), version 0
 *   source PATH FILE [framing=exclusive|inclusive]
 *       SOURCE block (type 1): PATH NUL-padded to 4096 bytes, then FILE.
 *       exclusive (the producer's framing): contentSize leaves out the path;
 *       inclusive (an older converter's test helper): it counts the path.
 *   block TYPE FILE [compact] [version=N]  any type, payload = FILE's bytes
 *   text TYPE STRING...                    any type, payload = rest of line
 *   set FIELD=VALUE ...   patch the most recent block's header after layout:
 *                         size (u64), type, padding, version, reserve (u8)
 *   append HEX...         raw bytes given as hex pairs
 *   append-zeros N        N zero bytes
 *   truncate N            cut the file to N bytes; truncate -N drops N bytes
 *   gzip                  replace the bytes so far by one gzip member
 *
 * Payload bytes are copied exactly: JSON is never parsed into a tree and
 * re-printed, because the converter under test must keep number text such
 * as 4.0289998054504395 byte for byte.  `compact` only drops whitespace
 * outside strings.
 *
 * Each block's payload is padded with zeros to a multiple of 4, like the
 * producer does; instrVersion is 0x5A except for type 4 (0x00); reserve is
 * always 0x5A.
 *
 * Exit status: 0 ok, 1 recipe or I/O error, 2 usage.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <zlib.h>

enum {
	HDR_SIZE = 12,
	HDR_OFF_SIZE = 0,
	HDR_OFF_TYPE = 8,
	HDR_OFF_PADDING = 9,
	HDR_OFF_VERSION = 10,
	HDR_OFF_RESERVE = 11,
	SOURCE_PATH_LEN = 4096,
	MAGIC_BYTE = 0x5A,
	TYPE_SOURCE = 1,
	TYPE_TRACE = 2,
	TYPE_API_INSTR = 4,
	MAX_TOKENS = 64,
	MAX_NESTING = 1024,
	GZIP_WINDOW_BITS = 31, /* 15 + 16: a gzip wrapper instead of zlib */
	GZIP_CHUNK = 65536,
	READ_CHUNK = 65536
};

/* ---------------------------------------------------------------- buffers */

struct buf {
	unsigned char *data;
	size_t len;
	size_t cap;
};

static int buf_reserve(struct buf *b, size_t extra)
{
	if (extra <= b->cap - b->len)
		return 0;
	if (extra > SIZE_MAX - b->len)
		return -1;
	const size_t need = b->len + extra;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	unsigned char *const p = realloc(b->data, cap);
	if (!p)
		return -1;
	b->data = p;
	b->cap = cap;
	return 0;
}

static int buf_append(struct buf *b, const void *p, size_t n)
{
	if (n == 0)
		return 0;
	if (buf_reserve(b, n))
		return -1;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	return 0;
}

static int buf_append_zeros(struct buf *b, size_t n)
{
	if (n == 0)
		return 0;
	if (buf_reserve(b, n))
		return -1;
	memset(b->data + b->len, 0, n);
	b->len += n;
	return 0;
}

static void buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

/* ---------------------------------------------------------- run context */

/* Everything one run needs; passed around instead of globals. */
struct gen {
	const char *recipe; /* recipe path, for messages */
	char *dir;          /* where relative FILE paths are resolved */
	size_t line;        /* current recipe line, for messages */
	struct buf out;     /* the file being built */
	int have_block;     /* `set` has a header to patch */
	size_t last_hdr;    /* offset of the most recent block header */
};

/* One tokenized recipe line; raw is kept for `text`, which wants bytes. */
struct args {
	char *tok[MAX_TOKENS];
	size_t ntok;
	const char *raw;
};

static int fail(const struct gen *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Reports `gen_bin: RECIPE:LINE: why`; returns -1 so callers can `return`. */
static int fail(const struct gen *g, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "gen_bin: %s:%zu: ", g->recipe, g->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static int oom(const struct gen *g)
{
	return fail(g, "out of memory");
}

/* ------------------------------------------------------------- numbers */

/* Decimal or 0x hex only: a leading 0 is not octal, signs are refused. */
static int parse_u64(const char *s, uint64_t *v)
{
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (*s == '\0' || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	char *end = NULL;
	const unsigned long long x = strtoull(s, &end, base);
	if (errno != 0 || *end != '\0')
		return -1;
#if ULLONG_MAX > UINT64_MAX
	if (x > UINT64_MAX)
		return -1;
#endif
	*v = (uint64_t)x;
	return 0;
}

static int parse_size(const char *s, size_t *v)
{
	uint64_t x = 0;
	if (parse_u64(s, &x))
		return -1;
#if SIZE_MAX < UINT64_MAX
	if (x > SIZE_MAX)
		return -1;
#endif
	*v = (size_t)x;
	return 0;
}

static int parse_u8(const char *s, uint8_t *v)
{
	uint64_t x = 0;
	if (parse_u64(s, &x) || x > UINT8_MAX)
		return -1;
	*v = (uint8_t)x;
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void put_u64le(unsigned char *p, uint64_t v)
{
	for (size_t i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* ---------------------------------------------------------------- files */

/* Recipe-relative path; the caller frees it. */
static char *resolve_path(const struct gen *g, const char *rel)
{
	const size_t dl = strlen(g->dir);
	const size_t rl = strlen(rel);
	char *const p = malloc(dl + rl + 2);
	if (!p)
		return NULL;
	if (rel[0] == '/') {
		memcpy(p, rel, rl + 1);
		return p;
	}
	memcpy(p, g->dir, dl);
	p[dl] = '/';
	memcpy(p + dl + 1, rel, rl + 1);
	return p;
}

static int read_file(const struct gen *g, const char *rel, struct buf *b)
{
	int rc = -1;
	FILE *f = NULL;
	char *const path = resolve_path(g, rel);
	if (!path)
		return oom(g);
	f = fopen(path, "rb");
	if (!f) {
		fail(g, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	for (;;) {
		if (buf_reserve(b, READ_CHUNK)) {
			oom(g);
			goto out;
		}
		const size_t got = fread(b->data + b->len, 1, READ_CHUNK, f);
		b->len += got;
		if (got < READ_CHUNK)
			break;
	}
	if (ferror(f)) {
		fail(g, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (f)
		fclose(f);
	free(path);
	return rc;
}

/* ------------------------------------------------------------ JSON bytes */

/* [start, end) of a byte range inside a JSON text. */
struct span {
	size_t start;
	size_t end;
};

static int is_json_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Drops whitespace outside strings; everything else stays byte-exact. */
static void json_compact(struct buf *b)
{
	size_t w = 0;
	int in_str = 0;
	int esc = 0;
	for (size_t r = 0; r < b->len; r++) {
		const unsigned char c = b->data[r];
		if (in_str) {
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				in_str = 0;
		} else if (c == '"') {
			in_str = 1;
		} else if (is_json_ws(c)) {
			continue;
		}
		b->data[w++] = c;
	}
	b->len = w;
}

static size_t skip_ws(const unsigned char *s, size_t n, size_t i)
{
	while (i < n && is_json_ws(s[i]))
		i++;
	return i;
}

/* s[i] is '"'; *end is just past the closing quote. */
static int scan_string(const unsigned char *s, size_t n, size_t i, size_t *end)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"') {
			*end = i + 1;
			return 0;
		}
	}
	return -1;
}

/* Numbers, true, false, null: a run up to the next delimiter. */
static int scan_scalar(const unsigned char *s, size_t n, size_t i, size_t *end)
{
	const size_t start = i;
	while (i < n && !is_json_ws(s[i]) && !strchr(",:[]{}\"", s[i]))
		i++;
	if (i == start)
		return -1;
	*end = i;
	return 0;
}

/*
 * Finds the end of the value at s[i].  Containers are matched with a
 * bracket stack that skips strings: enough to cut events out exactly,
 * without building a tree.
 */
static int scan_value(const unsigned char *s, size_t n, size_t i, size_t *end)
{
	unsigned char want[MAX_NESTING];
	size_t depth = 0;
	if (i >= n)
		return -1;
	if (s[i] == '"')
		return scan_string(s, n, i, end);
	if (s[i] != '{' && s[i] != '[')
		return scan_scalar(s, n, i, end);
	while (i < n) {
		const unsigned char c = s[i];
		if (c == '"') {
			if (scan_string(s, n, i, &i))
				return -1;
			continue;
		}
		if (c == '{' || c == '[') {
			if (depth == MAX_NESTING)
				return -1;
			want[depth++] = c == '{' ? (unsigned char)'}' : (unsigned char)']';
		} else if (c == '}' || c == ']') {
			if (depth == 0 || want[depth - 1] != c)
				return -1;
			if (--depth == 0) {
				*end = i + 1;
				return 0;
			}
		}
		i++;
	}
	return -1;
}

/* The whole text is one JSON value plus optional surrounding whitespace. */
static int is_one_value(const unsigned char *s, size_t n)
{
	size_t end = 0;
	const size_t i = skip_ws(s, n, 0);
	return scan_value(s, n, i, &end) == 0 && skip_ws(s, n, end) == n;
}

static int key_is(const unsigned char *s, struct span key, const char *name)
{
	const size_t len = strlen(name);
	return key.end - key.start == len + 2 &&
	       memcmp(s + key.start + 1, name, len) == 0;
}

/*
 * Walks the members of the top-level object and returns the byte range of
 * the first traceEvents value, which must be an array.  *why says what is
 * wrong otherwise.
 */
static int find_trace_events(const unsigned char *s, size_t n,
			     struct span *arr, const char **why)
{
	int found = 0;
	size_t i = skip_ws(s, n, 0);
	*why = "not a JSON object";
	if (i >= n || s[i] != '{')
		return -1;
	i = skip_ws(s, n, i + 1);
	while (i < n && s[i] != '}') {
		struct span key = { i, 0 };
		struct span val = { 0, 0 };
		*why = "malformed top-level member";
		if (s[i] != '"' || scan_string(s, n, i, &key.end))
			return -1;
		i = skip_ws(s, n, key.end);
		if (i >= n || s[i] != ':')
			return -1;
		val.start = skip_ws(s, n, i + 1);
		if (scan_value(s, n, val.start, &val.end))
			return -1;
		if (!found && key_is(s, key, "traceEvents")) {
			*arr = val;
			found = 1;
		}
		i = skip_ws(s, n, val.end);
		if (i < n && s[i] == ',') {
			/* A comma must be followed by another member. */
			i = skip_ws(s, n, i + 1);
			if (i >= n || s[i] != '"')
				return -1;
		} else if (i >= n || s[i] != '}') {
			return -1;
		}
	}
	*why = "unterminated object or trailing bytes";
	if (i >= n || skip_ws(s, n, i + 1) != n)
		return -1;
	*why = "no traceEvents member";
	if (!found)
		return -1;
	*why = "traceEvents is not an array";
	return s[arr->start] == '[' ? 0 : -1;
}

/* Byte ranges of the elements of the array at arr; the caller frees *out. */
static int list_elements(const unsigned char *s, struct span arr,
			 struct span **out, size_t *count)
{
	struct span *ev = NULL;
	size_t nev = 0;
	size_t cap = 0;
	size_t i = skip_ws(s, arr.end, arr.start + 1);
	while (i < arr.end - 1) {
		if (nev == cap) {
			cap = cap ? cap * 2 : 64;
			struct span *const p = realloc(ev, cap * sizeof *p);
			if (!p)
				goto fail;
			ev = p;
		}
		ev[nev].start = i;
		if (scan_value(s, arr.end, i, &ev[nev].end))
			goto fail;
		i = skip_ws(s, arr.end, ev[nev].end);
		nev++;
		if (s[i] == ',') {
			i = skip_ws(s, arr.end, i + 1);
			if (i == arr.end - 1) /* trailing comma */
				goto fail;
		} else if (i != arr.end - 1) {
			goto fail;
		}
	}
	*out = ev;
	*count = nev;
	return 0;
fail:
	free(ev);
	return -1;
}

/* --------------------------------------------------------------- blocks */

struct block_spec {
	uint8_t type;
	uint8_t version;
	const char *path; /* SOURCE path, or NULL for no path area */
	int inclusive;    /* contentSize counts the path area */
};

static uint8_t default_version(uint8_t type)
{
	/* Only new-style API_INSTR headers carry 0; see format-notes §2. */
	return type == TYPE_API_INSTR ? 0 : MAGIC_BYTE;
}

/* Lays out header, optional path area, payload and zero padding. */
static int emit_block(struct gen *g, const struct block_spec *spec,
		      const unsigned char *payload, size_t len)
{
	unsigned char hdr[HDR_SIZE];
	const size_t area = spec->path ? SOURCE_PATH_LEN : 0;
	if (len > SIZE_MAX - HDR_SIZE - SOURCE_PATH_LEN - 3)
		return fail(g, "payload too large");
	/* The producer pads the text to 4; 4096 keeps that true with a path. */
	const size_t pad = (4 - len % 4) % 4;
	const size_t size = len + pad + (spec->inclusive ? area : 0);
	put_u64le(hdr + HDR_OFF_SIZE, (uint64_t)size);
	hdr[HDR_OFF_TYPE] = spec->type;
	hdr[HDR_OFF_PADDING] = (unsigned char)pad;
	hdr[HDR_OFF_VERSION] = spec->version;
	hdr[HDR_OFF_RESERVE] = MAGIC_BYTE;
	const size_t at = g->out.len;
	if (buf_append(&g->out, hdr, sizeof hdr) ||
	    buf_append_zeros(&g->out, area) ||
	    buf_append(&g->out, payload, len) ||
	    buf_append_zeros(&g->out, pad))
		return oom(g);
	if (spec->path)
		memcpy(g->out.data + at + HDR_SIZE, spec->path,
		       strlen(spec->path));
	g->last_hdr = at;
	g->have_block = 1;
	return 0;
}

/* ------------------------------------------------------------- options */

enum {
	OPT_COMPACT = 1u << 0,
	OPT_SPLIT = 1u << 1,
	OPT_BARE = 1u << 2,
	OPT_VERSION = 1u << 3,
	OPT_FRAMING = 1u << 4
};

struct opts {
	int compact;
	int bare;
	size_t split;    /* 0: one block */
	int has_version;
	uint8_t version;
	int inclusive;
};

static int parse_opt(const struct gen *g, const char *t, unsigned allowed,
		     struct opts *o)
{
	if ((allowed & OPT_COMPACT) && strcmp(t, "compact") == 0)
		o->compact = 1;
	else if ((allowed & OPT_BARE) && strcmp(t, "bare") == 0)
		o->bare = 1;
	else if ((allowed & OPT_SPLIT) && strncmp(t, "split=", 6) == 0) {
		if (parse_size(t + 6, &o->split) || o->split == 0)
			return fail(g, "bad split count '%s'", t + 6);
	} else if ((allowed & OPT_VERSION) && strncmp(t, "version=", 8) == 0) {
		if (parse_u8(t + 8, &o->version))
			return fail(g, "bad version '%s'", t + 8);
		o->has_version = 1;
	} else if ((allowed & OPT_FRAMING) && strcmp(t, "framing=exclusive") == 0)
		o->inclusive = 0;
	else if ((allowed & OPT_FRAMING) && strcmp(t, "framing=inclusive") == 0)
		o->inclusive = 1;
	else
		return fail(g, "unknown option '%s'", t);
	return 0;
}

/* Options are the tokens from index `first` on. */
static int parse_opts(const struct gen *g, const struct args *a, size_t first,
		      unsigned allowed, struct opts *o)
{
	memset(o, 0, sizeof *o);
	for (size_t i = first; i < a->ntok; i++)
		if (parse_opt(g, a->tok[i], allowed, o))
			return -1;
	return 0;
}

static int need_args(const struct gen *g, const struct args *a, size_t n,
		     const char *usage)
{
	if (a->ntok < n + 1)
		return fail(g, "usage: %s", usage);
	return 0;
}

static int parse_type(const struct gen *g, const char *t, uint8_t *type)
{
	if (parse_u8(t, type))
		return fail(g, "bad block type '%s' (0..255)", t);
	return 0;
}

/* Reads FILE and applies `compact`; the caller frees b. */
static int load_payload(const struct gen *g, const char *file,
			const struct opts *o, struct buf *b)
{
	if (read_file(g, file, b))
		return -1;
	if (o->compact)
		json_compact(b);
	return 0;
}

/* ---------------------------------------------------------- directives */

/*
 * One split chunk: the document up to and including '[', the exact bytes
 * from the first to the last event of the run (original separators kept),
 * then the document from ']' on.  bare keeps only the brackets.
 */
static int emit_trace_chunk(struct gen *g, const struct buf *doc,
			    struct span arr, const struct span *ev,
			    size_t first, size_t last, int bare)
{
	static const struct block_spec spec = { TYPE_TRACE, MAGIC_BYTE, NULL, 0 };
	struct buf p = { NULL, 0, 0 };
	const unsigned char *const s = doc->data;
	int rc = -1;
	const size_t head = bare ? arr.start : 0;
	const size_t tail = bare ? arr.end : doc->len;
	if (buf_append(&p, s + head, arr.start + 1 - head))
		goto nomem;
	if (first < last &&
	    buf_append(&p, s + ev[first].start, ev[last - 1].end - ev[first].start))
		goto nomem;
	if (buf_append(&p, s + arr.end - 1, tail - (arr.end - 1)))
		goto nomem;
	rc = emit_block(g, &spec, p.data, p.len);
	goto out;
nomem:
	oom(g);
out:
	buf_free(&p);
	return rc;
}

static int emit_trace_split(struct gen *g, const char *file,
			    const struct buf *doc, struct span arr,
			    const struct opts *o)
{
	struct span *ev = NULL;
	size_t nev = 0;
	if (list_elements(doc->data, arr, &ev, &nev))
		return fail(g, "%s: malformed traceEvents array", file);
	int rc = 0;
	/* Block k gets events [k*E/N, (k+1)*E/N): in order, sizes differ by <= 1. */
	for (size_t k = 0; k < o->split && rc == 0; k++) {
		const size_t a = (size_t)((unsigned long long)k * nev / o->split);
		const size_t b =
			(size_t)((unsigned long long)(k + 1) * nev / o->split);
		rc = emit_trace_chunk(g, doc, arr, ev, a, b, o->bare);
	}
	free(ev);
	return rc;
}

static int do_trace(struct gen *g, const struct args *a)
{
	static const struct block_spec spec = { TYPE_TRACE, MAGIC_BYTE, NULL, 0 };
	struct buf doc = { NULL, 0, 0 };
	struct opts o;
	struct span arr = { 0, 0 };
	const char *why = NULL;
	int rc = -1;
	if (need_args(g, a, 1, "trace FILE [compact] [split=N] [bare]") ||
	    parse_opts(g, a, 2, OPT_COMPACT | OPT_SPLIT | OPT_BARE, &o) ||
	    load_payload(g, a->tok[1], &o, &doc))
		goto out;
	/* Checked even for a verbatim copy: broken payloads go via `block 2`. */
	if (find_trace_events(doc.data, doc.len, &arr, &why)) {
		fail(g, "%s: %s", a->tok[1], why);
		goto out;
	}
	if (o.split)
		rc = emit_trace_split(g, a->tok[1], &doc, arr, &o);
	else if (o.bare)
		rc = emit_block(g, &spec, doc.data + arr.start, arr.end - arr.start);
	else
		rc = emit_block(g, &spec, doc.data, doc.len);
out:
	buf_free(&doc);
	return rc;
}

static int do_instr(struct gen *g, const struct args *a)
{
	struct buf doc = { NULL, 0, 0 };
	struct opts o;
	int rc = -1;
	if (need_args(g, a, 1, "instr FILE [compact] [version=N]") ||
	    parse_opts(g, a, 2, OPT_COMPACT | OPT_VERSION, &o) ||
	    load_payload(g, a->tok[1], &o, &doc))
		goto out;
	if (!is_one_value(doc.data, doc.len)) {
		fail(g, "%s: not one JSON value (use `block 4` for that)",
		     a->tok[1]);
		goto out;
	}
	const struct block_spec spec = {
		TYPE_API_INSTR, o.has_version ? o.version : 0, NULL, 0
	};
	rc = emit_block(g, &spec, doc.data, doc.len);
out:
	buf_free(&doc);
	return rc;
}

static int do_source(struct gen *g, const struct args *a)
{
	struct buf text = { NULL, 0, 0 };
	struct opts o;
	int rc = -1;
	if (need_args(g, a, 2,
		      "source PATH FILE [framing=exclusive|inclusive]") ||
	    parse_opts(g, a, 3, OPT_FRAMING, &o))
		goto out;
	/* The producer's char[PATH_MAX] must keep its terminating NUL. */
	if (strlen(a->tok[1]) >= SOURCE_PATH_LEN) {
		fail(g, "source path longer than %d bytes", SOURCE_PATH_LEN - 1);
		goto out;
	}
	if (read_file(g, a->tok[2], &text))
		goto out;
	const struct block_spec spec = {
		TYPE_SOURCE, MAGIC_BYTE, a->tok[1], o.inclusive
	};
	rc = emit_block(g, &spec, text.data, text.len);
out:
	buf_free(&text);
	return rc;
}

static int do_block(struct gen *g, const struct args *a)
{
	struct buf doc = { NULL, 0, 0 };
	struct opts o;
	uint8_t type = 0;
	int rc = -1;
	if (need_args(g, a, 2, "block TYPE FILE [compact] [version=N]") ||
	    parse_type(g, a->tok[1], &type) ||
	    parse_opts(g, a, 3, OPT_COMPACT | OPT_VERSION, &o) ||
	    load_payload(g, a->tok[2], &o, &doc))
		goto out;
	const struct block_spec spec = {
		type, o.has_version ? o.version : default_version(type), NULL, 0
	};
	rc = emit_block(g, &spec, doc.data, doc.len);
out:
	buf_free(&doc);
	return rc;
}

/* Pointer past the first `skip` tokens of raw and the blanks after them. */
static const char *rest_of_line(const char *raw, size_t skip)
{
	const char *p = raw;
	for (size_t i = 0; i < skip; i++) {
		p += strspn(p, " \t");
		p += strcspn(p, " \t");
	}
	return p + strspn(p, " \t");
}

static int do_text(struct gen *g, const struct args *a)
{
	uint8_t type = 0;
	if (need_args(g, a, 1, "text TYPE STRING...") ||
	    parse_type(g, a->tok[1], &type))
		return -1;
	const char *const rest = rest_of_line(a->raw, 2);
	const struct block_spec spec = { type, default_version(type), NULL, 0 };
	return emit_block(g, &spec, (const unsigned char *)rest, strlen(rest));
}

static int set_field(struct gen *g, const char *assign)
{
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {
		{ "type", HDR_OFF_TYPE },
		{ "padding", HDR_OFF_PADDING },
		{ "version", HDR_OFF_VERSION },
		{ "reserve", HDR_OFF_RESERVE },
	};
	unsigned char *const hdr = g->out.data + g->last_hdr;
	const char *const eq = strchr(assign, '=');
	if (!eq)
		return fail(g, "set: expected FIELD=VALUE, got '%s'", assign);
	const size_t nlen = (size_t)(eq - assign);
	if (nlen == 4 && strncmp(assign, "size", 4) == 0) {
		uint64_t v = 0;
		if (parse_u64(eq + 1, &v))
			return fail(g, "set: bad size '%s'", eq + 1);
		put_u64le(hdr + HDR_OFF_SIZE, v);
		return 0;
	}
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		if (strlen(fields[i].name) != nlen ||
		    strncmp(assign, fields[i].name, nlen) != 0)
			continue;
		if (parse_u8(eq + 1, &hdr[fields[i].off]))
			return fail(g, "set: bad %s '%s' (0..255)",
				    fields[i].name, eq + 1);
		return 0;
	}
	return fail(g, "set: unknown field in '%s'", assign);
}

static int do_set(struct gen *g, const struct args *a)
{
	if (need_args(g, a, 1, "set FIELD=VALUE ..."))
		return -1;
	if (!g->have_block)
		return fail(g, "set: no block header to patch");
	for (size_t i = 1; i < a->ntok; i++)
		if (set_field(g, a->tok[i]))
			return -1;
	return 0;
}

static int do_append(struct gen *g, const struct args *a)
{
	if (need_args(g, a, 1, "append HEX..."))
		return -1;
	for (size_t t = 1; t < a->ntok; t++) {
		const char *const h = a->tok[t];
		const size_t n = strlen(h);
		if (n % 2)
			return fail(g, "append: odd number of hex digits in '%s'", h);
		for (size_t i = 0; i < n; i += 2) {
			const int hi = hex_digit(h[i]);
			const int lo = hex_digit(h[i + 1]);
			if (hi < 0 || lo < 0)
				return fail(g, "append: bad hex '%s'", h);
			const unsigned char byte = (unsigned char)(hi * 16 + lo);
			if (buf_append(&g->out, &byte, 1))
				return oom(g);
		}
	}
	return 0;
}

static int do_append_zeros(struct gen *g, const struct args *a)
{
	size_t n = 0;
	if (need_args(g, a, 1, "append-zeros N"))
		return -1;
	if (a->ntok != 2 || parse_size(a->tok[1], &n))
		return fail(g, "append-zeros: bad count");
	if (buf_append_zeros(&g->out, n))
		return oom(g);
	return 0;
}

static int do_truncate(struct gen *g, const struct args *a)
{
	size_t n = 0;
	if (need_args(g, a, 1, "truncate N | truncate -N"))
		return -1;
	const char *const t = a->tok[1];
	const int from_end = t[0] == '-';
	if (a->ntok != 2 || parse_size(t + from_end, &n))
		return fail(g, "truncate: bad length '%s'", t);
	if (n > g->out.len)
		return fail(g, "truncate: %s is beyond the %zu bytes built so far",
			    t, g->out.len);
	g->out.len = from_end ? g->out.len - n : n;
	/* A header cut short can no longer be patched by `set`. */
	if (g->have_block && g->last_hdr + HDR_SIZE > g->out.len)
		g->have_block = 0;
	return 0;
}

/* deflate with a gzip wrapper: fixed header (mtime 0), so output is stable. */
static int gzip_buf(const struct buf *in, struct buf *z)
{
	z_stream zs;
	int ret = Z_OK;
	size_t off = 0;
	memset(&zs, 0, sizeof zs);
	if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, GZIP_WINDOW_BITS,
			 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	/* Input in chunks because avail_in is only an unsigned int. */
	for (;;) {
		const size_t left = in->len - off;
		const uInt chunk = left > GZIP_CHUNK ? GZIP_CHUNK : (uInt)left;
		const int flush = chunk == left ? Z_FINISH : Z_NO_FLUSH;
		zs.next_in = in->data ? in->data + off : NULL;
		zs.avail_in = chunk;
		do {
			if (buf_reserve(z, GZIP_CHUNK))
				goto fail;
			zs.next_out = z->data + z->len;
			zs.avail_out = GZIP_CHUNK;
			ret = deflate(&zs, flush);
			if (ret == Z_STREAM_ERROR)
				goto fail;
			z->len += GZIP_CHUNK - zs.avail_out;
		} while (zs.avail_out == 0 && ret != Z_STREAM_END);
		off += chunk - zs.avail_in;
		if (flush == Z_FINISH)
			break;
	}
	if (ret != Z_STREAM_END)
		goto fail;
	deflateEnd(&zs);
	return 0;
fail:
	deflateEnd(&zs);
	return -1;
}

static int do_gzip(struct gen *g, const struct args *a)
{
	struct buf z = { NULL, 0, 0 };
	if (a->ntok != 1)
		return fail(g, "gzip takes no arguments");
	if (gzip_buf(&g->out, &z)) {
		buf_free(&z);
		return fail(g, "gzip: compression failed");
	}
	buf_free(&g->out);
	g->out = z;
	g->have_block = 0; /* headers are inside the compressed stream now */
	return 0;
}

/* ---------------------------------------------------------- the recipe */

typedef int (*directive_fn)(struct gen *, const struct args *);

static const struct directive {
	const char *name;
	directive_fn fn;
} directives[] = {
	{ "trace", do_trace },
	{ "instr", do_instr },
	{ "source", do_source },
	{ "block", do_block },
	{ "text", do_text },
	{ "set", do_set },
	{ "append", do_append },
	{ "append-zeros", do_append_zeros },
	{ "truncate", do_truncate },
	{ "gzip", do_gzip },
};

static int run_line(struct gen *g, const char *raw)
{
	struct args a;
	int rc = -1;
	char *const copy = strdup(raw);
	if (!copy)
		return oom(g);
	a.raw = raw;
	a.ntok = 0;
	for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		if (a.ntok == MAX_TOKENS) {
			fail(g, "more than %d tokens", MAX_TOKENS);
			goto out;
		}
		a.tok[a.ntok++] = t;
	}
	rc = 0;
	if (a.ntok == 0 || a.tok[0][0] == '#')
		goto out;
	for (size_t i = 0; i < sizeof directives / sizeof directives[0]; i++)
		if (strcmp(a.tok[0], directives[i].name) == 0) {
			rc = directives[i].fn(g, &a);
			goto out;
		}
	rc = fail(g, "unknown directive '%s'", a.tok[0]);
out:
	free(copy);
	return rc;
}

static int run_recipe(struct gen *g)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t got = 0;
	int rc = -1;
	FILE *const f = fopen(g->recipe, "r");
	if (!f) {
		fprintf(stderr, "gen_bin: %s: %s\n", g->recipe, strerror(errno));
		return -1;
	}
	while ((got = getline(&line, &cap, f)) != -1) {
		size_t n = (size_t)got;
		g->line++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (run_line(g, line))
			goto out;
	}
	if (ferror(f)) {
		fprintf(stderr, "gen_bin: %s: read error\n", g->recipe);
		goto out;
	}
	rc = 0;
out:
	free(line);
	fclose(f);
	return rc;
}

/* OUT.tmp then rename: an interrupted run never leaves a half file as OUT. */
static int write_atomic(const char *out, const struct buf *b)
{
	int rc = -1;
	FILE *f = NULL;
	const size_t len = strlen(out);
	char *const tmp = malloc(len + sizeof ".tmp");
	if (!tmp) {
		fprintf(stderr, "gen_bin: %s: out of memory\n", out);
		return -1;
	}
	memcpy(tmp, out, len);
	memcpy(tmp + len, ".tmp", sizeof ".tmp");
	f = fopen(tmp, "wb");
	if (!f)
		goto fail;
	const int werr = b->len && fwrite(b->data, 1, b->len, f) != b->len;
	const int cerr = fclose(f) != 0;
	if (werr || cerr || rename(tmp, out) != 0)
		goto fail;
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "gen_bin: %s: %s\n", out, strerror(errno));
	remove(tmp);
out:
	free(tmp);
	return rc;
}

/* Directory part of the recipe path, for resolving FILE arguments. */
static char *dir_of(const char *path)
{
	const char *const slash = strrchr(path, '/');
	if (!slash)
		return strdup(".");
	const size_t n = slash == path ? 1 : (size_t)(slash - path);
	char *const d = malloc(n + 1);
	if (d) {
		memcpy(d, path, n);
		d[n] = '\0';
	}
	return d;
}

static void usage(FILE *to)
{
	fputs("usage: gen_bin RECIPE OUT\n"
	      "Build a visualize_data.bin from a recipe; see the comment at\n"
	      "the top of tests/tools/gen_bin.c for the recipe language.\n",
	      to);
}

int main(int argc, char **argv)
{
	struct gen g;
	int status = 1;
	memset(&g, 0, sizeof g);
	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
			  strcmp(argv[1], "--help") == 0)) {
		usage(stdout);
		return 0;
	}
	/* Options are reserved for further modes (e.g. --synth). */
	if (argc != 3 || argv[1][0] == '-' || argv[2][0] == '-') {
		usage(stderr);
		return 2;
	}
	g.recipe = argv[1];
	g.dir = dir_of(argv[1]);
	if (!g.dir) {
		fputs("gen_bin: out of memory\n", stderr);
		goto out;
	}
	if (run_recipe(&g) == 0 && write_atomic(argv[2], &g.out) == 0)
		status = 0;
out:
	free(g.dir);
	buf_free(&g.out);
	return status;
}
