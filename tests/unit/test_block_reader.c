/*
 * block_reader: block framing (SPEC §2) over files written by an in-test
 * block writer, plain and gzip, including both SOURCE framings, trailing
 * bytes, every header corruption and seeking back for a second pass.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "read/block_reader.h"
#include "check.h"
#include "testutil.h"

/* A temporary directory and one file in it. */
struct fixture {
	char dir[64];
	char path[128];
	char gz[128];
};

static int fixture_write(struct fixture *f, const struct tbuf *b)
{
	if (tdir_make(f->dir, sizeof(f->dir)) != 0)
		return -1;
	tpath(f->path, sizeof(f->path), f->dir, "visualize_data.bin");
	tpath(f->gz, sizeof(f->gz), f->dir, "visualize_data.bin.gz");
	if (b->oom || tfile_write(f->path, b->p, b->n) != 0 ||
	    tfile_write_gz(f->gz, b->p, b->n) != 0)
		return -1;
	return 0;
}

static void fixture_remove(struct fixture *f)
{
	tdir_remove(f->dir);
}

/* Reads the rest of the current block's payload in pieces of `chunk`. */
static int read_payload(struct csim_block_reader *r, size_t chunk,
			struct tbuf *out, struct csim_error *err)
{
	char *tmp = malloc(chunk);
	int rc = CSIM_OK;

	if (tmp == NULL)
		return -1;
	for (;;) {
		size_t got = 0;

		rc = csim_block_reader_read(r, tmp, chunk, &got, err);
		if (rc != CSIM_OK || got == 0)
			break;
		tbuf_add(out, tmp, got);
	}
	free(tmp);
	return rc;
}

/* Walks all blocks, reading TRACE payloads, until the end or an error. */
static int walk_all(const char *path, size_t *nblocks, struct csim_error *err)
{
	struct csim_block_reader r;
	struct csim_block blk;
	int has = 1, rc;

	*nblocks = 0;
	csim_error_clear(err);
	rc = csim_block_reader_open(&r, path, err);
	while (rc == CSIM_OK) {
		rc = csim_block_reader_next(&r, &blk, &has, err);
		if (rc != CSIM_OK || !has)
			break;
		++*nblocks;
		if (blk.type == CSIM_BLOCK_TRACE) {
			struct tbuf sink = { NULL, 0, 0, 0 };

			rc = read_payload(&r, 4096, &sink, err);
			tbuf_free(&sink);
		}
	}
	csim_block_reader_release(&r);
	return rc;
}

/* The fields of a block, as the writer laid it out. */
struct want_block {
	uint64_t offset, content_size, payload_offset, payload_size;
	uint8_t type, padding, version;
	int inclusive;
};

/* The next header follows the payload and its padding (SOURCE: after the path). */
static uint64_t next_header(struct want_block w)
{
	return w.type == CSIM_BLOCK_SOURCE ? w.payload_offset + w.payload_size + w.padding
					   : w.offset + 12 + w.content_size;
}

static int check_block(struct check_ctx *c, const struct csim_block *b,
		       struct want_block w)
{
	return CHECK_U64(c, b->offset, w.offset) &&
	       CHECK_U64(c, b->end, next_header(w)) &&
	       CHECK_U64(c, b->type, w.type) &&
	       CHECK_U64(c, b->content_size, w.content_size) &&
	       CHECK_U64(c, b->padding, w.padding) &&
	       CHECK_U64(c, b->version, w.version) &&
	       CHECK_U64(c, b->reserve, 0x5a) &&
	       CHECK_U64(c, b->payload_offset, w.payload_offset) &&
	       CHECK_U64(c, b->payload_size, w.payload_size) &&
	       CHECK_I64(c, b->source_inclusive, w.inclusive);
}

static struct want_block want_of(const struct csim_block *b)
{
	struct want_block w = { b->offset, b->content_size, b->payload_offset,
				b->payload_size, b->type, b->padding, b->version,
				b->source_inclusive };

