#include "read/block_reader.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/path.h"
#include "read/input_sniff.h"

/* How much of a file that is not a container is looked at to name it. */
#define SNIFF_BYTES 512u

/* Growth step of a payload whose size is not verified yet (gzip input). */
#define UNVERIFIED_CHUNK (1u << 20)

struct block_header {
	uint64_t content_size;
	uint8_t type, padding, version, reserve;
};

static void header_decode(const unsigned char *p, struct block_header *h)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	h->content_size = v;
	h->type = p[8];
	h->padding = p[9];
	h->version = p[10];
	h->reserve = p[11];
}

static uint64_t header_span(const struct block_header *h, int inclusive)
{
	uint64_t extra = h->type == CSIM_BLOCK_SOURCE && !inclusive
			 ? CSIM_SOURCE_PATH_SIZE : 0;

	return CSIM_BLOCK_HEADER_SIZE + extra + h->content_size;
}

/*
 * The inclusive framing counts the path in contentSize, so the size must hold
 * the path and the padding; otherwise the text size would wrap around.
 */
static int inclusive_possible(const struct block_header *h)
{
	return h->content_size >= (uint64_t)CSIM_SOURCE_PATH_SIZE + h->padding;
}

/* A SOURCE block may still turn out to use the shorter inclusive framing. */
static uint64_t header_min_span(const struct block_header *h)
{
	int inclusive = h->type == CSIM_BLOCK_SOURCE && inclusive_possible(h);

	return header_span(h, inclusive);
}

static const char *past_end(const struct block_header *h, int inclusive,
			    uint64_t left, char *why, size_t why_size)
{
	snprintf(why, why_size,
		 "block of %llu bytes runs past the end of the file (%llu bytes left)",
		 (unsigned long long)header_span(h, inclusive),
		 (unsigned long long)left);
	return why;
}

/*
 * The checks every header must pass; returns NULL or the reason. "left" is
 * the number of bytes from the header to the end of the file, when known.
 */
static const char *header_problem(const struct block_header *h, uint64_t offset,
				   int size_known, uint64_t left, char *why,
				   size_t why_size)
{
	uint64_t extra = h->type == CSIM_BLOCK_SOURCE ? CSIM_SOURCE_PATH_SIZE : 0;

	if (h->reserve != CSIM_BLOCK_RESERVE) {
		snprintf(why, why_size, "reserve byte is 0x%02x, expected 0x5a",
			 h->reserve);
		return why;
	}
	if (h->padding > 3) {
		snprintf(why, why_size, "padding %u is larger than 3", h->padding);
		return why;
	}
	if (h->padding > h->content_size) {
		snprintf(why, why_size, "padding %u is larger than the content size %llu",
			 h->padding, (unsigned long long)h->content_size);
		return why;
	}
	if (h->content_size > UINT64_MAX - offset - CSIM_BLOCK_HEADER_SIZE - extra) {
		snprintf(why, why_size, "%s size %llu overflows a 64-bit file offset",
			 h->type == CSIM_BLOCK_SOURCE ? "SOURCE block" : "content",
			 (unsigned long long)h->content_size);
		return why;
	}
	if (size_known && header_min_span(h) > left)
		return past_end(h, 0, left, why, why_size);
	return NULL;
}

static int corrupt(struct csim_block_reader *r, uint64_t offset,
		   struct csim_error *err, const char *why)
{
	return csim_error_set(err, CSIM_E_INPUT, offset,
			      "%s: corrupt block at offset %llu: %s",
			      r->stream.path, (unsigned long long)offset, why);
}

/* path as a shell word: quoted when it holds anything but [A-Za-z0-9._/+-]. */
static void shell_word(const char *path, char *out, size_t cap)
{
	const int plain = path[strspn(path, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					    "0123456789._/+-")] == '\0';

	snprintf(out, cap, plain || strchr(path, '\'') != NULL ? "%s" : "'%s'", path);
}

/* A packed form (xz, zstd, bzip2; an archive): named, with how to unpack it. */
static int packed_input(struct csim_block_reader *r, const struct csim_sniff_packed *p,
			struct csim_error *err)
{
	const char *path = r->stream.path, *base = strrchr(path, '/');
	const int in_gzip = r->stream.gz != NULL && p->gz_what != NULL;
	const int in_place = p->suffix != NULL && csim_path_ends_with(path, p->suffix);
	/* Written beside the input would overwrite it. */
	const char *to = strcmp(base != NULL ? base + 1 : path, "visualize_data.bin") == 0
			 ? " > visualize_data.unpacked.bin" : " > visualize_data.bin";
	char word[1024];

