#include "read/gz_inflate.h"

#include <stdint.h>
#include <stdlib.h>

/* Both back ends take 32-bit counts; a step offers at most this much. */
static uint32_t gz_count(size_t n)
{
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

#ifdef CSIM_HAVE_ISAL
#include <isa-l/igzip_lib.h>

struct csim_gz_inflate {
	struct inflate_state st;   /* 85 KiB: its history and tables inside */
};

const char *csim_gz_inflate_backend(void)
{
	return "igzip";
}

int csim_gz_inflate_new(struct csim_gz_inflate **out)
{
	*out = malloc(sizeof(**out));
	if (*out == NULL)
		return -1;
	csim_gz_inflate_reset(*out);
	return 0;
}

void csim_gz_inflate_free(struct csim_gz_inflate *f)
{
	free(f);
}

void csim_gz_inflate_reset(struct csim_gz_inflate *f)
{
	isal_inflate_init(&f->st);
	f->st.crc_flag = ISAL_GZIP;   /* header, CRC-32 and length checked */
}

/*
 * zlib's words for the same faults, so messages read the same in either
 * build; only a bad length differs (igzip has one code for both checks).
 */
static const char *isal_why(int ret)
{
	switch (ret) {
	case ISAL_INVALID_BLOCK:
		return "invalid block type";
	case ISAL_INVALID_SYMBOL:
		return "invalid code";
	case ISAL_INVALID_LOOKBACK:
		return "invalid distance too far back";
	case ISAL_INVALID_WRAPPER:
		return "incorrect header check";
	case ISAL_UNSUPPORTED_METHOD:
		return "unknown compression method";
	case ISAL_INCORRECT_CHECKSUM:
		return "incorrect data check";
	default:   /* a dictionary or a header buffer: not asked for */
		return "internal error: inflate stream corrupt";
	}
}

enum csim_gz_step csim_gz_inflate_step(struct csim_gz_inflate *f, struct csim_gz_io *io,
				       const char **why)
{
	struct inflate_state *st = &f->st;
	uint32_t in = gz_count(io->avail_in), out = gz_count(io->avail_out);
	int ret;

	/* igzip reads its input through a non-const pointer but never writes it. */
	st->next_in = (uint8_t *)(uintptr_t)io->next_in;
	st->avail_in = in;
	st->next_out = io->next_out;
	st->avail_out = out;
	ret = isal_inflate(st);
	io->next_in += in - st->avail_in;
	io->avail_in -= in - st->avail_in;
	io->next_out += out - st->avail_out;
	io->avail_out -= out - st->avail_out;
	if (ret < 0 || ret == ISAL_NEED_DICT || ret == ISAL_NAME_OVERFLOW ||
	    ret == ISAL_COMMENT_OVERFLOW || ret == ISAL_EXTRA_OVERFLOW) {
		*why = isal_why(ret);
		return CSIM_GZ_STEP_CORRUPT;
	}
	return st->block_state == ISAL_BLOCK_FINISH ? CSIM_GZ_STEP_MEMBER_END
						    : CSIM_GZ_STEP_MORE;
}

#else /* zlib */
#define ZLIB_CONST
#include <zlib.h>

struct csim_gz_inflate {
	z_stream z;
};

const char *csim_gz_inflate_backend(void)
{
	return "zlib";
}

int csim_gz_inflate_new(struct csim_gz_inflate **out)
{
	struct csim_gz_inflate *f = calloc(1, sizeof(*f));

	*out = NULL;
	if (f == NULL)
		return -1;
	if (inflateInit2(&f->z, 15 + 16) != Z_OK) {   /* gzip members only */
		free(f);
		return -1;
	}
	*out = f;
	return 0;
}

void csim_gz_inflate_free(struct csim_gz_inflate *f)
{
	if (f == NULL)
		return;
	(void)inflateEnd(&f->z);
	free(f);
}

void csim_gz_inflate_reset(struct csim_gz_inflate *f)
{
	(void)inflateReset(&f->z);
}

enum csim_gz_step csim_gz_inflate_step(struct csim_gz_inflate *f, struct csim_gz_io *io,
				       const char **why)
{
	z_stream *z = &f->z;
	uInt in = (uInt)gz_count(io->avail_in), out = (uInt)gz_count(io->avail_out);
	int ret;

	z->next_in = io->next_in;
	z->avail_in = in;
	z->next_out = io->next_out;
	z->avail_out = out;
	ret = inflate(z, Z_NO_FLUSH);
	io->next_in += in - z->avail_in;
	io->avail_in -= in - z->avail_in;
	io->next_out += out - z->avail_out;
	io->avail_out -= out - z->avail_out;
	switch (ret) {
	case Z_OK:
	case Z_BUF_ERROR:   /* no progress this call: more input comes next */
		return CSIM_GZ_STEP_MORE;
	case Z_STREAM_END:
		return CSIM_GZ_STEP_MEMBER_END;
	case Z_MEM_ERROR:
		return CSIM_GZ_STEP_NOMEM;
	case Z_DATA_ERROR:
		*why = z->msg != NULL ? z->msg : "compressed data error";
		return CSIM_GZ_STEP_CORRUPT;
	default:   /* Z_NEED_DICT, Z_STREAM_ERROR: not a gzip member's */
		*why = "internal error: inflate stream corrupt";
		return CSIM_GZ_STEP_CORRUPT;
	}
}
#endif