	return w;
}

static void test_one_trace_block(struct check_ctx *c)
{
	const char *payload = "{\"traceEvents\":[]}";   /* 18 bytes, pad 2 */
	struct tbuf b = { NULL, 0, 0, 0 }, got = { NULL, 0, 0, 0 };
	struct fixture f;
	struct csim_block_reader r;
	struct csim_block blk;
	struct csim_error err;
	int has = -1;

	tbuf_blocks(&b, 2, payload);
	if (!CHECK(c, fixture_write(&f, &b) == 0))
		goto out;
	CHECK_I64(c, csim_block_reader_open(&r, f.path, &err), CSIM_OK);
	CHECK_I64(c, csim_block_reader_next(&r, &blk, &has, &err), CSIM_OK);
	CHECK_I64(c, has, 1);
	check_block(c, &blk, (struct want_block){ 0, 20, 12, 18, 2, 2, 0x5a, 0 });
	CHECK_I64(c, read_payload(&r, 1000, &got, &err), CSIM_OK);
	CHECK_BYTES(c, got.p, got.n, payload, strlen(payload));
	CHECK_I64(c, csim_block_reader_next(&r, &blk, &has, &err), CSIM_OK);
	CHECK_I64(c, has, 0);
	CHECK_U64(c, r.trailing_bytes, 0);
	csim_block_reader_release(&r);
	fixture_remove(&f);
out:
	tbuf_free(&got);
	tbuf_free(&b);
}

static void test_blocks_come_in_file_order_with_offsets(struct check_ctx *c)
{
	static const struct { uint8_t type, version; const char *payload; } in[] = {
		{ 2, 0x5a, "abcde" }, { 4, 0x00, "{\"x\":1}!" }, { 9, 0x5a, "xyz" },
		{ 2, 0x5a, "[1] " }, { 3, 0x5a, "0123456789" }
	};
	enum { N = sizeof(in) / sizeof(in[0]) };
	struct tbuf b = { NULL, 0, 0, 0 };
	uint64_t at[N];
	struct fixture f;
	struct csim_block_reader r;
	struct csim_error err;
	int has = 1;

	for (size_t i = 0; i < N; i++)
		at[i] = tbuf_block_v(&b, in[i].type, in[i].version, in[i].payload,
				     strlen(in[i].payload));
	CHECK_U64(c, at[1], 20);
	CHECK_U64(c, at[3], 56);
	if (!CHECK(c, fixture_write(&f, &b) == 0))
		goto out;
	CHECK_I64(c, csim_block_reader_open(&r, f.path, &err), CSIM_OK);
	for (size_t i = 0; i < N; i++) {
		struct csim_block blk;
		size_t n = strlen(in[i].payload);

		if (!CHECK_I64(c, csim_block_reader_next(&r, &blk, &has, &err), CSIM_OK) ||
		    !CHECK_I64(c, has, 1))
			break;
		check_block(c, &blk, (struct want_block){ at[i], n + t_pad_of(n),
			    at[i] + 12, n, in[i].type, t_pad_of(n), in[i].version, 0 });
		if (i == 1) {   /* read one payload, skip the others */
			struct tbuf got = { NULL, 0, 0, 0 };

			CHECK_I64(c, read_payload(&r, 3, &got, &err), CSIM_OK);
			CHECK_BYTES(c, got.p, got.n, in[i].payload, n);
			tbuf_free(&got);
		}
	}
	CHECK_I64(c, csim_block_reader_next(&r, &(struct csim_block){ 0 }, &has, &err),
		  CSIM_OK);
	CHECK_I64(c, has, 0);
	csim_block_reader_release(&r);
	fixture_remove(&f);
out:
	tbuf_free(&b);
}