	shell_word(path, word, sizeof(word));
	if (p->to_file == NULL)
		return csim_error_set(err, CSIM_E_INPUT, 0,
				      "%s: %s, not a visualize_data.bin container: extract it first "
				      "(%s %s) and pass the OPPROF_* folder or the visualize_data.bin in it",
				      path, in_gzip ? p->gz_what : p->what,
				      in_gzip ? p->gz_unpack : p->unpack, word);
	return csim_error_set(err, CSIM_E_INPUT, 0,
			      "%s: %s, not a visualize_data.bin container: decompress it first "
			      "(%s %s%s); clean_sim_trace reads visualize_data.bin and its gzip "
			      "form visualize_data.bin.gz",
			      path, p->what, in_place ? p->unpack : p->to_file, word, in_place ? "" : to);
}

/*
 * The first header is bad, or the file is shorter than one: a JSON or text
 * file passed by mistake, or the dump packed in a form the converter does
 * not read, is named as such, with what to do instead (SPEC §1); anything
 * else keeps the corrupt-container error (returns CSIM_OK).
 */
static int not_a_container(struct csim_block_reader *r, struct csim_error *err)
{
	static const char *const instead =
		"pass the OPPROF_* folder or the visualize_data.bin next to it";
	const struct csim_sniff_packed *packed;
	const unsigned char *p;
	size_t avail;
	enum csim_sniff kind;
	char word[1024];
	int rc = csim_stream_peek(&r->stream, SNIFF_BYTES, &p, &avail, err);

	if (rc != CSIM_OK)
		return rc;
	kind = csim_input_sniff(p, avail);
	packed = csim_input_sniff_packed(kind);
	if (packed != NULL)
		return packed_input(r, packed, err);
	switch (kind) {
	case CSIM_SNIFF_JSON:
		shell_word(r->stream.path, word, sizeof(word));
		return csim_error_set(err, CSIM_E_INPUT, 0,
				      "%s: a JSON file (such as trace.json), not a visualize_data.bin "
				      "container: %s; clean_sim_trace --check %s checks a trace against "
				      "the viewer rules",
				      r->stream.path, instead, word);
	case CSIM_SNIFF_TEXT:
		return csim_error_set(err, CSIM_E_INPUT, 0,
				      "%s: a text file, not a visualize_data.bin container: %s",
				      r->stream.path, instead);
	default:
		return CSIM_OK;
	}
}

void csim_block_reader_init(struct csim_block_reader *r)
{
	memset(r, 0, sizeof(*r));
	csim_stream_init(&r->stream);
}

int csim_block_reader_open(struct csim_block_reader *r, const char *path,
			   struct csim_error *err)
{
	csim_block_reader_init(r);
	return csim_stream_open(&r->stream, path, err);
}

void csim_block_reader_release(struct csim_block_reader *r)
{
	csim_stream_release(&r->stream);
}

static uint64_t bytes_left(const struct csim_block_reader *r, uint64_t at)
{
	return r->stream.size > at ? r->stream.size - at : 0;
}

/*
 * Does a block header (or the exact end of the file) start at window offset
 * rel? Used only to choose between the two SOURCE framings.
 */
static int lands_on_header(const struct csim_block_reader *r,
			   const unsigned char *win, size_t avail, size_t rel,
			   uint64_t at)
{
	struct block_header h;
	char why[160];

	if (avail == rel && r->stream.eof)
		return 1;
	if (avail < rel + CSIM_BLOCK_HEADER_SIZE)
		return 0;
	header_decode(win + rel, &h);
	return header_problem(&h, at, r->stream.size_known, bytes_left(r, at),
			      why, sizeof(why)) == NULL;
}

/*
 * Chooses the SOURCE framing. The inclusive candidate lies 4096 bytes before
 * the exclusive one, so the reader stops there and looks at both headers in
 * one window instead of seeking backwards (gzip input cannot).
 */