static void test_large_payload_reads_in_any_chunk_size(struct check_ctx *c)
{
	static const size_t chunks[] = { 1, 7, 4096, 100000, 1u << 20 };
	struct tbuf b = { NULL, 0, 0, 0 }, payload = { NULL, 0, 0, 0 };
	struct fixture f;

	/* 600 KiB: larger than the stream window, not a multiple of 4. */
	for (size_t i = 0; i < 600 * 1024 + 3; i++) {
		char ch = (char)('a' + (i * 7 + i / 251) % 26);

		tbuf_add(&payload, &ch, 1);
	}
	tbuf_block(&b, 2, payload.p, payload.n);
	tbuf_blocks(&b, 2, "tail");
	if (!CHECK(c, fixture_write(&f, &b) == 0))
		goto out;
	for (size_t k = 0; k < sizeof(chunks) / sizeof(chunks[0]); k++) {
		for (int gz = 0; gz < 2; gz++) {
			struct csim_block_reader r;
			struct csim_block blk;
			struct csim_error err;
			struct tbuf got = { NULL, 0, 0, 0 };
			int has = 0;

			CHECK_I64(c, csim_block_reader_open(&r, gz ? f.gz : f.path, &err), CSIM_OK);
			CHECK_I64(c, csim_block_reader_next(&r, &blk, &has, &err), CSIM_OK);
			CHECK_I64(c, read_payload(&r, chunks[k], &got, &err), CSIM_OK);
			if (!CHECK_BYTES(c, got.p, got.n, payload.p, payload.n))
				fprintf(stderr, "    chunk %zu gz %d\n", chunks[k], gz);
			CHECK_I64(c, csim_block_reader_next(&r, &blk, &has, &err), CSIM_OK);
			CHECK_U64(c, blk.offset, 12 + payload.n + 1);
			CHECK_U64(c, blk.payload_size, 4);
			tbuf_free(&got);
			csim_block_reader_release(&r);
		}
	}
	fixture_remove(&f);
out:
	tbuf_free(&payload);
	tbuf_free(&b);
}

/* SOURCE(text) then TRACE; both framings; also with SOURCE last. */
static void check_source_then_trace(struct check_ctx *c, size_t text_n,
				    int inclusive, int trace_after)
{
	const char *trace = "{\"traceEvents\":[]}";
	struct tbuf b = { NULL, 0, 0, 0 }, text = { NULL, 0, 0, 0 };
	struct fixture f;
	uint64_t trace_at = 0;

	for (size_t i = 0; i < text_n; i++)
		tbuf_add(&text, i % 64 == 63 ? "\n" : "x", 1);
	tbuf_source(&b, "/home/user/kernels/add_custom.cpp", text.p, text_n, inclusive);
	if (trace_after)
		trace_at = tbuf_blocks(&b, 2, trace);
	CHECK_U64(c, b.oom, 0);
	if (!CHECK(c, fixture_write(&f, &b) == 0))
		goto out;
	for (int gz = 0; gz < 2; gz++) {
		struct csim_block_reader r;
		struct csim_block blk;
		struct csim_error err;
		int has = 0;
		uint8_t pad = t_pad_of(text_n);

		CHECK_I64(c, csim_block_reader_open(&r, gz ? f.gz : f.path, &err), CSIM_OK);
		if (!CHECK_I64(c, csim_block_reader_next(&r, &blk, &has, &err), CSIM_OK))
			fprintf(stderr, "    %s\n", err.message);
		CHECK_I64(c, has, 1);
		check_block(c, &blk, (struct want_block){ 0,
			    text_n + pad + (inclusive ? 4096u : 0u), 12 + 4096, text_n,
			    CSIM_BLOCK_SOURCE, pad, 0x5a, inclusive });
		CHECK_I64(c, csim_block_reader_next(&r, &blk, &has, &err), CSIM_OK);
		if (trace_after) {
			struct tbuf got = { NULL, 0, 0, 0 };

			CHECK_I64(c, has, 1);
			CHECK_U64(c, blk.type, CSIM_BLOCK_TRACE);
			CHECK_U64(c, blk.offset, trace_at);
			CHECK_U64(c, trace_at, 12 + 4096 + text_n + pad);
			CHECK_I64(c, read_payload(&r, 5, &got, &err), CSIM_OK);
			CHECK_BYTES(c, got.p, got.n, trace, strlen(trace));
			tbuf_free(&got);
			CHECK_I64(c, csim_block_reader_next(&r, &blk, &has, &err), CSIM_OK);
		}
		CHECK_I64(c, has, 0);
		CHECK_U64(c, r.trailing_bytes, 0);
		csim_block_reader_release(&r);
	}
	fixture_remove(&f);
out:
	tbuf_free(&text);
	tbuf_free(&b);
}

static void test_source_exclusive_framing_then_trace(struct check_ctx *c)
{
	check_source_then_trace(c, 13, 0, 1);
	check_source_then_trace(c, 13, 0, 0);
}

static void test_source_inclusive_framing_then_trace(struct check_ctx *c)
{
	check_source_then_trace(c, 13, 1, 1);
	check_source_then_trace(c, 13, 1, 0);
}

static void test_source_text_of_4096_bytes_or_more_in_both_framings(struct check_ctx *c)
{
	static const size_t sizes[] = { 4096, 5000, 8195 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		check_source_then_trace(c, sizes[i], 0, 1);
		check_source_then_trace(c, sizes[i], 1, 1);
		check_source_then_trace(c, sizes[i], 0, 0);
		check_source_then_trace(c, sizes[i], 1, 0);
	}
}

/* A whole file shorter than a header is no container: said, not a trailing warning. */
static void test_file_shorter_than_a_header(struct check_ctx *c)
{
	static const size_t sizes[] = { 1, 3, 11 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct tbuf b = { NULL, 0, 0, 0 };
		struct fixture f;

		tbuf_add(&b, "\x05\0\0\0\0\0\0\0\x02\x03\x5a", sizes[i]);
		for (int gz = 0; gz < 2 && CHECK(c, fixture_write(&f, &b) == 0); gz++) {
			struct csim_block_reader r;
			struct csim_block blk;
			struct csim_error err;
			char want[160];
			int has = 1;

			snprintf(want, sizeof(want), ": too short: %zu byte%s%s, a block header is 12 bytes",
				 sizes[i], sizes[i] == 1 ? "" : "s", gz ? " once decompressed" : "");
			CHECK_I64(c, csim_block_reader_open(&r, gz ? f.gz : f.path, &err), CSIM_OK);
			CHECK_I64(c, csim_block_reader_next(&r, &blk, &has, &err), CSIM_E_INPUT);
			CHECK_CONTAINS(c, err.message, want);
			csim_block_reader_release(&r);
			fixture_remove(&f);
		}
		tbuf_free(&b);
	}
}

/* Fewer than 12 bytes after the last block. */
static void test_trailing_bytes_are_reported_not_an_error(struct check_ctx *c)
{
	static const struct { int blocks; size_t tail; } cases[] = {
		{ 2, 5 }, { 1, 11 }, { 0, 0 }, { 1, 0 }
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tbuf b = { NULL, 0, 0, 0 };
		struct fixture f;
		uint64_t end;

		for (int k = 0; k < cases[i].blocks; k++)
			tbuf_blocks(&b, (uint8_t)(2 + 2 * k), "[]");
		end = b.n;
		tbuf_add(&b, "\x05\0\0\0\0\0\0\0\x02\x03\x5a", cases[i].tail);
		for (int gz = 0; gz < 2 && CHECK(c, fixture_write(&f, &b) == 0); gz++) {
			struct csim_block_reader r;
			struct csim_block blk;
			struct csim_error err;
			int has = 1, blocks = 0;

			CHECK_I64(c, csim_block_reader_open(&r, gz ? f.gz : f.path, &err), CSIM_OK);
			while (csim_block_reader_next(&r, &blk, &has, &err) == CSIM_OK && has)
				blocks++;
			if (!CHECK_I64(c, blocks, cases[i].blocks) || !CHECK_I64(c, has, 0) ||
			    !CHECK_U64(c, r.trailing_bytes, cases[i].tail) ||
			    (cases[i].tail > 0 && !CHECK_U64(c, r.trailing_offset, end)))
				fprintf(stderr, "    case %zu gz %d\n", i, gz);
			csim_block_reader_release(&r);
			fixture_remove(&f);
		}
		tbuf_free(&b);
	}
}