static int source_frame(struct csim_block_reader *r, const struct block_header *h,
			uint64_t offset, int *inclusive, struct csim_error *err)
{
	uint64_t incl_end = offset + CSIM_BLOCK_HEADER_SIZE + h->content_size;
	const unsigned char *win;
	size_t avail;
	uint64_t skipped;
	int rc;

	*inclusive = 0;
	if (!inclusive_possible(h))
		return CSIM_OK;
	rc = csim_stream_skip(&r->stream, h->content_size, &skipped, err);
	if (rc != CSIM_OK)
		return rc;
	if (skipped < h->content_size)
		return corrupt(r, offset, err, "SOURCE block runs past the end of the file");
	rc = csim_stream_peek(&r->stream,
			      CSIM_SOURCE_PATH_SIZE + CSIM_BLOCK_HEADER_SIZE,
			      &win, &avail, err);
	if (rc != CSIM_OK)
		return rc;
	if (!lands_on_header(r, win, avail, CSIM_SOURCE_PATH_SIZE,
			     incl_end + CSIM_SOURCE_PATH_SIZE) &&
	    lands_on_header(r, win, avail, 0, incl_end))
		*inclusive = 1;
	return CSIM_OK;
}

/* The file ended inside the current block (found while reading gzip input,
 * whose size is not known up front). */
static int truncated(struct csim_block_reader *r, struct csim_error *err)
{
	char why[160];

	snprintf(why, sizeof(why),
		 "block of %llu bytes runs past the end of the file",
		 (unsigned long long)(r->block_end - r->block_offset));
	return corrupt(r, r->block_offset, err, why);
}

static int skip_to_block_end(struct csim_block_reader *r, struct csim_error *err)
{
	uint64_t here = csim_stream_tell(&r->stream);
	uint64_t skipped;
	int rc;

	r->payload_left = 0;
	if (here >= r->block_end)
		return CSIM_OK;
	rc = csim_stream_skip(&r->stream, r->block_end - here, &skipped, err);
	if (rc == CSIM_OK && skipped < r->block_end - here)
		return truncated(r, err);
	return rc;
}

/* The reader stands at blk's payload: reads and skips stay inside it. */
static void enter_block(struct csim_block_reader *r, const struct csim_block *blk)
{
	r->block_offset = blk->offset;
	r->block_end = blk->end;
	r->payload_left = blk->type == CSIM_BLOCK_SOURCE ? 0 : blk->payload_size;
}

int csim_block_reader_next(struct csim_block_reader *r, struct csim_block *blk,
			   int *has_block, struct csim_error *err)
{
	struct block_header h;
	const unsigned char *p;
	size_t avail;
	uint64_t offset;
	char why[160];
	int inclusive = 0;
	int rc;

	*has_block = 0;
	rc = skip_to_block_end(r, err);
	if (rc != CSIM_OK)
		return rc;
	offset = csim_stream_tell(&r->stream);
	rc = csim_stream_peek(&r->stream, CSIM_BLOCK_HEADER_SIZE, &p, &avail, err);
	if (rc != CSIM_OK)
		return rc;
	if (avail < CSIM_BLOCK_HEADER_SIZE) {
		if (offset == 0 && avail > 0 && (rc = not_a_container(r, err)) != CSIM_OK)
			return rc;
		if (offset == 0 && avail > 0)
			return csim_error_set(err, CSIM_E_INPUT, 0,
					      "%s: too short: %zu byte%s%s, a block header is %u bytes",
					      r->stream.path, avail, avail == 1 ? "" : "s",
					      r->stream.gz != NULL ? " once decompressed" : "",
					      CSIM_BLOCK_HEADER_SIZE);
		r->trailing_bytes = avail;
		r->trailing_offset = offset;
		return CSIM_OK;
	}
	header_decode(p, &h);
	if (header_problem(&h, offset, r->stream.size_known,
			   bytes_left(r, offset), why, sizeof(why)) != NULL) {
		if (offset == 0 && (rc = not_a_container(r, err)) != CSIM_OK)
			return rc;
		return corrupt(r, offset, err, why);
	}
	csim_stream_consume(&r->stream, CSIM_BLOCK_HEADER_SIZE);
	if (h.type == CSIM_BLOCK_SOURCE) {
		rc = source_frame(r, &h, offset, &inclusive, err);
		if (rc != CSIM_OK)
			return rc;
		if (r->stream.size_known &&
		    header_span(&h, inclusive) > bytes_left(r, offset))
			return corrupt(r, offset, err,
				       past_end(&h, inclusive, bytes_left(r, offset),
						why, sizeof(why)));
	}
	memset(blk, 0, sizeof(*blk));
	blk->offset = offset;
	blk->content_size = h.content_size;
	blk->type = h.type;
	blk->padding = h.padding;
	blk->version = h.version;
	blk->reserve = h.reserve;
	blk->source_inclusive = inclusive;
	blk->payload_offset = offset + CSIM_BLOCK_HEADER_SIZE;
	blk->payload_size = h.content_size - h.padding;
	if (h.type == CSIM_BLOCK_SOURCE) {
		/* The path is not payload; the text is never read by the converter. */
		blk->payload_offset += CSIM_SOURCE_PATH_SIZE;
		blk->payload_size = inclusive
			? blk->payload_size - CSIM_SOURCE_PATH_SIZE : blk->payload_size;
	}
	blk->end = offset + header_span(&h, inclusive);
	enter_block(r, blk);
	*has_block = 1;
	return CSIM_OK;
}