/*
 * SPEC §2: size arithmetic is overflow-checked. An inclusive SOURCE whose
 * contentSize is just the path cannot also hold padding: its text size
 * (contentSize - padding - 4096) must not wrap around.
 */
static void test_inclusive_source_padding_cannot_wrap_the_text_size(struct check_ctx *c)
{
	struct tbuf b = { NULL, 0, 0, 0 };
	struct fixture f;
	struct csim_block_reader r;
	struct csim_block blk;
	struct csim_error err;
	int has = 0, rc;

	tbuf_header(&b, 4096, 1, 2, 0x5a, 0x5a);
	tbuf_fill(&b, 0, 4096);
	tbuf_blocks(&b, 2, "[]");
	if (!CHECK(c, fixture_write(&f, &b) == 0))
		goto out;
	CHECK_I64(c, csim_block_reader_open(&r, f.path, &err), CSIM_OK);
	rc = csim_block_reader_next(&r, &blk, &has, &err);
	if (rc == CSIM_OK)
		CHECK(c, blk.payload_size <= blk.content_size);
	else
		CHECK_CONTAINS(c, err.message, "corrupt block at offset 0: ");
	csim_block_reader_release(&r);
	fixture_remove(&f);
out:
	tbuf_free(&b);
}

/* A good TRACE block (32 bytes), then a corrupt header at offset 32. */
struct corruption {
	const char *what;
	uint64_t size;
	uint8_t type, padding, reserve;
	size_t bytes_after;   /* payload bytes actually present */
	const char *reason;   /* a word the reason must contain */
};

/*
 * Each check of SPEC §2 fails as "corrupt block at offset N" naming the
 * header, also in gzip input, whose size is unknown up front so that a block
 * running past the end is only found while reading it.
 */