int csim_block_reader_read(struct csim_block_reader *r, void *dst, size_t n,
			   size_t *got, struct csim_error *err)
{
	int rc;

	if ((uint64_t)n > r->payload_left)
		n = (size_t)r->payload_left;
	*got = 0;
	if (n == 0)
		return CSIM_OK;
	rc = csim_stream_read(&r->stream, dst, n, got, err);
	if (rc != CSIM_OK)
		return rc;
	if (*got < n)
		return truncated(r, err);
	r->payload_left -= *got;
	return CSIM_OK;
}

int csim_block_reader_skip(struct csim_block_reader *r, uint64_t n,
			   struct csim_error *err)
{
	uint64_t skipped;
	int rc;

	if (n > r->payload_left)
		n = r->payload_left;
	rc = csim_stream_skip(&r->stream, n, &skipped, err);
	if (rc != CSIM_OK)
		return rc;
	if (skipped < n)
		return truncated(r, err);
	r->payload_left -= n;
	return CSIM_OK;
}

int csim_block_reader_seek(struct csim_block_reader *r,
			   const struct csim_block *blk, struct csim_error *err)
{
	int rc = csim_stream_seek(&r->stream, blk->payload_offset, err);

	if (rc == CSIM_OK)
		enter_block(r, blk);
	return rc;
}

int csim_block_reader_sizes_checked(const struct csim_block_reader *r)
{
	return r->stream.size_known;
}

const struct csim_file_id *csim_block_reader_file_id(const struct csim_block_reader *r)
{
	return &r->stream.id;
}

void csim_block_reader_set_progress(struct csim_block_reader *r, struct csim_progress *p)
{
	csim_stream_set_progress(&r->stream, p);
}

uint64_t csim_block_reader_trailing(const struct csim_block_reader *r, uint64_t *offset)
{
	*offset = r->trailing_offset;
	return r->trailing_bytes;
}

uint64_t csim_block_reader_tell(const struct csim_block_reader *r)
{
	return csim_stream_tell(&r->stream);
}

/*
 * Reads a whole payload into *out. A size checked against the file is
 * allocated at once; an unverified one (gzip input) only as its bytes
 * arrive, so a header claiming 256 GiB fails as a truncated block, not as
 * an allocation of the claimed size.
 */
int csim_block_reader_read_payload(struct csim_block_reader *reader,
				   const struct csim_block *blk, char **out,
				   struct csim_error *err)
{
	uint64_t size = blk->payload_size;
	size_t cap = 0, len = 0;
	char *buf = NULL;
	int rc = CSIM_OK;

	if (size > SIZE_MAX - 1) {
		rc = csim_error_nomem(err, CSIM_E_INPUT);
		goto out;
	}
	do {
		size_t next = cap < UNVERIFIED_CHUNK ? UNVERIFIED_CHUNK
			      : cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
		size_t want = reader->stream.size_known || size <= next ? (size_t)size : next;
		char *b = realloc(buf, want ? want : 1);
		size_t got;

		if (b == NULL) {
			rc = csim_error_nomem(err, CSIM_E_INPUT);
			goto out;
		}
		buf = b;
		cap = want;
		rc = csim_block_reader_read(reader, buf + len, cap - len, &got, err);
		len += got;
	} while (rc == CSIM_OK && len < size);
out:
	if (rc != CSIM_OK)
		free(buf);
	*out = rc == CSIM_OK ? buf : NULL;
	return rc;
}

static int source_read(void *ctx, char *dst, size_t n, size_t *got, int *more,
			struct csim_error *err)
{
	struct csim_block_reader *r = ctx;
	int rc = csim_block_reader_read(r, dst, n, got, err);

	*more = r->payload_left > 0;
	return rc;
}

struct csim_byte_source csim_block_reader_source(struct csim_block_reader *r)
{
	return (struct csim_byte_source){ source_read, r };
}