static void test_each_header_corruption_names_its_offset(struct check_ctx *c)
{
	static const struct corruption cases[] = {
		{ "reserve byte", 4, 2, 0, 0x41, 4, "reserve" },
		{ "padding 4", 8, 2, 4, 0x5a, 8, "padding" },
		{ "padding > size", 2, 2, 3, 0x5a, 2, "padding" },
		{ "past EOF", 100, 2, 0, 0x5a, 8, "end of the file" },
		{ "API_INSTR past EOF", 1000, 4, 0, 0x5a, 100, "end of the file" },
		{ "size near 2^64", UINT64_MAX - 5, 2, 0, 0x5a, 8, "overflow" },
		{ "size 0xfff...f0", 0xFFFFFFFFFFFFFFF0u, 4, 0, 0x5a, 8, "overflow" },
		{ "SOURCE size wraps", 0xFFFFFFFFFFFFF000u, 1, 0, 0x5a, 4200, "overflow" },
		{ "SOURCE path past EOF", 8, 1, 0, 0x5a, 100, "end of the file" },
		{ "SOURCE no framing fits", 5000, 1, 0, 0x5a, 4200, "end of the file" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct corruption *k = &cases[i];
		struct tbuf b = { NULL, 0, 0, 0 };
		struct fixture f;

		tbuf_blocks(&b, 2, "{\"traceEvents\":[]}");
		tbuf_header(&b, k->size, k->type, k->padding, 0x5a, k->reserve);
		tbuf_fill(&b, 'q', k->bytes_after);
		for (int gz = 0; gz < 2 && CHECK(c, fixture_write(&f, &b) == 0); gz++) {
			struct csim_error err;
			size_t nblocks;
			int rc = walk_all(gz ? f.gz : f.path, &nblocks, &err);

			if (!CHECK_I64(c, rc, CSIM_E_INPUT) ||
			    !CHECK_CONTAINS(c, err.message, "corrupt block at offset 32: ") ||
			    !CHECK_CONTAINS(c, err.message, k->reason) ||
			    !CHECK_CONTAINS(c, err.message, gz ? f.gz : f.path) ||
			    !CHECK_U64(c, err.offset, 32))
				fprintf(stderr, "    case: %s%s\n", k->what, gz ? " (gzip)" : "");
			fixture_remove(&f);
		}
		tbuf_free(&b);
	}
}

static void test_gzip_input_reads_identically(struct check_ctx *c)
{
	struct tbuf b = { NULL, 0, 0, 0 }, big = { NULL, 0, 0, 0 };
	struct fixture f;
	struct csim_block_reader plain, gz;
	struct csim_error err;
	int hp = 1, hg = 1, nblocks = 0;

	tbuf_fill(&big, 'y', 300000);
	tbuf_source(&b, "/k/a.cpp", "int a;\n", 7, 0);
	tbuf_blocks(&b, 2, "{\"traceEvents\":[{\"ph\":\"X\"}]}");
	tbuf_source(&b, "/k/b.cpp", big.p, 5000, 1);
	tbuf_block_v(&b, 4, 0, "{\"Cores\":[]}", 12);
	tbuf_block(&b, 2, big.p, big.n);
	tbuf_add(&b, "abc", 3);
	if (!CHECK(c, fixture_write(&f, &b) == 0))
		goto out;
	CHECK_I64(c, csim_block_reader_open(&plain, f.path, &err), CSIM_OK);
	CHECK_I64(c, csim_block_reader_open(&gz, f.gz, &err), CSIM_OK);
	CHECK(c, gz.stream.gz != NULL);
	while (hp && hg) {
		struct csim_block bp, bg;
		struct tbuf pp = { NULL, 0, 0, 0 }, pg = { NULL, 0, 0, 0 };

		CHECK_I64(c, csim_block_reader_next(&plain, &bp, &hp, &err), CSIM_OK);
		CHECK_I64(c, csim_block_reader_next(&gz, &bg, &hg, &err), CSIM_OK);
		if (!CHECK_I64(c, hp, hg) || !hp)
			break;
		nblocks++;
		check_block(c, &bg, want_of(&bp));
		if (bp.type != CSIM_BLOCK_SOURCE) {
			CHECK_I64(c, read_payload(&plain, 65536, &pp, &err), CSIM_OK);
			CHECK_I64(c, read_payload(&gz, 65536, &pg, &err), CSIM_OK);
			CHECK_BYTES(c, pg.p, pg.n, pp.p, pp.n);
			CHECK_U64(c, pp.n, bp.payload_size);
		}
		tbuf_free(&pp);
		tbuf_free(&pg);
	}
	CHECK_I64(c, nblocks, 5);
	CHECK_U64(c, gz.trailing_bytes, 3);
	CHECK_U64(c, gz.trailing_offset, plain.trailing_offset);
	csim_block_reader_release(&plain);
	csim_block_reader_release(&gz);
	fixture_remove(&f);
out:
	tbuf_free(&big);
	tbuf_free(&b);
}

/* Back to an earlier block for a second pass; next() then goes on from it. */
static void test_seek_back_rereads_the_same_payload(struct check_ctx *c)
{
	const char *p1 = "{\"traceEvents\":[1]}", *p2 = "second payload!";
	struct tbuf b = { NULL, 0, 0, 0 };
	struct fixture f;

	tbuf_blocks(&b, 2, p1);
	tbuf_source(&b, "/k/x.cpp", "x", 1, 0);
	tbuf_blocks(&b, 2, p2);
	for (int gz = 0; gz < 2 && CHECK(c, fixture_write(&f, &b) == 0); gz++) {
		struct csim_block_reader r;
		struct csim_block blk[3], again;
		struct csim_error err;
		struct tbuf got = { NULL, 0, 0, 0 };
		int has = 0;

		CHECK_I64(c, csim_block_reader_open(&r, gz ? f.gz : f.path, &err), CSIM_OK);
		for (int i = 0; i < 3; i++)
			CHECK_I64(c, csim_block_reader_next(&r, &blk[i], &has, &err), CSIM_OK);
		CHECK_I64(c, read_payload(&r, 4, &got, &err), CSIM_OK);
		CHECK_BYTES(c, got.p, got.n, p2, strlen(p2));
		for (int k = 0; k < 2; k++) {   /* twice, to the first block */
			got.n = 0;
			CHECK_I64(c, csim_block_reader_seek(&r, &blk[0], &err), CSIM_OK);
			CHECK_I64(c, read_payload(&r, 3, &got, &err), CSIM_OK);
			CHECK_BYTES(c, got.p, got.n, p1, strlen(p1));
		}
		CHECK_I64(c, csim_block_reader_next(&r, &again, &has, &err), CSIM_OK);
		CHECK_U64(c, again.offset, blk[1].offset);
		CHECK_I64(c, csim_block_reader_next(&r, &again, &has, &err), CSIM_OK);
		CHECK_U64(c, again.offset, blk[2].offset);
		/* From an (exclusive) SOURCE block, next() must skip its path too. */
		CHECK_I64(c, csim_block_reader_seek(&r, &blk[1], &err), CSIM_OK);
		if (!CHECK_I64(c, csim_block_reader_next(&r, &again, &has, &err), CSIM_OK))
			fprintf(stderr, "    %s\n", err.message);
		CHECK_U64(c, again.offset, blk[2].offset);
		got.n = 0;
		CHECK_I64(c, read_payload(&r, 100, &got, &err), CSIM_OK);
		CHECK_BYTES(c, got.p, got.n, p2, strlen(p2));
		tbuf_free(&got);
		csim_block_reader_release(&r);
		fixture_remove(&f);
	}
	tbuf_free(&b);
}

static void test_missing_file_and_directory_are_input_errors(struct check_ctx *c)
{
	char dir[64], path[128];
	struct csim_block_reader r;
	struct csim_error err;

	if (!CHECK(c, tdir_make(dir, sizeof(dir)) == 0))
		return;
	tpath(path, sizeof(path), dir, "nope.bin");
	CHECK_I64(c, csim_block_reader_open(&r, path, &err), CSIM_E_INPUT);
	CHECK_CONTAINS(c, err.message, path);
	CHECK_CONTAINS(c, err.message, "No such file");
	csim_block_reader_release(&r);
	CHECK_I64(c, csim_block_reader_open(&r, dir, &err), CSIM_E_INPUT);
	CHECK_CONTAINS(c, err.message, "Is a directory");
	csim_block_reader_release(&r);
	tdir_remove(dir);
}

/*
 * Regression: the header promised that release accepts a zeroed stream, but
 * a zeroed stream has fd 0 and release closed stdin. An initialised (never
 * opened) stream and reader must release without closing anything.
 */
static void test_release_after_init_closes_nothing(struct check_ctx *c)
{
	struct csim_stream s;
	struct csim_block_reader r;
	int opened = -1;

	if (fcntl(0, F_GETFD) == -1)
		opened = open("/dev/null", O_RDONLY);   /* becomes descriptor 0 */
	if (!CHECK(c, fcntl(0, F_GETFD) != -1))
		return;
	csim_stream_init(&s);
	CHECK_I64(c, s.fd, -1);
	csim_stream_release(&s);
	csim_stream_release(&s);   /* twice: already released */
	csim_block_reader_init(&r);
	csim_block_reader_release(&r);
	CHECK(c, fcntl(0, F_GETFD) != -1);   /* stdin still open */
	if (opened >= 0)
		close(opened);
}

/*
 * A CI script may run the converter with stdin closed; the dump then opens
 * as descriptor 0 and must be closed again like any other.
 */
static void test_input_on_descriptor_zero_is_closed_on_release(struct check_ctx *c)
{
	struct tbuf b = { NULL, 0, 0, 0 };
	struct fixture f;
	struct csim_block_reader r;
	struct csim_error err;
	int saved = dup(0);

	tbuf_blocks(&b, 2, "{\"traceEvents\":[]}");
	if (!CHECK(c, saved >= 0) || !CHECK(c, fixture_write(&f, &b) == 0))
		goto out;
	close(0);
	CHECK_I64(c, csim_block_reader_open(&r, f.path, &err), CSIM_OK);
	CHECK_I64(c, r.stream.fd, 0);
	csim_block_reader_release(&r);
	CHECK_I64(c, fcntl(0, F_GETFD), -1);
	fixture_remove(&f);
out:
	if (saved >= 0) {
		dup2(saved, 0);
		close(saved);
	}
	tbuf_free(&b);
}

/* The committed fixtures/invalid binaries fail at the offsets their README gives. */
static void test_invalid_fixtures_fail_at_documented_offsets(struct check_ctx *c)
{
	static const struct { const char *name; const char *offset; } cases[] = {
		{ "bad_reserve_byte.bin", "0" }, { "padding_4.bin", "296" },
		{ "padding_exceeds_size.bin", "0" }, { "block_past_eof.bin", "0" },
		{ "content_size_near_2_64.bin", "296" },
		{ "source_size_overflow.bin", "296" },
	};
	const char *root = getenv("CSIM_FIXTURES");

	/* Without its fixtures this test proves nothing: a failure, not a skip. */
	if (!CHECK(c, root != NULL)) {
		fprintf(stderr, "    set CSIM_FIXTURES to <repo>/fixtures (ctest does)\n");
		return;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[1024], want[64];
		struct csim_error err;
		size_t nblocks;

		snprintf(path, sizeof(path), "%s/invalid/%s", root, cases[i].name);
		snprintf(want, sizeof(want), "corrupt block at offset %s: ", cases[i].offset);
		if (!CHECK_I64(c, walk_all(path, &nblocks, &err), CSIM_E_INPUT) ||
		    !CHECK_CONTAINS(c, err.message, want))
			fprintf(stderr, "    fixture %s\n", cases[i].name);
	}
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_one_trace_block);
	CHECK_RUN(&c, test_blocks_come_in_file_order_with_offsets);
	CHECK_RUN(&c, test_large_payload_reads_in_any_chunk_size);
	CHECK_RUN(&c, test_source_exclusive_framing_then_trace);
	CHECK_RUN(&c, test_source_inclusive_framing_then_trace);
	CHECK_RUN(&c, test_source_text_of_4096_bytes_or_more_in_both_framings);
	CHECK_RUN(&c, test_trailing_bytes_are_reported_not_an_error);
	CHECK_RUN(&c, test_file_shorter_than_a_header);
	CHECK_RUN(&c, test_inclusive_source_padding_cannot_wrap_the_text_size);
	CHECK_RUN(&c, test_each_header_corruption_names_its_offset);
	CHECK_RUN(&c, test_gzip_input_reads_identically);
	CHECK_RUN(&c, test_seek_back_rereads_the_same_payload);
	CHECK_RUN(&c, test_missing_file_and_directory_are_input_errors);
	CHECK_RUN(&c, test_release_after_init_closes_nothing);
	CHECK_RUN(&c, test_input_on_descriptor_zero_is_closed_on_release);
	CHECK_RUN(&c, test_invalid_fixtures_fail_at_documented_offsets);
	return check_done(&c);
}
